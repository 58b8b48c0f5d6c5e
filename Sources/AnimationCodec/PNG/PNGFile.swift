/// The structure of a PNG or APNG file: its header, palette, and where every frame's
/// compressed data lies. Reading it decodes no pixels.
struct PNGFile: Sendable {
    /// One frame of the animation (or the static image) and its zlib stream's pieces.
    struct StoredFrame: Sendable {
        var control: APNGFrameControl
        /// Pieces of the frame's zlib stream, in order (fdAT sequence numbers excluded).
        var dataRanges: [Range<Int>]
    }

    var header: PNGHeader
    /// PLTE entries as RGB triples.
    var palette: [UInt8] = []
    /// tRNS contents, raw.
    var transparency: [UInt8]?
    var colorChunks = PNGColorChunks()
    /// The default image's data (IDAT).
    var imageData: [Range<Int>] = []
    /// The animation, when the file is a valid APNG; `nil` for a plain PNG or a broken APNG.
    var animation: (numPlays: Int, frames: [StoredFrame])?
    /// Whether the default image is the animation's first frame.
    var defaultImageIsFirstFrame = false
    var warnings: [CodecWarning] = []

    /// The frames to show: the animation's, or the default image alone.
    var displayedFrames: [StoredFrame] {
        if let animation { return animation.frames }
        let whole = FrameRect(x: 0, y: 0, width: header.width, height: header.height)
        let control = APNGFrameControl(
            sequenceNumber: 0, rect: whole, delay: FrameDelay(numerator: 0, denominator: 0),
            dispose: .none, blend: .source)
        return [StoredFrame(control: control, dataRanges: imageData)]
    }
}

extension PNGFile {
    /// The palette entries an index of the header's bit depth can reach: libpng keeps no more
    /// (2 for a 1-bit image, whatever PLTE holds), and checks tRNS against that count.
    private var paletteEntriesUsable: Int { min(palette.count / 3, 1 << header.bitDepth) }

    /// Why a tRNS chunk of `length` bytes read at this point is ignored, or nil when it is
    /// used. libpng, which browsers decode PNG with, drops such a chunk as a benign error:
    /// after IDAT, a second one (the first is kept), one of the wrong length for grey or RGB,
    /// one before PLTE or with no entry or more entries than the palette, and any in an image
    /// that has an alpha channel.
    private func transparencyProblem(length: Int) -> String? {
        if !imageData.isEmpty { return "after IDAT" }
        if transparency != nil { return "repeated" }
        switch header.colorType {
        case .grayscale where length != 2, .rgb where length != 6:
            return "has \(length) bytes, not \(header.colorType == .rgb ? 6 : 2)"
        case .indexed where palette.isEmpty:
            return "before PLTE"
        case .indexed where length == 0 || length > paletteEntriesUsable:
            return "has \(length) entries for a palette of \(paletteEntriesUsable)"
        case .grayscaleAlpha, .rgba:
            return "in an image with an alpha channel"
        default:
            return nil
        }
    }

