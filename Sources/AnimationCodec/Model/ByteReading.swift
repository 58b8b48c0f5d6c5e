extension Array where Element == UInt8 {
    /// The big-endian `UInt32` at `offset`; the caller has checked `offset + 4 <= count`.
    @inline(__always)
    func bigEndianUInt32(at offset: Int) -> UInt32 {
        UInt32(self[offset]) << 24 | UInt32(self[offset + 1]) << 16
            | UInt32(self[offset + 2]) << 8 | UInt32(self[offset + 3])
    }

    /// The big-endian `UInt16` at `offset`; the caller has checked `offset + 2 <= count`.
    @inline(__always)
    func bigEndianUInt16(at offset: Int) -> UInt16 {
        UInt16(self[offset]) << 8 | UInt16(self[offset + 1])
    }

    /// The little-endian `UInt16` at `offset`; the caller has checked `offset + 2 <= count`.
    @inline(__always)
    func littleEndianUInt16(at offset: Int) -> UInt16 {
        UInt16(self[offset]) | UInt16(self[offset + 1]) << 8
    }
}
