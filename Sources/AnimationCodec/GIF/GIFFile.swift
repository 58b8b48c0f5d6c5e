/// The block structure of a GIF: screen, colour tables, extensions and where every image's
/// LZW data lies. Reading it decodes no pixels.
struct GIFFile: Sendable {
    /// One image descriptor and what applies to it.
    struct StoredImage: Sendable {
        var info: FrameInfo
        /// The colour table in force (local, else global) as RGB triples; empty when none.
        var palette: [UInt8]
        /// The transparent index, when the Graphic Control Extension's flag is set.
        var transparentIndex: UInt8?
        var minimumCodeSize: UInt8
        /// The data sub-blocks' contents, in order.
        var dataRanges: [Range<Int>]
        /// Whether the data sub-blocks ended early (truncated file).
        var dataIsTruncated: Bool
    }

    var version: String
    var screenWidth: Int
    var screenHeight: Int
    var canvasWidth: Int
    var canvasHeight: Int
    var globalPalette: [UInt8]?
    var backgroundIndex: UInt8
    var loopCount: Int?
    var images: [StoredImage] = []
    var warnings: [CodecWarning] = []
}

extension GIFFile {
    /// Reads every block of `bytes`, which start with `GIF87a` or `GIF89a`.
    ///
    /// A file that ends early keeps the images read so far (the last one possibly partial)
    /// and gets a warning; it throws only when no image was found at all.
    init(parsing bytes: [UInt8], limits: DecodingLimits) throws(CodecError) {
        guard bytes.count >= 13 else { throw .truncated(context: "GIF logical screen descriptor") }
        version = String(decoding: bytes[3..<6], as: UTF8.self)
        screenWidth = Int(bytes.littleEndianUInt16(at: 6))
        screenHeight = Int(bytes.littleEndianUInt16(at: 8))
        let flags = bytes[10]
        backgroundIndex = bytes[11]
        canvasWidth = screenWidth
        canvasHeight = screenHeight
        var cursor = GIFCursor(bytes: bytes, offset: 13)
        if flags & 0x80 != 0 {
            let size = 3 << (Int(flags & 7) + 1)
            guard let table = cursor.take(size) else { throw .truncated(context: "GIF global colour table") }
            globalPalette = Array(bytes[table])
        }

        var control: (delay: Int, disposal: GIFDisposal, transparent: UInt8?)?
        var truncated = false
        blocks: while true {
            guard let introducer = cursor.byte() else { truncated = true; break }
            switch introducer {
            case 0x3B:
                break blocks
            case 0x21:
                guard let label = cursor.byte() else { truncated = true; break blocks }
                guard let first = cursor.subBlock() else { truncated = true; break blocks }
                var terminated = first.isEmpty
                switch label {
                case 0xF9 where first.count >= 4:
                    let packed = bytes[first.lowerBound]
                    control = (
                        Int(bytes.littleEndianUInt16(at: first.lowerBound + 1)),
                        GIFDisposal(rawValue: (packed >> 2) & 7)!,
                        packed & 1 != 0 ? bytes[first.lowerBound + 3] : nil
                    )
                case 0xFF where first.count == 11:
                    let identifier = String(decoding: bytes[first], as: UTF8.self)
                    if identifier == "NETSCAPE2.0" || identifier == "ANIMEXTS1.0" {
                        if let data = cursor.subBlock() {
                            terminated = data.isEmpty
                            if data.count >= 3, bytes[data.lowerBound] == 1, loopCount == nil {
                                loopCount = Int(bytes.littleEndianUInt16(at: data.lowerBound + 1))
                            }
                        } else {
                            truncated = true; break blocks
                        }
                    }
                default:
                    break
                }
                guard terminated || cursor.skipSubBlocks() else { truncated = true; break blocks }
            case 0x2C:
                guard let descriptor = cursor.take(9) else { truncated = true; break blocks }
                let o = descriptor.lowerBound
                let rect = FrameRect(
                    x: Int(bytes.littleEndianUInt16(at: o)), y: Int(bytes.littleEndianUInt16(at: o + 2)),
                    width: Int(bytes.littleEndianUInt16(at: o + 4)), height: Int(bytes.littleEndianUInt16(at: o + 6)))
                let imageFlags = bytes[o + 8]
                var palette = globalPalette ?? []
                if imageFlags & 0x80 != 0 {
                    guard let table = cursor.take(3 << (Int(imageFlags & 7) + 1)) else {
                        truncated = true; break blocks
                    }
                    palette = Array(bytes[table])
                }
                guard let codeSize = cursor.byte() else { truncated = true; break blocks }
                if images.isEmpty { try sizeCanvas(toInclude: rect, limits: limits) }
                // A frame may reach past the screen, but its decode buffers are its own size.
                if rect.width > 0 && rect.height > 0 { try limits.checkCanvas(width: rect.width, height: rect.height) }
                let (ranges, complete) = cursor.collectSubBlocks()
                let delay = control?.delay ?? 0
                let disposal = control?.disposal ?? .unspecified
                let info = FrameInfo(
                    index: images.count, rect: rect, delay: .centiseconds(delay),
                    dispose: disposal.disposeOp, blend: .over, gifDisposal: disposal,
                    isInterlaced: imageFlags & 0x40 != 0)
                images.append(
                    StoredImage(
                        info: info, palette: palette, transparentIndex: control?.transparent,
                        minimumCodeSize: codeSize, dataRanges: ranges, dataIsTruncated: !complete))
                try limits.checkAnimation(frames: images.count, width: canvasWidth, height: canvasHeight)
                control = nil
                if !complete { truncated = true; break blocks }
            default:
                warnings.append(
                    CodecWarning(
                        .other,
                        "unknown GIF block 0x\(String(introducer, radix: 16)) at byte \(cursor.offset - 1); stopped reading"
                    ))
                break blocks
            }
        }
        if truncated {
            warnings.append(CodecWarning(.truncated, "GIF ends early, after \(counted(images.count, "frame"))"))
        }
        guard !images.isEmpty else {
            throw truncated ? .truncated(context: "GIF ends before its first frame") : .noImageData
        }
    }

