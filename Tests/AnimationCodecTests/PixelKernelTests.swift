import TestSupport
import Testing

@testable import AnimationCodec

@Suite("Premultiplication and 16-bit reduction, exhaustively")
struct PremultiplicationTests {
    @Test("premultiply matches round(c*a/255) for all 256x256 pairs")
    func premultiplyAllPairs() {
        var wrong = 0
        for a in 0...255 {
            for c in 0...255
            where Premultiplication.premultiply(UInt8(c), alpha: UInt8(a)) != Reference.premultiply(c, a) {
                wrong += 1
            }
        }
        #expect(wrong == 0)
    }

    @Test("the packed premultiply agrees with the per-channel one on every (channel, alpha) pair")
    func packedMatchesScalar() {
        var wrong = 0
        for a in 0...255 {
            for c in 0...255 {
                // Red, green and blue each get a different value derived from c.
                let r = UInt8(c)
                let g = UInt8(255 - c)
                let b = UInt8((c * 7) & 0xFF)
                let packed = Premultiplication.premultiplyPacked(
                    UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | UInt32(a) << 24)
                let expected =
                    UInt32(Reference.premultiply(Int(r), a)) | UInt32(Reference.premultiply(Int(g), a)) << 8
                    | UInt32(Reference.premultiply(Int(b), a)) << 16 | UInt32(a) << 24
                if packed != expected { wrong += 1 }
            }
        }
        #expect(wrong == 0)
    }

    @Test("the row premultiply (block fast paths) equals the per-pixel one", arguments: [1, 3, 4, 7, 64, 1001])
    func rowMatchesPixels(count: Int) {
        var generator = SplitMix(seed: UInt64(count))
        let straight = straightRuns(count, &generator)
        var row = [UInt8](repeating: 0xAA, count: count * 4)
        straight.withUnsafeBytes { s in
            row.withUnsafeMutableBytes {
                Premultiplication.premultiplyRow(s.baseAddress!, into: $0.baseAddress!, count: count)
            }
        }
        #expect(row == Reference.premultiplied(straight: straight))
    }

    /// Long opaque and transparent runs are followed eight pixels at a time, and mixed runs
    /// taken 4 or 16 blocks at a time; runs of every length from 1 to 40 (and 63-65, 100) in
    /// every order, at every alignment, end where the per-pixel kernel says.
    @Test("the row premultiply follows runs of any length and alignment exactly")
    func rowRuns() {
        var generator = SplitMix(seed: 77)
        let straight = alphaRuns(lengths: Array(1...40) + [63, 64, 65, 100], &generator)
        for shift in 0..<8 {
            let pixels = Array(straight.dropFirst(4 * shift))
            let count = pixels.count / 4
            var row = [UInt8](repeating: 0xAA, count: pixels.count)
            pixels.withUnsafeBytes { s in
                row.withUnsafeMutableBytes {
                    Premultiplication.premultiplyRow(s.baseAddress!, into: $0.baseAddress!, count: count)
                }
            }
            #expect(row == Reference.premultiplied(straight: pixels), "shift \(shift)")
        }
    }

    @Test("the row premultiply's mixed blocks are exact for every (colour, alpha) pair in every lane")
    func mixedBlocksExhaustive() {
        // In pass `channel` (red, green, blue), pixel p carries colour c = p % 256 in that channel
        // (the others derived from c) and alpha a = (p / 256 + 61 * (p % 4)) % 256: as p / 256
        // runs over 0...255 every (c, a) pair occurs, and the four pixels of a block have four
        // different alphas, so each lane of the block kernel sees every pair.
        var straight: [UInt8] = []
        for channel in 0..<3 {
            for p in 0..<65536 {
                let c = UInt8(p % 256)
                let a = UInt8((p / 256 + 61 * (p % 4)) % 256)
                var pixel: [UInt8] = [c &+ 85, c ^ 0xA5, 255 &- c, a]
                pixel[channel] = c
                straight += pixel
            }
        }
        let count = straight.count / 4
        var row = [UInt8](repeating: 0xAA, count: straight.count)
        straight.withUnsafeBytes { s in
            row.withUnsafeMutableBytes {
                Premultiplication.premultiplyRow(s.baseAddress!, into: $0.baseAddress!, count: count)
            }
        }
        #expect(row == Reference.premultiplied(straight: straight))
    }

