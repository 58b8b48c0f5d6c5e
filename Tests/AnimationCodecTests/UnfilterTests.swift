import TestSupport
import Testing

@testable import AnimationCodec

@Suite("PNG row unfiltering")
struct UnfilterTests {
    private func unfilter(_ filter: UInt8, _ row: [UInt8], previous: [UInt8], distance: Int, scalar: Bool = false)
        throws -> [UInt8]
    {
        var row = row
        try previous.withUnsafeBufferPointer { above in
            try row.withUnsafeMutableBufferPointer { current in
                if scalar {
                    PNGUnfilter.unfilterScalar(
                        PNGUnfilter.Filter(rawValue: filter)!, row: current.baseAddress!, previous: above.baseAddress!,
                        count: current.count, distance: distance)
                } else {
                    try PNGUnfilter.unfilter(
                        filter, row: current.baseAddress!, previous: above.baseAddress!, count: current.count,
                        distance: distance)
                }
            }
        }
        return row
    }

    @Test("hand-computed rows for each filter, 1-byte pixels")
    func handComputed() throws {
        let above: [UInt8] = [10, 20, 30, 250]
        #expect(try unfilter(0, [1, 2, 3, 4], previous: above, distance: 1) == [1, 2, 3, 4])
        // Sub: running sums, wrapping.
        #expect(try unfilter(1, [1, 2, 3, 255], previous: above, distance: 1) == [1, 3, 6, 5])
        // Up: add the row above.
        #expect(try unfilter(2, [1, 2, 3, 10], previous: above, distance: 1) == [11, 22, 33, 4])
        // Average: x + floor((left + up) / 2).
        // [0] 1 + (0+10)/2 = 6; [1] 2 + (6+20)/2 = 15; [2] 3 + (15+30)/2 = 25; [3] 4 + (25+250)/2 = 141
        #expect(try unfilter(3, [1, 2, 3, 4], previous: above, distance: 1) == [6, 15, 25, 141])
        // Paeth: [0] a=0,b=10,c=0 -> p=10, pa=10,pb=0,pc=10 -> b: 1+10 = 11
        //        [1] a=11,b=20,c=10 -> p=21, pa=10,pb=1,pc=11 -> b: 2+20 = 22
        //        [2] a=22,b=30,c=20 -> p=32, pa=10,pb=2,pc=12 -> b: 3+30 = 33
        //        [3] a=33,b=250,c=30 -> p=253, pa=220,pb=3,pc=223 -> b: 4+250 = 254
        #expect(try unfilter(4, [1, 2, 3, 4], previous: above, distance: 1) == [11, 22, 33, 254])
    }

    @Test("an unknown filter byte is a typed error")
    func unknownFilter() {
        #expect(throws: CodecError.self) { try unfilter(5, [0, 0], previous: [0, 0], distance: 1) }
    }

    @Test("Paeth's predictor follows the spec's definition for every (a, b, c)")
    func paethPredictorExhaustive() {
        var wrong = 0
        for a in stride(from: 0, through: 255, by: 3) {
            for b in 0...255 {
                for c in stride(from: 0, through: 255, by: 5) {
                    let p = a + b - c
                    let pa = abs(p - a)
                    let pb = abs(p - b)
                    let pc = abs(p - c)
                    let expected = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
                    if Int(PNGUnfilter.paethPredictor(UInt8(a), UInt8(b), UInt8(c))) != expected { wrong += 1 }
                }
            }
        }
        #expect(wrong == 0)
    }

    /// Every (left, up) pair reaches the 4-byte Average kernel in every channel: the row above
    /// cycles through all 256 values and 256 rows give the pixel to the left every value.
    /// The filtered bytes come from the wanted pixels by the specification's floor((a + b) / 2).
    @Test("the 4-byte Average kernel is exact for every (a, b) pair in every channel")
    func averageKernelExhaustive() throws {
        let count = 4 * 256
        let above = (0..<count).map { UInt8(truncatingIfNeeded: $0 >> 2 &* 7 &+ $0 & 3) }
        var mismatches = 0
        for round in 0..<256 {
            var wanted = [UInt8](repeating: 0, count: count)
            var filtered = wanted
            for i in 0..<count {
                wanted[i] = UInt8(truncatingIfNeeded: round + 67 * (i & 3) + (i >> 2))
                let a = i >= 4 ? Int(wanted[i - 4]) : 0
                filtered[i] = UInt8(truncatingIfNeeded: Int(wanted[i]) - (a + Int(above[i])) / 2)
            }
            let decoded = try unfilter(3, filtered, previous: above, distance: 4)
            mismatches += zip(decoded, wanted).count { $0 != $1 }
        }
        #expect(mismatches == 0)
    }

