/// A parsed file that can decode any one of its frames on its own. Decoding reads only
/// immutable state (plus the caller's own scratch), so frames can be decoded on several
/// threads at once.
enum FrameSource: Sendable {
    case png(PNGFile, PNGImageDecoder, frames: [PNGFile.StoredFrame])
    case gif(GIFFile)
    case jpeg(JPEGImage)

    /// Decodes stored frame `index` onto `target`; returns warnings about its data.
    func decode(_ index: Int, bytes: [UInt8], scratch: DecodeScratch, target: RowTarget,
                phases: UnsafeMutablePointer<DecodePhases>? = nil) throws(CodecError) -> [CodecWarning] {
        switch self {
        case .png(_, let decoder, let frames):
            try decoder.decode(frames[index], in: bytes, scratch: scratch, target: target, phases: phases)
            return []
        case .gif(let file):
            return GIFImageDecoder.decode(file.images[index], in: bytes, scratch: scratch, target: target, phases: phases)
        case .jpeg(let image):
            let start = phases == nil ? 0 : Stopwatch.now()
            defer { phases?.pointee.decompress += phases == nil ? 0 : Stopwatch.seconds(since: start) }
            let layer = try image.decode(bytes)
            layer.pixels.withUnsafeBytes { source in
                let pixels = source.baseAddress!.assumingMemoryBound(to: UInt32.self)
                for y in 0..<layer.rect.height {
                    target.destination(row: y).update(from: pixels + y * layer.rect.width, count: layer.rect.width)
                    target.commit(row: y)
                }
            }
            return []
        }
    }

    /// Decodes stored frame `index`'s own pixels into a layer (the parallel path).
    func decodeLayer(_ index: Int, bytes: [UInt8], scratch: DecodeScratch) throws(CodecError) -> FrameLayer {
        switch self {
        case .png(_, let decoder, let frames):
            return try decoder.decodeLayer(frames[index], in: bytes, scratch: scratch)
        case .gif(let file):
            return GIFImageDecoder.decodeLayer(file.images[index], in: bytes, scratch: scratch)
        case .jpeg(let image):
            return try image.decode(bytes)
        }
    }
}