    /// The canvas is the logical screen and every frame is clipped to it (gdk-pixbuf's
    /// policy and the one peterdn's suite expects). Only a screen with a zero side takes the
    /// first frame's extent instead, since nothing could be shown otherwise.
    private mutating func sizeCanvas(toInclude rect: FrameRect, limits: DecodingLimits) throws(CodecError) {
        var width = screenWidth
        var height = screenHeight
        if width == 0 || height == 0 {
            width = rect.x + rect.width
            height = rect.y + rect.height
            warnings.append(
                CodecWarning(
                    .canvasSizedFromFrame,
                    "logical screen is \(screenWidth)x\(screenHeight); canvas sized to the first frame, \(width)x\(height)"
                ))
        }
        guard width > 0, height > 0 else { throw .malformed(format: .gif, reason: "image is \(width)x\(height)") }
        try limits.checkCanvas(width: width, height: height)
        canvasWidth = width
        canvasHeight = height
    }
}

/// A bounds-checked reading position in a GIF's bytes. Every method returns `nil` (or
/// `false`) instead of reading past the end.
struct GIFCursor {
    let bytes: [UInt8]
    var offset: Int

    mutating func byte() -> UInt8? {
        guard offset < bytes.count else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func take(_ count: Int) -> Range<Int>? {
        guard bytes.count - offset >= count else { offset = bytes.count; return nil }
        defer { offset += count }
        return offset..<(offset + count)
    }

    /// One data sub-block's contents (empty at the terminator).
    mutating func subBlock() -> Range<Int>? {
        guard let size = byte() else { return nil }
        return take(Int(size))
    }

    /// Skips sub-blocks up to and including the terminator.
    mutating func skipSubBlocks() -> Bool {
        while true {
            guard let block = subBlock() else { return false }
            if block.isEmpty { return true }
        }
    }

    /// Every sub-block up to the terminator; `complete` is false when the file ended first
    /// (the ranges then hold what was there, including a final partial block).
    mutating func collectSubBlocks() -> (ranges: [Range<Int>], complete: Bool) {
        var ranges: [Range<Int>] = []
        while true {
            guard let size = byte() else { return (ranges, false) }
            if size == 0 { return (ranges, true) }
            let end = min(offset + Int(size), bytes.count)
            if end > offset { ranges.append(offset..<end) }
            let complete = end - offset == Int(size)
            offset = end
            if !complete { return (ranges, false) }
        }
    }
}
