/// GIF's variable-width LZW decoder, from code stream to palette indexes.
///
/// Every dictionary string is a prefix string plus one byte, and the prefix string was
/// written to the output just before; so an entry is stored as where its bytes already sit
/// in the output and how long it is, and emitting a code is one copy from earlier output
/// (16 bytes at a time), not a walk down a prefix chain; literals point into a table of the
/// 256 byte values and are copied the same way. Edge cases follow browsers: a
/// clear code may come anywhere; a full 4096-entry table keeps decoding with 12-bit codes
/// and adds nothing ("deferred clear"); a code past the next free entry stops the frame,
/// keeping what was decoded; data after the output is full is ignored.
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

    /// The minimum code sizes a stream may declare. Sizes 9-11 are valid though no palette
    /// needs them (the first codes are then 10-12 bits wide); browsers and Pillow decode them.
    /// A literal code past 255 keeps its low byte, as Chromium's and Pillow's decoders store
    /// it. From 12 on the clear code would need 13 bits, past GIF's 12-bit limit.
    static let validMinimumCodeSizes: ClosedRange<UInt8> = 1...11

    /// Decodes `input` into `output.count` indexes.
    /// - Precondition: `minimumCodeSize` is in 1...11 (checked by the caller).
    static func decode(
        _ input: UnsafeRawBufferPointer, minimumCodeSize: Int, into output: UnsafeMutableBufferPointer<UInt8>
    ) -> Outcome {
        let capacity = output.count
        guard capacity > 0 else { return .complete }
        guard let out = output.baseAddress, let inBase = input.baseAddress else { return .insufficientData(written: 0) }

        // One allocation, addressed from one base: each entry's source address (at code * 8),
        // its length (Int32, from `lengthsOffset`), and the 256 byte values (plus `leadingBytes` of
        // slack) that literal entries point into. A literal is then copied like any other
        // entry, so the loop has no literal branch to mispredict.
        let literalBytes = 256 + leadingBytes
        let table = UnsafeMutableRawPointer.allocate(byteCount: literalsOffset + literalBytes, alignment: 8)
        defer { table.deallocate() }
        let literals = table + literalsOffset
        for value in 0..<literalBytes {
            literals.storeBytes(of: UInt8(truncatingIfNeeded: value), toByteOffset: value, as: UInt8.self)
        }
        @inline(__always) func setEntry(_ code: Int, source: UnsafeRawPointer, length: Int) {
            table.storeBytes(of: source, toByteOffset: code &* 8, as: UnsafeRawPointer.self)
            table.storeBytes(
                of: Int32(truncatingIfNeeded: length), toByteOffset: lengthsOffset &+ code &* 4, as: Int32.self)
        }

        let clearCode = 1 << minimumCodeSize
        let endCode = clearCode + 1
        for code in 0..<clearCode {
            // A literal past 255 (minimum code sizes 9-11) keeps its low byte.
            setEntry(code, source: literals + (code & 0xFF), length: 1)
        }
        // The clear and end codes have no string: a length of 0 sends them off the common path,
        // which then tests one length instead of comparing the code with both.
        setEntry(clearCode, source: literals, length: 0)
        setEntry(endCode, source: literals, length: 0)
        var codeSize = minimumCodeSize + 1
        var codeMask: UInt64 = (1 << UInt64(codeSize)) - 1
        var nextCode = clearCode + 2
        // Where the previous code's string starts in the output (nil: none since a clear),
        // and its length.
        var previousStart: UnsafeMutablePointer<UInt8>? = nil
        var previousLength = 0
        var bits: UInt64 = 0
        var bitCount = 0
        // The next input byte; a whole 8-byte load is safe while it is below `wordLimit` (the
        // input's start when the input is shorter than a word: no address before it is formed).
        var next = inBase
        let inEnd = inBase + input.count
        let wordLimit = input.count >= 8 ? inEnd - 7 : inBase
        // Where the next string goes, and the end of the output.
        var target = out
        let outEnd = out + capacity

        while true {
            if bitCount < codeSize {
                if next < wordLimit {
                    // Refill to 56+ bits with one unaligned load; consume whole bytes only.
                    let word = UInt64(littleEndian: next.loadUnaligned(as: UInt64.self))
                    bits |= word &<< UInt64(bitCount)
                    let taken = (63 &- bitCount) &>> 3
                    next += taken
                    bitCount &+= taken &* 8
                } else {
                    while bitCount < codeSize {
                        guard next < inEnd else { return .insufficientData(written: target - out) }
                        bits |= UInt64(next.load(as: UInt8.self)) &<< UInt64(bitCount)
                        next += 1
                        bitCount &+= 8
                    }
                }
            }
            let code = Int(truncatingIfNeeded: bits & codeMask)
            bits &>>= UInt64(codeSize)
            bitCount &-= codeSize

            let start = target
            var length = 0
            if code < nextCode {
                length = Int(table.load(fromByteOffset: lengthsOffset &+ code &* 4, as: Int32.self))
            }
            if length > 0 {
                // A literal or a dictionary string: one copy of a known string.
                let source = table.load(fromByteOffset: code &* 8, as: UnsafePointer<UInt8>.self)
                copy(from: source, count: length, to: target, room: outEnd - target)
            } else if code == clearCode {
                codeSize = minimumCodeSize + 1
                codeMask = (1 << UInt64(codeSize)) - 1
                nextCode = clearCode + 2
                previousStart = nil
                continue
            } else if code == endCode {
                return target == outEnd ? .complete : .insufficientData(written: target - out)
            } else if code == nextCode, let previous = previousStart, nextCode < maxCodes {
                // The previous string plus its own first byte.
                length = previousLength &+ 1
                copy(from: previous, count: previousLength, to: target, room: outEnd - target)
                if target + previousLength < outEnd { target[previousLength] = previous[0] }
            } else {
                return .invalidCode(written: target - out)
            }
            if let previous = previousStart, nextCode < maxCodes {
                // The new entry is the previous string and the first byte after it, which is
                // where this code's string begins: the two already lie together in the output.
                setEntry(nextCode, source: previous, length: previousLength &+ 1)
                nextCode &+= 1
                if nextCode == 1 &<< codeSize && codeSize < 12 {
                    codeSize &+= 1
                    codeMask = (1 << UInt64(codeSize)) - 1
                }
            }
            if length >= outEnd - target { return .complete }
            target += length
            previousStart = start
            previousLength = length
        }
    }

    /// Where the table's lengths and literal bytes begin, after the entries' source addresses.
    private static let lengthsOffset = maxCodes * 8
    private static let literalsOffset = maxCodes * 12

    /// The copy step: strings are copied in 16-byte blocks.
    private static let blockSize = 16

    /// The bytes copied for every string, whatever its length, as whole blocks: on the bench
    /// corpus's GIF files 34-71% of strings are at most 16 bytes long, 15-44% 17-48 and 5-22%
    /// longer, and a test of the length between blocks mispredicts on such a mix. Three
    /// blocks decoded those files 3-10% faster than two, and four no faster than three.
    private static let leadingBytes = 3 * blockSize

    /// Copies a `count`-byte string from `source` (earlier output, or the literal bytes) to
    /// `destination`, writing at most `room` bytes. An output string never overlaps the place
    /// it is copied to (an entry's bytes all precede the write point), so whole 16-byte
    /// blocks are safe wherever their room remains past the string: each block is loaded
    /// before it is stored, and the string's own bytes, all behind `destination`, are never
    /// overwritten; the bytes a block carries past the string's end are overwritten by the
    /// next strings (or stay past the written count when the data ends).
    @inline(__always)
    private static func copy(
        from source: UnsafePointer<UInt8>, count: Int, to destination: UnsafeMutablePointer<UInt8>, room: Int
    ) {
        let from = UnsafeRawPointer(source)
        let to = UnsafeMutableRawPointer(destination)
        @inline(__always) func copyBlock(at offset: Int) {
            to.storeBytes(
                of: from.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self), toByteOffset: offset,
                as: SIMD16<UInt8>.self)
        }
        if count &+ leadingBytes <= room {
            // Away from the end (nearly always): the leading blocks, without a test between
            // them, then more only for long strings.
            var offset = 0
            while offset < leadingBytes {
                copyBlock(at: offset)
                offset &+= blockSize
            }
            while offset < count {
                copyBlock(at: offset)
                offset &+= blockSize
            }
            return
        }
        // Near the end of the output: byte by byte, clipped to the room left.
        let end = min(count, room)
        var offset = 0
        while offset < end {
            destination[offset] = source[offset]
            offset &+= 1
        }
    }
}
