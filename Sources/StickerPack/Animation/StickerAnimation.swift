import AnimationCodec
import FoundationEssentials

/// A sticker's pixels over time, whatever its source: one image file (APNG, GIF, PNG, JPEG,
/// WebP, WebM or Lottie) or a `.stickersequence` of stills. Frames come out as whole premultiplied RGBA8 canvases.
public struct StickerAnimation: Sendable {
    /// Canvas width in pixels.
    public let width: Int
    /// Canvas height in pixels.
    public let height: Int
    /// Each frame's stored display time, in order.
    public let delays: [FrameDelay]
    /// How many times a player shows the animation; 0 means forever.
    public let plays: Int
    /// The image files' total size in bytes.
    public let fileBytes: Int
    /// The decoded structure of each file read (one for a file sticker, one per frame for a
    /// sequence).
    public let fileInfos: [AnimationInfo]
    /// What reading the files worked around (damage, a broken animation, layers not drawn),
    /// every file's warnings in order.
    public var fileWarnings: [CodecWarning] { fileInfos.flatMap(\.warnings) }

    private let decoders: [AnimationDecoder]
    private let paths: [String]
    private let isSequence: Bool

    /// Reads `sticker`'s files and their structure (no pixels are decoded yet).
    /// - Parameters:
    ///   - sticker: the sticker, a file or a sequence of files.
    ///   - limits: the codec's limits for every file; files larger than `limits.maxFileBytes`
    ///     are refused before they are read.
    ///   - vectorSide: for a vector file (Lottie), the longer side to draw it at, its aspect
    ///     kept, so a caller that needs that many pixels gets them without resampling (and
    ///     only that size is held to `limits`, not the document's own); `nil` draws it at the
    ///     document's own size. Pixel formats ignore it.
    ///
    /// A sequence's frames are held to the limits together, as one file's are: at most
    /// `maxFrames` of them, `maxFileBytes` read in all (each decoder holds its file) and
    /// `maxTotalDecodedBytes` decoded.
    public static func load(_ sticker: Sticker, limits: DecodingLimits = .default, vectorSide: Int? = nil)
        throws(PackError) -> StickerAnimation
    {
        let sequencePath = sticker.files.first?.deletingLastPathComponent().path ?? sticker.name
        if case .sequence = sticker.source, sticker.files.count > limits.maxFrames {
            throw .codec(path: sequencePath, .limitExceeded(.frames(sticker.files.count, limit: limits.maxFrames)))
        }
        var decoders: [AnimationDecoder] = []
        var total = 0
        for url in sticker.files {
            let bytes = try BoundedFile.read(url.path, maxBytes: limits.maxFileBytes)
            total += bytes.count
            guard total <= limits.maxFileBytes else {
                throw .codec(path: sequencePath, .limitExceeded(.fileBytes(total, limit: limits.maxFileBytes)))
            }
            do {
                // A sequence's frames are each drawn at their own size, vectors or not.
                if case .file = sticker.source, let vectorSide {
                    decoders.append(try AnimationDecoder(bytes: bytes, limits: limits, vectorSide: vectorSide))
                } else {
                    decoders.append(try AnimationDecoder(bytes: bytes, limits: limits))
                }
            } catch {
                throw .codec(path: url.path, error)
            }
        }
        if case .sequence = sticker.source, let first = decoders.first {
            // Every frame is drawn on the first one's canvas, and decoded at its own size first
            // (in floating point: with limits raised far enough, the bytes would not fit an Int).
            func bytes(_ info: AnimationInfo) -> Double { Double(info.width) * Double(info.height) * 4 }
            let exact = max(bytes(first.info) * Double(decoders.count), decoders.reduce(0) { $0 + bytes($1.info) })
            let decoded = exact < 0x1p62 ? Int(exact) : Int.max
            guard decoded <= limits.maxTotalDecodedBytes else {
                throw .codec(
                    path: sequencePath, .limitExceeded(.decodedBytes(decoded, limit: limits.maxTotalDecodedBytes)))
            }
        }
        switch sticker.source {
        case .file:
            let info = decoders[0].info
            return StickerAnimation(
                width: info.width, height: info.height, delays: info.frames.map(\.delay),
                plays: info.plays, fileBytes: total, fileInfos: [info],
                decoders: decoders, paths: sticker.files.map(\.path), isSequence: false)
        case .sequence(let sequence):
            guard let first = decoders.first else { throw .emptySequence(path: sticker.name) }
            let delay = FrameDelay(seconds: sequence.frameSeconds)
            return StickerAnimation(
                width: first.info.width, height: first.info.height,
                delays: Array(repeating: delay, count: decoders.count),
                plays: sequence.plays, fileBytes: total, fileInfos: decoders.map(\.info),
                decoders: decoders, paths: sticker.files.map(\.path), isSequence: true)
        }
    }

    /// Whether the sticker is one vector file (Lottie), which ``drawingVectors(atSide:)`` can
    /// draw at any size.
    public var isVector: Bool { !isSequence && fileInfos[0].format.isVector }

    /// The file's format; `nil` for a sequence of stills.
    public var format: ImageFormat? { isSequence ? nil : fileInfos[0].format }

