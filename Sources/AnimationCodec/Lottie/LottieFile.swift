import CLottie
import Synchronization

/// A Lottie animation (Telegram's `.tgs`, gzipped, or a Bodymovin `.json`), checked by our own
/// JSON reader and rendered by rlottie straight at the size asked for: a vector has no
/// resampling loss, so a caller that needs 408 px asks for 408 px.
struct LottieFile: Sendable {
    /// The document's own canvas.
    var width: Int
    var height: Int
    /// The size frames are rendered at (the document's own unless asked otherwise).
    var renderWidth: Int
    var renderHeight: Int
    var frameRate: Double
    var frameCount: Int
    var wasGzipped: Bool
    /// What the document holds that rlottie does not draw (text layers, expressions).
    var warnings: [CodecWarning] = []
    /// Why frames cannot be drawn at the render size: a document read at its own size whose
    /// frames there would exceed the limits is still read (its facts are known, and it can be
    /// drawn smaller, ``drawn(at:limits:)``), but drawing a frame at that size throws this
    /// before rlottie draws anything.
    private var refusal: CodecError?
    private let renderers: LottieRenderers

    /// The size a document is drawn at.
    enum RenderSize {
        /// Its own canvas.
        case document
        /// Exactly this size.
        case exactly(PixelSize)
        /// Its longer side this many pixels, its aspect kept (``PixelSize/scaled(toLongerSide:)``).
        case longerSide(Int)
    }

