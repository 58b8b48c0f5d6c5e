import CWebP

/// A WebP file's structure, read by libwebp's demuxer: the canvas, each frame's rectangle,
/// timing and ops, and where its bitstream lies in the file. Still (VP8/VP8L) and animated
/// (ANIM/ANMF) files alike; a still is one frame covering the canvas.
struct WebPFile: Sendable {
    /// One stored frame: what the compositor needs and the byte range of its bitstream
    /// (VP8 or VP8L, with its ALPH chunk), which libwebp decodes on its own.
    struct StoredFrame: Sendable {
        var info: FrameInfo
        var payload: Range<Int>
    }

    var canvasWidth: Int
    var canvasHeight: Int
    var frames: [StoredFrame]
    /// ANIM's loop count (0 = forever); `nil` for a still.
    var loopCount: Int?
    var isAnimated: Bool

    /// Parses `bytes`, checking the canvas and the frame count against `limits` before any
    /// pixel is decoded.
    init(parsing bytes: [UInt8], limits: DecodingLimits) throws(CodecError) {
        let parsed: Result<WebPFile, CodecError> = bytes.withUnsafeBufferPointer { buffer in
            var data = WebPData(bytes: buffer.baseAddress, size: buffer.count)
            guard let demuxer = WebPDemux(&data) else {
                return .failure(Self.whyNotDemuxable(bytes))
            }
            defer { WebPDemuxDelete(demuxer) }
            let width = Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_WIDTH))
            let height = Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_HEIGHT))
            let count = Int(WebPDemuxGetI(demuxer, WEBP_FF_FRAME_COUNT))
            let flags = WebPDemuxGetI(demuxer, WEBP_FF_FORMAT_FLAGS)
            let animated = flags & UInt32(ANIMATION_FLAG.rawValue) != 0
            do throws(CodecError) {
                guard width > 0, height > 0, count > 0 else { throw .noImageData }
                try limits.checkCanvas(width: width, height: height)
                try limits.checkAnimation(frames: count, width: width, height: height)
            } catch {
                return .failure(error)
            }
            var frames: [StoredFrame] = []
            frames.reserveCapacity(count)
            var iterator = WebPIterator()
            guard WebPDemuxGetFrame(demuxer, 1, &iterator) != 0 else { return .failure(.noImageData) }
            defer { WebPDemuxReleaseIterator(&iterator) }
            let base = buffer.baseAddress!
            repeat {
                let start = UnsafePointer(iterator.fragment.bytes!) - base
                let rect = FrameRect(
                    x: Int(iterator.x_offset), y: Int(iterator.y_offset),
                    width: Int(iterator.width), height: Int(iterator.height))
                let info = FrameInfo(
                    index: frames.count, rect: rect,
                    delay: animated
                        ? FrameDelay(numerator: Int(iterator.duration), denominator: 1000)
                        : FrameDelay(numerator: 0, denominator: 0),
                    dispose: iterator.dispose_method == WEBP_MUX_DISPOSE_BACKGROUND ? .background : .none,
                    // A still has nothing under it; an animation frame blends unless told not to.
                    blend: animated && iterator.blend_method == WEBP_MUX_BLEND ? .over : .source)
                frames.append(StoredFrame(info: info, payload: start..<start + iterator.fragment.size))
            } while WebPDemuxNextFrame(&iterator) != 0
            let loops = animated ? Int(WebPDemuxGetI(demuxer, WEBP_FF_LOOP_COUNT)) : nil
            return .success(
                WebPFile(
                    canvasWidth: width, canvasHeight: height, frames: frames, loopCount: loops, isAnimated: animated))
        }
        self = try parsed.get()
    }

    private init(canvasWidth: Int, canvasHeight: Int, frames: [StoredFrame], loopCount: Int?, isAnimated: Bool) {
        self.canvasWidth = canvasWidth
        self.canvasHeight = canvasHeight
        self.frames = frames
        self.loopCount = loopCount
        self.isAnimated = isAnimated
    }

    /// The demuxer says only "no": tell a file cut short from one that is broken.
    private static func whyNotDemuxable(_ bytes: [UInt8]) -> CodecError {
        guard bytes.count >= 12 else { return .truncated(context: "RIFF header") }
        let declared = Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24
        if declared + 8 > bytes.count {
            return .truncated(context: "RIFF declares \(declared + 8) bytes, file has \(bytes.count)")
        }
        return .malformed(format: .webp, reason: "libwebp's demuxer rejects the container")
    }

    /// Decodes frame `index`'s bitstream into a premultiplied layer, reusing `storage`.
    func decodeLayer(_ index: Int, bytes: [UInt8], storage: inout [UInt8]) throws(CodecError) -> FrameLayer {
        let frame = frames[index]
        let rect = frame.info.rect
        LayerStorage.prepare(&storage, count: rect.width * rect.height * 4)
        let status = bytes.withUnsafeBufferPointer { source in
            storage.withUnsafeMutableBufferPointer { target in
                var config = WebPDecoderConfig()
                guard WebPInitDecoderConfig(&config) != 0 else { return VP8_STATUS_INVALID_PARAM }
                config.output.colorspace = MODE_rgbA  // premultiplied RGBA8, the codec's own form
                config.output.is_external_memory = 1
                config.output.u.RGBA.rgba = target.baseAddress
                config.output.u.RGBA.stride = Int32(rect.width * 4)
                config.output.u.RGBA.size = target.count
                // Safe: the payload range was taken from the demuxer's view of these same bytes.
                let status = WebPDecode(source.baseAddress! + frame.payload.lowerBound, frame.payload.count, &config)
                if status == VP8_STATUS_OK
                    && (config.input.width != Int32(rect.width) || config.input.height != Int32(rect.height))
                {
                    return VP8_STATUS_BITSTREAM_ERROR
                }
                return status
            }
        }
        guard status == VP8_STATUS_OK else { throw Self.error(status, frame: index) }
        return FrameLayer(rect: rect, pixels: storage)
    }

    private static func error(_ status: VP8StatusCode, frame: Int) -> CodecError {
        switch status {
        case VP8_STATUS_NOT_ENOUGH_DATA: return .truncated(context: "WebP frame \(frame)'s bitstream")
        case VP8_STATUS_OUT_OF_MEMORY:
            return .corruptCompressedData(reason: "libwebp ran out of memory on frame \(frame)")
        default:
            return .malformed(
                format: .webp, reason: "frame \(frame): libwebp status \(status.rawValue) (bitstream error)")
        }
    }
}
