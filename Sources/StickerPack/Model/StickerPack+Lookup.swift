import FoundationEssentials

extension StickerPack {
    /// What a sticker's name, as a script or an option gives it, picks out of a pack.
    public enum Lookup: Sendable, Hashable {
        /// One sticker, by its index in ``StickerPack/stickers``.
        case sticker(Int)
        /// Several stickers answer to it (`a` for `a.png` and `a.gif`), by index.
        case ambiguous([Int])
        /// No sticker answers to it.
        case none
    }

    /// The name of sticker `index`'s entry in the pack: its file's name in a folder or among
    /// files (`a.gif`), its `.sticker` or `.stickersequence` folder's in a catalog.
    public func entryName(of index: Int) -> String {
        let sticker = stickers[index]
        switch sticker.source {
        case .file(let url):
            return origin == .catalog ? url.deletingLastPathComponent().lastPathComponent : url.lastPathComponent
        case .sequence(let sequence):
            return sequence.frames.first?.deletingLastPathComponent().lastPathComponent ?? sticker.name
        }
    }

    /// The word that picks out sticker `index` alone, as ``lookup(_:)`` reads it: its name, or
    /// where that picks out another sticker or several, its entry's name (``entryName(of:)``),
    /// else its file's name, else its first file's path (files of one name from two folders).
    public func reference(of index: Int) -> String {
        let sticker = stickers[index]
        let candidates = [sticker.name, entryName(of: index)] + sticker.files.prefix(1).map(\.lastPathComponent)
        return candidates.first { lookup($0) == .sticker(index) } ?? sticker.files.first?.path ?? sticker.name
    }

    /// ``reference(of:)`` of every sticker, in order: the words a message lists them by.
    public var references: [String] { stickers.indices.map(reference(of:)) }

    /// The sticker `reference` picks out: the stickers of that name; else of that entry name
    /// (`a.gif`, `a.sticker`) or, for one file, that file's name (a catalog's `star.png`); else
    /// of any of those in any letter case; else of that first file's path. The first rule any
    /// sticker answers to decides: more than one sticker there is ambiguous.
    public func lookup(_ reference: String) -> Lookup {
        let folded = reference.lowercased()
        func fileName(_ index: Int) -> String? {
            stickers[index].files.count == 1 ? stickers[index].files[0].lastPathComponent : nil
        }
        let rules: [(Int) -> Bool] = [
            { stickers[$0].name == reference },
            { entryName(of: $0) == reference || fileName($0) == reference },
            {
                stickers[$0].name.lowercased() == folded || entryName(of: $0).lowercased() == folded
                    || fileName($0)?.lowercased() == folded
            },
            { stickers[$0].files.first?.path == reference }
        ]
        for rule in rules {
            let matches = stickers.indices.filter(rule)
            if matches.count == 1 { return .sticker(matches[0]) }
            if matches.count > 1 { return .ambiguous(matches) }
        }
        return .none
    }
}
