import AnimationCodec
import FoundationEssentials
import StickerFit
import StickerPack
import StickerPixels

extension FitSettings {
    /// What fitting the inputs made.
    struct FittedCatalog {
        /// The options it ran with.
        var options: FitOptions
        /// The sticker size of the catalog.
        var size: StickerSize
        /// Every sticker's outcome, made or not.
        var fitted: [FittedSticker]
        /// The catalog entries of the stickers made.
        var entries: [CatalogWriter.Entry]
        /// The icon artwork given with --icon, if any.
        var artwork: RGBAImage?
        /// The catalog the stickers came from, when they all came from one: its icon set is
        /// kept when complete and no artwork is given.
        var sourceCatalog: URL?
        /// Every file the stickers were read from (a folder holding one catalog is read as
        /// that catalog, so the files, not the paths given, say what an output would replace).
        var sourceFiles: [String] = []

        /// What writing `folder` over the inputs it holds would lose, or nil: the stickers that
        /// failed (lost with the files they were read from), else the files in `catalog` (the
        /// catalog's path inside `folder`; the whole folder when nil) no sticker was read from.
        /// With `entries`, only those names inside `folder` are replaced (an Xcode project's).
        func inputLoss(writing folder: OutputFolder, entries: [String]? = nil, catalog: String? = nil) -> InputLoss? {
            guard folder.holdsAny(of: sourceFiles, entries: entries) else { return nil }
            let failed = fitted.filter { !$0.succeeded }.count
            if failed > 0 { return .failedStickers(failed) }
            let unread = unreadFiles(writing: folder, entries: catalog.map { [$0] })
            return unread.isEmpty ? nil : .unreadFiles(unread)
        }

        /// The files that writing `folder` over the inputs it holds would lose without a word:
        /// those no sticker was read from (a sticker folder the pack's list leaves out, a second
        /// sticker pack, a stray file), other than what the catalog writes anew (each folder's
        /// Contents.json, the icon set, as the icon options describe) and hidden files. Empty
        /// when `folder` holds no input. Paths are relative to `folder`, sorted.
        func unreadFiles(writing folder: OutputFolder, entries: [String]? = nil) -> [String] {
            guard folder.holdsAny(of: sourceFiles, entries: entries),
                let base = resolvedPath(folder.final.path)
            else { return [] }
            let read = Set(sourceFiles.compactMap(resolvedPath))
            var unread: [String] = []
            // Depth first, links not followed; `relative` is the path under the output.
            func walk(_ relative: String, inIconSet: Bool) {
                let path = relative.isEmpty ? base : base + "/" + relative
                var isDirectory = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return }
                if isDirectory {
                    let iconSet = inIconSet || path.lowercased().hasSuffix(".stickersiconset")
                    for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
                        walk(relative.isEmpty ? name : relative + "/" + name, inIconSet: iconSet)
                    }
                    return
                }
                let name = relative.split(separator: "/").last.map(String.init) ?? relative
                // Written anew, or the Finder's own.
                if name == "Contents.json" || name == ".DS_Store" || name.hasPrefix("._") { return }
                if inIconSet && name.lowercased().hasSuffix(".png") { return }
                if let resolved = resolvedPath(path), read.contains(resolved) { return }
                unread.append(relative)
            }
            for entry in entries ?? [""] { walk(entry, inIconSet: false) }
            return unread.sorted()
        }
    }

    /// What a write over the inputs would lose, so nothing is written.
    enum InputLoss {
        /// Stickers that could not be fitted.
        case failedStickers(Int)
        /// Files, relative to the output, no sticker was read from.
        case unreadFiles([String])

        /// `3 stickers could not be fitted`, or the files named.
        var description: String {
            switch self {
            case .failedStickers(let count): return "\(counted(count, "sticker")) could not be fitted"
            case .unreadFiles(let paths): return "files no sticker was read from (\(OutputFolder.listing(paths)))"
            }
        }

        /// What to do instead, after "write to another catalog" or "write the project elsewhere".
        var advice: String {
            switch self {
            case .failedStickers: return "to keep the ones that fit"
            case .unreadFiles: return "or move them out"
            }
        }
    }
}
