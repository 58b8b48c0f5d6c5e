import AnimationCodec
import TestSupport
import Testing

/// The colour type the encoder picks, against colours counted with a `Set` in the test: a
/// palette for at most 256 colours across every frame (with the transparent colour added when
/// there is room), RGB when more and all opaque, else RGBA.
@Suite("PNG colour model")
struct ColorModelTests {
    /// Packed premultiplied RGBA (R in the low byte) as frame bytes.
    static func frame(_ pixels: [UInt32]) -> [UInt8] {
        pixels.flatMap {
            [
                UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8), UInt8(truncatingIfNeeded: $0 >> 16),
                UInt8($0 >> 24)
            ]
        }
    }

    /// `count` distinct opaque colours that differ only above their low ten bits (where a
    /// table might hash alike), in a scrambled order.
    static func colliding(_ count: Int) -> [UInt32] {
        (0..<count).map { 0xFF00_0000 | UInt32($0 * 997 % count) << 10 }
    }

    @Test func twoHundredFiftySixColoursAcrossFramesArePalette() {
        let colors = Self.colliding(256)
        #expect(Set(colors).count == 256)
        // Half the colours in each frame: only the frames together hold all 256.
        let frames = [
            Self.frame(Array(colors[..<128]) + Array(colors[..<128])),
            Self.frame(Array(colors[..<128]) + Array(colors[128...]))
        ]
        guard case .palette(let palette) = PNGColorModel.smallest(for: frames) else {
            Issue.record("256 colours should make a palette")
            return
        }
        #expect(Set(palette.colors) == Set(colors))
        #expect(palette.colors.count == 256)  // no room for the transparent colour
    }

    @Test func twoHundredFiftySevenOpaqueColoursAreRGB() {
        let colors = Self.colliding(257)
        #expect(Set(colors).count == 257)
        // The 257th colour appears only where the last frame differs from the one before.
        let frames = [Self.frame(Array(colors[..<256]) + [colors[0]]), Self.frame(colors)]
        #expect(PNGColorModel.smallest(for: frames) == .rgb)
    }

    @Test("more than 256 colours, every pixel opaque or fully transparent: RGB with a key no opaque pixel has")
    func binaryAlphaMakesAColourKey() throws {
        // Opaque black and the next colours up are taken, so the key cannot be black.
        var colors = (0..<300).map { 0xFF00_0000 | UInt32($0) }
        colors[150] = 0
        guard case .rgbKeyed(let key) = PNGColorModel.smallest(for: [Self.frame(colors)]) else {
            Issue.record("a colour key was expected")
            return
        }
        #expect(!colors.contains(0xFF00_0000 | key), "the key \(key) is an opaque pixel's colour")
        #expect(key == 150, "the first colour no opaque pixel has (the one turned transparent)")
        // A translucent pixel anywhere, even only in a later frame's change, rules the key out.
        var translucent = colors
        translucent[7] = 0x8000_0040
        #expect(PNGColorModel.smallest(for: [Self.frame(colors), Self.frame(translucent)]) == .rgba)
    }

    @Test("every one of the 2^24 colours opaque and one transparent pixel: no key is free, so RGBA")
    func noFreeColourMeansRGBA() {
        var pixels = (0..<(1 << 24)).map { 0xFF00_0000 | UInt32($0) }
        pixels.append(0)
        #expect(PNGColorModel.smallest(for: [Self.frame(pixels)]) == .rgba)
    }

    @Test func oneTranslucentPixelAfterManyColoursMakesRGBA() {
        var colors = Self.colliding(300)
        colors[299] = 0x8040_2010
        #expect(PNGColorModel.smallest(for: [Self.frame(colors)]) == .rgba)
    }

    @Test func fewColoursGetTheTransparentEntryInAnAnimationOnlyAndEveryIndexRoundTrips() throws {
        // Repeated runs, colour 0 absent, opaque and translucent colours.
        let colors: [UInt32] = [0xFF00_00FF, 0x8000_0080, 0xFF00_FF00, 0x4010_1010]
        let pixels = (0..<64).map { colors[$0 / 3 % colors.count] }
        // An animation's palette gets the fully transparent entry (for OVER frames); a still's
        // does not, since no pixel uses it (an opaque still then has no alpha at all).
        guard case .palette(let animated) = PNGColorModel.smallest(for: [Self.frame(pixels), Self.frame(pixels)]),
            case .palette(let palette) = PNGColorModel.smallest(for: [Self.frame(pixels)])
        else {
            Issue.record("4 colours should make a palette")
            return
        }
        #expect(Set(animated.colors) == Set(colors + [0]))
        #expect(Set(palette.colors) == Set(colors))
        // Written and read back by the codec's decoder: every pixel where it was.
        let png = AnimationEncoder.encode(
            frames: [Self.frame(pixels)], delays: [FrameDelay(numerator: 1, denominator: 10)], width: 8, height: 8,
            plays: 0
        ).bytes
        let decoded = try AnimationDecoder(bytes: png).frame(at: 0).pixels
        #expect(decoded == Self.frame(pixels))
    }
    /// A model as text, a palette as its colours in ascending order.
    static func described(_ model: PNGColorModel) -> String {
        guard case .palette(let palette) = model else { return "\(model)" }
        return "palette \(palette.colors.sorted())"
    }

    /// The model read from the colours a plain loop collects: every pixel of the first frame,
    /// then each pixel of a later frame that differs from the one before (as text).
    static func expectedModel(_ frames: [[UInt32]]) -> String {
        var colours = Set(frames[0])
        for (before, frame) in zip(frames, frames.dropFirst()) {
            for (old, new) in zip(before, frame) where old != new { colours.insert(new) }
        }
        if colours.count <= 256 {
            // A palette with room gets the fully transparent colour.
            let entries = colours.count < 256 ? colours.union([0]) : colours
            return "palette \(entries.sorted())"
        }
        if colours.allSatisfy({ $0 >> 24 == 0xFF }) { return described(.rgb) }
        if colours.allSatisfy({ $0 >> 24 == 0xFF || $0 >> 24 == 0 }) {
            let opaque = Set(colours.filter { $0 >> 24 == 0xFF }.map { $0 & 0xFF_FFFF })
            return described(.rgbKeyed(key: (0..<(1 << 24)).first { !opaque.contains($0) }!))
        }
        return described(.rgba)
    }

    @Test("the model of frames with runs, repeated stretches and odd lengths, against a plain count")
    func modelAgainstAPlainCount() {
        var random = SplitMix(seed: 40)
        // Palettes of 40 and 300 colours, opaque, with transparent pixels and with translucent.
        for (colourCount, kinds) in [(40, 3), (300, 3), (300, 2), (300, 1)] {
            let palette = (0..<colourCount).map { index -> UInt32 in
                let alpha: UInt32 = kinds == 3 && index % 7 == 0 ? 0x80 : 0xFF
                return alpha << 24 | UInt32(truncatingIfNeeded: random.next()) & (alpha == 0xFF ? 0xFF_FFFF : 0x7F_7F7F)
            }
            for pixels in [1, 2, 3, 5, 7, 185, 1_003] {
                // Runs of one to six pixels, each of the next colour.
                var frame: [UInt32] = []
                while frame.count < pixels {
                    let run = min(pixels - frame.count, 1 + Int(random.next() % 6))
                    frame += repeatElement(palette[frame.count % colourCount], count: run)
                }
                var frames = [frame]
                for _ in 0..<4 {
                    // A stretch of the next frame changes, some of it to one colour.
                    let start = Int(random.next() % UInt64(pixels))
                    let end = min(pixels, start + 1 + Int(random.next() % 40))
                    for i in start..<end {
                        let pick = Int(random.next() % UInt64(colourCount))
                        frame[i] = i % 5 == 0 ? palette[pick] : (kinds == 1 && i % 3 == 0 ? 0 : palette[pick / 2])
                    }
                    frames.append(frame)
                }
                let expected = Self.expectedModel(frames)
                #expect(
                    Self.described(PNGColorModel.smallest(for: frames.map(Self.frame))) == expected,
                    "\(colourCount) colours, \(pixels) pixels")
            }
        }
    }
}
