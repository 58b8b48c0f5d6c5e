import AnimationCodec
import CBaselines
import CZlib

/// The APNG/PNG baseline: every frame rebuilt as a standalone PNG stream (done once, before
/// timing), decoded by libpng's `png_read_image`, and drawn by ``PlainCompositor``.
struct LibPNGBaseline {
    let info: AnimationInfo
    /// One complete PNG stream per displayed frame.
    let streams: [[UInt8]]

    init?(bytes: [UInt8], info: AnimationInfo) {
        guard info.format == .png || info.format == .apng else { return nil }
        self.info = info
        if info.format == .png {
            streams = [bytes]
            return
        }
        // Walk the chunks: IHDR's tail, PLTE/tRNS, and each fcTL's IDAT or fdAT payloads.
        var header: [UInt8] = [], extras: [(String, [UInt8])] = []
        var frames: [[UInt8]] = [], imageData: [UInt8] = [], fcTLBeforeIDAT = false
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
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
            Self.append("IHDR", Self.be32(frame.rect.width) + Self.be32(frame.rect.height) + Array(header[8...]), to: &png)
            for (type, payload) in extras { Self.append(type, payload, to: &png) }
            Self.append("IDAT", data, to: &png)
            Self.append("IEND", [], to: &png)
            return png
        }
    }

    /// Decodes and composites every frame once; returns the last canvas's first byte so the
    /// work cannot be optimised away.
    func run() -> UInt8 { finalCanvas().first ?? 0 }

    /// Decodes every frame with libpng and composites it; returns the last canvas.
    func finalCanvas() -> [UInt8] {
        var compositor = PlainCompositor(width: info.width, height: info.height)
        for (stream, frame) in zip(streams, info.frames) {
            var rgba = [UInt8](repeating: 0, count: frame.rect.width * frame.rect.height * 4)
            _ = stream.withUnsafeBufferPointer { source in
                rgba.withUnsafeMutableBufferPointer { target in
                    baseline_png_decode_rgba(source.baseAddress, source.count, target.baseAddress,
                                             UInt32(frame.rect.width), UInt32(frame.rect.height))
                }
            }
            compositor.draw(straight: rgba, info: frame)
        }
        return compositor.canvas
    }

    /// The zlib stream of a single-IDAT-sequence PNG and its inflated size.
    static func zlibStream(of png: [UInt8]) -> ([UInt8], Int)? {
        var offset = 8, data: [UInt8] = [], header: [UInt8] = []
        while offset + 12 <= png.count {
            let length = Int(png[offset]) << 24 | Int(png[offset + 1]) << 16 | Int(png[offset + 2]) << 8 | Int(png[offset + 3])
            guard offset + 12 + length <= png.count else { return nil }
            let type = String(decoding: png[(offset + 4)..<(offset + 8)], as: UTF8.self)
            if type == "IHDR" { header = Array(png[(offset + 8)..<(offset + 8 + length)]) }
            if type == "IDAT" { data += png[(offset + 8)..<(offset + 8 + length)] }
            offset += 12 + length
        }
        guard header.count == 13, header[12] == 0 else { return nil }   // non-interlaced only
        let width = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
        let height = Int(header[4]) << 24 | Int(header[5]) << 16 | Int(header[6]) << 8 | Int(header[7])
        let channels: [UInt8: Int] = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4]
        guard let count = channels[header[9]] else { return nil }
        let rowBytes = (width * count * Int(header[8]) + 7) / 8
        return (data, height * (rowBytes + 1))
    }

    private static func be32(_ v: Int) -> [UInt8] { [UInt8((v >> 24) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }

    private static func append(_ type: String, _ data: [UInt8], to out: inout [UInt8]) {
        let body = Array(type.utf8) + data
        out += be32(data.count) + body
        out += be32(Int(body.withUnsafeBufferPointer { crc32(0, $0.baseAddress, UInt32($0.count)) }))
    }
}
