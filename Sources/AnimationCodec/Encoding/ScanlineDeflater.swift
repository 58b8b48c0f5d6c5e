import CDeflate
import CZlib
import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// A fast zlib stream for PNG scanlines of large, mostly flat images (browser snapshots).
///
/// Rows equal to the row above are Up-filtered, so their scanlines are a filter byte 2 and
/// zeros; runs of them are written directly as fixed-Huffman deflate blocks of distance-1
/// matches, without ever building those bytes. The other rows are Sub-filtered and deflated
/// with distance-1 matches (``RunLengthDeflater``, what zlib's run-length strategy finds,
/// without its sliding window) in independent chunks; each chunk ends on a byte boundary
/// (a sync flush), so chunks and hand-written blocks concatenate into one valid stream, whose
/// Adler-32 is combined from the parts.
///
/// The image is read a row at a time through a ``RowReader``, in horizontal bands that
/// workers take in parallel, so an image drawn row by row (a snapshot composed on the fly)
/// never has to exist whole.
enum ScanlineDeflater {
    /// Gives row `y` as `width * 4` premultiplied RGBA8 bytes: a pointer into an image, or
    /// `scratch` (as many bytes) drawn on demand. Called from several threads at once, for any
    /// row and possibly twice for one row; the pointer need only stay valid until the same
    /// worker asks for the row after next.
    typealias RowReader = @Sendable (_ y: Int, _ scratch: UnsafeMutablePointer<UInt8>) -> UnsafePointer<UInt8>
    /// Whether row `y` is known, without drawing it, to equal row `y - 1` (only ever asked for
    /// `y > 0`): such a row is counted as a repeat and never read. `false` when unsure.
    typealias RepeatHint = @Sendable (_ y: Int) -> Bool

    /// Content rows per deflated chunk: large enough to compress well, small enough to keep each
    /// worker's buffer in cache.
    static let rowsPerChunk = 96
    /// Rows per band that one worker compresses.
    static let rowsPerBand = 128

    /// A band's output, in row order.
    private enum Piece {
        case repeats(rows: Int)
        case content(bytes: [UInt8], adler: UInt, rows: Int)
    }

    /// The zlib stream of the scanlines of `pixels` (`width * height * 4` bytes), RGB when
    /// `rgb` (the caller has checked that every pixel is opaque).
    static func compress(_ pixels: [UInt8], width: Int, height: Int, rgb: Bool) -> [UInt8] {
        pixels.withUnsafeBufferPointer { buffer in
            // Read only for rows that exist (an empty image asks for none).
            let base = UncheckedSendable(buffer.baseAddress)
            return compress(width: width, height: height, rgb: rgb) { y, _ in
                UnsafePointer(base.value! + y &* width &* 4)
            }
        }
    }

    /// The zlib stream of the scanlines `read` gives, RGB when `rgb`; rows that `repeatsAbove`
    /// vouches for are not read.
    static func compress(width: Int, height: Int, rgb: Bool, repeatsAbove: RepeatHint? = nil, read: RowReader)
        -> [UInt8]
    {
        let layout = Scanlines(width: width, rgb: rgb)
        let bands = max(1, (height + rowsPerBand - 1) / rowsPerBand)
        var pieces = [[Piece]](repeating: [], count: bands)
        pieces.withUnsafeMutableBufferPointer { slots in
            let slots = UncheckedSendable(slots)
            DispatchQueue.concurrentPerform(iterations: bands) { band in
                // Each worker writes only its own band's slot.
                let rows = (band * rowsPerBand)..<min(height, (band + 1) * rowsPerBand)
                slots.value[band] = compressBand(rows, layout: layout, repeatsAbove: repeatsAbove, read: read)
            }
        }
        var out: [UInt8] = [0x78, 0x01]  // zlib header: deflate, 32 KiB window, fastest
        var adler = adler32(0, nil, 0)
        var bits = DeflateBitWriter()
        let stride = layout.rawRowBytes
        var pendingRepeats = 0
        func writeRepeats() {
            guard pendingRepeats > 0 else { return }
            bits.writeZeroRows(pendingRepeats, rowBytes: stride - 1)
            bits.alignWithEmptyStoredBlock()
            out += bits.takeBytes()
            adler = combineZeroRows(adler, rows: pendingRepeats, stride: stride)
            pendingRepeats = 0
        }
        for piece in pieces.joined() {
            switch piece {
            case .repeats(let rows):
                pendingRepeats += rows  // runs split by a band boundary become one block
            case .content(let bytes, let chunkAdler, let rows):
                writeRepeats()
                out += bytes
                adler = adler32_combine(adler, chunkAdler, off_t(rows * stride))
            }
        }
        writeRepeats()
        bits.writeFinalEmptyBlock()
        out += bits.takeBytes()
        out += [UInt8(adler >> 24 & 0xFF), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
        return out
    }

    /// One band: each row compared with the row above (the band's first row with the last of
    /// the band before), repeats counted, other rows Sub-filtered into chunks and deflated.
    private static func compressBand(_ rows: Range<Int>, layout: Scanlines, repeatsAbove: RepeatHint?, read: RowReader)
        -> [Piece]
    {
        let rowBytes = layout.width * 4
        let stride = layout.rawRowBytes
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * max(rowBytes, 1))
        let chunk = UnsafeMutablePointer<UInt8>.allocate(capacity: rowsPerChunk * stride)
        defer { scratch.deallocate(); chunk.deallocate() }
        var pieces: [Piece] = []
        var repeats = 0
        var chunkRows = 0
        func flushChunk() {
            guard chunkRows > 0 else { return }
            let raw = UnsafeBufferPointer(start: chunk, count: chunkRows * stride)
            pieces.append(
                .content(
                    bytes: RunLengthDeflater.deflate(raw),
                    adler: UInt(libdeflate_adler32(1, raw.baseAddress, raw.count)), rows: chunkRows))
            chunkRows = 0
        }
        // Two scratch rows taken in turn by the rows actually read, so the last one read (the
        // row above, or equal to it when hinted rows were skipped) stays valid.
        var slot = 0
        func readRow(_ y: Int) -> UnsafePointer<UInt8> {
            defer { slot ^= 1 }
            return read(y, scratch + slot * rowBytes)
        }
        // The row above the next one read; read only when first needed (a band that starts
        // with hinted rows needs none until its first drawn row).
        var above: UnsafePointer<UInt8>?
        for y in rows {
            if y > 0, let repeatsAbove, repeatsAbove(y) {
                // Equal to the row above, so `above`, when read, still holds its pixels.
                flushChunk()
                repeats += 1
                continue
            }
            if above == nil && y > 0 { above = readRow(y - 1) }
            let row = readRow(y)
            if let above, layout.repeats(row, above: above) {
                flushChunk()
                repeats += 1
            } else {
                if repeats > 0 { pieces.append(.repeats(rows: repeats)); repeats = 0 }
                layout.writeSubRow(row, to: chunk + chunkRows * stride)
                chunkRows += 1
                if chunkRows == rowsPerChunk { flushChunk() }
            }
            above = row
        }
        flushChunk()
        if repeats > 0 { pieces.append(.repeats(rows: repeats)) }
        return pieces
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
