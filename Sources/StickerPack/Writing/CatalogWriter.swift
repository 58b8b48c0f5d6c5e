import FoundationEssentials

/// Writes an Xcode sticker catalog (`.xcstickers`) as Xcode itself lays it out: the catalog's
/// `Contents.json`, `Sticker Pack.stickerpack` with its grid size and sticker order, one
/// `.sticker` or `.stickersequence` folder per sticker, and the iMessage app icon set.
public enum CatalogWriter {
    /// One sticker to write.
    public struct Entry: Sendable {
        /// What the sticker's folder holds.
        public enum Content: Sendable {
            /// One image: its file name (with extension) and bytes.
            case file(name: String, bytes: [UInt8])
            /// A sticker sequence: frame files in order, and its timing.
            case sequence(
                frames: [(name: String, bytes: [UInt8])], duration: Double,
                durationType: StickerSequence.DurationType, repetitions: Int)
        }

        /// The folder name without extension (also the image's base name).
        public var name: String
        /// The VoiceOver description.
        public var accessibilityLabel: String
        /// The image or frames.
        public var content: Content
        /// What `fit` gave up to make it, recorded in its `Contents.json` (`nil`: nothing).
        public var fitLoss: FitLoss?

        /// Creates an entry.
        public init(name: String, accessibilityLabel: String, content: Content, fitLoss: FitLoss? = nil) {
            self.name = name
            self.accessibilityLabel = accessibilityLabel
            self.content = content
            self.fitLoss = fitLoss
        }

        /// The `info` object of its `Contents.json`: Xcode's, and fit's record when there is one.
        var info: [String: Any] {
            var info = CatalogWriter.info
            if let fitLoss { info[FitLoss.contentsKey] = fitLoss.contentsValue }
            return info
        }
    }

    /// One icon of the app icon set: its slot and PNG bytes.
    public struct Icon: Sendable {
        /// Where the icon goes.
        public var slot: MessagesIconSet.Slot
        /// A PNG of exactly the slot's pixel size.
        public var png: [UInt8]

        /// Creates an icon.
        public init(slot: MessagesIconSet.Slot, png: [UInt8]) {
            self.slot = slot
            self.png = png
        }

        /// `icon-60x45@3x-iphone.png`.
        public var fileName: String { "icon-\(slot.size)@\(slot.scale)x-\(slot.idiom).png" }
    }

    /// `proposed` as a sticker folder's name: `/`, `:`, line breaks, tabs and the characters a
    /// terminal acts on (controls, bidirectional overrides: ``TerminalText/isActedOn(_:)``)
    /// made `-`, spaces trimmed, a name that would be empty or hidden prefixed with `Sticker`, and one longer
    /// than ``longestFolderName`` UTF-8 bytes cut there, between characters. Two stickers
    /// whose folder names match, letter case aside, cannot both keep their names.
    public static func folderName(_ proposed: String) -> String {
        var base = proposed.map { character -> Character in
            let unsafe =
                character == "/" || character == ":" || character.isNewline || character == "\t"
                || character.unicodeScalars.contains(where: TerminalText.isActedOn)
            return unsafe ? "-" : character
        }.reduce(into: "") { $0.append($1) }
        base = trimmed(base)
        if base.utf8.count > longestFolderName { base = trimmed(base.prefix(utf8Bytes: longestFolderName)) }
        if base.isEmpty || base.hasPrefix(".") { base = "Sticker" + base }
        return base
    }

    /// The longest sticker folder name, in UTF-8 bytes: with a counter (` 99`), the longest
    /// extension (`.stickersequence`) and a frame's file name (`NAME-01.png`) it stays within
    /// a file name's 255 bytes.
    public static let longestFolderName = 200

    private static func trimmed(_ text: String) -> String {
        String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }

    /// The pack folder's name inside the catalog.
    public static let packFolderName = "Sticker Pack.stickerpack"
    /// The icon set's folder name inside the catalog.
    public static let iconSetFolderName = "iMessage App Icon.stickersiconset"

    /// Writes a catalog into `folder` (created; it should be empty or absent). Sticker names
    /// must be distinct; the caller makes them so.
    public static func write(stickers: [Entry], gridSize: StickerSize, icons: [Icon], to folder: URL) throws {
        let manager = FileManager.default
        try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        try json(["info": info], to: folder)
        let pack = folder.appendingPathComponent(packFolderName)
        try manager.createDirectory(at: pack, withIntermediateDirectories: true)
        var listed: [[String: Any]] = []
        for entry in stickers {
            switch entry.content {
            case .file(let fileName, let bytes):
                let sticker = pack.appendingPathComponent(entry.name + ".sticker")
                try manager.createDirectory(at: sticker, withIntermediateDirectories: true)
                try Data(bytes).write(to: sticker.appendingPathComponent(fileName))
                try json(
                    [
                        "info": entry.info,
                        "properties": ["filename": fileName, "accessibility-label": entry.accessibilityLabel]
                    ], to: sticker)
                listed.append(["filename": entry.name + ".sticker"])
            case .sequence(let frames, let duration, let durationType, let repetitions):
                let sequence = pack.appendingPathComponent(entry.name + ".stickersequence")
                try manager.createDirectory(at: sequence, withIntermediateDirectories: true)
                for frame in frames { try Data(frame.bytes).write(to: sequence.appendingPathComponent(frame.name)) }
                let properties: [String: Any] = [
                    "accessibility-label": entry.accessibilityLabel, "duration": duration,
                    "duration-type": durationType.rawValue, "repetitions": repetitions
                ]
                try json(
                    ["info": entry.info, "properties": properties, "frames": frames.map { ["filename": $0.name] }],
                    to: sequence)
                listed.append(["filename": entry.name + ".stickersequence"])
            }
        }
        try json(["info": info, "properties": ["grid-size": gridSize.rawValue], "stickers": listed], to: pack)
        let iconSet = folder.appendingPathComponent(iconSetFolderName)
        try manager.createDirectory(at: iconSet, withIntermediateDirectories: true)
        for icon in icons { try Data(icon.png).write(to: iconSet.appendingPathComponent(icon.fileName)) }
        let images: [[String: Any]] = icons.map { icon in
            var entry: [String: Any] = [
                "size": icon.slot.size, "idiom": icon.slot.idiom, "filename": icon.fileName,
                "scale": "\(icon.slot.scale)x"
            ]
            if let platform = icon.slot.platform { entry["platform"] = platform }
            return entry
        }
        try json(["info": info, "images": images], to: iconSet)
    }

    static var info: [String: Any] { ["author": "xcode", "version": 1] }

    private static func json(_ object: [String: Any], to folder: URL) throws {
        try JSONValue(untyped: object).xcodeJSON().write(to: folder.appendingPathComponent("Contents.json"))
    }

    /// A name safe as a folder name and distinct from `taken` (which it is added to).
    public static func uniqueName(_ proposed: String, taken: inout Set<String>) -> String {
        let base = folderName(proposed)
        var name = base
        var counter = 2
        while taken.contains(name.lowercased()) {
            name = "\(base) \(counter)"
            counter += 1
        }
        taken.insert(name.lowercased())
        return name
    }
}
