/// APNG files damaged on purpose, byte by byte, with no codec code: a frame whose compressed
/// data is broken while every chunk's structure and CRC stay valid, so the file reads at load
/// and fails only when that frame is decoded.
public enum DamagedPNG {
    /// `png` with frame `frame`'s first data chunk (IDAT for a frame whose fcTL comes before
    /// it, else fdAT, after its sequence number) replaced by a zlib stream whose one deflate
    /// block has the reserved type 3 ("invalid block type"), its CRC made anew. `nil` when the
    /// file has no such frame.
    public static func withBrokenFrame(_ png: [UInt8], frame: Int) -> [UInt8]? {
        var frameControls = 0
        var offset = 8
        while offset + 12 <= png.count {
            let length =
                Int(png[offset]) << 24 | Int(png[offset + 1]) << 16 | Int(png[offset + 2]) << 8
                | Int(png[offset + 3])
            let type = String(decoding: png[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let end = offset + 12 + length
            guard end <= png.count else { return nil }
            if type == "fcTL" { frameControls += 1 }
            if frameControls == frame + 1, type == "IDAT" || type == "fdAT" {
                let sequence = type == "fdAT" ? Array(png[(offset + 8)..<(offset + 12)]) : []
                // zlib header 78 9C, then BFINAL = 1 and BTYPE = 3 in the first byte's low bits.
                let body = Array(type.utf8) + sequence + [0x78, 0x9C, 0x07, 0x00, 0x00, 0x00, 0x00]
                var chunk = bigEndian(body.count - 4) + body
                chunk += bigEndian(Int(crc32(body)))
                return Array(png[..<offset]) + chunk + Array(png[end...])
            }
            offset = end
        }
        return nil
    }

    private static func bigEndian(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// CRC-32 (ISO 3309, as PNG defines it), bit by bit.
    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
