/// Builds PNG and APNG byte streams chunk by chunk for tests, with CRCs from the test-side
/// reference implementation and zlib streams of stored (uncompressed) deflate blocks, so no
/// codec code is involved in making the input.
struct TestPNG {
    var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func be32(_ v: Int) -> [UInt8] {
        [UInt8((v >> 24) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
    }
    static func be16(_ v: Int) -> [UInt8] { [UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }

    mutating func chunk(_ type: String, _ data: [UInt8], crc: UInt32? = nil, declaredLength: Int? = nil) {
        let body = Array(type.utf8) + data
        bytes += Self.be32(declaredLength ?? data.count) + body
        let value = crc ?? Reference.crc32(body)
        bytes += Self.be32(Int(value))
    }

    mutating func header(width: Int, height: Int, bitDepth: UInt8 = 8, colorType: UInt8 = 6, interlace: UInt8 = 0) {
        chunk("IHDR", Self.be32(width) + Self.be32(height) + [bitDepth, colorType, 0, 0, interlace])
    }

    /// A zlib stream holding `raw` in stored blocks, with its Adler-32.
    static func zlibStored(_ raw: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let size = min(65535, raw.count - offset)
            let final: UInt8 = offset + size == raw.count ? 1 : 0
            out += [final, UInt8(size & 0xFF), UInt8(size >> 8), UInt8(~size & 0xFF), UInt8((~size >> 8) & 0xFF)]
            out += raw[offset..<(offset + size)]
            offset += size
        } while offset < raw.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in raw { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
        return out + be32(Int(b << 16 | a))
    }

    /// Unfiltered rows (filter 0) of straight RGBA pixels, one colour for the whole image.
    static func solidRows(width: Int, height: Int, rgba: [UInt8]) -> [UInt8] {
        var raw: [UInt8] = []
        for _ in 0..<height {
            raw.append(0)
            for _ in 0..<width { raw += rgba }
        }
        return raw
    }

    static func frameControl(
        sequence: Int, width: Int, height: Int, x: Int = 0, y: Int = 0,
        delay: (Int, Int) = (1, 10), dispose: UInt8 = 0, blend: UInt8 = 0
    ) -> [UInt8] {
        be32(sequence) + be32(width) + be32(height) + be32(x) + be32(y) + be16(delay.0) + be16(delay.1) + [
            dispose, blend
        ]
    }
}