    /// Parses `bytes` (gzip or plain JSON), checking the inflated size, the size it is drawn
    /// at and the frame count against `limits` before rlottie reads the document. Only the
    /// size drawn at is held to the limits: a document's own canvas is a coordinate space, and
    /// a 4096 px document drawn at 408 px costs what 408 px costs. Read at its own size, a
    /// document whose frames there would take more bytes than the limits allow is read, and
    /// refuses to draw a frame at that size.
    init(parsing bytes: [UInt8], limits: DecodingLimits, renderSize: RenderSize) throws(CodecError) {
        wasGzipped = bytes.starts(with: Gunzip.signature)
        var json = wasGzipped ? try Gunzip.inflate(bytes, maxBytes: limits.maxFileBytes) : bytes
        var document: LottieJSON
        do {
            document = try LottieJSON.read(json)
        } catch {
            guard let offset = error.offset else { throw .malformed(format: .lottie, reason: error.reason) }
            if error.endedEarly {
                throw .truncated(context: "Lottie JSON ends at byte \(offset): \(error.reason)")
            }
            throw .malformed(format: .lottie, reason: "JSON at byte \(offset): \(error.reason)")
        }
        func number(_ key: String) throws(CodecError) -> Double {
            guard let value = document.numbers[key], value.isFinite else {
                throw .malformed(format: .lottie, reason: "the document has no number \"\(key)\"")
            }
            return value
        }
        let (w, h, rate, inPoint, outPoint) = (
            try number("w"), try number("h"), try number("fr"), try number("ip"), try number("op")
        )
        guard document.arrays.contains("layers") else {
            throw .malformed(format: .lottie, reason: "the document has no \"layers\" array")
        }
        guard w >= 1, h >= 1, w < 1e9, h < 1e9 else {
            throw .malformed(format: .lottie, reason: "the canvas is \(w)x\(h)")
        }
        guard (LottieFile.frameRates).contains(rate) else {
            throw .malformed(
                format: .lottie,
                reason:
                    "frame rate \(rate) is not between \(LottieFile.frameRates.lowerBound) and \(LottieFile.frameRates.upperBound)"
            )
        }
        guard abs(inPoint) < 1e9, abs(outPoint) < 1e9 else {
            throw .malformed(
                format: .lottie,
                reason: "in point \(inPoint) or out point \(outPoint) is not under a billion frames from 0")
        }
        guard outPoint - inPoint >= 1 else {
            throw .malformed(
                format: .lottie, reason: "out point \(outPoint) is not at least one frame after in point \(inPoint)")
        }
        width = Int(w)
        height = Int(h)
        if document.textLayers > 0 {
            warnings.append(
                CodecWarning(
                    .notDrawn,
                    "\(counted(document.textLayers, "text layer")) left out: rlottie does not draw Lottie text (convert text to shapes in the editor)"
                ))
        }
        if document.expressions > 0 {
            warnings.append(
                CodecWarning(
                    .notDrawn,
                    "\(counted(document.expressions, "expression")) ignored: rlottie does not run Lottie expressions, so those properties keep their static values (bake the expressions into keyframes)"
                ))
        }
        if document.mattedSolidOrImageLayers > 0 {
            warnings.append(
                CodecWarning(
                    .notDrawn,
                    "\(counted(document.mattedSolidOrImageLayers, "matted solid or image layer")) may be left out: rlottie draws nothing of such a layer under a track matte unless it covers the whole canvas (make it a shape layer in the editor)"
                ))
        }
        if !document.mattedShapeLayers.isEmpty {
            let drawable = LottieTrackMatte.drawable(json, document: document)
            // The same document with more in it, read again for the offsets of what follows; one
            // the added drawings take past the nesting limit is drawn as it is, and says so.
            if let reread = try? LottieJSON.read(drawable) {
                (json, document) = (drawable, reread)
            } else {
                warnings.append(
                    CodecWarning(
                        .notDrawn,
                        "\(counted(document.mattedShapeLayers.count, "matted shape layer")) may be left out: rlottie draws nothing of a layer of one fill under a track matte, and the document is nested too deeply to work around it"
                    ))
            }
        }
        let drawn: PixelSize
        switch renderSize {
        case .document: drawn = PixelSize(width: width, height: height)
        case .exactly(let size): drawn = size
        case .longerSide(let side): drawn = PixelSize(width: width, height: height).scaled(toLongerSide: side)
        }
        (renderWidth, renderHeight) = (drawn.width, drawn.height)
        // rlottie counts frames as Int(op) - Int(ip); checked before it parses the document.
        var declaredFrames = Int(outPoint) - Int(inPoint)
        if inPoint < 0 {
            json = try LottieInPointShift.shifted(json, document: document, inPoint: inPoint, outPoint: outPoint)
            declaredFrames = Int(outPoint - inPoint)
        }
        do {
            try Self.check(drawn, frames: declaredFrames, limits: limits)
        } catch {
            // Only the frames' bytes at the document's own size: it may be drawn smaller.
            guard case .document = renderSize, case .limitExceeded(.decodedBytes) = error else { throw error }
            refusal = error
        }
        json.append(0)  // rlottie takes a C string
        renderers = LottieRenderers(json: json)
        let (parsedFrames, parsedRate) = try renderers.withAnimation { animation in
            (sticker_lottie_total_frames(animation), sticker_lottie_frame_rate(animation))
        }
        guard parsedFrames >= 1, parsedFrames <= max(declaredFrames, 1) else {
            throw .malformed(
                format: .lottie,
                reason: "rlottie reads \(parsedFrames) frames where the document declares \(declaredFrames)")
        }
        frameCount = Int(parsedFrames)
        // rlottie keeps the rate as a float: the document's own number (29.97, not 29.9699993)
        // is kept when the two agree.
        frameRate =
            abs(parsedRate - rate) <= rate * 1e-6 || !LottieFile.frameRates.contains(parsedRate) ? rate : parsedRate
    }

    /// This document drawn at `size`, checked against `limits`: the parsed document and its
    /// rlottie animations are shared, nothing is read again.
    func drawn(at size: PixelSize, limits: DecodingLimits) throws(CodecError) -> LottieFile {
        try Self.check(size, frames: frameCount, limits: limits)
        var drawn = self
        drawn.renderWidth = size.width
        drawn.renderHeight = size.height
        drawn.refusal = nil
        return drawn
    }

    /// Throws unless `frames` frames drawn at `size` fit `limits`.
    private static func check(_ size: PixelSize, frames: Int, limits: DecodingLimits) throws(CodecError) {
        guard size.width >= 1, size.height >= 1 else {
            throw .malformed(format: .lottie, reason: "asked to render at \(size)")
        }
        try limits.checkCanvas(width: size.width, height: size.height)
        try limits.checkAnimation(frames: frames, width: size.width, height: size.height)
    }

    /// The frame rates accepted (frames a second): a frame shows for 1 ms to 100 s.
    static let frameRates = 0.01...1000.0

