/// Fewer levels per colour channel, every colour kept: each premultiplied colour channel is
/// rounded to the nearest multiple of 2^(8 - bits) (and kept within its alpha, so the pixel stays
/// premultiplied), alpha left exact. Smooth gradients then leave the row filters smaller,
/// more repetitive differences: a mild step between the exact colours and a palette, with an
/// error of at most 2^(7 - bits) a channel (1 at 7 bits, 2 at 6).
enum ColorPrecision {
    /// `frames` with `bits` bits of colour precision (8 returns them as they are).
    static func apply(_ frames: [[UInt8]], bits: Int) -> [[UInt8]] {
        guard bits < 8 else { return frames }
        let table = tables[bits]
        return frames.map { frame in
            [UInt8](unsafeUninitializedCapacity: frame.count) { out, count in
                frame.withUnsafeBufferPointer { pixels in
                    table.withUnsafeBufferPointer { rounded in
                        // Safe: `out` holds frame.count bytes; the table 65,536 (alpha << 8 | channel).
                        for p in stride(from: 0, to: pixels.count, by: 4) {
                            let alpha = Int(pixels[p + 3]) << 8
                            out[p] = rounded[alpha | Int(pixels[p])]
                            out[p + 1] = rounded[alpha | Int(pixels[p + 1])]
                            out[p + 2] = rounded[alpha | Int(pixels[p + 2])]
                            out[p + 3] = pixels[p + 3]
                        }
                    }
                }
                count = frame.count
            }
        }
    }

    /// ``levels(bits:)`` for 0 to 7 bits, made once (the search colours frames one at a time).
    private static let tables = (0..<8).map { levels(bits: $0) }

    /// For every `alpha << 8 | channel`: the channel rounded to the nearest multiple of
    /// 2^(8 - bits), ties up, at most `alpha`.
    static func levels(bits: Int) -> [UInt8] {
        let step = 1 << (8 - bits)
        return (0..<65_536).map { index in
            let alpha = index >> 8
            let value = index & 0xFF
            let nearest = (value + step / 2) / step * step
            return UInt8(min(alpha, nearest, 255))
        }
    }
}
