import CZlib

/// zlib's run-length strategy (`Z_RLE`: matches at distance one only). On browser snapshots,
/// whose rows are Up- or Sub-filtered into long runs of zeros, it deflates several times
/// faster than a full match finder, at a small cost in size.
enum ZlibRLE {
    /// A complete zlib stream of `raw`.
    static func compress(_ raw: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        let status = deflateInit2_(&stream, 1, Z_DEFLATED, 15, 8, Z_RLE, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        precondition(status == Z_OK, "zlib could not start a deflate stream")
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(raw.count)))
        return raw.withUnsafeBytes { source in
            [UInt8](unsafeUninitializedCapacity: bound) { target, count in
                stream.next_in = UnsafeMutablePointer(mutating: source.bindMemory(to: Bytef.self).baseAddress)
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(bound)
                let result = deflate(&stream, Z_FINISH)
                precondition(result == Z_STREAM_END, "deflateBound was too small")
                count = Int(stream.total_out)
            }
        }
    }
}
