import CVPX
import Synchronization

/// One libvpx decoder (VP8 or VP9) fed a block at a time.
final class VPXContext {
    private let context = UnsafeMutablePointer<vpx_codec_ctx_t>.allocate(capacity: 1)
    private let codec: WebMFile.Codec

    init(codec: WebMFile.Codec) throws(CodecError) {
        self.codec = codec
        context.initialize(to: vpx_codec_ctx_t())
        guard sticker_vpx_open(context, codec == .vp9 ? 1 : 0) == VPX_CODEC_OK else {
            context.deallocate()
            throw .corruptCompressedData(reason: "libvpx could not open a \(codec) decoder")
        }
    }

    deinit {
        vpx_codec_destroy(context)
        context.deallocate()
    }

    /// Decodes one block's bitstream, after checking every frame size it declares against the
    /// track's; returns the picture it shows, or `nil` when it shows none. The picture is
    /// libvpx's and stays valid until the next call.
    func decode(
        _ payload: ArraySlice<UInt8>, expecting size: (width: Int, height: Int),
        stream: String, block: Int
    ) throws(CodecError) -> UnsafeMutablePointer<vpx_image_t>? {
        for declared in try VPXFrameHeaders.declaredSizes(payload, codec: codec) where declared != size {
            throw .malformed(
                format: .webm,
                reason:
                    "block \(block)'s \(stream) frame is \(declared.width)x\(declared.height), the track is \(size.width)x\(size.height)"
            )
        }
        let data = codec == .vp9 ? VPXFrameHeaders.vp9BlockForDecoding(payload) : Array(payload)
        let status = data.withUnsafeBufferPointer { data in
            vpx_codec_decode(context, data.baseAddress, UInt32(data.count), nil, 0)
        }
        guard status == VPX_CODEC_OK else {
            let detail =
                vpx_codec_error_detail(context).map { String(cString: $0) }
                ?? String(cString: vpx_codec_err_to_string(status))
            throw .corruptCompressedData(reason: "block \(block)'s \(stream) frame: libvpx: \(detail)")
        }
        var iterator: vpx_codec_iter_t?
        var shown: UnsafeMutablePointer<vpx_image_t>?
        while let image = vpx_codec_get_frame(context, &iterator) { shown = image }
        return shown
    }
}

/// A WebM video decoded in order: the colour and alpha decoders and the last block they took.
/// VP8 and VP9 frames depend on the ones before, back to a keyframe, so a frame can only be
/// reached by decoding from one.
final class WebMStream {
    private let file: WebMFile
    private let color: VPXContext
    private var alpha: VPXContext?
    /// The conversion of the last picture (rebuilt only when the matrix or range changes).
    private var converter: YUVConverter?
    /// The last block decoded (-1: none yet).
    private(set) var position = -1
    /// Whether the last picture's alpha came from the alpha stream (a block without alpha data
    /// leaves the alpha decoder behind, so it cannot be used again until a keyframe).
    private var alphaIsCurrent = false

    init(file: WebMFile) throws(CodecError) {
        self.file = file
        color = try VPXContext(codec: file.codec)
    }

    /// Whether this stream can go on to block `index` without starting again at a keyframe: it
    /// stopped before `index`, and no earlier than just before `index`'s keyframe.
    func continues(to index: Int) -> Bool {
        position < index && position >= file.keyframes[index] - 1
    }

    /// Decodes block `index` into premultiplied RGBA in `storage`, decoding the blocks
    /// between from the last keyframe at or before `index` unless this stream
    /// ``continues(to:)`` there.
    func decode(_ index: Int, bytes: [UInt8], storage: inout [UInt8]) throws(CodecError) -> FrameLayer {
        let next = continues(to: index) ? position + 1 : file.keyframes[index]
        var pictures: (color: UnsafeMutablePointer<vpx_image_t>?, alpha: UnsafeMutablePointer<vpx_image_t>?) = (
            nil, nil
        )
        let size = (width: file.width, height: file.height)
        for block in next...index {
            position = -1  // until this block is through, the stream is in no known state
            let stored = file.blocks[block]
            if let picture = try color.decode(bytes[stored.payload], expecting: size, stream: "colour", block: block) {
                pictures.color = picture
            }
            if let range = stored.alpha, stored.isKeyframe || alphaIsCurrent {
                if alpha == nil { alpha = try VPXContext(codec: file.codec) }
                pictures.alpha =
                    try alpha?.decode(bytes[range], expecting: size, stream: "alpha", block: block) ?? pictures.alpha
                alphaIsCurrent = true
            } else {
                alphaIsCurrent = false
                pictures.alpha = nil
            }
            position = block
        }
        guard let picture = pictures.color else {
            throw .malformed(format: .webm, reason: "block \(index) shows no picture")
        }
        LayerStorage.prepare(&storage, count: file.width * file.height * 4)
        try convert(picture, alpha: alphaIsCurrent ? pictures.alpha : nil, into: &storage, block: index)
        return FrameLayer(rect: FrameRect(x: 0, y: 0, width: file.width, height: file.height), pixels: storage)
    }

