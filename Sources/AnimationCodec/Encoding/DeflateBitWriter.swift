/// Writes raw deflate blocks by hand (RFC 1951): the runs of repeated scanlines in
/// ``ScanlineDeflater``, which are known in advance to be a filter byte and zeros, and the
/// dynamic-Huffman blocks of ``RunLengthDeflater``.
///
/// Deflate's bit order: fields least-significant bit first; Huffman codes most-significant
/// bit first (so they are reversed before writing).
struct DeflateBitWriter {
    private var bytes: [UInt8] = []
    /// Bits not yet in `bytes`, the oldest lowest; fewer than 64.
    private var accumulator: UInt64 = 0
    private var count = 0

    /// A writer whose first `capacity` bytes need no reallocation.
    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    /// `value`'s low `bits` bits (at most 32), least significant first. Whole bytes move to
    /// the output four at a time.
    @inline(__always)
    mutating func write(_ value: UInt64, bits: Int) {
        if count >= 32 {
            withUnsafeBytes(of: UInt32(truncatingIfNeeded: accumulator).littleEndian) { bytes.append(contentsOf: $0) }
            accumulator >>= 32
            count &-= 32
        }
        accumulator |= value << UInt64(count)
        count &+= bits
    }

    /// Moves every whole byte of the accumulator to the output.
    private mutating func flushWholeBytes() {
        while count >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: accumulator))
            accumulator >>= 8
            count -= 8
        }
    }

    /// Zero bits up to the next byte boundary.
    private mutating func padToByte() {
        if count % 8 != 0 { write(0, bits: 8 - count % 8) }
    }

    /// `code`'s low `length` bits in reverse order: a Huffman code, which deflate stores most
    /// significant bit first, made ready for ``write(_:bits:)``.
    static func reversed(_ code: UInt32, length: Int) -> UInt32 {
        var reversed: UInt32 = 0
        for i in 0..<length where code & (1 << UInt32(length - 1 - i)) != 0 { reversed |= 1 << UInt32(i) }
        return reversed
    }

    /// A Huffman code of `length` bits, written most significant bit first.
    mutating func writeCode(_ code: UInt32, length: Int) {
        write(UInt64(Self.reversed(code, length: length)), bits: length)
    }

    /// A fixed-Huffman literal (0-255) or length symbol (256-287).
    mutating func writeSymbol(_ symbol: Int) {
        switch symbol {
        case 0...143: writeCode(UInt32(0x30 + symbol), length: 8)
        case 144...255: writeCode(UInt32(0x190 + symbol - 144), length: 9)
        case 256...279: writeCode(UInt32(symbol - 256), length: 7)
        default: writeCode(UInt32(0xC0 + symbol - 280), length: 8)
        }
    }

    /// A match of `length` (3-258) bytes at distance 1.
    mutating func writeDistanceOneMatch(_ length: Int) {
        let (symbol, extraBits, base) = DeflateBitWriter.lengthCode(length)
        writeSymbol(symbol)
        if extraBits > 0 { write(UInt64(length - base), bits: extraBits) }
        writeCode(0, length: 5)  // distance code 0 = distance 1
    }

    /// One non-final fixed-Huffman block holding `rows` scanlines of filter byte 2 (Up) and
    /// `rowBytes` zeros each.
    mutating func writeZeroRows(_ rows: Int, rowBytes: Int) {
        write(0, bits: 1)  // BFINAL = 0
        write(1, bits: 2)  // BTYPE = 01, fixed Huffman codes
        for _ in 0..<rows {
            writeSymbol(2)
            guard rowBytes > 0 else { continue }
            writeSymbol(0)
            var left = rowBytes - 1  // zeros after the first, copied from the byte before
            while left > 0 {
                if left >= 3 {
                    let run = min(258, left)
                    // Never leave 1 or 2 bytes that a match cannot cover... they become literals.
                    writeDistanceOneMatch(run)
                    left -= run
                } else {
                    writeSymbol(0)
                    left -= 1
                }
            }
        }
        writeSymbol(256)  // end of block
    }

    /// An empty stored block: ends the current bit run on a byte boundary, like a sync flush.
    mutating func alignWithEmptyStoredBlock() {
        write(0, bits: 3)  // BFINAL = 0, BTYPE = 00
        padToByte()
        flushWholeBytes()
        bytes += [0x00, 0x00, 0xFF, 0xFF]
    }

    /// The last block: empty, fixed Huffman, BFINAL = 1, padded to a byte.
    mutating func writeFinalEmptyBlock() {
        write(1, bits: 1)
        write(1, bits: 2)
        writeSymbol(256)
        padToByte()
    }

    /// The whole bytes written so far (the caller keeps the stream byte aligned).
    mutating func takeBytes() -> [UInt8] {
        flushWholeBytes()
        precondition(count == 0, "not byte aligned")
        defer { bytes = [] }
        return bytes
    }

    /// RFC 1951, 3.2.5: the length symbol, its extra bits and its base length.
    static func lengthCode(_ length: Int) -> (symbol: Int, extraBits: Int, base: Int) {
        if length == 258 { return (285, 0, 258) }
        let bases = [
            3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227
        ]
        let extras = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5]
        var index = bases.count - 1
        while bases[index] > length { index -= 1 }
        return (257 + index, extras[index], bases[index])
    }
}