    /// This sticker drawn with its longer side `side`, its aspect kept, when it is a vector
    /// file (the parsed document is shared, nothing is read again); otherwise, or when it is
    /// drawn at that size already, itself.
    public func drawingVectors(atSide side: Int) throws(PackError) -> StickerAnimation {
        let size = PixelSize(width: width, height: height).scaled(toLongerSide: side)
        guard isVector, size != PixelSize(width: width, height: height) else { return self }
        let decoder: AnimationDecoder
        do {
            decoder = try decoders[0].drawingVectors(at: size)
        } catch {
            throw .codec(path: paths[0], error)
        }
        return StickerAnimation(
            width: size.width, height: size.height, delays: delays, plays: plays, fileBytes: fileBytes,
            fileInfos: [decoder.info], decoders: [decoder], paths: paths, isSequence: false)
    }

    /// The first file's path, for messages.
    public var sourcePath: String { paths[0] }

    /// The number of frames.
    public var frameCount: Int { delays.count }

    /// Whether more than one frame is shown.
    public var isAnimated: Bool { frameCount > 1 }

    /// The bytes all frames take decoded (frames x width x height x 4): what playing the
    /// sticker costs a player that keeps every frame.
    public var decodedBytes: Int { frameCount * width * height * 4 }

    /// Every frame, in order, to `body`, or the first `count` of them (the rest are not
    /// decoded). A file's frames are composited by the codec; a sequence's stills are each
    /// centred on the canvas (the first still's size).
    public func forEachFrame(threads: Int = 1, count: Int? = nil, _ body: (Int, Frame) throws(PackError) -> Void)
        throws(PackError)
    {
        let count = min(count ?? frameCount, frameCount)
        guard count > 0 else { return }
        if !isSequence {
            var index = 0
            var forwarded: PackError?
            var done = false
            do throws(CodecError) {
                try decoders[0].forEachFrame(threads: threads) { (frame: Frame) throws(CodecError) in
                    do throws(PackError) {
                        try body(index, frame)
                    } catch {
                        forwarded = error
                        throw .noImageData  // stops the codec's loop; `forwarded` is rethrown below
                    }
                    index += 1
                    if index == count {
                        done = true
                        throw .noImageData  // stops the codec's loop: the frames asked for are done
                    }
                }
            } catch {
                if done { return }
                if let forwarded { throw forwarded }
                throw .codec(path: paths[0], error)
            }
            return
        }
        for (index, decoder) in decoders.prefix(count).enumerated() {
            let still: Frame
            do {
                still = try decoder.frame(at: 0)
            } catch {
                throw .codec(path: paths[index], error)
            }
            try body(index, centred(still, index: index))
        }
    }

    /// Frame `index` alone (a file's frames before it are decoded on the way).
    public func frame(at index: Int) throws(PackError) -> Frame {
        guard (0..<frameCount).contains(index) else {
            throw .codec(path: paths[0], .frameIndexOutOfRange(index: index, frameCount: frameCount))
        }
        let decoder = isSequence ? decoders[index] : decoders[0]
        do {
            let frame = try decoder.frame(at: isSequence ? 0 : index)
            return isSequence ? centred(frame, index: index) : frame
        } catch {
            throw .codec(path: paths[isSequence ? index : 0], error)
        }
    }

    private func centred(_ still: Frame, index: Int) -> Frame {
        let info = FrameInfo(
            index: index, rect: FrameRect(x: 0, y: 0, width: width, height: height),
            delay: delays[index], dispose: .none, blend: .source)
        if still.width == width && still.height == height {
            return Frame(info: info, width: width, height: height, pixels: still.pixels, warnings: still.warnings)
        }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let dx = (width - still.width) / 2
        let dy = (height - still.height) / 2
        for y in 0..<still.height where (0..<height).contains(y + dy) {
            for x in 0..<still.width where (0..<width).contains(x + dx) {
                let from = (y * still.width + x) * 4
                let to = ((y + dy) * width + x + dx) * 4
                for c in 0..<4 { pixels[to + c] = still.pixels[from + c] }
            }
        }
        return Frame(info: info, width: width, height: height, pixels: pixels, warnings: still.warnings)
    }
}

extension StickerAnimation {
    /// Frames one at a time, in order, decoding lazily.
    public func makeFrameIterator() -> StickerFrameIterator { StickerFrameIterator(animation: self) }

    /// The codec's iterator over a file's frames (`nil` for a sequence).
    func makeCodecIterator() -> FrameIterator? { isSequence ? nil : decoders[0].makeFrameIterator() }

    /// Still `index` of a sequence, centred on the canvas.
    func sequenceFrame(_ index: Int) throws(PackError) -> Frame { try frame(at: index) }
}

/// Yields a ``StickerAnimation``'s frames lazily; see ``StickerAnimation/makeFrameIterator()``.
/// Use each iterator from one thread at a time.
public struct StickerFrameIterator {
    private let animation: StickerAnimation
    private var codec: FrameIterator?
    /// The index of the frame ``next()`` returns.
    public private(set) var nextIndex = 0

    init(animation: StickerAnimation) {
        self.animation = animation
        codec = animation.makeCodecIterator()
    }

    /// The next frame, or `nil` after the last.
    public mutating func next() throws(PackError) -> Frame? {
        guard nextIndex < animation.frameCount else { return nil }
        defer { nextIndex += 1 }
        guard codec != nil else { return try animation.sequenceFrame(nextIndex) }
        do {
            let frame = try codec!.next()
            // After the last frame the decoder is done: let go of its canvas now (the frame
            // keeps the pixels it needs), so a still sticker's memory serves the next decode.
            if nextIndex + 1 == animation.frameCount { codec = nil }
            return frame
        } catch {
            throw .codec(path: animation.fileInfos.isEmpty ? "" : animation.sourcePath, error)
        }
    }
}
