import FoundationEssentials
import StickerPack

/// The sticker catalog a path would be written inside, if any: Xcode reads every folder in a
/// catalog as part of it, so neither `fit`'s catalog nor `xcode`'s project is written there.
enum EnclosingCatalog {
    /// The `.xcstickers` folder that `path` is or lies in: one of its folders as written, or as
    /// they are on disk from the deepest that exists (links resolved: a link into a catalog is
    /// inside it too); `nil` when there is none.
    static func of(_ path: URL) -> URL? {
        var ancestors: [URL] = []
        var ancestor = path.standardizedFileURL
        while ancestor.path != "/" && !ancestor.path.isEmpty {
            ancestors.append(ancestor)
            ancestor.deleteLastPathComponent()
        }
        if let existing = ancestors.first(where: { resolvedPath($0.path) != nil }),
            var real = resolvedPath(existing.path).map(URL.init(fileURLWithPath:))
        {
            while real.path != "/" && !real.path.isEmpty {
                ancestors.append(real)
                real.deleteLastPathComponent()
            }
        }
        return ancestors.first { $0.pathExtension.lowercased() == "xcstickers" }
    }
}
