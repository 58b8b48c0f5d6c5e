import CDeflate
import CZlib
import Dispatch

/// A fast zlib stream for PNG scanlines of large, mostly flat images (browser snapshots).
///
/// Rows equal to the row above are Up-filtered, so their scanlines are a filter byte 2 and
/// zeros; runs of them are written here directly as fixed-Huffman deflate blocks of
/// distance-1 matches, without ever building those bytes. The other rows are Sub-filtered
/// and deflated by zlib's run-length strategy in independent chunks, in parallel; each chunk
/// ends on a byte boundary (a sync flush), so chunks and hand-written blocks concatenate into
/// one valid stream. The Adler-32 checksum is combined from the parts.
enum ScanlineDeflater {
    /// Content rows per zlib chunk: small enough to spread over cores, large enough to
    /// compress well.
    static let rowsPerChunk = 96

    private enum Segment {
        case repeats(rows: Int)
        case content(firstRow: Int, rows: Int)
    }

    /// The zlib stream of `pixels`' scanlines, and whether they were written as RGB (asked
    /// for with `dropsOpaqueAlpha`, and every pixel opaque).
    static func compress(_ pixels: [UInt8], width: Int, height: Int, dropsOpaqueAlpha: Bool) -> (data: [UInt8], rgb: Bool) {
        let (segments, opaque) = pixels.withUnsafeBufferPointer { source in
            split(source, height: height, layout: Scanlines(width: width, rgb: false))
        }
        let layout = Scanlines(width: width, rgb: dropsOpaqueAlpha && opaque)
        return (compress(pixels, segments: segments, height: height, layout: layout), layout.rgb)
    }

    private static func compress(_ pixels: [UInt8], segments: [Segment], height: Int, layout: Scanlines) -> [UInt8] {
        let contents: [(Int, Int)] = segments.compactMap {
            if case .content(let first, let rows) = $0 { return (first, rows) }
            return nil
        }
        var compressed = [[UInt8]](repeating: [], count: contents.count)
        var checksums = [UInt](repeating: 1, count: contents.count)
        pixels.withUnsafeBufferPointer { source in
            compressed.withUnsafeMutableBufferPointer { outputs in
                checksums.withUnsafeMutableBufferPointer { sums in
                    let outputs = UnsafeSendable(outputs), sums = UnsafeSendable(sums), source = UnsafeSendable(source)
                    DispatchQueue.concurrentPerform(iterations: contents.count) { i in
                        // Each worker writes only slot i.
                        let (bytes, adler) = deflateContent(source.value, firstRow: contents[i].0, rows: contents[i].1, layout: layout)
                        outputs.value[i] = bytes
                        sums.value[i] = adler
                    }
                }
            }
        }
        var out: [UInt8] = [0x78, 0x01]  // zlib header: deflate, 32 KiB window, fastest
        var adler = adler32(0, nil, 0)
        var contentIndex = 0
        var bits = BitWriter()
        let stride = layout.rawRowBytes
        for segment in segments {
            switch segment {
            case .content(_, let rows):
                out += compressed[contentIndex]
                adler = adler32_combine(adler, checksums[contentIndex], off_t(rows * stride))
                contentIndex += 1
            case .repeats(let rows):
                bits.writeZeroRows(rows, rowBytes: stride - 1)
                bits.alignWithEmptyStoredBlock()
                out += bits.takeBytes()
                adler = combineZeroRows(adler, rows: rows, stride: stride)
            }
        }
        bits.writeFinalEmptyBlock()
        out += bits.takeBytes()
        out += [UInt8(adler >> 24 & 0xFF), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
        return out
    }

    /// Runs of repeated rows and chunks of other rows, in order, and whether every pixel is
    /// opaque (only rows that do not repeat the one above need looking at). Rows are compared
    /// in parallel bands; the segments are then read off the flags.
    private static func split(_ source: UnsafeBufferPointer<UInt8>, height: Int, layout: Scanlines) -> ([Segment], Bool) {
        let bands = min(max(1, height / 256), 8)
        var repeats = [Bool](repeating: false, count: height)
        var bandOpaque = [Bool](repeating: true, count: bands)
        let width = layout.width
        repeats.withUnsafeMutableBufferPointer { flags in
            bandOpaque.withUnsafeMutableBufferPointer { opaque in
                let flags = UnsafeSendable(flags), opaque = UnsafeSendable(opaque), source = UnsafeSendable(source)
                DispatchQueue.concurrentPerform(iterations: bands) { band in
                    // Each worker writes only its own rows' flags and its own band's slot.
                    let words = UnsafeRawPointer(source.value.baseAddress!).assumingMemoryBound(to: UInt32.self)
                    var alphas: UInt32 = 0xFF00_0000
                    for y in (band * height / bands)..<((band + 1) * height / bands) {
                        let repeated = layout.repeatsRowAbove(y, in: source.value)
                        flags.value[y] = repeated
                        // Safe: row y is `width` words inside width * height * 4 bytes.
                        if !repeated { for x in 0..<width { alphas &= words[y &* width &+ x] } }
                    }
                    // Little-endian RGBA words: alpha is the top byte.
                    opaque.value[band] = alphas & 0xFF00_0000 == 0xFF00_0000
                }
            }
        }
        var segments: [Segment] = []
        var y = 0
        while y < height {
            var end = y + 1
            if repeats[y] {
                while end < height && repeats[end] { end += 1 }
                segments.append(.repeats(rows: end - y))
            } else {
                while end < height && end - y < rowsPerChunk && !repeats[end] { end += 1 }
                segments.append(.content(firstRow: y, rows: end - y))
            }
            y = end
        }
        return (segments, bandOpaque.allSatisfy { $0 })
    }

    /// Sub-filtered scanlines of `rows` rows, as raw deflate ending in a sync flush (byte
    /// aligned, not final), and their Adler-32.
    private static func deflateContent(_ source: UnsafeBufferPointer<UInt8>, firstRow: Int, rows: Int, layout: Scanlines) -> ([UInt8], UInt) {
        let stride = layout.rawRowBytes
        var raw = [UInt8](unsafeUninitializedCapacity: rows * stride) { buffer, count in
            for r in 0..<rows { layout.writeSubRow(firstRow + r, of: source, to: buffer.baseAddress! + r * stride) }
            count = rows * stride
        }
        var stream = z_stream()
        // Raw deflate (negative window bits): the zlib wrapper is written once, around all chunks.
        let status = deflateInit2_(&stream, 1, Z_DEFLATED, -15, 8, Z_RLE, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        precondition(status == Z_OK, "zlib could not start a deflate stream")
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(raw.count))) + 16
        // libdeflate's Adler-32 is vectorised; Debian's zlib 1.2 adds byte by byte.
        let adler = raw.withUnsafeBytes { UInt(libdeflate_adler32(1, $0.baseAddress, $0.count)) }
        let bytes = raw.withUnsafeMutableBytes { input in
            [UInt8](unsafeUninitializedCapacity: bound) { target, count in
                stream.next_in = input.bindMemory(to: Bytef.self).baseAddress
                stream.avail_in = uInt(input.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(bound)
                let result = deflate(&stream, Z_SYNC_FLUSH)
                precondition(result == Z_OK && stream.avail_in == 0, "deflate did not take the whole chunk")
                count = bound - Int(stream.avail_out)
            }
        }
        raw = []
        return (bytes, adler)
    }

    /// `adler` extended by `rows` scanlines of a 2 and `stride - 1` zeros.
    private static func combineZeroRows(_ adler: UInt, rows: Int, stride: Int) -> UInt {
        var row = [UInt8](repeating: 0, count: stride)
        row[0] = 2
        let rowAdler = row.withUnsafeBufferPointer { adler32(1, $0.baseAddress, uInt(stride)) }
        var result = adler
        for _ in 0..<rows { result = adler32_combine(result, rowAdler, off_t(stride)) }
        return result
    }
}

/// Deflate's bit order: fields least-significant bit first; Huffman codes most-significant
/// bit first (so they are reversed before writing).
private struct BitWriter {
    private var bytes: [UInt8] = []
    private var accumulator: UInt64 = 0
    private var count = 0