    /// Every (left, up, upper-left) triple reaches the 4-byte Paeth kernel, in every channel: the
    /// row above lists all 65,536 (upper-left, up) pairs side by side, and 256 rows give the
    /// pixel to the left every value. The filtered bytes are made from the wanted pixels with
    /// the specification's predictor (computed here, not by the code under test), so the
    /// kernel must give back exactly the wanted pixels.
    ///
    /// The row kernel works on blocks of four pixels, so the pixels that see each (c, b) pair
    /// are put at every position of a block: after `leadingPixels` pixels, the odd pixels fall
    /// on positions 1 and 3 (none) or 2 and 0 (one).
    @Test(
        "the 4-byte Paeth kernel is exact for every (a, b, c) triple in every channel, at every position of a block",
        arguments: [0, 1])
    func paethKernelExhaustive(leadingPixels: Int) throws {
        let pixels = leadingPixels + 2 * 65_536
        let count = 4 * pixels
        var above = [UInt8](repeating: 173, count: count)
        for pair in 0..<65_536 {
            for channel in 0..<4 {
                let pixel = leadingPixels + 2 * pair
                above[4 * pixel + channel] = UInt8(pair >> 8)  // upper-left of the odd pixel
                above[4 * pixel + 4 + channel] = UInt8(pair & 0xFF)  // up
            }
        }
        var mismatches = 0
        for round in 0..<256 {
            var wanted = [UInt8](repeating: 0, count: count)
            var filtered = wanted
            for i in 0..<count {
                let channel = i & 3
                let pixel = i >> 2
                wanted[i] = UInt8(truncatingIfNeeded: round + 67 * channel + pixel)
                let a = i >= 4 ? Int(wanted[i - 4]) : 0
                let c = i >= 4 ? Int(above[i - 4]) : 0
                filtered[i] = UInt8(truncatingIfNeeded: Int(wanted[i]) - Self.specPredictor(a, Int(above[i]), c))
            }
            let decoded = try unfilter(4, filtered, previous: above, distance: 4)
            mismatches += zip(decoded, wanted).count { $0 != $1 }
        }
        #expect(mismatches == 0)
    }

    /// A row of 4-byte pixels listing all 65,536 (upper-left, up) pairs side by side in every
    /// channel: pixel 2p holds p >> 8 (the upper-left of pixel 2p + 1), pixel 2p + 1 holds p & 0xFF.
    private static let allUpperLeftUpPairs: [UInt8] = (0..<4 * 2 * 65_536).map { i in
        let pair = i >> 3
        return UInt8(i & 4 == 0 ? pair >> 8 : pair & 0xFF)
    }

    /// Paeth's predictor as the specification writes it.
    private static func specPredictor(_ a: Int, _ b: Int, _ c: Int) -> Int {
        let p = a + b - c
        let pa = abs(p - a)
        let pb = abs(p - b)
        let pc = abs(p - c)
        return pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
    }

    /// `wanted` Paeth-filtered against `above` with the specification's predictor, pixels of
    /// `distance` bytes.
    private static func paethFiltered(_ wanted: [UInt8], above: [UInt8], distance: Int) -> [UInt8] {
        wanted.indices.map { i in
            let a = i >= distance ? Int(wanted[i - distance]) : 0
            let c = i >= distance ? Int(above[i - distance]) : 0
            return UInt8(truncatingIfNeeded: Int(wanted[i]) - specPredictor(a, Int(above[i]), c))
        }
    }

    /// Unfilters rows laid out as in a PNG stream (filter byte, then `count` bytes each) with
    /// the decoder's row walk, which takes a Paeth row of 4-byte pixels together with the rows
    /// up to the next Paeth row when only Up rows are between; also how many rows each step took.
    private func unfilterStream(_ rows: [(filter: UInt8, bytes: [UInt8])], first above: [UInt8]) throws -> (
        rows: [[UInt8]], steps: [Int]
    ) {
        let count = above.count
        var stream = rows.flatMap { [$0.filter] + $0.bytes }
        var steps: [Int] = []
        try above.withUnsafeBufferPointer { top in
            try stream.withUnsafeMutableBufferPointer { data in
                var previous = top.baseAddress!
                var row = 0
                while row < rows.count {
                    let line = data.baseAddress! + row * (count + 1)
                    let done = try PNGUnfilter.unfilterRows(
                        at: line, previous: previous, count: count, distance: 4, rowsLeft: rows.count - row)
                    steps.append(done)
                    previous = UnsafePointer(line + (done - 1) * (count + 1) + 1)
                    row += done
                }
            }
        }
        return (rows.indices.map { Array(stream[$0 * (count + 1) + 1..<($0 + 1) * (count + 1)]) }, steps)
    }

