import AnimationCodec
import CBaselines
import CZlib

/// The APNG/PNG baseline, as a plain C harness runs libpng: every frame rebuilt as a
/// standalone PNG stream (done once, before timing), decoded by libpng's `png_read_image` into
/// one reused buffer, and composited in C into a canvas kept between runs
/// (`baseline_apng_composite`), in straight alpha as the harness does.
final class LibPNGBaseline {
    let info: AnimationInfo
    /// One complete PNG stream per displayed frame.
    let streams: [[UInt8]]
    private var buffers = baseline_buffers()
    private let placements: [baseline_frame]

    init?(bytes: [UInt8], info: AnimationInfo) {
        guard info.format == .png || info.format == .apng else { return nil }
        self.info = info
        placements = info.frames.map { frame in
            baseline_frame(
                x: UInt32(frame.rect.x), y: UInt32(frame.rect.y), width: UInt32(frame.rect.width),
                height: UInt32(frame.rect.height),
                dispose: frame.dispose == .none ? 0 : frame.dispose == .background ? 1 : 2,
                blend: frame.blend == .over ? 1 : 0)
        }
        if info.format == .png {
            streams = [bytes]
            return
        }
        // Walk the chunks: IHDR's tail, PLTE/tRNS, and each fcTL's IDAT or fdAT payloads.
        var header: [UInt8] = []
        var extras: [(String, [UInt8])] = []
        var frames: [[UInt8]] = []
        var imageData: [UInt8] = []
        var fcTLBeforeIDAT = false
        var offset = 8
        while offset + 12 <= bytes.count {
            let length =
                Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
                | Int(bytes[offset + 3])
            guard offset + 12 + length <= bytes.count else { return nil }
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let data = Array(bytes[(offset + 8)..<(offset + 8 + length)])
            switch type {
            case "IHDR": header = data
            case "PLTE", "tRNS": extras.append((type, data))
            case "fcTL":
                if imageData.isEmpty && frames.isEmpty { fcTLBeforeIDAT = true }
                frames.append([])
            case "IDAT":
                imageData += data
                if fcTLBeforeIDAT { frames[0] += data }
            case "fdAT":
                if !frames.isEmpty { frames[frames.count - 1] += data.dropFirst(4) }
            default: break
            }
            offset += 12 + length
        }
        guard frames.count == info.frameCount, header.count == 13 else { return nil }
        streams = zip(frames, info.frames).map { data, frame in
            var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            Self.append(
                "IHDR", Self.be32(frame.rect.width) + Self.be32(frame.rect.height) + Array(header[8...]), to: &png)
            for (type, payload) in extras { Self.append(type, payload, to: &png) }
            Self.append("IDAT", data, to: &png)
            Self.append("IEND", [], to: &png)
            return png
        }
    }

    deinit { baseline_buffers_free(&buffers) }

    /// Decodes and composites every frame once; returns a byte of the last canvas so the work
    /// cannot be optimised away.
    func run() -> UInt8 { composite(premultiplied: false) { $0?[0] ?? 0 } }

    /// The last canvas (premultiplied RGBA8), for the agreement check.
    func finalCanvas() -> [UInt8] {
        composite(premultiplied: true) { canvas in
            canvas.map { Array(UnsafeBufferPointer(start: $0, count: info.width * info.height * 4)) } ?? []
        }
    }

    /// Timed runs composite in straight alpha, as a plain C harness does; the agreement check
    /// composites the same decoded pixels in premultiplied alpha, to compare with ours.
    private func composite<Result>(premultiplied: Bool, _ body: (UnsafePointer<UInt8>?) -> Result) -> Result {
        let (lengths, offsets) = (joined.lengths, joined.offsets)
        return joined.bytes.withUnsafeBufferPointer { all in
            let pointers: [UnsafePointer<UInt8>?] = offsets.map { all.baseAddress! + $0 }
            let canvas = baseline_apng_composite(
                pointers, lengths, placements, Int32(lengths.count),
                UInt32(info.width), UInt32(info.height), premultiplied ? 1 : 0, &buffers)
            return body(canvas)
        }
    }

    /// The streams end to end (one buffer, so one pointer reaches them all), where each
    /// starts, and its length; joined once, on the first (untimed) run.
    private lazy var joined: (bytes: [UInt8], offsets: [Int], lengths: [Int]) = {
        var bytes: [UInt8] = []
        var offsets: [Int] = []
        for stream in streams {
            offsets.append(bytes.count)
            bytes += stream
        }
        return (bytes, offsets, streams.map(\.count))
    }()

    /// The zlib stream of a single-IDAT-sequence PNG and its inflated size.
    static func zlibStream(of png: [UInt8]) -> ([UInt8], Int)? {
        var offset = 8
        var data: [UInt8] = []
        var header: [UInt8] = []
        while offset + 12 <= png.count {
            let length =
                Int(png[offset]) << 24 | Int(png[offset + 1]) << 16 | Int(png[offset + 2]) << 8 | Int(png[offset + 3])
            guard offset + 12 + length <= png.count else { return nil }
            let type = String(decoding: png[(offset + 4)..<(offset + 8)], as: UTF8.self)
            if type == "IHDR" { header = Array(png[(offset + 8)..<(offset + 8 + length)]) }
            if type == "IDAT" { data += png[(offset + 8)..<(offset + 8 + length)] }
            offset += 12 + length
        }
        guard header.count == 13, header[12] == 0 else { return nil }  // non-interlaced only
        let width = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
        let height = Int(header[4]) << 24 | Int(header[5]) << 16 | Int(header[6]) << 8 | Int(header[7])
        let channels: [UInt8: Int] = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4]
        guard let count = channels[header[9]] else { return nil }
        let rowBytes = (width * count * Int(header[8]) + 7) / 8
        return (data, height * (rowBytes + 1))
    }

    private static func be32(_ v: Int) -> [UInt8] {
        [UInt8((v >> 24) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
    }

    private static func append(_ type: String, _ data: [UInt8], to out: inout [UInt8]) {
        let body = Array(type.utf8) + data
        out += be32(data.count) + body
        out += be32(Int(body.withUnsafeBufferPointer { crc32(0, $0.baseAddress, UInt32($0.count)) }))
    }
}
