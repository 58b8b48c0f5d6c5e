import AnimationCodec
import FoundationEssentials

/// Reads a sticker pack from a folder of images, an Xcode `.xcstickers` catalog, a bare
/// `.stickerpack`, or image files named one by one.
public enum PackLoader {
    /// File extensions of images a folder pack lists. Files with other extensions are ignored
    /// (and reported) unless their bytes are a supported image; files listed here whose bytes
    /// are not a supported format stay in the pack so the validator can report them.
    public static let imageExtensions: Set<String> = [
        "png", "apng", "gif", "jpg", "jpeg", "webp", "webm", "tgs", "heic", "heif", "tif", "tiff", "bmp"
    ]

    /// The name a pack read from `path` takes when nothing inside tells another: a catalog's,
    /// a sticker pack's or a project's without its extension, else the folder's or file's.
    public static func packName(for path: String) -> String {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        let named = ["xcstickers", "stickerpack", "xcodeproj"].contains(url.pathExtension.lowercased())
        return named ? url.deletingPathExtension().lastPathComponent : url.lastPathComponent
    }

    /// Loads the pack at `path`: a catalog, a sticker-pack folder, a folder of images, or one
    /// image file, `.sticker` or `.stickersequence` (a pack of one).
    ///
    /// `outputs` are what the command writes (a catalog, a project and its folders, a review's
    /// folder), left out of the folder that holds them. A catalog or project written there
    /// before from the images beside it (every sticker it holds is named like one of them) is
    /// left out too, so running the command again reads the images anew; one holding stickers
    /// no image beside it names (kept beside its icon or a screenshot) is read as it is.
    public static func load(path: String, outputs: [URL] = []) throws(PackError) -> StickerPack {
        let url = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath()
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw .notFound(path: path)
        }
        guard isDirectory else { return try load(files: [path]) }
        let written = Set(
            outputs.filter {
                $0.deletingLastPathComponent().standardizedFileURL.resolvingSymlinksInPath().path == url.path
            }.map(\.lastPathComponent))
        var pack = try loadFolderPack(url, leavingOut: written)
        // A project's files are beside its bundle, in the folder that holds it.
        pack.folder = url.pathExtension.lowercased() == "xcodeproj" ? url.deletingLastPathComponent() : url
        return pack
    }

    /// The pack of the folder `url`: a catalog, a sticker pack, a project, a sticker folder, a
    /// folder holding one catalog or project, or a folder of images; of the entries named in
    /// `written`, those ``leftOutOutputs(_:written:)`` gives are left out.
    private static func loadFolderPack(_ url: URL, leavingOut written: Set<String>) throws(PackError) -> StickerPack {
        switch url.pathExtension.lowercased() {
        case "xcstickers": return try loadCatalog(url)
        case "stickerpack":
            return try loadStickerPack(url, catalogName: url.deletingPathExtension().lastPathComponent, warnings: [])
        case "xcodeproj": return try loadProject(url, required: true)!
        case "sticker", "stickersequence":
            // One sticker of a catalog, named alone: a pack of it, as a file named alone is,
            // shown at its sticker pack's grid-size when it is in one.
            var warnings: [PackWarning] = []
            let sticker =
                url.pathExtension.lowercased() == "sticker"
                ? try loadSticker(url, warnings: &warnings) : try loadSequence(url, warnings: &warnings)
            let parent = url.deletingLastPathComponent()
            guard parent.pathExtension.lowercased() == "stickerpack" else {
                return StickerPack(name: sticker.name, origin: .files, stickers: [sticker], warnings: warnings)
            }
            var ignored: [PackWarning] = []
            let declared = (try? ContentsJSON(folder: parent)).flatMap { try? gridSize(of: $0, warnings: &ignored) }
            return StickerPack(
                name: sticker.name, origin: .catalog, declaredGridSize: declared, stickers: [sticker],
                warnings: warnings)
        default:
            let listed = (try? listing(of: url)) ?? []
            let leftOut = leftOutOutputs(listed, written: written)
            let entries = listed.filter { !leftOut.contains($0.lastPathComponent) }
            let projects = entries.filter { $0.pathExtension.lowercased() == "xcodeproj" }
            if projects.count == 1, var pack = try loadProject(projects[0], required: false) {
                pack.warnings += imagesIgnored(in: entries, besides: projects[0])
                return pack
            }
            let catalogs = entries.filter { $0.pathExtension.lowercased() == "xcstickers" }
            if catalogs.count == 1 {
                var pack = try loadCatalog(catalogs[0])
                pack.warnings += imagesIgnored(in: entries, besides: catalogs[0])
                return pack
            }
            do {
                return try loadFolder(url, leavingOut: leftOut)
            } catch .notAPack where projects.count > 1 || catalogs.count > 1 {
                // Not a folder of images, but one of several apps or catalogs: say which to name.
                let names = (projects.count > 1 ? projects : catalogs).map(\.lastPathComponent).joined(separator: ", ")
                throw .notAPack(
                    path: url.path, reason: "it holds \(names); name the one to use")
            }
        }
    }

    /// Whether `url` names a catalog or a project: an output whose stickers can be read back.
    public static func isCatalogOrProject(_ url: URL) -> Bool {
        ["xcstickers", "xcodeproj"].contains(url.pathExtension.lowercased())
    }

    /// The entries of `entries` named in `written` that the folder is read without: all of
    /// them when the catalogs and projects among them were made from the images beside them
    /// (each reads, and each of its stickers has the name a catalog gives one of those images:
    /// ``CatalogWriter/folderName(_:)``, with the counter that tells apart names equal
    /// letter case aside), else all but those catalogs and projects.
    private static func leftOutOutputs(_ entries: [URL], written: Set<String>) -> Set<String> {
        let bundles = entries.filter { written.contains($0.lastPathComponent) && isCatalogOrProject($0) }
        let images = entries.filter { !written.contains($0.lastPathComponent) && isImage($0) }
        let names = Set(
            images.map { CatalogWriter.folderName($0.deletingPathExtension().lastPathComponent).lowercased() })
        func isImageName(_ sticker: String) -> Bool {
            let name = sticker.lowercased()
            if names.contains(name) { return true }
            // "wave 2": another image named "wave" (CatalogWriter.uniqueName, whose counter
            // skips names taken, so it reaches at most the count of images).
            guard let space = name.lastIndex(of: " "), let counter = Int(name[name.index(after: space)...]) else {
                return false
            }
            return names.contains(String(name[..<space])) && (2...max(2, images.count)).contains(counter)
        }
        let madeFromImages =
            !names.isEmpty
            && bundles.allSatisfy { bundle in
                guard let pack = try? loadFolderPack(bundle, leavingOut: []) else { return false }
                return pack.stickers.allSatisfy { isImageName($0.name) }
            }
        return madeFromImages ? written : written.subtracting(bundles.map(\.lastPathComponent))
    }

    /// A folder holding one project or catalog is read as it: the images beside it in
    /// `entries` are not in the pack, and each is named so that none is left out unseen.
    private static func imagesIgnored(in entries: [URL], besides bundle: URL) -> [PackWarning] {
        entries.filter(isImage).map { image in
            PackWarning(
                path: image.path,
                message:
                    "ignored: an image beside \(bundle.lastPathComponent), which this folder is read as; name the image to include it",
                kind: .leftOut)
        }
    }

    // MARK: - Xcode projects

    /// The catalog of a sticker pack app project: the `.xcstickers` the project file puts in
    /// its sticker pack extension's resources, else (a project file that cannot be read) the
    /// one beside the `.xcodeproj` or one folder down, where Xcode's template puts it, the
    /// first by name. With no catalog, nil unless `required` (then an error).
    private static func loadProject(_ bundle: URL, required: Bool) throws(PackError) -> StickerPack? {
        let folder = bundle.deletingLastPathComponent()
        var catalogs = (try? XcodeProject(bundle: bundle)).map(\.stickerCatalogs) ?? []
        catalogs = catalogs.filter(isFolder)
        if catalogs.isEmpty {
            for entry in try listing(of: folder) where !entry.lastPathComponent.hasPrefix(".") {
                if entry.pathExtension.lowercased() == "xcstickers" {
                    catalogs.append(entry)
                } else if entry.pathExtension.lowercased() != "xcodeproj", isFolder(entry) {
                    catalogs += ((try? listing(of: entry)) ?? []).filter {
                        $0.pathExtension.lowercased() == "xcstickers"
                    }
                }
            }
        }
        guard let catalog = catalogs.first else {
            guard required else { return nil }
            throw .notAPack(path: bundle.path, reason: "the Xcode project holds no .xcstickers catalog")
        }
        var pack = try loadCatalog(catalog)
        if catalogs.count > 1 {
            pack.warnings.append(
                PackWarning(
                    path: folder.path,
                    message: "\(catalogs.count) sticker catalogs; using \(catalog.path.dropPrefix(folder.path + "/"))"))
        }
        pack.name = bundle.deletingPathExtension().lastPathComponent
        pack.projectBundle = bundle
        return pack
    }

    private static func isFolder(_ url: URL) -> Bool {
        var isDirectory = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory
    }

    /// A pack of the given image files, in the given order.
    public static func load(files paths: [String]) throws(PackError) -> StickerPack {
        var stickers: [Sticker] = []
        for path in paths {
            var isDirectory = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw .notFound(path: path)
            }
            guard !isDirectory else {
                throw .notAPack(path: path, reason: "a folder; name it alone to load it as a pack")
            }
            let url = URL(fileURLWithPath: path)
            stickers.append(Sticker(name: url.deletingPathExtension().lastPathComponent, source: .file(url)))
        }
        let name = paths.count == 1 ? stickers[0].name : "\(paths.count) files"
        return StickerPack(name: name, origin: .files, stickers: stickers)
    }

    // MARK: - Folders of images

    /// The pack of the images in `folder`, in file-name order, without the entries named in
    /// `written`; everything else in it is named as left out.
    private static func loadFolder(_ folder: URL, leavingOut written: Set<String> = []) throws(PackError)
        -> StickerPack
    {
        var stickers: [Sticker] = []
        var warnings: [PackWarning] = []
        var folders = 0
        for url in try listing(of: folder) where !written.contains(url.lastPathComponent) {
            var isDirectory = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
                if PackError.nameIsNotUTF8(url) {
                    // An image that cannot be opened fails the pack (a sticker would be left
                    // out without a word); another file is ignored, as other files are.
                    guard !imageExtensions.contains(url.pathExtension.lowercased()) else {
                        throw .nameNotUTF8(path: url.path)
                    }
                    warnings.append(
                        PackWarning(path: url.path, message: "ignored: its name is not UTF-8", kind: .leftOut))
                    continue
                }
                // A link named as an image that leads nowhere is a sticker that cannot be read (a
                // `format` error), not left out: the pack would lose it without a word.
                guard !imageExtensions.contains(url.pathExtension.lowercased()) else {
                    stickers.append(Sticker(name: url.deletingPathExtension().lastPathComponent, source: .file(url)))
                    continue
                }
                let kind = BoundedFile.notRegularFile(url.path) ?? "a link to a file that does not exist"
                warnings.append(PackWarning(path: url.path, message: "ignored: " + kind, kind: .leftOut))
                continue
            }
            if isDirectory {
                folders += 1
                warnings.append(
                    PackWarning(
                        path: url.path,
                        message: "ignored: a folder (a pack's stickers are the images in its own folder)",
                        kind: .leftOut))
                continue
            }
            let isImageName = imageExtensions.contains(url.pathExtension.lowercased())
            guard isImageName || sniffsAsImage(url) else {
                warnings.append(PackWarning(path: url.path, message: "ignored: " + notAnImage(url), kind: .leftOut))
                continue
            }
            stickers.append(Sticker(name: url.deletingPathExtension().lastPathComponent, source: .file(url)))
        }
        guard !stickers.isEmpty else {
            let inside = folders > 0 ? "; the images of a pack go in its own folder, not in sub-folders" : ""
            throw .notAPack(path: folder.path, reason: "no image files and no .xcstickers catalog" + inside)
        }
        return StickerPack(name: folder.lastPathComponent, origin: .folder, stickers: stickers, warnings: warnings)
    }

    /// Why a file left out of a folder is: `not an image file`, or, for a video or an image
    /// format its bytes show plainly (an ISO media `ftyp` box, Matroska's EBML header), which it
    /// is and how to convert it: a clip kept beside its stickers is named, not silently dropped.
    private static func notAnImage(_ url: URL) -> String {
        let head = BoundedFile.head(url.path, count: 16)
        let isMedia =
            head.count >= 12 && Array(head[4..<8]) == Array("ftyp".utf8) || head.starts(with: [0x1A, 0x45, 0xDF, 0xA3])
        return isMedia ? "not a sticker format but " + describeSignature(head, sniffed: nil) : "not an image file"
    }

    /// Whether `url` is an image file, by its name or its bytes (not a folder).
    private static func isImage(_ url: URL) -> Bool {
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory else {
            return false
        }
        return imageExtensions.contains(url.pathExtension.lowercased()) || sniffsAsImage(url)
    }

    private static func sniffsAsImage(_ url: URL) -> Bool {
        BoundedFile.sniffedFormat(url.path) != nil
    }

    // MARK: - Asset catalogs

    private static func loadCatalog(_ catalog: URL) throws(PackError) -> StickerPack {
        let packs = try listing(of: catalog).filter { $0.pathExtension.lowercased() == "stickerpack" }
        guard let first = packs.first else {
            throw .notAPack(path: catalog.path, reason: "the catalog holds no .stickerpack folder")
        }
        // The catalog's own Contents.json, when there is one, must read (Xcode refuses the
        // catalog otherwise); its content is only Xcode's "info".
        if FileManager.default.fileExists(atPath: catalog.appendingPathComponent("Contents.json").path) {
            _ = try ContentsJSON(folder: catalog)
        }
        var warnings: [PackWarning] = []
        if packs.count > 1 {
            warnings.append(
                PackWarning(
                    path: catalog.path, message: "\(packs.count) sticker packs; using \(first.lastPathComponent)"))
        }
        var pack = try loadStickerPack(
            first, catalogName: catalog.deletingPathExtension().lastPathComponent, warnings: warnings)
        pack.catalogFolder = catalog
        return pack
    }

    private static func loadStickerPack(_ folder: URL, catalogName: String, warnings initial: [PackWarning])
        throws(PackError) -> StickerPack
    {
        var warnings = initial
        let contents = try ContentsJSON(folder: folder)
        let gridSize = try gridSize(of: contents, warnings: &warnings)
        if gridSize == nil {
            warnings.append(PackWarning(path: contents.path, message: "no grid-size; using regular"))
        }
        var names: [String]
        if let listed = try contents.filenames(in: "stickers") {
            names = []
            for name in listed {
                if names.contains(name) {
                    warnings.append(
                        PackWarning(
                            path: contents.path, message: "\(name) is listed more than once in \"stickers\"; read once")
                    )
                } else {
                    names.append(name)
                }
            }
            let folders = (try? listing(of: folder)) ?? []
            for url in folders where isStickerFolder(url.lastPathComponent) && !names.contains(url.lastPathComponent) {
                warnings.append(
                    PackWarning(
                        path: url.path, message: "ignored: a sticker folder the \"stickers\" list does not name",
                        kind: .leftOut))
            }
        } else {
            names = try listing(of: folder).map(\.lastPathComponent).filter { isStickerFolder($0) }
            warnings.append(
                PackWarning(
                    path: contents.path, message: "no \"stickers\" list; using the sticker folders in name order"))
        }
        var stickers: [Sticker] = []
        for name in names {
            let url = folder.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: url.path) else { throw .missingFile(path: url.path) }
            switch url.pathExtension.lowercased() {
            case "sticker": stickers.append(try loadSticker(url, warnings: &warnings))
            case "stickersequence": stickers.append(try loadSequence(url, warnings: &warnings))
            default:
                throw .invalidContents(
                    path: contents.path, reason: "\"\(name)\" is neither a .sticker nor a .stickersequence")
            }
        }
        guard !stickers.isEmpty else {
            throw .notAPack(path: folder.path, reason: "the sticker pack lists no stickers")
        }
        return StickerPack(
            name: catalogName, origin: .catalog, declaredGridSize: gridSize, stickers: stickers, warnings: warnings)
    }

    /// The `grid-size` a sticker pack's `Contents.json` declares (`grid-space` read as it),
    /// `nil` when it names none; a value that is no size is an error.
    private static func gridSize(of contents: ContentsJSON, warnings: inout [PackWarning]) throws(PackError)
        -> StickerSize?
    {
        guard let value = try contents.string("grid-size", misspelledAs: ["grid-space"], warnings: &warnings) else {
            return nil
        }
        guard let size = StickerSize(rawValue: value) else {
            throw .invalidContents(path: contents.path, reason: "grid-size \"\(value)\" is not small, regular or large")
        }
        return size
    }

    private static func isStickerFolder(_ name: String) -> Bool {
        let ext = URL(fileURLWithPath: name).pathExtension.lowercased()
        return ext == "sticker" || ext == "stickersequence"
    }

    private static func loadSticker(_ folder: URL, warnings: inout [PackWarning]) throws(PackError) -> Sticker {
        let contents = try ContentsJSON(folder: folder)
        let label = try contents.string("accessibility-label", warnings: &warnings)
        let file: URL
        if let filename = try contents.string("filename", warnings: &warnings) {
            guard !filename.contains("/") else {
                throw .invalidContents(path: contents.path, reason: "filename \"\(filename)\" leaves its folder")
            }
            // A file that is not there fails its sticker when it is read, not the pack: the
            // other stickers are still checked and drawn.
            file = folder.appendingPathComponent(filename)
        } else {
            let images = try listing(of: folder).filter { imageExtensions.contains($0.pathExtension.lowercased()) }
            guard images.count == 1 else {
                throw .invalidContents(
                    path: contents.path, reason: "no \"filename\" and \(images.count) images in the folder")
            }
            warnings.append(
                PackWarning(path: contents.path, message: "no \"filename\"; using \(images[0].lastPathComponent)"))
            file = images[0]
        }
        return Sticker(
            name: folder.deletingPathExtension().lastPathComponent, accessibilityLabel: label, source: .file(file),
            fitLoss: contents.fitLoss)
    }

    private static func loadSequence(_ folder: URL, warnings: inout [PackWarning]) throws(PackError) -> Sticker {
        let contents = try ContentsJSON(folder: folder)
        let label = try contents.string("accessibility-label", warnings: &warnings)
        let duration = try contents.number("duration", warnings: &warnings) ?? 15
        let typeName = try contents.string("duration-type", warnings: &warnings) ?? "fps"
        guard let durationType = StickerSequence.DurationType(rawValue: typeName) else {
            throw .invalidContents(
                path: contents.path, reason: "duration-type \"\(typeName)\" is neither fps nor fixed")
        }
        guard duration.isFinite, duration > 0 else {
            throw .invalidContents(path: contents.path, reason: "duration \(duration) is not a positive number")
        }
        let repetitions = try contents.number("repetitions", misspelledAs: ["repetions"], warnings: &warnings) ?? 0
        guard repetitions >= 0, repetitions <= 1_000_000, repetitions == repetitions.rounded() else {
            throw .invalidContents(path: contents.path, reason: "repetitions \(repetitions) is not a count")
        }
        let names = try contents.filenames(in: "frames") ?? []
        guard !names.isEmpty else { throw .emptySequence(path: folder.path) }
        let frames = names.map { folder.appendingPathComponent($0) }
        let sequence = StickerSequence(
            frames: frames, duration: duration, durationType: durationType, repetitions: Int(repetitions))
        return Sticker(
            name: folder.deletingPathExtension().lastPathComponent, accessibilityLabel: label,
            source: .sequence(sequence),
            fitLoss: contents.fitLoss)
    }

    /// The visible entries of a folder in Finder's order of their names (``FileNameOrder``: the
    /// browser order of a folder pack).
    private static func listing(of folder: URL) throws(PackError) -> [URL] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            throw .unreadable(path: folder.path)
        }
        return names.filter { !$0.hasPrefix(".") }.sorted(by: FileNameOrder.areInIncreasingOrder).map {
            folder.appendingPathComponent($0)
        }
    }
}