    /// Each frame's display time: one frame at the document's rate, stored by the one rule
    /// (``FrameDelay/init(seconds:)``): exact when a fraction fits (1/60 s at 60 fps, 100/2997 s
    /// at 29.97), so frame start times add up.
    var delay: FrameDelay { FrameDelay(seconds: 1 / frameRate) }

    /// Renders frame `index` into a premultiplied RGBA layer in `storage`.
    func decodeLayer(_ index: Int, storage: inout [UInt8]) throws(CodecError) -> FrameLayer {
        if let refusal { throw refusal }
        let (width, height) = (renderWidth, renderHeight)
        LayerStorage.prepare(&storage, count: width * height * 4)
        try renderers.withAnimation { animation in
            storage.withUnsafeMutableBytes { target in
                target.initializeMemory(as: UInt8.self, repeating: 0)  // rlottie draws over what is there
                let pixels = target.baseAddress!.assumingMemoryBound(to: UInt32.self)
                sticker_lottie_render(animation, index, pixels, width, height, width * 4)
                Self.convertToRGBA(pixels, count: width * height)
            }
        }
        return FrameLayer(rect: FrameRect(x: 0, y: 0, width: width, height: height), pixels: storage)
    }

    /// rlottie's pixels are premultiplied ARGB in 32-bit words (B, G, R, A in memory on a
    /// little-endian machine); the codec's are R, G, B, A. A colour above its alpha (rlottie's
    /// rounding can leave one) is clamped to it, so every pixel is validly premultiplied.
    private static func convertToRGBA(_ pixels: UnsafeMutablePointer<UInt32>, count: Int) {
        for index in 0..<count {
            let argb = UInt32(littleEndian: pixels[index])
            let alpha = argb >> 24
            let red = min((argb >> 16) & 0xFF, alpha)
            let green = min((argb >> 8) & 0xFF, alpha)
            let blue = min(argb & 0xFF, alpha)
            pixels[index] = (red | green << 8 | blue << 16 | alpha << 24).littleEndian
        }
    }
}

/// A width and a height in pixels.
public struct PixelSize: Sendable, Hashable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// Creates a size.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// `WxH`.
    public var description: String { "\(width)x\(height)" }

    /// This size scaled so that its longer side is `side`, its aspect kept (each side rounded,
    /// at least 1): 4096 x 2048 to 408 is 408 x 204.
    public func scaled(toLongerSide side: Int) -> PixelSize {
        let scale = Double(side) / Double(max(width, height, 1))
        return PixelSize(
            width: max(1, Int((Double(width) * scale).rounded())),
            height: max(1, Int((Double(height) * scale).rounded())))
    }
}

/// The rlottie animations of one document, parsed on demand and reused: an animation renders
/// on one thread at a time, so each thread decoding the file takes one of its own.
final class LottieRenderers: Sendable {
    private let json: [UInt8]
    private let idle = Mutex<[UncheckedAnimation]>([])

    /// An rlottie animation moved between threads under ``idle``'s lock.
    private struct UncheckedAnimation: @unchecked Sendable { let pointer: OpaquePointer }

    /// `json` ends with a zero byte.
    init(json: [UInt8]) { self.json = json }

    deinit {
        idle.withLock { idle in
            for animation in idle { sticker_lottie_destroy(animation.pointer) }
        }
    }

    /// Runs `body` with an animation no other thread is using.
    func withAnimation<Result>(_ body: (OpaquePointer) -> Result) throws(CodecError) -> Result {
        let reused = idle.withLock { $0.popLast() }
        let animation: OpaquePointer
        if let reused { animation = reused.pointer } else { animation = try parse() }
        defer { idle.withLock { $0.append(UncheckedAnimation(pointer: animation)) } }
        return body(animation)
    }

    private func parse() throws(CodecError) -> OpaquePointer {
        guard sticker_lottie_load() != 0 else {
            throw .missingLibrary(
                format: .lottie, library: String(cString: sticker_lottie_library_name()), package: "librlottie0-1")
        }
        let animation = json.withUnsafeBufferPointer { text in
            text.withMemoryRebound(to: CChar.self) { sticker_lottie_from_data($0.baseAddress) }
        }
        guard let animation else { throw .malformed(format: .lottie, reason: "rlottie cannot read the animation") }
        return animation
    }
}
