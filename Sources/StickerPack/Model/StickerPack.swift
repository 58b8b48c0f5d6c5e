import FoundationEssentials

/// A sticker pack: stickers in browser order, the pack's grid size and what the loader noticed.
public struct StickerPack: Sendable, Hashable {
    /// Where a pack was read from.
    public enum Origin: String, Sendable, Hashable {
        /// A folder of image files, in Finder's order of their names (letter case aside, numbers by value).
        case folder
        /// An Xcode `.xcstickers` catalog (or a bare `.stickerpack`).
        case catalog
        /// Image files named one by one.
        case files
    }

    /// A display name: the folder or catalog name.
    public var name: String
    /// What kind of source the pack came from.
    public var origin: Origin
    /// The catalog's `grid-size`; `nil` when the source does not say (a folder of files).
    public var declaredGridSize: StickerSize?
    /// The stickers, in the order the browser shows them.
    public var stickers: [Sticker]
    /// Problems the loader worked around (typos in Contents.json, ignored files).
    public var warnings: [PackWarning]
    /// The `.xcstickers` folder the pack was read from (its icon set is validated too); `nil`
    /// for a folder of images, loose files or a bare `.stickerpack`.
    public var catalogFolder: URL?
    /// The `.xcodeproj` of the sticker pack app the catalog was found in (its App Store rules
    /// are validated too); `nil` for anything else.
    public var projectBundle: URL?
    /// The folder the pack was read from, links resolved (a folder of images, a catalog, a
    /// sticker folder, the folder holding a project); `nil` for files named one by one. Findings name the files in
    /// it by their path from it, so a report or page shared does not show where it was made.
    public var folder: URL?

    /// Creates a pack.
    public init(
        name: String, origin: Origin, declaredGridSize: StickerSize? = nil,
        stickers: [Sticker], warnings: [PackWarning] = [], catalogFolder: URL? = nil
    ) {
        self.name = name
        self.origin = origin
        self.declaredGridSize = declaredGridSize
        self.stickers = stickers
        self.warnings = warnings
        self.catalogFolder = catalogFolder
    }
}

/// Something the loader tolerated but the pack's author should fix.
public struct PackWarning: Sendable, Hashable, CustomStringConvertible {
    /// What the loader did about it.
    public enum Kind: Sendable, Hashable {
        /// Read the pack all the same (a misspelt key, a missing list, one of several packs).
        case workaround
        /// Left the file or folder out of the pack (not an image, a sub-folder, a link to
        /// nothing, a sticker folder the list does not name).
        case leftOut
    }

    /// The file or folder concerned.
    public var path: String
    /// What was wrong and what the loader did.
    public var message: String
    /// Whether the pack was read with a workaround or without the file.
    public var kind: Kind

    /// Creates a warning.
    public init(path: String, message: String, kind: Kind = .workaround) {
        self.path = path
        self.message = message
        self.kind = kind
    }

    /// `path: message`.
    public var description: String { "\(path): \(message)" }

    /// `path: message`, the path from `folder` when it is in it (the folder itself by its
    /// name).
    public func description(from folder: URL?) -> String {
        guard let folder else { return description }
        let root = folder.path
        if path == root { return "\(folder.lastPathComponent): \(message)" }
        guard path.hasPrefix(root + "/") else { return description }
        return "\(path.dropFirst(root.count + 1)): \(message)"
    }
}
