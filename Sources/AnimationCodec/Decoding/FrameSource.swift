/// A parsed file that can decode any one of its frames on its own. Decoding reads only
/// immutable state (plus the caller's own scratch), so frames can be decoded on several
/// threads at once.
enum FrameSource: Sendable {
    case png(PNGFile, PNGImageDecoder, frames: [PNGFile.StoredFrame])
    case gif(GIFFile)
    case jpeg(JPEGImage)
    case webp(WebPFile)
    case webm(WebMStreams)
    case lottie(LottieFile)

    /// Whether any frame decodes without the ones before it. A WebM frame depends on the
    /// frames back to its keyframe, so it is decoded in order on one thread.
    var framesAreIndependent: Bool {
        if case .webm = self { return false }
        return true
    }

    /// Decodes stored frame `index` onto `target`; returns warnings about its data.
    func decode(
        _ index: Int, bytes: [UInt8], scratch: DecodeScratch, target: RowTarget,
        phases: UnsafeMutablePointer<DecodePhases>? = nil
    ) throws(CodecError) -> [CodecWarning] {
        switch self {
        case .png(_, let decoder, let frames):
            try decoder.decode(frames[index], in: bytes, scratch: scratch, target: target, phases: phases)
            return []
        case .gif(let file):
            return GIFImageDecoder.decode(
                file.images[index], in: bytes, scratch: scratch, target: target, phases: phases)
        case .jpeg, .webp, .webm, .lottie:
            // Whole-image decoders: the layer is decoded, then its rows go through the target.
            let start = phases == nil ? 0 : Stopwatch.now()
            defer { phases?.pointee.decompress += phases == nil ? 0 : Stopwatch.seconds(since: start) }
            var storage: [UInt8] = []
            let layer = try decodeLayer(index, bytes: bytes, scratch: scratch, storage: &storage)
            layer.pixels.withUnsafeBytes { source in
                target.copyRows(
                    from: source.baseAddress!.assumingMemoryBound(to: UInt32.self),
                    width: layer.rect.width, height: layer.rect.height)
            }
            return layer.warnings
        }
    }

    /// Decodes stored frame `index`'s own pixels into a layer (the parallel path), reusing
    /// `storage`'s memory.
    func decodeLayer(_ index: Int, bytes: [UInt8], scratch: DecodeScratch, storage: inout [UInt8]) throws(CodecError)
        -> FrameLayer
    {
        switch self {
        case .png(_, let decoder, let frames):
            return try decoder.decodeLayer(frames[index], in: bytes, scratch: scratch, storage: &storage)
        case .gif(let file):
            return GIFImageDecoder.decodeLayer(file.images[index], in: bytes, scratch: scratch, storage: &storage)
        case .jpeg(let image):
            return try image.decode(bytes)
        case .webp(let file):
            return try file.decodeLayer(index, bytes: bytes, storage: &storage)
        case .webm(let streams):
            return try streams.decode(index, bytes: bytes, storage: &storage)
        case .lottie(let file):
            return try file.decodeLayer(index, storage: &storage)
        }
    }

    /// A frame decoded by a worker, ready for the compositing thread.
    enum Prepared: Sendable {
        /// Premultiplied pixels of the frame's rectangle.
        case layer(FrameLayer)
        /// GIF palette indexes, `written` of them, left in the worker's storage: drawing them
        /// through the palette straight onto the canvas is cheaper than a pixel layer.
        case gifIndexes(written: Int, warnings: [CodecWarning])
        /// PNG rows inflated and unfiltered in the worker's scratch, to convert onto the canvas.
        case pngUnfiltered
        /// A GIF frame that replaces the whole canvas, drawn through its palette by the worker
        /// (see ``Compositor/replaceCanvas(with:info:)``): the compositing thread takes its
        /// memory as the canvas instead of drawing it.
        case canvas(FrameLayer)
    }

    /// The worker's half of the parallel path: everything that does not touch the canvas.
    /// With `asCanvas`, a GIF frame known to replace the whole canvas is drawn whole here.
    /// With `takingOver`, the memory the decompressor writes (GIF indexes, inflated PNG rows)
    /// was last read on another core and is taken over first (``CacheHandoff``).
    func prepare(
        _ index: Int, bytes: [UInt8], scratch: DecodeScratch, storage: inout [UInt8],
        asCanvas: Bool = false, takingOver: Bool = false
    ) throws(CodecError) -> Prepared {
        if case .png(_, let decoder, let frames) = self,
            try decoder.inflateAndUnfilter(frames[index], in: bytes, scratch: scratch, takingOver: takingOver)
        {
            return .pngUnfiltered
        }
        guard case .gif(let file) = self else {
            return .layer(try decodeLayer(index, bytes: bytes, scratch: scratch, storage: &storage))
        }
        let image = file.images[index]
        if asCanvas {
            return .canvas(
                GIFImageDecoder.decodeLayer(
                    image, in: bytes, scratch: scratch, storage: &storage, takingOver: takingOver))
        }
        let pixelCount = image.info.rect.width * image.info.rect.height
        LayerStorage.reserve(&storage, atLeast: pixelCount)
        let decoded = storage.withUnsafeMutableBufferPointer { whole in
            let indexes = UnsafeMutableBufferPointer(rebasing: whole[..<pixelCount])
            if takingOver { CacheHandoff.takeOver(UnsafeMutableRawBufferPointer(indexes)) }
            return GIFImageDecoder.decompress(image, in: bytes, scratch: scratch, into: indexes)
        }
        return .gifIndexes(written: decoded.written, warnings: decoded.warnings)
    }

    /// The compositing thread's half: draws a prepared frame; returns its warnings.
    func composite(
        _ prepared: Prepared, index: Int, storage: [UInt8], scratch: DecodeScratch, info: FrameInfo,
        onto compositor: inout Compositor, rowBuffer: UnsafeMutablePointer<UInt32>
    ) -> [CodecWarning] {
        switch (prepared, self) {
        case (.layer(let layer), _), (.canvas(let layer), _):
            compositor.draw(layer, info: info, rowBuffer: rowBuffer)
            return layer.warnings
        case (.gifIndexes(let written, let warnings), .gif(let file)):
            storage.withUnsafeBufferPointer { indexes in
                compositor.drawRows(info: info, rowBuffer: rowBuffer) { target in
                    GIFImageDecoder.draw(
                        file.images[index], indexes: indexes.baseAddress!, written: written, onto: target)
                }
            }
            return warnings
        case (.pngUnfiltered, .png(_, let decoder, let frames)):
            compositor.drawRows(info: info, rowBuffer: rowBuffer) { target in
                decoder.convertUnfiltered(frames[index], scratch: scratch, target: target)
            }
            return []
        case (.gifIndexes, _), (.pngUnfiltered, _):
            preconditionFailure("prepared frame does not match its source")
        }
    }
}
