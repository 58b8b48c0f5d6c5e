/// GIF's variable-width LZW decoder, from code stream to palette indexes.
///
/// Every dictionary string is a prefix string plus one byte, and the prefix string was
/// written to the output just before; so an entry is stored as where its bytes already sit
/// in the output and how long it is, and emitting a code is one copy from earlier output
/// (eight bytes at a time), not a walk down a prefix chain. Edge cases follow browsers: a
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
    static func decode(_ input: UnsafeRawBufferPointer, minimumCodeSize: Int, into output: UnsafeMutableBufferPointer<UInt8>) -> Outcome {
        let capacity = output.count
        guard capacity > 0 else { return .complete }
        guard let out = output.baseAddress, let inBase = input.baseAddress else { return .insufficientData(written: 0) }
        let inCount = input.count

        // Entry tables in one allocation: output offset (Int32) and length (Int32).
        let storage = UnsafeMutableRawPointer.allocate(byteCount: maxCodes * 8, alignment: 8)
        defer { storage.deallocate() }
        let offsets = storage.bindMemory(to: Int32.self, capacity: maxCodes * 2)
        let lengths = offsets + maxCodes

        let clearCode = 1 << minimumCodeSize, endCode = clearCode + 1
        var codeSize = minimumCodeSize + 1
        var codeMask: UInt64 = (1 << UInt64(codeSize)) - 1
        var nextCode = clearCode + 2
        // Where the previous code's string starts in the output, and its length (-1: none).
        var previousStart = -1, previousLength = 0
        var bits: UInt64 = 0, bitCount = 0, inOffset = 0
        var written = 0

        while true {
            if bitCount < codeSize {
                if inOffset &+ 8 <= inCount {
                    // Refill to 56+ bits with one unaligned load; consume whole bytes only.
                    let word = UInt64(littleEndian: inBase.loadUnaligned(fromByteOffset: inOffset, as: UInt64.self))
                    bits |= word &<< UInt64(bitCount)
                    let taken = (63 &- bitCount) &>> 3
                    inOffset &+= taken
                    bitCount &+= taken &* 8
                } else {
                    while bitCount < codeSize {
                        guard inOffset < inCount else { return .insufficientData(written: written) }
                        bits |= UInt64(inBase.load(fromByteOffset: inOffset, as: UInt8.self)) &<< UInt64(bitCount)
                        inOffset &+= 1
                        bitCount &+= 8
                    }
                }
            }
            let code = Int(truncatingIfNeeded: bits & codeMask)
            bits &>>= UInt64(codeSize)
            bitCount &-= codeSize

            if code == clearCode {
                codeSize = minimumCodeSize + 1
                codeMask = (1 << UInt64(codeSize)) - 1
                nextCode = clearCode + 2
                previousStart = -1
                continue
            }
            if code == endCode { return written == capacity ? .complete : .insufficientData(written: written) }

            let start = written
            let length: Int
            if code < clearCode {
                out[written] = UInt8(truncatingIfNeeded: code)
                length = 1
            } else if previousStart < 0 || code > nextCode || (code == nextCode && nextCode >= maxCodes) {
                return .invalidCode(written: written)
            } else if code < nextCode {
                length = Int(lengths[code])
                copy(from: Int(offsets[code]), count: length, to: written, in: out, capacity: capacity)
            } else {
                // code == nextCode: the previous string plus its own first byte.
                length = previousLength &+ 1
                copy(from: previousStart, count: previousLength, to: written, in: out, capacity: capacity)
                if written &+ previousLength < capacity { out[written &+ previousLength] = out[previousStart] }
            }
            if previousStart >= 0 && nextCode < maxCodes {
                // The new entry is the previous string and the first byte after it, which is
                // where this code's string begins: the two already lie together in the output.
                offsets[nextCode] = Int32(truncatingIfNeeded: previousStart)
                lengths[nextCode] = Int32(truncatingIfNeeded: previousLength &+ 1)
                nextCode &+= 1
                if nextCode == 1 << codeSize && codeSize < 12 {
                    codeSize &+= 1
                    codeMask = (1 << UInt64(codeSize)) - 1
                }
            }
            written &+= length
            if written >= capacity { return .complete }
            previousStart = start
            previousLength = length
        }
    }

    /// Copies `count` earlier output bytes at `source` to `destination`, clipped to
    /// `capacity`. The ranges never overlap (an entry's bytes all precede the write point),
    /// so eight-byte blocks are safe wherever eight bytes of room remain.
    @inline(__always)
    private static func copy(from source: Int, count: Int, to destination: Int, in out: UnsafeMutablePointer<UInt8>, capacity: Int) {
        let raw = UnsafeMutableRawPointer(out)
        if destination &+ count &+ 8 <= capacity {
            // Away from the end (nearly always): whole blocks, the last one running up to 7
            // bytes past the string, into output that the next strings overwrite (or that stays
            // past `written` when the data ends). Most strings take one block.
            var d = destination, s = source
            let end = destination &+ count
            repeat {
                raw.storeBytes(of: raw.loadUnaligned(fromByteOffset: s, as: UInt64.self), toByteOffset: d, as: UInt64.self)
                d &+= 8
                s &+= 8
            } while d < end
            return
        }
        let end = min(destination &+ count, capacity)
        var d = destination, s = source
        // Safe: d + 8 <= capacity bounds the write; the read ends before d (s + 8 <= d + 8).
        while d &+ 8 <= capacity && d < end {
            raw.storeBytes(of: raw.loadUnaligned(fromByteOffset: s, as: UInt64.self), toByteOffset: d, as: UInt64.self)
            d &+= 8
            s &+= 8
        }
        while d < end {
            out[d] = out[s]
            d &+= 1
            s &+= 1
        }
    }
}
