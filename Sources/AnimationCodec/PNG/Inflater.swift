import CDeflate
import CZlib

/// Inflates a whole zlib stream into a buffer of known size.
///
/// The fast path is libdeflate's whole-buffer decompressor, given the deflate data after a
/// valid two-byte zlib header. When the stream holds more data than the image needs, or is
/// damaged, zlib's streaming inflater re-reads it: extra data is ignored (as libpng does),
/// and a stream that stops early is reported with how much it gave.
///
/// The Adler-32 that ends the stream is not checked: it follows the last byte of the image,
/// so it cannot change what is shown, and browsers show such files (Chromium draws a PNG
/// whose Adler-32 is wrong; libpng offers `PNG_IGNORE_ADLER32` for the same reason), and the
/// streaming path, which stops once the image is full, never acted on it either.
enum Inflater {
    /// Fills `output` from the zlib stream in `input`.
    /// - Throws: ``CodecError/corruptCompressedData(reason:)`` when the stream is damaged or
    ///   too short to fill `output`.
    /// - Parameter decompressor: a libdeflate decompressor owned by the calling thread.
    static func inflate(
        _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer,
        decompressor: OpaquePointer?
    ) throws(CodecError) {
        guard let decompressor else {
            throw .corruptCompressedData(reason: "libdeflate could not allocate a decompressor")
        }
        if hasValidHeader(input) {
            var produced = 0
            let result = libdeflate_deflate_decompress(
                decompressor, input.baseAddress! + 2, input.count - 2,
                output.baseAddress, output.count, &produced)
            if result == LIBDEFLATE_SUCCESS, produced == output.count { return }
        }
        try inflateStreaming(input, into: output)
    }

    /// Whether `input` starts with a zlib header that zlib accepts for PNG: deflate with a
    /// window of at most 32 KiB, a check value that is a multiple of 31, no preset dictionary
    /// (RFC 1950, section 2.2). Any other start is left to zlib, which names the fault.
    private static func hasValidHeader(_ input: UnsafeRawBufferPointer) -> Bool {
        guard input.count >= 2 else { return false }
        let (method, flags) = (input[0], input[1])
        return method & 0x0F == 8 && method >> 4 <= 7 && (UInt16(method) << 8 | UInt16(flags)) % 31 == 0
            && flags & 0x20 == 0
    }

    /// zlib's streaming inflate: stops when `output` is full, whatever follows.
    private static func inflateStreaming(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer)
        throws(CodecError)
    {
        var stream = z_stream()
        guard inflateInit_(&stream, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .corruptCompressedData(reason: "zlib could not start")
        }
        defer { inflateEnd(&stream) }
        // zlib's counters are 32-bit; feed and drain in pieces that fit.
        var inputOffset = 0
        var outputOffset = 0
        while outputOffset < output.count {
            if stream.avail_in == 0 {
                let piece = min(input.count - inputOffset, Int(UInt32.max))
                stream.next_in = UnsafeMutablePointer(
                    mutating: input.baseAddress?.assumingMemoryBound(to: UInt8.self).advanced(by: inputOffset))
                stream.avail_in = UInt32(piece)
                inputOffset += piece
            }
            let room = min(output.count - outputOffset, Int(UInt32.max))
            stream.next_out = output.baseAddress!.assumingMemoryBound(to: UInt8.self).advanced(by: outputOffset)
            stream.avail_out = UInt32(room)
            let status = CZlib.inflate(&stream, Z_NO_FLUSH)
            outputOffset += room - Int(stream.avail_out)
            if outputOffset == output.count { return }
            switch status {
            case Z_OK:
                if stream.avail_in == 0 && inputOffset >= input.count {
                    throw .corruptCompressedData(
                        reason: "image data ends after \(outputOffset) of \(output.count) bytes")
                }
            case Z_STREAM_END:
                throw .corruptCompressedData(reason: "image data ends after \(outputOffset) of \(output.count) bytes")
            case Z_BUF_ERROR:
                throw .corruptCompressedData(reason: "image data ends after \(outputOffset) of \(output.count) bytes")
            default:
                let message = stream.msg.map { String(cString: $0) } ?? "zlib error \(status)"
                throw .corruptCompressedData(reason: message)
            }
        }
    }
}
