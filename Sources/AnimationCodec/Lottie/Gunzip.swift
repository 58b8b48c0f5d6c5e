import CZlib

/// Inflates a gzip member (a Telegram `.tgs` is gzipped Lottie JSON) with a cap on what it
/// may inflate to, so a gzip bomb is refused by its size before it is held in memory.
enum Gunzip {
    /// The gzip signature (RFC 1952): ID1, ID2 and the deflate method.
    static let signature: [UInt8] = [0x1F, 0x8B, 0x08]

    /// Inflates `input`, a whole gzip member.
    /// - Parameter maxBytes: the most the member may inflate to; one byte more is an error.
    /// - Throws: `.limitExceeded` past `maxBytes`, `.truncated` when the member ends early,
    ///   `.corruptCompressedData` when it is damaged.
    static func inflate(_ input: [UInt8], maxBytes: Int) throws(CodecError) -> [UInt8] {
        try inflate(input, maxBytes: maxBytes, stopAfter: nil)
    }

    /// The first `count` inflated bytes of `input` (fewer when it holds fewer, or when it is
    /// cut short or damaged after them): enough to recognise what a member holds.
    static func head(_ input: [UInt8], count: Int) -> [UInt8] {
        (try? inflate(input, maxBytes: count, stopAfter: count)) ?? []
    }

    private static func inflate(_ input: [UInt8], maxBytes: Int, stopAfter: Int?) throws(CodecError) -> [UInt8] {
        var stream = z_stream()
        // 16 + 15: a gzip wrapper around a window of up to 32 KB.
        guard inflateInit2_(&stream, 16 + 15, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .corruptCompressedData(reason: "zlib could not start")
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        let status: Int32 = input.withUnsafeBufferPointer { source in
            stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
            stream.avail_in = UInt32(min(source.count, Int(UInt32.max)))
            while true {
                let status = chunk.withUnsafeMutableBufferPointer { target in
                    stream.next_out = target.baseAddress
                    stream.avail_out = UInt32(target.count)
                    return CZlib.inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                output.append(contentsOf: chunk[..<min(produced, maxBytes + 1 - output.count)])
                if let stopAfter, output.count >= stopAfter { return Z_STREAM_END }
                if output.count > maxBytes { return Z_MEM_ERROR }
                if status != Z_OK { return status }
                if stream.avail_in == 0 && produced == 0 { return Z_BUF_ERROR }
            }
        }
        switch status {
        case Z_STREAM_END:
            if let stopAfter { return Array(output.prefix(stopAfter)) }
            return output
        case Z_MEM_ERROR:
            throw .limitExceeded(.inflatedBytes(limit: maxBytes))
        case Z_BUF_ERROR:
            if stopAfter != nil { return output }
            throw .truncated(context: "gzip data ends after inflating \(output.count) bytes")
        default:
            if stopAfter != nil { return output }
            let message = stream.msg.map { String(cString: $0) } ?? "zlib error \(status)"
            throw .corruptCompressedData(reason: "gzip: \(message)")
        }
    }
}
