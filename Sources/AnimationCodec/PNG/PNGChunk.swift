import CDeflate

/// One chunk's location in the file: `length`, `type`, data, CRC.
struct PNGChunk: Sendable {
    /// The four-letter chunk type, e.g. `IHDR`.
    var type: String
    /// Where the chunk's data lies in the file (the CRC follows it).
    var data: Range<Int>
    /// Whether the stored CRC matches the type and data.
    var checksumIsValid: Bool
    /// The stored CRC.
    var declaredCRC: UInt32
    /// The CRC computed from type and data.
    var computedCRC: UInt32

    /// Critical chunks have an uppercase first letter (bit 5 of the first byte clear).
    var isCritical: Bool { type.utf8.first.map { $0 & 0x20 == 0 } ?? false }
}

/// Walks the chunks of a PNG stream after its signature.
///
/// Lengths are checked against the spec's 2^31 - 1 cap and against the end of the file
/// before any chunk is returned, so no range it hands out points past the bytes.
struct PNGChunkReader {
    private let bytes: [UInt8]
    private(set) var offset: Int

    /// Starts after the 8-byte signature; the caller has checked that it is there.
    init(bytes: [UInt8]) {
        self.bytes = bytes
        self.offset = PNGSignature.bytes.count
    }

    /// Whether every byte has been read.
    var isAtEnd: Bool { offset >= bytes.count }

    /// Reads the next chunk; `nil` at the end of the file.
    mutating func next() throws(CodecError) -> PNGChunk? {
        guard offset < bytes.count else { return nil }
        guard bytes.count - offset >= 8 else { throw .truncated(context: "in a chunk header at byte \(offset)") }
        let length = Int(bytes.bigEndianUInt32(at: offset))
        let typeBytes = bytes[(offset + 4)..<(offset + 8)]
        guard typeBytes.allSatisfy({ ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) }) else {
            throw .malformed(format: .png, reason: "invalid chunk type at byte \(offset + 4)")
        }
        let type = String(decoding: typeBytes, as: UTF8.self)
        guard length <= Int(Int32.max) else {
            throw .malformed(format: .png, reason: "chunk \(type) declares \(length) bytes (over 2^31-1)")
        }
        let dataStart = offset + 8
        guard bytes.count - dataStart >= length + 4 else {
            throw .truncated(context: "chunk \(type) at byte \(offset) needs \(length) bytes of data and a CRC")
        }
        let dataEnd = dataStart + length
        let declared = bytes.bigEndianUInt32(at: dataEnd)
        let computed = bytes.withUnsafeBufferPointer { buffer in
            // Safe: offset + 4 ..< dataEnd lies inside the buffer (checked above). libdeflate's
            // CRC (carry-less multiply) runs several times faster than zlib's over image data.
            libdeflate_crc32(0, buffer.baseAddress! + offset + 4, length + 4)
        }
        offset = dataEnd + 4
        return PNGChunk(
            type: type, data: dataStart..<dataEnd, checksumIsValid: declared == computed,
            declaredCRC: declared, computedCRC: computed)
    }
}
