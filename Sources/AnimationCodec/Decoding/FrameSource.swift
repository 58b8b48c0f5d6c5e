/// A parsed file that can decode any one of its frames on its own. Decoding a layer reads
/// only immutable state, so layers can be decoded on several threads at once.
enum FrameSource: Sendable {
    case png(PNGFile, PNGImageDecoder, frames: [PNGFile.StoredFrame])
    case gif(GIFFile)
    case jpeg(JPEGImage)

    /// Decodes stored frame `index`'s own pixels.
    func decodeLayer(_ index: Int, bytes: [UInt8], phases: UnsafeMutablePointer<DecodePhases>? = nil) throws(CodecError) -> FrameLayer {
        switch self {
        case .png(_, let decoder, let frames):
            return try decoder.decode(frames[index], in: bytes, phases: phases)
        case .gif(let file):
            return GIFImageDecoder.decode(file.images[index], in: bytes, phases: phases)
        case .jpeg(let image):
            let start = phases == nil ? 0 : Stopwatch.now()
            defer { phases?.pointee.decompress += phases == nil ? 0 : Stopwatch.seconds(since: start) }
            return try image.decode(bytes)
        }
    }
}
