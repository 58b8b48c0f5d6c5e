import AnimationCodec
import Foundation

/// Builds the inputs of the pack and validator tests: small PNG / APNG files, catalogs and
/// folders in a temporary directory. The codec's encoder only makes inputs here; every
/// expectation comes from the rule being tested.
struct TestFolder {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("stickerpack-tests-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }

    @discardableResult
    func write(_ bytes: [UInt8], _ relativePath: String) -> URL {
        let file = url.appendingPathComponent(relativePath)
        try! FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try! Data(bytes).write(to: file)
        return file
    }

    @discardableResult
    func writeJSON(_ object: Any, _ relativePath: String) -> URL {
        write([UInt8](try! JSONSerialization.data(withJSONObject: object)), relativePath)
    }

    func path(_ relativePath: String) -> String { url.appendingPathComponent(relativePath).path }
}

enum TestImages {
    /// A straight-alpha colour as premultiplied bytes.
    static func pixel(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8) -> [UInt8] {
        func mul(_ c: UInt8) -> UInt8 { UInt8((Int(c) * Int(a) + 127) / 255) }
        return [mul(r), mul(g), mul(b), a]
    }

    /// A still PNG: opaque red with a transparent top-left pixel unless `opaque` (then RGB,
    /// colour type 2, with no alpha channel).
    static func png(width: Int, height: Int, opaque: Bool = false) -> [UInt8] {
        PNGEncoder.encode(
            premultiplied: canvas(width, height, opaque: opaque), width: width, height: height,
            options: .init(dropsOpaqueAlpha: opaque))
    }

    /// An opaque PNG of one colour (premultiplied bytes given).
    static func solidPNG(_ side: Int, _ color: [UInt8]) -> [UInt8] {
        PNGEncoder.encode(premultiplied: canvas(side, side, opaque: true, color: color), width: side, height: side)
    }

    static func canvas(_ width: Int, _ height: Int, opaque: Bool = false, color: [UInt8] = [255, 0, 0, 255]) -> [UInt8]
    {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for p in 0..<(width * height) { pixels.replaceSubrange(4 * p..<(4 * p + 4), with: color) }
        if !opaque { pixels.replaceSubrange(0..<4, with: [0, 0, 0, 0]) }
        return pixels
    }

    /// An APNG whose frames show `delaysMs` each, played `plays` times.
    static func apng(side: Int, delaysMs: [Int], plays: Int = 0) -> [UInt8] {
        apng(side: side, delays: delaysMs.map { FrameDelay(numerator: $0, denominator: 1000) }, plays: plays)
    }

    /// Red and dark green full frames in turn, with these delays: relative luminance 0.213 and
    /// 0.154, too close to flash (WCAG 2.3.1 counts a change of 0.1), so a file made to test
    /// another rule breaks only that one.
    static func apng(side: Int, delays: [FrameDelay], plays: Int = 0) -> [UInt8] {
        var writer = APNGWriter(width: side, height: side, frameCount: delays.count, plays: plays)
        for (i, delay) in delays.enumerated() {
            let color: [UInt8] = i % 2 == 0 ? [255, 0, 0, 255] : [0, 128, 0, 255]
            writer.append(
                premultiplied: canvas(side, side, color: color), x: 0, y: 0, width: side, height: side, delay: delay)
        }
        return writer.finish()
    }

    /// `png` with a private ancillary chunk before IEND that brings it to exactly `total` bytes.
    static func padded(_ png: [UInt8], to total: Int) -> [UInt8] {
        let dataLength = total - png.count - 12
        precondition(dataLength >= 0)
        let chunk = self.chunk("prVt", [UInt8](repeating: 0x5A, count: dataLength))
        return Array(png[..<(png.count - 12)]) + chunk + Array(png.suffix(12))
    }

    /// `png` with an Apple CgBI chunk before IHDR, as Xcode's pngcrush writes.
    static func cgbi(_ png: [UInt8]) -> [UInt8] {
        Array(png[..<8]) + chunk("CgBI", [0x50, 0x00, 0x20, 0x06]) + Array(png[8...])
    }

    /// `apng` with the second fcTL's sequence number changed, which breaks the animation.
    static func brokenSequence(_ apng: [UInt8]) -> [UInt8] {
        var bytes = apng
        var offset = 8
        var seen = 0
        while offset + 12 <= bytes.count {
            let length =
                Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
                | Int(bytes[offset + 3])
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            if type == "fcTL" {
                seen += 1
                if seen == 2 {
                    bytes[offset + 11] = 0x63
                    let crc = crc32(Array(bytes[(offset + 4)..<(offset + 8 + length)]))
                    bytes.replaceSubrange((offset + 8 + length)..<(offset + 12 + length), with: be32(crc))
                    return bytes
                }
            }
            offset += 12 + length
        }
        fatalError("no second fcTL")
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(UInt32(data.count)) + body + be32(crc32(body))
    }

    static func be32(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
    }

    /// CRC-32 (ISO 3309), bit by bit: independent of zlib and of the codec.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }
}