    @Test("16-bit samples reduce to round(v*255/65535) for all 65536 values")
    func reduce16AllValues() {
        var wrong = 0
        for v in 0...65535 {
            let expected = UInt8((Double(v) * 255 / 65535).rounded(.toNearestOrAwayFromZero))
            if Premultiplication.reduce16(UInt16(v)) != expected { wrong += 1 }
        }
        #expect(wrong == 0)
    }

    @Test("unpremultiply inverts premultiply wherever alpha is 255 and gives the nearest straight value elsewhere")
    func unpremultiplyRoundTrip() {
        for c in 0...255 { #expect(PNGEncoder.unpremultiply(UInt8(c), alpha: 255) == UInt8(c)) }
        for a in 1...255 {
            for c in 0...a {
                let straight = Int(PNGEncoder.unpremultiply(UInt8(c), alpha: UInt8(a)))
                // Re-premultiplying the straight value lands back within one step of c.
                #expect(abs(Int(Reference.premultiply(straight, a)) - c) <= 1)
            }
        }
    }
}

@Suite("OVER blend kernels")
struct BlendKernelTests {
    /// Every (source channel <= source alpha, source alpha, destination) triple, laid out so
    /// that runs of four pixels share an alpha (exercising the SIMD block fast paths) and
    /// others mix alphas.
    static func exhaustiveInputs() -> (source: [UInt8], destination: [UInt8]) {
        var source: [UInt8] = []
        var destination: [UInt8] = []
        source.reserveCapacity(33_000_000)
        destination.reserveCapacity(33_000_000)
        for alpha in 0...255 {
            for channel in 0...alpha {
                for d in 0...255 {
                    source += [UInt8(channel), UInt8(channel / 2), UInt8(alpha - channel), UInt8(alpha)]
                    destination += [UInt8(d), UInt8(255 - d), UInt8(d / 3), UInt8(d)]
                }
            }
        }
        return (source, destination)
    }

    @Test("scalar OVER equals s + round(d*(255-a)/255) on every input triple")
    func scalarMatchesDefinition() {
        var wrong = 0
        for alpha in stride(from: 0, through: 255, by: 1) {
            for channel in 0...alpha {
                for d in 0...255 {
                    var dst: [UInt8] = [UInt8(d), 0, 0, UInt8(d)]
                    let src: [UInt8] = [UInt8(channel), 0, 0, UInt8(alpha)]
                    src.withUnsafeBytes { s in
                        dst.withUnsafeMutableBytes {
                            BlendKernels.overScalar(s.baseAddress!, onto: $0.baseAddress!, count: 1)
                        }
                    }
                    let expected =
                        channel + Int((Double(d) * Double(255 - alpha) / 255).rounded(.toNearestOrAwayFromZero))
                    if Int(dst[0]) != expected { wrong += 1 }
                }
            }
        }
        #expect(wrong == 0)
    }

    @Test("SIMD OVER equals scalar OVER on every input triple")
    func simdMatchesScalar() {
        let (source, destination) = Self.exhaustiveInputs()
        let count = source.count / 4
        var scalar = destination
        var simd = destination
        source.withUnsafeBytes { s in
            scalar.withUnsafeMutableBytes {
                BlendKernels.overScalar(s.baseAddress!, onto: $0.baseAddress!, count: count)
            }
            simd.withUnsafeMutableBytes { BlendKernels.overSIMD(s.baseAddress!, onto: $0.baseAddress!, count: count) }
        }
        #expect(scalar == simd)
    }

    @Test(
        "fused premultiply + OVER equals premultiplying then blending with the scalar kernel",
        arguments: [1, 5, 8, 63, 1000])
    func fusedPremultiplyOver(count: Int) {
        var generator = SplitMix(seed: UInt64(count) &* 7)
        let straight = straightRuns(count, &generator)
        let canvas = generator.bytes(count * 4)
        var fused = canvas
        var reference = canvas
        straight.withUnsafeBytes { s in
            fused.withUnsafeMutableBytes {
                BlendKernels.premultiplyOver(straight: s.baseAddress!, onto: $0.baseAddress!, count: count)
            }
        }
        let premultiplied = Reference.premultiplied(straight: straight)
        premultiplied.withUnsafeBytes { s in
            reference.withUnsafeMutableBytes {
                BlendKernels.overScalar(s.baseAddress!, onto: $0.baseAddress!, count: count)
            }
        }
        #expect(fused == reference)
    }

