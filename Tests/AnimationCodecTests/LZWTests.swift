import TestSupport
import Testing

@testable import AnimationCodec

/// A plain GIF LZW encoder written for these tests from the GIF89a appendix, independent of
/// the decoder. `clearWhenFull: false` keeps emitting 12-bit codes with a full table
/// ("deferred clear"); `extraClears` inserts clear codes at those input positions.
struct TestLZWEncoder {
    var minimumCodeSize: Int
    var clearWhenFull = true
    var extraClears: Set<Int> = []

    func encode(_ input: [UInt8], end: Bool = true) -> [UInt8] {
        let clear = 1 << minimumCodeSize
        var out: [UInt8] = []
        var bitBuffer = 0
        var bitCount = 0
        var codeSize = minimumCodeSize + 1
        func emit(_ code: Int) {
            bitBuffer |= code << bitCount
            bitCount += codeSize
            while bitCount >= 8 { out.append(UInt8(bitBuffer & 0xFF)); bitBuffer >>= 8; bitCount -= 8 }
        }
        var table: [[UInt8]: Int] = [:]
        var next = clear + 2
        func reset() {
            table = [:]
            // Byte input needs only the literals below 256 (code sizes 9-11 have more).
            for i in 0..<min(clear, 256) { table[[UInt8(i)]] = i }
            next = clear + 2
            codeSize = minimumCodeSize + 1
        }
        reset()
        emit(clear)
        var current: [UInt8] = []
        for (position, byte) in input.enumerated() {
            if extraClears.contains(position), !current.isEmpty {
                emit(table[current]!)
                emit(clear)
                reset()
                current = []
            }
            let candidate = current + [byte]
            if table[candidate] != nil { current = candidate; continue }
            emit(table[current]!)
            if next < 4096 {
                table[candidate] = next
                next += 1
                // The decoder grows its width one code later than the encoder adds entries.
                if next - 1 == 1 << codeSize, codeSize < 12 { codeSize += 1 }
            } else if clearWhenFull {
                emit(clear)
                reset()
            }
            current = [byte]
        }
        if !current.isEmpty { emit(table[current]!) }
        if end { emit(clear + 1) }
        if bitCount > 0 { out.append(UInt8(bitBuffer & 0xFF)) }
        return out
    }
}

@Suite("LZW decoder")
struct LZWTests {
    static func decode(_ data: [UInt8], codeSize: Int, count: Int) -> ([UInt8], LZWDecoder.Outcome) {
        var out = [UInt8](repeating: 0xEE, count: count)
        let outcome = data.withUnsafeBytes { input in
            out.withUnsafeMutableBufferPointer { LZWDecoder.decode(input, minimumCodeSize: codeSize, into: $0) }
        }
        return (out, outcome)
    }

    /// Input with runs (long dictionary strings) and noise, values below 2^codeSize.
    static func sample(codeSize: Int, count: Int, seed: UInt64) -> [UInt8] {
        var generator = SplitMix(seed: seed)
        var data: [UInt8] = []
        let limit = UInt64(1 << codeSize)
        while data.count < count {
            let value = UInt8(generator.next() % limit)
            let run = generator.next() % 4 == 0 ? Int(generator.next() % 40) : 1
            data += [UInt8](repeating: value, count: min(run, count - data.count))
        }
        return data
    }

    @Test("round trip for every minimum code size", arguments: 2...8)
    func roundTrip(codeSize: Int) {
        let input = Self.sample(codeSize: codeSize, count: 50_000, seed: UInt64(codeSize))
        let encoded = TestLZWEncoder(minimumCodeSize: codeSize).encode(input)
        let (out, outcome) = Self.decode(encoded, codeSize: codeSize, count: input.count)
        #expect(outcome == .complete)
        #expect(out == input)
    }

    @Test("round trip for minimum code sizes 9-11 (wider codes than any palette needs)", arguments: 9...11)
    func wideCodes(codeSize: Int) {
        let input = Self.sample(codeSize: 8, count: 20_000, seed: UInt64(codeSize))
        let encoded = TestLZWEncoder(minimumCodeSize: codeSize).encode(input)
        let (out, outcome) = Self.decode(encoded, codeSize: codeSize, count: input.count)
        #expect(outcome == .complete)
        #expect(out == input)
    }

