import AnimationCodec

/// Where each chunk of a PNG lies, walked from the PNG specification (length, type, data,
/// CRC) without the codec's reader, so a test can tell what a cut or a flipped byte hits.
struct PNGChunkLayout {
    struct Chunk {
        var type: String
        /// The offset of the chunk's length field.
        var start: Int
        /// The chunk's data (the CRC follows it).
        var data: Range<Int>
        /// The offset just past the CRC.
        var end: Int { data.upperBound + 4 }
    }

    let bytes: [UInt8]
    /// The chunks in file order, up to the first one that runs past the end of the bytes.
    private(set) var chunks: [Chunk] = []

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = Self.bigEndian32(bytes, at: offset)
            guard offset + 12 + length <= bytes.count else { break }
            chunks.append(
                Chunk(
                    type: String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self), start: offset,
                    data: (offset + 8)..<(offset + 8 + length)))
            offset += 12 + length
        }
    }

    /// The chunk holding byte `offset`, if any.
    func chunk(containing offset: Int) -> Chunk? { chunks.first { $0.start <= offset && offset < $0.end } }

    /// The big-endian 32-bit number at `offset` of the chunk's data.
    func number(in chunk: Chunk, at offset: Int) -> Int { Self.bigEndian32(bytes, at: chunk.data.lowerBound + offset) }

    /// IHDR's width and height (the first 8 bytes of the first chunk's data).
    static func headerSize(_ bytes: [UInt8]) -> (width: Int, height: Int) {
        (bigEndian32(bytes, at: 16), bigEndian32(bytes, at: 20))
    }

    static func bigEndian32(_ bytes: [UInt8], at o: Int) -> Int {
        Int(bytes[o]) << 24 | Int(bytes[o + 1]) << 16 | Int(bytes[o + 2]) << 8 | Int(bytes[o + 3])
    }
}

/// Where each block of a GIF lies, walked from the GIF89a specification without the codec's
/// reader: the logical screen, and for every image its rectangle, the LZW minimum code size
/// byte that starts its data, its data sub-blocks and where they end.
struct GIFBlockLayout {
    struct Image {
        var rect: FrameRect
        /// The offset of the LZW minimum code size byte.
        var codeSizeOffset: Int
        /// The contents of the data sub-blocks (their size bytes excluded).
        var dataRanges: [Range<Int>] = []
        /// The offset just past the data's block terminator; `nil` when the bytes end first.
        var dataEnd: Int?
    }

    var screenWidth = 0
    var screenHeight = 0
    /// The offset just past the logical screen descriptor and the global colour table.
    var headerEnd = 13
    var images: [Image] = []
    /// The offset of the trailer (0x3B), when the walk reached it.
    var trailer: Int?

    /// Walks as far as the bytes go; stops at the trailer, an unknown block or the end.
    init(_ bytes: [UInt8]) {
        func le16(_ o: Int) -> Int { Int(bytes[o]) | Int(bytes[o + 1]) << 8 }
        guard bytes.count >= 13 else { return }
        screenWidth = le16(6)
        screenHeight = le16(8)
        if bytes[10] & 0x80 != 0 { headerEnd += 3 << (Int(bytes[10] & 7) + 1) }
        var offset = headerEnd
        /// Walks data sub-blocks from `offset` through the terminator, returning their contents;
        /// `complete` is false when the bytes end first.
        func subBlocks() -> (contents: [Range<Int>], complete: Bool) {
            var contents: [Range<Int>] = []
            while offset < bytes.count {
                let size = Int(bytes[offset])
                if size == 0 { offset += 1; return (contents, true) }
                contents.append((offset + 1)..<min(offset + 1 + size, bytes.count))
                offset += 1 + size
            }
            return (contents, false)
        }
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x3B:
                trailer = offset
                return
            case 0x21:
                offset += 2  // introducer and label
                guard subBlocks().complete else { return }
            case 0x2C:
                guard offset + 10 <= bytes.count else { return }
                let rect = FrameRect(
                    x: le16(offset + 1), y: le16(offset + 3), width: le16(offset + 5), height: le16(offset + 7))
                let flags = bytes[offset + 9]
                offset += 10
                if flags & 0x80 != 0 { offset += 3 << (Int(flags & 7) + 1) }
                guard offset < bytes.count else { return }
                var image = Image(rect: rect, codeSizeOffset: offset)
                offset += 1
                let (contents, complete) = subBlocks()
                image.dataRanges = contents
                if complete { image.dataEnd = offset }
                images.append(image)
                guard complete else { return }
            default:
                return
            }
        }
    }

    /// The canvas a decoder shows: the logical screen, or the first image's extent when the
    /// screen has a zero side.
    var canvasSize: (width: Int, height: Int)? {
        if screenWidth > 0 && screenHeight > 0 { return (screenWidth, screenHeight) }
        guard let first = images.first else { return nil }
        return (first.rect.x + first.rect.width, first.rect.y + first.rect.height)
    }
}
