/// Raw deflate (RFC 1951) with matches at distance 1 only, what zlib's run-length strategy
/// finds, written without zlib's sliding window: the input is read in place, once to find the
/// runs and count the symbols, and the symbols are then written with Huffman codes built for
/// them. One dynamic-Huffman block per call, ended by an empty stored block (a sync flush: byte
/// aligned, not final), so calls can be joined into one stream. Nothing refers to bytes before
/// the input.
enum RunLengthDeflater {
    /// Longest deflate match.
    private static let maxMatch = 258

    /// `input` deflated as one non-final block and a sync flush.
    static func deflate(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        // Tokens: a literal byte (0-255), or 256 + a match length minus 3 (distance 1).
        let tokens = [UInt16](unsafeUninitializedCapacity: max(input.count, 1)) { buffer, count in
            count = tokenize(input, into: buffer.baseAddress!)
        }
        var literalFrequencies = [Int](repeating: 0, count: 286)
        for token in tokens {
            literalFrequencies[token < 256 ? Int(token) : lengthSymbol(Int(token) - 256 + 3).symbol] += 1
        }
        literalFrequencies[256] = 1  // end of block
        let literalLengths = HuffmanLengths.limited(literalFrequencies, maxLength: 15)
        // Two distance codes of one bit (only code 0, distance 1, is used): a complete code,
        // which every inflater accepts.
        let distanceLengths = [1, 1]
        // Room for the usual output (flat rows deflate to a few percent); more grows the array.
        var writer = DeflateBitWriter(capacity: input.count / 4 + 1024)
        writeHeader(literalLengths, distanceLengths, into: &writer)
        let literalCodes = HuffmanLengths.reversedCodes(literalLengths)
        for token in tokens {
            if token < 256 {
                writer.write(UInt64(literalCodes[Int(token)]), bits: literalLengths[Int(token)])
            } else {
                let length = Int(token) - 256 + 3
                let (symbol, extraBits, base) = lengthSymbol(length)
                writer.write(UInt64(literalCodes[symbol]), bits: literalLengths[symbol])
                if extraBits > 0 { writer.write(UInt64(length - base), bits: extraBits) }
                writer.write(0, bits: 1)  // distance code 0: distance 1
            }
        }
        writer.write(UInt64(literalCodes[256]), bits: literalLengths[256])
        writer.alignWithEmptyStoredBlock()  // the sync flush
        return writer.takeBytes()
    }

    /// Splits `input` into literals and distance-1 matches of 3-258 bytes, as zlib's
    /// run-length strategy does: a match repeats the byte before it. Returns the token count.
    private static func tokenize(_ input: UnsafeBufferPointer<UInt8>, into tokens: UnsafeMutablePointer<UInt16>) -> Int
    {
        let count = input.count
        guard count > 0, let bytes = input.baseAddress else { return 0 }
        tokens[0] = UInt16(bytes[0])
        var written = 1
        var at = 1
        while at < count {
            let previous = bytes[at &- 1]
            // Length of the run of `previous` starting at `at`, eight bytes at a time.
            let limit = min(count &- at, maxMatch)
            var run = 0
            var ended = false
            let pattern = UInt64(previous) &* 0x0101_0101_0101_0101
            while run &+ 8 <= limit {
                let differing = UnsafeRawPointer(bytes + (at &+ run)).loadUnaligned(as: UInt64.self) ^ pattern
                if differing != 0 { run &+= differing.trailingZeroBitCount &>> 3; ended = true; break }
                run &+= 8
            }
            if !ended { while run < limit && bytes[at &+ run] == previous { run &+= 1 } }
            if run >= 3 {
                tokens[written] = UInt16(256 &+ run &- 3)
                at &+= run
            } else {
                tokens[written] = UInt16(bytes[at])
                at &+= 1
            }
            written &+= 1
        }
        return written
    }

    /// Deflate's length symbol (257-285) for a match of `length` bytes, its extra bits and
    /// the length the symbol stands for with extra bits 0 (``DeflateBitWriter/lengthCode(_:)``,
    /// looked up in a table).
    @inline(__always)
    static func lengthSymbol(_ length: Int) -> (symbol: Int, extraBits: Int, base: Int) {
        let entry = lengthSymbols[length]
        return (Int(entry.symbol), Int(entry.extraBits), Int(entry.base))
    }

    /// ``DeflateBitWriter/lengthCode(_:)`` for every length 3-258.
    private static let lengthSymbols: [(symbol: UInt16, extraBits: UInt8, base: UInt16)] = (0...maxMatch).map {
        length in
        guard length >= 3 else { return (0, 0, 0) }
        let code = DeflateBitWriter.lengthCode(length)
        return (UInt16(code.symbol), UInt8(code.extraBits), UInt16(code.base))
    }