    mutating func write(_ value: UInt64, bits: Int) {
        accumulator |= value << UInt64(count)
        count += bits
        while count >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: accumulator))
            accumulator >>= 8
            count -= 8
        }
    }

    /// A Huffman code of `length` bits, written most significant bit first.
    mutating func writeCode(_ code: UInt32, length: Int) {
        var reversed: UInt64 = 0
        for i in 0..<length where code & (1 << UInt32(length - 1 - i)) != 0 { reversed |= 1 << UInt64(i) }
        write(reversed, bits: length)
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
        let (symbol, extraBits, base) = BitWriter.lengthCode(length)
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
        if count > 0 { write(0, bits: 8 - count) }
        bytes += [0x00, 0x00, 0xFF, 0xFF]
    }

    /// The last block: empty, fixed Huffman, BFINAL = 1, padded to a byte.
    mutating func writeFinalEmptyBlock() {
        write(1, bits: 1)
        write(1, bits: 2)
        writeSymbol(256)
        if count > 0 { write(0, bits: 8 - count) }
    }

    /// The whole bytes written so far (the caller keeps the stream byte aligned).
    mutating func takeBytes() -> [UInt8] {
        precondition(count == 0, "not byte aligned")
        defer { bytes = [] }
        return bytes
    }

    /// RFC 1951, 3.2.5: the length symbol, its extra bits and its base length.
    static func lengthCode(_ length: Int) -> (symbol: Int, extraBits: Int, base: Int) {
        if length == 258 { return (285, 0, 258) }
        let bases = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227]
        let extras = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5]
        var index = bases.count - 1
        while bases[index] > length { index -= 1 }
        return (257 + index, extras[index], bases[index])
    }
}

/// A pointer handed to `concurrentPerform` workers, each touching only its own elements.
private struct UnsafeSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
