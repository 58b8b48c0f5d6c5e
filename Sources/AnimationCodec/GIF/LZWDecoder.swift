/// GIF's variable-width LZW decoder, from code stream to palette indexes.
///
/// The dictionary is four flat tables (prefix, suffix, first byte, length) in one
/// allocation; each code's whole string is written at once, backwards from its end, so the
/// output is never re-read. Edge cases follow browsers: a clear code may come anywhere; a
/// full 4096-entry table keeps decoding with 12-bit codes and adds nothing ("deferred
/// clear"); a code past the next free entry stops the frame, keeping what was decoded;
/// data after the output is full is ignored.
struct LZWDecoder {
    /// How a frame's code stream ended.
    enum Outcome: Equatable, Sendable {
        /// Every pixel was written (an end code, extra data or no more data may follow).
        case complete
        /// The data ran out after `written` pixels.
        case insufficientData(written: Int)
        /// An invalid code was met after `written` pixels.
        case invalidCode(written: Int)
    }

    static let maxCodes = 4096

    /// Decodes `input` into `output.count` indexes.
    /// - Precondition: `minimumCodeSize` is in 1...11 (checked by the caller).
    static func decode(_ input: UnsafeRawBufferPointer, minimumCodeSize: Int, into output: UnsafeMutableBufferPointer<UInt8>) -> Outcome {
        let capacity = output.count
        guard capacity > 0 else { return .complete }
        guard let out = output.baseAddress, let inBase = input.baseAddress else { return .insufficientData(written: 0) }
        let inBytes = inBase.assumingMemoryBound(to: UInt8.self)
        let inCount = input.count

        // One allocation: prefix (UInt16), length (UInt16), suffix (UInt8), first (UInt8).
        let storage = UnsafeMutableRawPointer.allocate(byteCount: maxCodes * 6, alignment: 2)
        defer { storage.deallocate() }
        let prefix = storage.bindMemory(to: UInt16.self, capacity: maxCodes)
        let length = (storage + maxCodes * 2).bindMemory(to: UInt16.self, capacity: maxCodes)
        let suffix = (storage + maxCodes * 4).bindMemory(to: UInt8.self, capacity: maxCodes)
        let first = (storage + maxCodes * 5).bindMemory(to: UInt8.self, capacity: maxCodes)

        let clearCode = 1 << minimumCodeSize, endCode = clearCode + 1
        for code in 0..<maxCodes {
            prefix[code] = 0
            length[code] = code < clearCode ? 1 : 0
            suffix[code] = UInt8(truncatingIfNeeded: code)
            first[code] = UInt8(truncatingIfNeeded: code)
        }
        var codeSize = minimumCodeSize + 1
        var nextCode = clearCode + 2
        var previous = -1
        var bits: UInt64 = 0, bitCount = 0, inOffset = 0
        var written = 0

        while true {
            // Refill to at least 12 bits while input remains.
            while bitCount < codeSize {
                guard inOffset < inCount else { return .insufficientData(written: written) }
                bits |= UInt64(inBytes[inOffset]) << UInt64(bitCount)
                inOffset &+= 1
                bitCount &+= 8
            }
            let code = Int(bits & ((1 << UInt64(codeSize)) - 1))
            bits >>= UInt64(codeSize)
            bitCount &-= codeSize

            if code == clearCode {
                codeSize = minimumCodeSize + 1
                nextCode = clearCode + 2
                previous = -1
                continue
            }
            if code == endCode { return written == capacity ? .complete : .insufficientData(written: written) }
            if previous < 0 {
                guard code < clearCode else { return .invalidCode(written: written) }
                out[written] = UInt8(truncatingIfNeeded: code)
                written &+= 1
                if written == capacity { return .complete }
                previous = code
                continue
            }
            guard code <= nextCode, code != nextCode || nextCode < maxCodes else {
                return .invalidCode(written: written)
            }
            if nextCode < maxCodes {
                // Safe: previous < nextCode <= 4095, so its length is at most 4095.
                prefix[nextCode] = UInt16(truncatingIfNeeded: previous)
                first[nextCode] = first[previous]
                suffix[nextCode] = first[code == nextCode ? previous : code]
                length[nextCode] = length[previous] &+ 1
                nextCode &+= 1
                if nextCode == 1 << codeSize, codeSize < 12 { codeSize &+= 1 }
            }
            // Write the string of `code` backwards from its last byte, skipping what would
            // fall past the output.
            let count = Int(length[code])
            var position = written &+ count &- 1
            var walk = code
            while position >= capacity {
                walk = Int(prefix[walk])
                position &-= 1
            }
            while position >= written {
                out[position] = suffix[walk]
                walk = Int(prefix[walk])
                position &-= 1
            }
            written = min(written &+ count, capacity)
            if written == capacity { return .complete }
            previous = code
        }
    }
}