    /// The second row of a Paeth pair sees every (a, b, c) triple in every channel: the row
    /// above it (the first, or the last Up row between) lists all 65,536 (upper-left, up) pairs
    /// side by side, and 256 rounds give the second row's left pixel every value. Every row is
    /// filtered from wanted pixels by the specification's filter, computed here.
    @Test(
        "a Paeth pair is exact for every (a, b, c) triple in its second row, with 0-2 Up rows between",
        arguments: [0, 1, 2])
    func paethPairExhaustive(upRowsBetween: Int) throws {
        let pattern = Self.allUpperLeftUpPairs
        let count = pattern.count
        var generator = SplitMix(seed: 7 + UInt64(upRowsBetween))
        let above = generator.bytes(count)
        // The first row and the Up rows, the last of them (the second's row above) the pattern.
        let wantedRows = (0..<upRowsBetween).map { _ in generator.bytes(count) } + [pattern]
        var filteredRows = [(filter: UInt8(4), bytes: Self.paethFiltered(wantedRows[0], above: above, distance: 4))]
        for row in wantedRows.indices.dropFirst() {
            filteredRows.append((2, zip(wantedRows[row], wantedRows[row - 1]).map { $0 &- $1 }))
        }
        var mismatches = 0
        for round in 0..<256 {
            let second = (0..<count).map { UInt8(truncatingIfNeeded: round + 67 * ($0 & 3) + ($0 >> 2)) }
            let decoded = try unfilterStream(
                filteredRows + [(4, Self.paethFiltered(second, above: pattern, distance: 4))], first: above)
            #expect(decoded.steps == [upRowsBetween + 2])
            mismatches += zip(decoded.rows, wantedRows + [second]).reduce(0) { sum, rows in
                sum + zip(rows.0, rows.1).count { $0 != $1 }
            }
        }
        #expect(mismatches == 0)
    }

    /// Four Paeth rows, an Up row before each of the last three, decoded in one step: the row above
    /// each Paeth row (the first's `previous`, the others' Up row) lists all 65,536 (upper-left,
    /// up) pairs, and 256 rounds give every Paeth row's left pixel every value, so each of the
    /// four rows' lanes meets every (a, b, c) triple in every channel.
    @Test("four Paeth rows taken together are exact for every (a, b, c) triple in each row")
    func paethQuadExhaustive() throws {
        let pattern = Self.allUpperLeftUpPairs
        let count = pattern.count
        var mismatches = 0
        for round in 0..<256 {
            // Each Paeth row its own values, each Up row the pattern again.
            let paethRows = (0..<4).map { row in
                (0..<count).map { UInt8(truncatingIfNeeded: round + 67 * ($0 & 3) + ($0 >> 2) + 29 * row) }
            }
            var wantedRows = [paethRows[0]]
            var filteredRows = [
                (filter: UInt8(4), bytes: Self.paethFiltered(paethRows[0], above: pattern, distance: 4))
            ]
            for row in paethRows.dropFirst() {
                filteredRows.append((2, zip(pattern, wantedRows.last!).map { $0 &- $1 }))
                filteredRows.append((4, Self.paethFiltered(row, above: pattern, distance: 4)))
                wantedRows += [pattern, row]
            }
            let decoded = try unfilterStream(filteredRows, first: pattern)
            #expect(decoded.steps == [7])
            mismatches += zip(decoded.rows, wantedRows).reduce(0) { sum, rows in
                sum + zip(rows.0, rows.1).count { $0 != $1 }
            }
        }
        #expect(mismatches == 0)
    }

