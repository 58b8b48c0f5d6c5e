import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Decodes an APNG, GIF, PNG, JPEG, WebP, WebM or Lottie file into the frames a browser (or,
/// for WebM and Lottie, Telegram) displays.
///
/// Creating a decoder reads the file's structure only: ``info`` is then complete, limits
/// have been checked, and no pixel has been decoded. Frames come out composited (the whole
/// canvas after each stored frame), premultiplied RGBA8:
///
/// ```swift
/// let decoder = try AnimationDecoder(bytes: fileBytes)
/// var frames = decoder.makeFrameIterator()
/// while let frame = try frames.next() { use(frame.pixels) }   // lazily, one at a time
/// let fifth = try decoder.frame(at: 4)                           // random access
/// let all = try decoder.decodeAllFrames()                        // parallel decode
/// ```
public struct AnimationDecoder: Sendable {
    /// What the file says about itself.
    public let info: AnimationInfo
    /// The limits the file was checked against.
    public let limits: DecodingLimits
    let bytes: [UInt8]
    let source: FrameSource

    /// Reads the structure of `bytes`, sniffing the format from its signature.
    /// - Parameters:
    ///   - bytes: the whole file.
    ///   - limits: the sizes the file may declare, checked before anything is allocated.
    ///   - vectorSize: the size a vector format (Lottie) is drawn at, so a caller that will show
    ///     it at 408 px gets 408 px without resampling, and only that size is held to `limits`;
    ///     `nil` draws at the file's own size.
    ///     Pixel formats ignore it.
    /// - Throws: ``CodecError`` naming the problem; a broken APNG animation is not an
    ///   error (the default image is used, with a warning in ``AnimationInfo/warnings``).
    public init(bytes: [UInt8], limits: DecodingLimits = .default, vectorSize: PixelSize? = nil) throws(CodecError) {
        try self.init(bytes: bytes, limits: limits, drawingVectors: vectorSize.map { .exactly($0) } ?? .document)
    }

    /// Reads the structure of `bytes` as ``init(bytes:limits:vectorSize:)`` does, a vector
    /// format (Lottie) drawn with its longer side `vectorSide` pixels, its aspect kept. Only that
    /// size is held to `limits`, not the document's own: a 4096 px document of 180 frames
    /// (12 GB of frames at its size) drawn at 408 px takes what 408 px frames take.
    public init(bytes: [UInt8], limits: DecodingLimits = .default, vectorSide: Int) throws(CodecError) {
        try self.init(bytes: bytes, limits: limits, drawingVectors: .longerSide(vectorSide))
    }

    private init(bytes: [UInt8], limits: DecodingLimits, drawingVectors vectorSize: LottieFile.RenderSize)
        throws(CodecError)
    {
        try limits.checkFile(bytes: bytes.count)
        guard !bytes.isEmpty else { throw .emptyFile }
        guard let format = ImageFormat.sniff(bytes) else { throw .unknownFormat }
        self.bytes = bytes
        self.limits = limits
        switch format {
        case .png, .apng:
            let file = try PNGFile(parsing: bytes, limits: limits)
            let frames = file.displayedFrames
            let isAPNG = file.animation != nil || file.warnings.contains { $0.kind == .animationIgnored }
            source = .png(file, PNGImageDecoder(file: file), frames: frames)
            info = AnimationInfo(
                format: isAPNG ? .apng : .png, width: file.header.width, height: file.header.height,
                frames: frames.enumerated().map { index, frame in
                    FrameInfo(
                        index: index, rect: frame.control.rect, delay: frame.control.delay,
                        dispose: frame.control.dispose, blend: frame.control.blend)
                },
                loopCount: file.animation?.numPlays, fileSize: bytes.count, warnings: file.warnings,
                details: [
                    "bitDepth": String(file.header.bitDepth),
                    "colorType": file.header.colorType.name,
                    "interlaced": String(file.header.isInterlaced),
                    "defaultImageIsFirstFrame": String(file.animation == nil || file.defaultImageIsFirstFrame)
                ],
                colorChunks: file.colorChunks)
        case .gif:
            let file = try GIFFile(parsing: bytes, limits: limits)
            source = .gif(file)
            info = AnimationInfo(
                format: .gif, width: file.canvasWidth, height: file.canvasHeight,
                frames: file.images.map(\.info), loopCount: file.loopCount, fileSize: bytes.count,
                warnings: file.warnings,
                details: [
                    "version": file.version,
                    "logicalScreen": "\(file.screenWidth)x\(file.screenHeight)",
                    "globalColorTable": String((file.globalPalette?.count ?? 0) / 3),
                    "backgroundIndex": String(file.backgroundIndex)
                ],
                colorChunks: nil)
        case .jpeg:
            let image = try JPEGImage(header: bytes, limits: limits)
            source = .jpeg(image)
            let whole = FrameRect(x: 0, y: 0, width: image.width, height: image.height)
            info = AnimationInfo(
                format: .jpeg, width: image.width, height: image.height,
                frames: [
                    FrameInfo(
                        index: 0, rect: whole, delay: FrameDelay(numerator: 0, denominator: 0),
                        dispose: .none, blend: .source)
                ],
                loopCount: nil, fileSize: bytes.count, warnings: [],
                details: [
                    "components": String(image.components), "progressive": String(image.isProgressive),
                    "exifOrientation": String(image.orientation.rawValue)
                ],
                colorChunks: nil)
        case .webp:
            let file = try WebPFile(parsing: bytes, limits: limits)
            source = .webp(file)
            info = AnimationInfo(
                format: .webp, width: file.canvasWidth, height: file.canvasHeight,
                frames: file.frames.map(\.info), loopCount: file.loopCount, fileSize: bytes.count, warnings: [],
                details: ["animated": String(file.isAnimated)], colorChunks: nil)
        case .webm:
            let file = try WebMFile(parsing: bytes, limits: limits)
            source = .webm(WebMStreams(file: file))
            let whole = FrameRect(x: 0, y: 0, width: file.width, height: file.height)
            info = AnimationInfo(
                format: .webm, width: file.width, height: file.height,
                frames: file.delays.enumerated().map { index, delay in
                    FrameInfo(index: index, rect: whole, delay: delay, dispose: .none, blend: .source)
                },
                loopCount: 0, fileSize: bytes.count, warnings: file.warnings,
                details: [
                    "codec": file.codec == .vp9 ? "VP9" : "VP8",
                    "alpha": String(file.blocks.contains { $0.alpha != nil }),
                    "matrix": file.matrix?.rawValue ?? "from the bitstream (BT.601 if unstated)",
                    "range": file.isFullRange.map { $0 ? "full" : "limited" }
                        ?? "from the bitstream (limited if unstated)"
                ],
                colorChunks: nil)
        case .lottie:
            let file = try LottieFile(parsing: bytes, limits: limits, renderSize: vectorSize)
            source = .lottie(file)
            info = Self.info(of: file, fileSize: bytes.count)
        }
    }

    /// This decoder drawing a vector file (Lottie) at `size` instead: the parsed document is
    /// shared, nothing is read again; `size` is checked against ``limits``. A decoder of a pixel
    /// format is returned as it is.
    public func drawingVectors(at size: PixelSize) throws(CodecError) -> AnimationDecoder {
        guard case .lottie(let file) = source else { return self }
        let drawn = try file.drawn(at: size, limits: limits)
        return AnimationDecoder(
            info: Self.info(of: drawn, fileSize: bytes.count), limits: limits, bytes: bytes, source: .lottie(drawn))
    }

    private init(info: AnimationInfo, limits: DecodingLimits, bytes: [UInt8], source: FrameSource) {
        self.info = info
        self.limits = limits
        self.bytes = bytes
        self.source = source
    }

    /// What a Lottie file says about itself, drawn at its render size.
    private static func info(of file: LottieFile, fileSize: Int) -> AnimationInfo {
        let whole = FrameRect(x: 0, y: 0, width: file.renderWidth, height: file.renderHeight)
        return AnimationInfo(
            format: .lottie, width: file.renderWidth, height: file.renderHeight,
            frames: (0..<file.frameCount).map { index in
                FrameInfo(index: index, rect: whole, delay: file.delay, dispose: .none, blend: .source)
            },
            loopCount: 0, fileSize: fileSize, warnings: file.warnings,
            details: [
                "codec": "Lottie (rlottie)",
                "gzip": String(file.wasGzipped),
                "documentSize": "\(file.width)x\(file.height)",
                "frameRate": String(file.frameRate)
            ],
            colorChunks: nil)
    }

    /// The number of stored frames.
    public var frameCount: Int { info.frames.count }

    /// An iterator that decodes and composites one frame per call to `next()`, holding only
    /// the canvas and one saved rectangle between calls.
    public func makeFrameIterator() -> FrameIterator { FrameIterator(decoder: self) }

    /// The displayed canvas after stored frame `index`. Composition is sequential, so this
    /// decodes frames 0 through `index`; but a Lottie file's frame covers the whole canvas and
    /// replaces it, so it is drawn alone.
    /// - Complexity: O(`index`) frame decodes; one for a Lottie file.
    public func frame(at index: Int) throws(CodecError) -> Frame {
        guard info.frames.indices.contains(index) else {
            throw .frameIndexOutOfRange(index: index, frameCount: info.frames.count)
        }
        if case .lottie = source {
            var alone = FrameIterator(decoder: self, startingAt: index)
            if let frame = try alone.next() { return frame }
        }
        var iterator = makeFrameIterator()
        while let frame = try iterator.next() {
            if frame.info.index == index { return frame }
        }
        throw .frameIndexOutOfRange(index: index, frameCount: info.frames.count)
    }

    /// Every displayed frame. Each frame's compressed data is independent, so layers are
    /// decoded concurrently, `threads` at a time, in a sliding window; they are composited in order,
    /// so the result is identical to ``makeFrameIterator()``'s.
    /// - Parameter threads: worker count; defaults to the number of online cores.
    public func decodeAllFrames(threads: Int = AnimationDecoder.defaultThreadCount) throws(CodecError) -> [Frame] {
        var frames: [Frame] = []
        frames.reserveCapacity(frameCount)
        try forEachFrame(threads: threads) { frames.append($0) }
        return frames
    }

    /// Streams every displayed frame to `body`, in order, decoding up to `threads` layers at
    /// once. Memory stays near the canvas, one saved rectangle and 2 x `threads` layers,
    /// whatever the frame count, as long as `body` does not keep the frames.
    public func forEachFrame(
        threads: Int = AnimationDecoder.defaultThreadCount,
        _ body: (Frame) throws(CodecError) -> Void
    ) throws(CodecError) {
        var canvas: [UInt8] = []
        try forEachFrame(threads: threads, reusing: &canvas, body)
    }

    /// ``forEachFrame(threads:_:)`` compositing into `canvas`, memory the caller keeps between
    /// decodes, as wuffs lets a caller own its pixel buffer: when `canvas` already holds
    /// `width * height * 4` bytes it is used as it is (no allocation, no zeroing, no fresh
    /// pages); otherwise it is replaced by a buffer of that size. Afterwards, even after an
    /// error, `canvas` holds the displayed canvas (the last frame when all went well) and can be
    /// passed to the next decode. Frames handed to `body` share that memory until `body`
    /// returns; one that `body` keeps is copied before its memory is drawn on again. On
    /// several threads, a GIF frame that replaces the whole canvas is drawn by a worker in
    /// memory of its own, which then becomes the canvas (the old canvas's memory serves a later
    /// frame): `canvas` then ends as memory of the right size, not always the memory handed in.
    public func forEachFrame(
        threads: Int = AnimationDecoder.defaultThreadCount, reusing canvas: inout [UInt8],
        _ body: (Frame) throws(CodecError) -> Void
    ) throws(CodecError) {
        if threads <= 1 || frameCount == 1 || !source.framesAreIndependent {
            var iterator = FrameIterator(decoder: self, reusing: canvas)
            canvas = []  // the iterator holds the only reference, so drawing never copies
            defer { canvas = iterator.takeCanvas() }
            while let frame = try iterator.next() { try body(frame) }
            return
        }
        try ParallelFrames(decoder: self, threads: min(threads, frameCount)).run(canvas: &canvas, body)
    }

    /// Decodes every frame once on this thread and reports where the time went. Slower than
    /// a plain decode by the clock reads; used by `stickers bench`.
    public func profilePhases() throws(CodecError) -> DecodePhases {
        var phases = DecodePhases()
        var compositor = Compositor(width: info.width, height: info.height)
        let scratch = DecodeScratch()
        for index in 0..<frameCount {
            let frameInfo = info.frames[index]
            let result = withUnsafeMutablePointer(to: &phases) { recorder in
                compositor.drawRows(info: frameInfo, rowBuffer: scratch.rowBuffer(frameInfo.rect.width)) { target in
                    Result { () throws(CodecError) in
                        try source.decode(index, bytes: bytes, scratch: scratch, target: target, phases: recorder)
                    }
                }
            }
            _ = try result.get()
        }
        return phases
    }

    /// The number of online cores (at least 1).
    public static var defaultThreadCount: Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    /// Decodes stored frame `index`'s own pixels, uncomposited.
    func decodeLayer(_ index: Int) throws(CodecError) -> FrameLayer {
        var storage: [UInt8] = []
        return try source.decodeLayer(index, bytes: bytes, scratch: DecodeScratch(), storage: &storage)
    }

}

/// Decodes and composites frames one at a time, each frame's rows going straight from the
/// unfilter/LZW stage onto the canvas. See ``AnimationDecoder/makeFrameIterator()``.
///
/// An iterator keeps only its canvas between frames: each ``next()`` borrows decoding scratch
/// (inflate buffer, rows, decompressor) from a shared pool and returns it, so many iterators
/// alive at once (a browser's stickers) share a few scratches instead of holding one each.
/// Iterate each iterator (and its copies) from one thread at a time.
public struct FrameIterator {
    private let decoder: AnimationDecoder
    private var compositor: Compositor
    private var nextIndex = 0

    init(decoder: AnimationDecoder, reusing storage: [UInt8] = []) {
        self.decoder = decoder
        compositor = Compositor(width: decoder.info.width, height: decoder.info.height, reusing: storage)
    }

    /// An iterator whose first frame is `index`, drawn on a clear canvas: only for frames that
    /// cover the whole canvas and replace it (a Lottie file's), which owe nothing to the ones
    /// before.
    init(decoder: AnimationDecoder, startingAt index: Int) {
        self.init(decoder: decoder)
        nextIndex = index
    }

    /// The canvas's memory, for a later decode to reuse; the iterator must not be used after.
    mutating func takeCanvas() -> [UInt8] { compositor.takeCanvas() }

    /// The next displayed frame, or `nil` after the last.
    public mutating func next() throws(CodecError) -> Frame? {
        guard nextIndex < decoder.frameCount else { return nil }
        let index = nextIndex
        let frameInfo = decoder.info.frames[index]
        let (source, bytes, scratch) = (decoder.source, decoder.bytes, ScratchPool.shared.take())
        defer { ScratchPool.shared.give(scratch) }
        let result = compositor.drawRows(info: frameInfo, rowBuffer: scratch.rowBuffer(frameInfo.rect.width)) {
            target in
            Result { () throws(CodecError) in try source.decode(index, bytes: bytes, scratch: scratch, target: target) }
        }
        let warnings = try result.get()
        nextIndex += 1
        return Frame(
            info: frameInfo, width: decoder.info.width, height: decoder.info.height,
            pixels: compositor.canvas, warnings: warnings)
    }
}
