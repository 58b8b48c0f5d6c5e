import CDeflate

/// One frame as it will be stored: its rectangle, ops, and its filtered scanlines compressed
/// at the search level.
///
/// Only the compressed stream is kept: the scanlines are as large as the frame's rectangle
/// and a plan holds every frame's, while the stream is a fraction of that. Writing the file
/// at another level inflates them again (``rows()``), which takes a few milliseconds next to
/// the strongest level's seconds.
struct FramePlan: Sendable {
    var rect: FrameRect
    var dispose: DisposeOp
    var blend: BlendOp
    /// The filtered scanlines' length in bytes.
    var rowsCount: Int
    var searchCompressed: [UInt8]

    /// The filtered scanlines, inflated from ``searchCompressed``.
    func rows() -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: rowsCount) { buffer, count in
            let decompressor = libdeflate_alloc_decompressor()
            defer { libdeflate_free_decompressor(decompressor) }
            var produced = 0
            let result = searchCompressed.withUnsafeBytes { stream in
                libdeflate_zlib_decompress(
                    decompressor, stream.baseAddress, stream.count, buffer.baseAddress, rowsCount, &produced)
            }
            // The stream is libdeflate's own compression of exactly these rows.
            precondition(
                decompressor != nil && result == LIBDEFLATE_SUCCESS && produced == rowsCount,
                "a frame plan's stream inflates to its rows")
            count = produced
        }
    }
}