    /// The byte-lane Paeth step, sixteen lanes at a time, against the specification's
    /// predictor (computed here) for every (a, b, c) triple, with a filtered byte x that varies.
    @Test("the byte-lane Paeth step follows the spec for every (a, b, c)")
    func paethByteStepExhaustive() {
        var mismatches = 0
        let lanes = SIMD16<UInt8>(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
        for a in 0...255 {
            for b in 0...255 {
                for block in 0..<16 {
                    let c = lanes &+ UInt8(16 * block)
                    let x = c &* 7 &+ UInt8(truncatingIfNeeded: a &* 3 &+ b)
                    let result = PNGUnfilter.paethStepBytes(
                        x, left: SIMD16(repeating: UInt8(a)), up: SIMD16(repeating: UInt8(b)), upperLeft: c)
                    for lane in 0..<16 {
                        let predictor = Self.specPredictor(a, b, Int(c[lane]))
                        if result[lane] != x[lane] &+ UInt8(predictor) { mismatches += 1 }
                    }
                }
            }
        }
        #expect(mismatches == 0)
    }

    /// Runs of Paeth rows among other filters, at widths below, at and above the pair's and the
    /// quad's staggering, decode to the pixels they were filtered from (each row by the
    /// specification's filter, computed here), and the rows are taken together: four Paeth rows
    /// where each has the next after at most eight Up rows, else two where the second follows
    /// the first after at most two.
    @Test(
        "Paeth rows taken together among other filters give back the wanted rows",
        arguments: [1, 2, 7, 8, 9, 16, 17, 27, 28, 29, 33, 40, 618])
    func paethPairsInStream(width: Int) throws {
        let count = 4 * width
        var generator = SplitMix(seed: UInt64(width))
        // The steps, by hand: P P P U P (four Paeth rows) | U | P (an S follows) | S | P U U P
        // (an N follows) | N | P U U U P P P (four Paeth rows, three Up rows after the first) |
        // P (an A follows) | A | P (an S follows) | S | P P (a third P, then an S) | P | S |
        // P (three Us, then a P and an S: too far for a pair) | U | U | U | P | S |
        // P, eight Us, P P P (four Paeth rows) | S | P (nine Us follow) | nine times U | P | S
        let filters: [UInt8] =
            [4, 4, 4, 2, 4, 2, 4, 1, 4, 2, 2, 4, 0, 4, 2, 2, 2, 4, 4, 4, 4, 3, 4, 1, 4, 4, 4, 1]
            + [4, 2, 2, 2, 4, 1] + [4] + Array(repeating: 2, count: 8) + [4, 4, 4, 1]
            + [4] + Array(repeating: 2, count: 9) + [4, 1]
        let above = generator.bytes(count)
        var wanted: [[UInt8]] = []
        var rows: [(filter: UInt8, bytes: [UInt8])] = []
        var previous = above
        for filter in filters {
            // Small steps between neighbours, so all three predictors win somewhere.
            let row = (0..<count).map { i in
                UInt8(truncatingIfNeeded: Int(previous[i]) + Int(generator.bytes(1)[0] % 9) - 4)
            }
            let filtered: [UInt8] =
                switch filter {
                case 4: Self.paethFiltered(row, above: previous, distance: 4)
                case 0: row
                case 1: row.indices.map { row[$0] &- ($0 >= 4 ? row[$0 - 4] : 0) }
                case 2: row.indices.map { row[$0] &- previous[$0] }
                default:
                    row.indices.map {
                        row[$0] &- UInt8((Int($0 >= 4 ? row[$0 - 4] : 0) + Int(previous[$0])) / 2)
                    }
                }
            wanted.append(row)
            rows.append((filter, filtered))
            previous = row
        }
        let decoded = try unfilterStream(rows, first: above)
        #expect(decoded.rows == wanted)
        #expect(
            decoded.steps
                == [5, 1, 1, 1, 4, 1, 7, 1, 1, 1, 1, 2, 1, 1] + [1, 1, 1, 1, 1, 1] + [12, 1]
                + Array(repeating: 1, count: 12))
    }

    @Test("Sub on 4-byte pixels gives the spec's running sums, mod 256, at every width up to 40 pixels")
    func subRunningSums() throws {
        var generator = SplitMix(seed: 0x5B)
        for width in 1...40 {
            let row = generator.bytes(width * 4)
            // The spec: Raw(x) = Sub(x) + Raw(x - 4), each byte on its own, wrapping.
            var wanted = row
            for i in 4..<wanted.count { wanted[i] = wanted[i] &+ wanted[i - 4] }
            #expect(try unfilter(1, row, previous: [UInt8](repeating: 0, count: row.count), distance: 4) == wanted)
        }
    }

    @Test(
        "4-byte-pixel vector kernels equal the scalar reference on random rows", arguments: [1, 2, 3, 4],
        [4, 36, 1024, 1 << 18])
    func vectorMatchesScalar(filter: UInt8, count: Int) throws {
        var generator = SplitMix(seed: UInt64(filter) * 1000 + UInt64(count))
        for _ in 0..<20 {
            let row = generator.bytes(count)
            let above = generator.bytes(count)
            #expect(
                try unfilter(filter, row, previous: above, distance: 4)
                    == unfilter(filter, row, previous: above, distance: 4, scalar: true))
        }
    }
}
