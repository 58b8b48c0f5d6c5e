import FoundationEssentials

/// A sticker pack: stickers in browser order, the pack's grid size and what the loader noticed.
public struct StickerPack: Sendable, Hashable {
    /// Where a pack was read from.
    public enum Origin: String, Sendable, Hashable {
        /// A folder of image files, in sorted file-name order.
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
    /// The file or folder concerned.
    public var path: String
    /// What was wrong and what the loader did.
    public var message: String

    /// Creates a warning.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `path: message`.
    public var description: String { "\(path): \(message)" }
}