    /// Reads the chunk structure of `bytes`, which start with the PNG signature.
    ///
    /// Critical-chunk errors throw. Errors in the animation chunks (sequence numbers, frame
    /// counts, rectangles, order) make the file fall back to its default image with a
    /// warning, as the APNG specification asks. A file that ends inside a chunk after its image
    /// data began is read up to that chunk, with a `truncated` warning.
    init(parsing bytes: [UInt8], limits: DecodingLimits) throws(CodecError) {
        var reader = PNGChunkReader(bytes: bytes)
        guard let first = try reader.next() else { throw .truncated(context: "no IHDR chunk") }
        if first.type == "CgBI" { throw .appleCgBI }
        guard first.type == "IHDR" else {
            throw .malformed(format: .png, reason: "first chunk is \(first.type), not IHDR")
        }
        guard first.checksumIsValid else {
            throw .chunkChecksumMismatch(chunk: "IHDR", declared: first.declaredCRC, computed: first.computedCRC)
        }
        header = try PNGHeader(chunk: first.data, in: bytes)
        try limits.checkCanvas(width: header.width, height: header.height)

        var builder = APNGBuilder(canvasWidth: header.width, canvasHeight: header.height)
        var sawIEND = false
        var idatFinished = false
        // Where the file ends inside a chunk after IHDR: read as ending before that chunk.
        var cutShort: String?
        while true {
            let next: PNGChunk?
            do {
                next = try reader.next()
            } catch .truncated(let context) {
                cutShort = context
                break
            } catch {
                throw error
            }
            guard let chunk = next else { break }
            if !chunk.checksumIsValid {
                if chunk.isCritical {
                    throw .chunkChecksumMismatch(
                        chunk: chunk.type, declared: chunk.declaredCRC, computed: chunk.computedCRC)
                }
                if chunk.type == "acTL" {
                    builder.readCorruptAnimationControl()
                } else if ["fcTL", "fdAT"].contains(chunk.type) {
                    builder.breakAnimation("\(chunk.type) chunk has a bad CRC")
                } else {
                    warnings.append(CodecWarning(.ancillaryChunkSkipped, "\(chunk.type) chunk has a bad CRC; skipped"))
                }
                continue
            }
            switch chunk.type {
            case "IHDR":
                throw .malformed(format: .png, reason: "more than one IHDR chunk")
            case "PLTE":
                guard imageData.isEmpty else { throw .malformed(format: .png, reason: "PLTE after IDAT") }
                guard chunk.data.count % 3 == 0, chunk.data.count <= 768, !chunk.data.isEmpty else {
                    throw .malformed(format: .png, reason: "PLTE has \(chunk.data.count) bytes")
                }
                palette = Array(bytes[chunk.data])
            case "tRNS":
                if let problem = transparencyProblem(length: chunk.data.count) {
                    warnings.append(
                        CodecWarning(.ancillaryChunkSkipped, "tRNS chunk \(problem); ignored, as browsers do"))
                } else {
                    transparency = Array(bytes[chunk.data])
                }
            case "IDAT":
                if idatFinished { throw .malformed(format: .png, reason: "IDAT chunks are not consecutive") }
                if imageData.isEmpty { builder.imageDataStarts() }
                imageData.append(chunk.data)
            case "IEND":
                sawIEND = true
            case "acTL":
                builder.readAnimationControl(chunk.data, in: bytes, afterImageData: !imageData.isEmpty)
            case "fcTL":
                builder.readFrameControl(chunk.data, in: bytes)
            case "fdAT":
                builder.readFrameData(chunk.data, in: bytes)
            case "gAMA" where chunk.data.count == 4:
                colorChunks.gamma = bytes.bigEndianUInt32(at: chunk.data.lowerBound)
            case "cHRM" where chunk.data.count == 32:
                colorChunks.chromaticities = (0..<8).map { bytes.bigEndianUInt32(at: chunk.data.lowerBound + 4 * $0) }
            case "sRGB" where chunk.data.count == 1:
                colorChunks.sRGBIntent = bytes[chunk.data.lowerBound]
            case "iCCP":
                let name = bytes[chunk.data].prefix { $0 != 0 }
                colorChunks.iccProfileName = String(decoding: name, as: UTF8.self)
            default:
                if chunk.isCritical {
                    throw .malformed(format: .png, reason: "unknown critical chunk \(chunk.type)")
                }
            }
            if chunk.type != "IDAT", !imageData.isEmpty { idatFinished = true }
            if sawIEND { break }
        }
        guard !imageData.isEmpty else {
            if let cutShort { throw .truncated(context: cutShort) }
            throw sawIEND || reader.isAtEnd ? .malformed(format: .png, reason: "no IDAT chunk") : .noImageData
        }
        if !sawIEND {
            warnings.append(
                CodecWarning(
                    .truncated,
                    cutShort.map { "file ends inside a chunk (\($0)); read up to that chunk" }
                        ?? "file ends without an IEND chunk"))
        }
        if header.colorType == .indexed, palette.isEmpty {
            throw .malformed(format: .png, reason: "indexed image without a PLTE chunk")
        }
        switch builder.finish() {
        case .notAnimated:
            break
        case .broken(let reason):
            warnings.append(
                CodecWarning(.animationIgnored, "APNG animation ignored, showing the default image: \(reason)"))
        case .animated(let numPlays, let frames, let defaultImageIsFirstFrame):
            var frames = frames
            if defaultImageIsFirstFrame { frames[0].dataRanges = imageData }
            try limits.checkAnimation(frames: frames.count, width: header.width, height: header.height)
            animation = (numPlays, frames)
            self.defaultImageIsFirstFrame = defaultImageIsFirstFrame
        }
    }
}