    /// The dynamic block header: BFINAL 0, BTYPE 2, the code length counts, the code length
    /// code, and both alphabets' lengths run-length coded (RFC 1951, 3.2.7).
    private static func writeHeader(
        _ literalLengths: [Int], _ distanceLengths: [Int], into writer: inout DeflateBitWriter
    ) {
        var literalCount = 286
        while literalCount > 257 && literalLengths[literalCount - 1] == 0 { literalCount -= 1 }
        let lengths = Array(literalLengths[..<literalCount]) + distanceLengths
        // Code length symbols: 0-15 a length, 16 repeat the previous 3-6 times, 17 zeros 3-10,
        // 18 zeros 11-138; each with its extra bits.
        var symbols: [(symbol: Int, extra: Int, extraBits: Int)] = []
        var index = 0
        while index < lengths.count {
            let value = lengths[index]
            var run = 1
            while index + run < lengths.count && lengths[index + run] == value { run += 1 }
            var left = run
            if value == 0 {
                while left >= 11 { let n = min(left, 138); symbols.append((18, n - 11, 7)); left -= n }
                if left >= 3 { symbols.append((17, left - 3, 3)); left = 0 }
                while left > 0 { symbols.append((0, 0, 0)); left -= 1 }
            } else {
                symbols.append((value, 0, 0))
                left -= 1
                while left >= 3 { let n = min(left, 6); symbols.append((16, n - 3, 2)); left -= n }
                while left > 0 { symbols.append((value, 0, 0)); left -= 1 }
            }
            index += run
        }
        var frequencies = [Int](repeating: 0, count: 19)
        for entry in symbols { frequencies[entry.symbol] += 1 }
        let codeLengthLengths = HuffmanLengths.limited(frequencies, maxLength: 7)
        let codeLengthCodes = HuffmanLengths.reversedCodes(codeLengthLengths)
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        var codeLengthCount = 19
        while codeLengthCount > 4 && codeLengthLengths[order[codeLengthCount - 1]] == 0 { codeLengthCount -= 1 }
        writer.write(0, bits: 1)  // BFINAL
        writer.write(2, bits: 2)  // BTYPE: dynamic Huffman
        writer.write(UInt64(literalCount - 257), bits: 5)
        writer.write(UInt64(distanceLengths.count - 1), bits: 5)
        writer.write(UInt64(codeLengthCount - 4), bits: 4)
        for position in 0..<codeLengthCount { writer.write(UInt64(codeLengthLengths[order[position]]), bits: 3) }
        for entry in symbols {
            writer.write(UInt64(codeLengthCodes[entry.symbol]), bits: codeLengthLengths[entry.symbol])
            if entry.extraBits > 0 { writer.write(UInt64(entry.extra), bits: entry.extraBits) }
        }
    }
}

/// Huffman code lengths and canonical codes for deflate's dynamic blocks.
enum HuffmanLengths {
    /// Code lengths for `frequencies`, none longer than `maxLength`, forming a complete code
    /// (every inflater accepts it); unused symbols get 0. `frequencies` has at least two entries. When the optimal code is too deep,
    /// the frequencies are halved (used ones kept above 0) until it fits. With fewer than two
    /// used symbols, the used one (or symbol 0) and one more get length 1.
    static func limited(_ frequencies: [Int], maxLength: Int) -> [Int] {
        var weights = frequencies
        while true {
            let lengths = optimal(weights)
            if lengths.max()! <= maxLength { return lengths }
            weights = weights.map { $0 == 0 ? 0 : ($0 + 1) / 2 }
        }
    }

    /// Optimal (unlimited) Huffman code lengths, by repeatedly merging the two lightest trees.
    private static func optimal(_ weights: [Int]) -> [Int] {
        var lengths = [Int](repeating: 0, count: weights.count)
        let used = weights.indices.filter { weights[$0] > 0 }
        if used.count < 2 {
            let first = used.first ?? 0
            lengths[first] = 1
            lengths[first == 0 ? 1 : 0] = 1
            return lengths
        }
        // Nodes: leaves first, then merged nodes; `parent` links give each leaf's depth.
        var nodeWeights = used.map { weights[$0] }
        var parent = [Int](repeating: -1, count: used.count * 2 - 1)
        // Leaves sorted by weight, merged nodes come out in non-decreasing weight: two queues.
        let leaves = used.indices.sorted { nodeWeights[$0] < nodeWeights[$1] }
        var leafAt = 0
        var merged: [Int] = []
        var mergedAt = 0
        func takeLightest() -> Int {
            if mergedAt < merged.count
                && (leafAt >= leaves.count || nodeWeights[merged[mergedAt]] < nodeWeights[leaves[leafAt]])
            {
                mergedAt += 1
                return merged[mergedAt - 1]
            }
            leafAt += 1
            return leaves[leafAt - 1]
        }
        for _ in 0..<(used.count - 1) {
            let a = takeLightest()
            let b = takeLightest()
            let node = nodeWeights.count
            nodeWeights.append(nodeWeights[a] + nodeWeights[b])
            parent[a] = node
            parent[b] = node
            merged.append(node)
        }
        // Depths from the root down: a node's parent is always created after it.
        var depth = [Int](repeating: 0, count: nodeWeights.count)
        for node in stride(from: nodeWeights.count - 2, through: 0, by: -1) { depth[node] = depth[parent[node]] + 1 }
        for (leaf, symbol) in used.enumerated() { lengths[symbol] = depth[leaf] }
        return lengths
    }

    /// Canonical codes for `lengths` (RFC 1951, 3.2.2), bit-reversed for writing least
    /// significant bit first.
    static func reversedCodes(_ lengths: [Int]) -> [UInt32] {
        let maxLength = lengths.max() ?? 0
        var counts = [Int](repeating: 0, count: maxLength + 1)
        for length in lengths where length > 0 { counts[length] += 1 }
        var next = [Int](repeating: 0, count: maxLength + 2)
        var code = 0
        for bits in 1...max(maxLength, 1) {
            code = (code + (bits - 1 < counts.count ? counts[bits - 1] : 0)) << 1
            next[bits] = code
        }
        return lengths.map { length in
            guard length > 0 else { return 0 }
            defer { next[length] += 1 }
            return DeflateBitWriter.reversed(UInt32(next[length]), length: length)
        }
    }
}
