import CZlib
import TestSupport
import Testing

@testable import AnimationCodec

/// Our distance-1 deflate against zlib: zlib's inflate reads back every byte, and the streams
/// stay about as small as zlib's own run-length strategy makes them.
@Suite("Run-length deflate")
struct RunLengthDeflaterTests {
    /// zlib's raw inflate of `stream` (non-final blocks ending in a sync flush).
    static func inflateRaw(_ stream: [UInt8], expected count: Int) -> [UInt8]? {
        var z = z_stream()
        guard inflateInit2_(&z, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&z) }
        var output = [UInt8](repeating: 0, count: count + 16)
        var input = stream
        let status = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                z.next_in = source.baseAddress
                z.avail_in = uInt(source.count)
                z.next_out = target.baseAddress
                z.avail_out = uInt(target.count)
                return CZlib.inflate(&z, Z_SYNC_FLUSH)
            }
        }
        guard status == Z_OK || status == Z_BUF_ERROR, z.avail_in == 0 else { return nil }
        return Array(output[..<(output.count - Int(z.avail_out))])
    }

    /// zlib's own run-length deflate of `input` (level 1, raw, sync flush), for the size check.
    static func zlibSize(_ input: [UInt8]) -> Int {
        var z = z_stream()
        deflateInit2_(&z, 1, Z_DEFLATED, -15, 8, Z_RLE, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        defer { deflateEnd(&z) }
        var output = [UInt8](repeating: 0, count: input.count * 2 + 1024)
        var source = input
        source.withUnsafeMutableBufferPointer { s in
            output.withUnsafeMutableBufferPointer { t in
                z.next_in = s.baseAddress; z.avail_in = uInt(s.count)
                z.next_out = t.baseAddress; z.avail_out = uInt(t.count)
                _ = CZlib.deflate(&z, Z_SYNC_FLUSH)
            }
        }
        return output.count - Int(z.avail_out)
    }

    static func deflate(_ input: [UInt8]) -> [UInt8] {
        input.withUnsafeBufferPointer { RunLengthDeflater.deflate($0) }
    }

    /// Inputs with runs of every length (1-300 bytes, so matches of 3-258 and their splits),
    /// noise, a single byte value, very short buffers, and rows like a snapshot's Sub-filtered
    /// scanlines (a filter byte, mostly zeros, art in the middle).
    static var inputs: [(String, [UInt8])] {
        var generator = SplitMix(seed: 42)
        var runs: [UInt8] = []
        for length in 1...300 { runs += [UInt8](repeating: UInt8(truncatingIfNeeded: length), count: length) }
        let noise = (0..<20_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        var rows: [UInt8] = []
        for y in 0..<96 {
            rows.append(1)
            for x in 0..<(1179 * 3) {
                let art = x > 1200 && x < 2400 && y % 7 != 3
                rows.append(art ? UInt8(truncatingIfNeeded: generator.next() % 9) : 0)
            }
        }
        return [
            ("runs", runs), ("noise", noise), ("one value", [UInt8](repeating: 7, count: 100_000)),
            ("one byte", [9]), ("two bytes", [0, 0]), ("three equal", [5, 5, 5]), ("four equal", [5, 5, 5, 5]),
            ("alternating", (0..<5000).map { UInt8($0 % 2) }), ("snapshot rows", rows)
        ]
    }

    @Test("zlib inflates every stream back to its input", arguments: inputs.map(\.0))
    func roundTrip(name: String) throws {
        let input = try #require(Self.inputs.first { $0.0 == name }?.1)
        let stream = Self.deflate(input)
        let back = Self.inflateRaw(stream, expected: input.count)
        let same = back == input  // compared first, so a failure does not print both arrays
        #expect(same, "inflated \(back.map { "\($0.count) bytes" } ?? "nothing"), input \(input.count) bytes")
        // Byte aligned with a sync flush: the last four bytes are an empty stored block's length.
        #expect(Array(stream.suffix(4)) == [0x00, 0x00, 0xFF, 0xFF])
    }

    @Test("streams joined one after another inflate as one")
    func joined() throws {
        let parts = Self.inputs.map(\.1)
        let stream = parts.flatMap { Self.deflate($0) }
        let back = Self.inflateRaw(stream, expected: parts.reduce(0) { $0 + $1.count })
        let same = back == Array(parts.joined())
        #expect(same, "inflated \(back.map { "\($0.count) bytes" } ?? "nothing")")
    }

    @Test("about as small as zlib's run-length strategy: within 3% on snapshot-like rows")
    func size() throws {
        let rows = try #require(Self.inputs.first { $0.0 == "snapshot rows" }?.1)
        let ours = Self.deflate(rows).count
        let zlib = Self.zlibSize(rows)
        #expect(Double(ours) <= Double(zlib) * 1.03, "ours \(ours) bytes, zlib \(zlib)")
    }

    @Test("code lengths: complete, within the limit, and canonical codes decode uniquely")
    func huffman() {
        // Fibonacci weights force a deep optimal tree: the limit must hold anyway.
        var fibonacci = [1, 1]
        while fibonacci.count < 30 { fibonacci.append(fibonacci[fibonacci.count - 1] + fibonacci[fibonacci.count - 2]) }
        for (weights, limit) in [(fibonacci, 15), (fibonacci, 7), ([5, 0], 15), ([0, 0, 3], 7), ([1, 1, 1, 1], 2)] {
            let lengths = HuffmanLengths.limited(weights, maxLength: limit)
            #expect(lengths.max()! <= limit)
            let kraft = lengths.filter { $0 > 0 }.reduce(0.0) { $0 + 1 / Double(1 << $1) }
            #expect(kraft == 1, "lengths \(lengths) are not a complete code")
            for (symbol, weight) in weights.enumerated() where weight > 0 { #expect(lengths[symbol] > 0) }
        }
    }
}
