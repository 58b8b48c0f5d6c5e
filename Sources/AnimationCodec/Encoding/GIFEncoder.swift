/// Writes GIF89a files from frames of palette indexes: each frame a whole canvas with its own
/// colour table, an optional transparent index, and its delay in hundredths of a second; the
/// number of plays in a NETSCAPE2.0 block. A frame is drawn over a cleared canvas (disposal 2), so
/// its transparent pixels show what is behind the image, as every other frame's do.
public enum GIFEncoder {
    /// One frame: `width x height` palette indexes, top row first.
    public struct Frame: Sendable, Hashable {
        /// One index a pixel.
        public var indexes: [UInt8]
        /// The colours, three bytes (RGB) an entry; 1 to 256 entries.
        public var palette: [UInt8]
        /// The index drawn as transparent, if any.
        public var transparentIndex: UInt8?
        /// How long the frame shows, in hundredths of a second (0-65,535).
        public var delayCentiseconds: Int

        /// Creates a frame.
        public init(indexes: [UInt8], palette: [UInt8], transparentIndex: UInt8?, delayCentiseconds: Int) {
            self.indexes = indexes
            self.palette = palette
            self.transparentIndex = transparentIndex
            self.delayCentiseconds = delayCentiseconds
        }
    }

    /// The file of `frames` (at least one, each `width * height` indexes under its palette's
    /// size), played `plays` times (0: forever; the NETSCAPE2.0 count is the repeats after the
    /// first play, and a file played once has no such block).
    public static func encode(frames: [Frame], width: Int, height: Int, plays: Int = 0) -> [UInt8] {
        precondition(!frames.isEmpty && (1...65_535).contains(width) && (1...65_535).contains(height))
        var out: [UInt8] = Array("GIF89a".utf8)
        appendShort(&out, width)
        appendShort(&out, height)
        // No global colour table; background index 0; square pixels.
        out += [0x00, 0x00, 0x00]
        if frames.count > 1 && plays != 1 {
            out += [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [0x03, 0x01]
            appendShort(&out, plays <= 0 ? 0 : min(plays - 1, 65_535))
            out.append(0x00)
        }
        for frame in frames {
            precondition(frame.indexes.count == width * height && (3...768).contains(frame.palette.count))
            // Graphic control: disposal 2 (restore to background), the transparent flag, delay.
            let transparent = frame.transparentIndex != nil
            out += [0x21, 0xF9, 0x04, 0x08 | (transparent ? 0x01 : 0x00)]
            appendShort(&out, min(max(frame.delayCentiseconds, 0), 65_535))
            out += [frame.transparentIndex ?? 0, 0x00]
            // Image descriptor with a local colour table of 2^(size+1) entries.
            out.append(0x2C)
            appendShort(&out, 0)
            appendShort(&out, 0)
            appendShort(&out, width)
            appendShort(&out, height)
            let entries = frame.palette.count / 3
            var tableBits = 1
            while 1 << tableBits < entries { tableBits += 1 }
            out.append(0x80 | UInt8(tableBits - 1))
            out += frame.palette
            out += [UInt8](repeating: 0, count: 3 * (1 << tableBits) - frame.palette.count)
            let minimumCodeSize = max(2, tableBits)
            out.append(UInt8(minimumCodeSize))
            let data = LZWEncoder.encode(frame.indexes, minimumCodeSize: minimumCodeSize)
            var start = 0
            while start < data.count {
                let count = min(255, data.count - start)
                out.append(UInt8(count))
                out += data[start..<(start + count)]
                start += count
            }
            out.append(0x00)
        }
        out.append(0x3B)
        return out
    }

    private static func appendShort(_ out: inout [UInt8], _ value: Int) {
        out += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)]
    }
}

/// GIF's variable-length LZW: codes from `minimumCodeSize + 1` bits up to 12, a clear code
/// first and whenever the table fills, packed least significant bit first.
enum LZWEncoder {
    static func encode(_ indexes: [UInt8], minimumCodeSize: Int) -> [UInt8] {
        let clear = 1 << minimumCodeSize
        let end = clear + 1
        var codeSize = minimumCodeSize + 1
        var lastCode = end
        // The table: (prefix code, next index) -> code, stamped with a generation so a clear
        // is one increment instead of a wipe of 4096 x 256 entries.
        var table = [UInt32](repeating: 0, count: 4096 * 256)
        var generation: UInt32 = 1
        var out: [UInt8] = []
        out.reserveCapacity(indexes.count / 2 + 16)
        var bits: UInt64 = 0
        var bitCount = 0
        func emit(_ code: Int) {
            bits |= UInt64(code) << UInt64(bitCount)
            bitCount += codeSize
            while bitCount >= 8 {
                out.append(UInt8(truncatingIfNeeded: bits))
                bits >>= 8
                bitCount -= 8
            }
        }
        emit(clear)
        guard var prefix = indexes.first.map(Int.init) else {
            emit(end)
            if bitCount > 0 { out.append(UInt8(truncatingIfNeeded: bits)) }
            return out
        }
        for index in indexes.dropFirst() {
            let key = prefix << 8 | Int(index)
            let entry = table[key]
            if entry >> 16 == generation {
                prefix = Int(entry & 0xFFFF)
                continue
            }
            emit(prefix)
            lastCode += 1
            table[key] = generation << 16 | UInt32(lastCode)
            if lastCode >= 1 << codeSize { codeSize += 1 }
            if lastCode == 4095 {
                emit(clear)
                generation += 1
                codeSize = minimumCodeSize + 1
                lastCode = end
            }
            prefix = Int(index)
        }
        emit(prefix)
        emit(end)
        if bitCount > 0 { out.append(UInt8(truncatingIfNeeded: bits)) }
        return out
    }
}