    /// The container's matrix and range where it gives them, else the bitstream's (VP9 carries
    /// both; VP8 neither), else BT.601 in limited range.
    private func converter(for image: vpx_image_t) -> YUVConverter {
        let matrix = file.matrix ?? (image.cs == VPX_CS_BT_709 ? .bt709 : image.cs == VPX_CS_BT_2020 ? .bt2020 : .bt601)
        let isFullRange = file.isFullRange ?? (image.range == VPX_CR_FULL_RANGE)
        if let converter, converter.matrix == matrix, converter.isFullRange == isFullRange { return converter }
        let made = YUVConverter(matrix: matrix, isFullRange: isFullRange)
        converter = made
        return made
    }

    private func convert(
        _ picture: UnsafeMutablePointer<vpx_image_t>, alpha: UnsafeMutablePointer<vpx_image_t>?,
        into storage: inout [UInt8], block: Int
    ) throws(CodecError) {
        let image = picture.pointee
        guard image.fmt.rawValue & UInt32(VPX_IMG_FMT_HIGHBITDEPTH) == 0, image.bit_depth == 8 else {
            throw .malformed(
                format: .webm, reason: "block \(block) is \(image.bit_depth)-bit; only 8-bit video is supported")
        }
        for (name, decoded) in [("colour", image), ("alpha", alpha?.pointee)] {
            guard let decoded else { continue }
            guard Int(decoded.d_w) == file.width, Int(decoded.d_h) == file.height else {
                throw .malformed(
                    format: .webm,
                    reason:
                        "block \(block)'s \(name) picture is \(decoded.d_w)x\(decoded.d_h), the track is \(file.width)x\(file.height)"
                )
            }
        }
        guard let y = image.planes.0, let cb = image.planes.1, let cr = image.planes.2 else {
            throw .malformed(format: .webm, reason: "block \(block): libvpx returned a picture without planes")
        }
        let planes = YUVConverter.Planes(
            y: UnsafePointer(y), yStride: Int(image.stride.0),
            cb: UnsafePointer(cb), cbStride: Int(image.stride.1),
            cr: UnsafePointer(cr), crStride: Int(image.stride.2),
            chromaShiftX: Int(image.x_chroma_shift), chromaShiftY: Int(image.y_chroma_shift),
            alpha: alpha?.pointee.planes.0.map { UnsafePointer($0) }, alphaStride: Int(alpha?.pointee.stride.0 ?? 0))
        let conversion = converter(for: image)
        storage.withUnsafeMutableBufferPointer { target in
            conversion.convert(planes, width: file.width, height: file.height, into: target.baseAddress!)
        }
    }
}

/// The decoding streams of one WebM file, shared by every iterator over it: a stream that
/// stopped just before the frame asked for is taken up again, so decoding in order costs one
/// block a frame, and a few iterators at different places each keep their own stream.
final class WebMStreams: Sendable {
    let file: WebMFile
    /// Streams not in use, the most recently used last.
    private let idle = Mutex<[UncheckedStream]>([])
    private static let maxIdle = 4

    /// A stream moved between threads: it is used by one thread at a time, taken from and
    /// given back to ``idle`` under its lock.
    private struct UncheckedStream: @unchecked Sendable { let stream: WebMStream }

    init(file: WebMFile) { self.file = file }

    /// Decodes block `index` with the stream closest before it (a new one when none is).
    func decode(_ index: Int, bytes: [UInt8], storage: inout [UInt8]) throws(CodecError) -> FrameLayer {
        let reusable = idle.withLock { idle -> WebMStream? in
            let candidates = idle.indices.filter { idle[$0].stream.continues(to: index) }
            guard let best = candidates.max(by: { idle[$0].stream.position < idle[$1].stream.position }) else {
                return nil
            }
            return idle.remove(at: best).stream
        }
        let stream: WebMStream
        if let reusable { stream = reusable } else { stream = try WebMStream(file: file) }
        let layer = try stream.decode(index, bytes: bytes, storage: &storage)
        let kept = UncheckedStream(stream: stream)
        idle.withLock { idle in
            idle.append(kept)
            if idle.count > Self.maxIdle { idle.removeFirst() }
        }
        return layer
    }
}