    @Test("SIMD OVER handles tails of 1-3 pixels and mixed blocks", arguments: 1...9)
    func tails(count: Int) {
        var generator = SplitMix(seed: UInt64(count))
        var source = [UInt8]()
        var destination = [UInt8]()
        for _ in 0..<count {
            let a = UInt8(truncatingIfNeeded: generator.next())
            source += [generator.byte(upTo: a), generator.byte(upTo: a), generator.byte(upTo: a), a]
            destination += (0..<4).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        }
        var scalar = destination
        var simd = destination
        source.withUnsafeBytes { s in
            scalar.withUnsafeMutableBytes {
                BlendKernels.overScalar(s.baseAddress!, onto: $0.baseAddress!, count: count)
            }
            simd.withUnsafeMutableBytes { BlendKernels.overSIMD(s.baseAddress!, onto: $0.baseAddress!, count: count) }
        }
        #expect(scalar == simd)
    }

    /// Opaque and transparent runs are followed eight pixels at a time (copied, or left);
    /// runs of every length from 1 to 40 in every order, at every alignment, over a canvas of
    /// random bytes, end where the scalar kernel says, straight or premultiplied.
    @Test("SIMD and fused OVER follow runs of any length and alignment exactly")
    func overRuns() {
        var generator = SplitMix(seed: 78)
        let straight = alphaRuns(lengths: Array(1...40), &generator)
        let canvas = generator.bytes(straight.count)
        for shift in 0..<8 {
            let pixels = Array(straight.dropFirst(4 * shift))
            let premultiplied = Reference.premultiplied(straight: pixels)
            let count = pixels.count / 4
            var reference = Array(canvas.prefix(pixels.count))
            var simd = reference
            var fused = reference
            premultiplied.withUnsafeBytes { s in
                reference.withUnsafeMutableBytes {
                    BlendKernels.overScalar(s.baseAddress!, onto: $0.baseAddress!, count: count)
                }
                simd.withUnsafeMutableBytes {
                    BlendKernels.overSIMD(s.baseAddress!, onto: $0.baseAddress!, count: count)
                }
            }
            pixels.withUnsafeBytes { s in
                fused.withUnsafeMutableBytes {
                    BlendKernels.premultiplyOver(straight: s.baseAddress!, onto: $0.baseAddress!, count: count)
                }
            }
            #expect(simd == reference, "shift \(shift)")
            #expect(fused == reference, "shift \(shift)")
        }
    }
}

/// Straight pixels in runs of each length in `lengths`: opaque, then transparent, then of
/// random alphas between, every colour byte random.
private func alphaRuns(lengths: [Int], _ generator: inout SplitMix) -> [UInt8] {
    var straight: [UInt8] = []
    for length in lengths {
        for kind in 0..<3 {
            for _ in 0..<length {
                let alpha: UInt8 = kind == 0 ? 255 : kind == 1 ? 0 : UInt8(1 + generator.next() % 254)
                straight += [
                    UInt8(truncatingIfNeeded: generator.next()), UInt8(truncatingIfNeeded: generator.next()),
                    UInt8(truncatingIfNeeded: generator.next()), alpha
                ]
            }
        }
    }
    return straight
}

/// `count` straight pixels in runs of four opaque, four transparent (colour bytes set) and four
/// of random alpha, every colour byte random: the block fast paths and the mixed path alike.
private func straightRuns(_ count: Int, _ generator: inout SplitMix) -> [UInt8] {
    (0..<count).flatMap { p -> [UInt8] in
        let alpha: UInt8
        switch (p / 4) % 3 {
        case 0: alpha = 255
        case 1: alpha = 0
        default: alpha = UInt8(truncatingIfNeeded: generator.next())
        }
        return [
            UInt8(truncatingIfNeeded: generator.next()), UInt8(truncatingIfNeeded: generator.next()),
            UInt8(truncatingIfNeeded: generator.next()), alpha
        ]
    }
}
