import Testing

/// The element layout of a WebM file, read here from Matroska's EBML rules (an ID whose
/// length is in its first byte's leading zeros, then a size coded the same way without its
/// marker bit) so that the hostile sweeps can tell what a damaged byte belonged to.
struct WebMLayout {
    struct Element: CustomStringConvertible {
        var id: UInt32
        var start: Int
        var dataStart: Int
        var end: Int
        var description: String { "0x\(String(id, radix: 16)) at \(start)..<\(end)" }
    }

    /// What a byte of the file is part of, as far as decoding goes.
    enum Region: Equatable, CustomStringConvertible {
        /// The data of an element the decoder never reads.
        case skipped
        /// A block's 16-bit time relative to its Cluster.
        case blockTime
        /// A video or alpha frame's bytes, in the block with this index.
        case framePayload(Int)
        /// Anything else: the EBML header, an ID or size, Info, Tracks, a block's track
        /// number or flags, a BlockAddID, a Cluster's time.
        case structure

        var kind: String {
            switch self {
            case .skipped: return "skipped"
            case .blockTime: return "blockTime"
            case .framePayload: return "framePayload"
            case .structure: return "structure"
            }
        }

        var description: String {
            if case .framePayload(let block) = self { return "framePayload(\(block))" }
            return kind
        }

        /// The region whose rule covers damage in all of `regions`: structure over any frame
        /// payload (the earliest block), over a block time, over data nothing reads.
        static func covering(_ regions: [Region]) -> Region {
            if regions.contains(where: { $0.kind == "structure" }) { return .structure }
            let blocks = regions.compactMap { region -> Int? in
                if case .framePayload(let block) = region { return block }
                return nil
            }
            if let first = blocks.min() { return .framePayload(first) }
            return regions.contains { $0.kind == "blockTime" } ? .blockTime : .skipped
        }
    }

    static let segment: UInt32 = 0x1853_8067
    static let cluster: UInt32 = 0x1F43_B675
    static let blockGroup: UInt32 = 0xA0
    static let block: UInt32 = 0xA1
    static let simpleBlock: UInt32 = 0xA3
    static let blockAdditional: UInt32 = 0xA5
    /// Elements holding elements: EBML header, Segment, Info, Tracks, TrackEntry, Video,
    /// Colour, Cluster, BlockGroup, BlockAdditions, BlockMore.
    static let masters: Set<UInt32> = [
        0x1A45_DFA3, segment, 0x1549_A966, 0x1654_AE6B, 0xAE, 0xE0, 0x55B0, cluster, blockGroup, 0x75A1, 0xA6
    ]
    /// A Segment's children whose data the decoder skips: SeekHead, Void, Cues, Tags,
    /// Chapters, Attachments.
    static let skippedChildren: Set<UInt32> = [0x114D_9B74, 0xEC, 0x1C53_BB6B, 0x1254_C367, 0x1043_A770, 0x1941_A469]

    let bytes: [UInt8]
    private(set) var elements: [Element] = []
    /// Each video block in file order: its Block or SimpleBlock, and its BlockAdditionals.
    private(set) var blocks: [(block: Element, additions: [Element])] = []

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        walk(from: 0, to: bytes.count)
    }

    private func variableInteger(at offset: Int, keepMarker: Bool) -> (value: UInt64, length: Int)? {
        guard offset < bytes.count, bytes[offset] != 0 else { return nil }
        let length = bytes[offset].leadingZeroBitCount + 1
        guard offset + length <= bytes.count else { return nil }
        var value = UInt64(keepMarker ? bytes[offset] : bytes[offset] & (0xFF >> length))
        for index in 1..<length { value = value << 8 | UInt64(bytes[offset + index]) }
        return (value, length)
    }

    private mutating func walk(from start: Int, to end: Int) {
        var offset = start
        while offset < end, let (id, idLength) = variableInteger(at: offset, keepMarker: true),
            let (size, sizeLength) = variableInteger(at: offset + idLength, keepMarker: false)
        {
            let dataStart = offset + idLength + sizeLength
            let unknown = size == (1 << (7 * UInt64(sizeLength))) - 1
            let element = Element(
                id: UInt32(id), start: offset, dataStart: dataStart,
                end: unknown ? end : min(end, dataStart + Int(clamping: size)))
            elements.append(element)
            switch element.id {
            case Self.block, Self.simpleBlock:
                blocks.append((element, []))
            case Self.blockAdditional where !blocks.isEmpty:
                blocks[blocks.count - 1].additions.append(element)
            default:
                break
            }
            if Self.masters.contains(element.id) { walk(from: dataStart, to: element.end) }
            offset = element.end
        }
    }

    /// What the byte at `offset` is part of.
    func region(of offset: Int) -> Region {
        for element in elements where Self.skippedChildren.contains(element.id) {
            if (element.dataStart..<element.end).contains(offset) { return .skipped }
        }
        for (index, (block, additions)) in blocks.enumerated() {
            if additions.contains(where: { ($0.dataStart..<$0.end).contains(offset) }) { return .framePayload(index) }
            guard (block.dataStart..<block.end).contains(offset),
                let (_, trackLength) = variableInteger(at: block.dataStart, keepMarker: false)
            else { continue }
            let time = block.dataStart + trackLength
            if (time..<time + 2).contains(offset) { return .blockTime }
            // The flags byte follows the time; the frame, unlaced, the flags.
            return offset > time + 2 ? .framePayload(index) : .structure
        }
        return .structure
    }

    /// Rewrites `element`'s size field, in the length it has, to `size`.
    static func setSize(of element: Element, to size: Int, in bytes: inout [UInt8]) throws {
        let idLength = bytes[element.start].leadingZeroBitCount + 1
        let at = element.start + idLength
        let length = element.dataStart - at
        try #require(size < (1 << (7 * length)) - 1, "\(size) does not fit \(length) bytes")
        for index in 0..<length { bytes[at + index] = UInt8(truncatingIfNeeded: size >> (8 * (length - 1 - index))) }
        bytes[at] |= UInt8(0x80 >> (length - 1))
    }
}