    @Test("a literal code past 255 keeps its low byte")
    func literalPast255() {
        // Minimum size 9: clear = 512, end = 513, 10-bit codes: clear, 300 (= 256 + 44), 5, end.
        var bits = 0
        var count = 0
        var data: [UInt8] = []
        for code in [512, 300, 5, 513] { bits |= code << count; count += 10 }
        while count > 0 { data.append(UInt8(bits & 0xFF)); bits >>= 8; count -= 8 }
        let (out, outcome) = Self.decode(data, codeSize: 9, count: 2)
        #expect(outcome == .complete)
        #expect(out == [44, 5])
    }

    /// Strings are copied in whole blocks away from the end of the output and byte by byte
    /// near it; every output size from 1 to 300 puts the end at a different place in a string.
    @Test("every output size gets exactly its prefix of the stream")
    func everyOutputSize() {
        let input = Self.sample(codeSize: 3, count: 300, seed: 11)
        let encoded = TestLZWEncoder(minimumCodeSize: 3).encode(input)
        var wrong: [Int] = []
        for size in 1...input.count {
            let (out, outcome) = Self.decode(encoded, codeSize: 3, count: size)
            if outcome != .complete || out != Array(input.prefix(size)) { wrong.append(size) }
        }
        #expect(wrong == [])
    }

    @Test("a full 4096-entry table without a clear code keeps decoding with 12-bit codes", arguments: [2, 8])
    func deferredClear(codeSize: Int) {
        let input = Self.sample(codeSize: codeSize, count: 200_000, seed: 99)
        let encoded = TestLZWEncoder(minimumCodeSize: codeSize, clearWhenFull: false).encode(input)
        let (out, outcome) = Self.decode(encoded, codeSize: codeSize, count: input.count)
        #expect(outcome == .complete)
        #expect(out == input)
    }

    @Test("clear codes anywhere in the stream")
    func clearsAnywhere() {
        let input = Self.sample(codeSize: 4, count: 5_000, seed: 7)
        let encoded = TestLZWEncoder(minimumCodeSize: 4, extraClears: [1, 2, 3, 100, 101, 2_000, 4_999]).encode(input)
        let (out, outcome) = Self.decode(encoded, codeSize: 4, count: input.count)
        #expect(outcome == .complete)
        #expect(out == input)
    }

    @Test("too little data reports how much was written; too much is ignored")
    func lengthMismatch() {
        let input = Self.sample(codeSize: 8, count: 1_000, seed: 3)
        let encoded = TestLZWEncoder(minimumCodeSize: 8).encode(input)
        let (short, shortOutcome) = Self.decode(
            Array(encoded.prefix(encoded.count / 2)), codeSize: 8, count: input.count)
        guard case .insufficientData(let written) = shortOutcome else {
            Issue.record("expected insufficient data, got \(shortOutcome)")
            return
        }
        #expect(written > 0 && written < input.count)
        #expect(short.prefix(written) == input.prefix(written))
        let (long, longOutcome) = Self.decode(encoded, codeSize: 8, count: 600)
        #expect(longOutcome == .complete)
        #expect(long == Array(input.prefix(600)))
    }

    @Test("a code past the next free entry stops decoding, keeping earlier pixels")
    func codePastTable() {
        // Minimum size 2: clear=4, end=5, first free=6. Codes (3 bits): clear, 1, 7 (invalid: only 6 may follow).
        let bits = 4 | 1 << 3 | 7 << 6
        let data = [UInt8(bits & 0xFF), UInt8(bits >> 8)]
        let (out, outcome) = Self.decode(data, codeSize: 2, count: 10)
        #expect(outcome == .invalidCode(written: 1))
        #expect(out[0] == 1)
    }

    @Test("an end code before the frame is full reports missing data; none at all is handled")
    func endCodeEarly() {
        let encoded = TestLZWEncoder(minimumCodeSize: 2).encode([1, 2, 3])
        #expect(Self.decode(encoded, codeSize: 2, count: 10).1 == .insufficientData(written: 3))
        #expect(Self.decode([], codeSize: 2, count: 10).1 == .insufficientData(written: 0))
    }
}
