import StickerPixels
import Testing

@testable import StickerFit

/// The palette's ordered dithering: stable over time (a pixel that does not change keeps its
/// colour), closer to the input on average than the nearest colour alone, and alpha kept exact.
@Suite("fit: ordered dithering", .timeLimit(.minutes(3)))
struct DitherTests {
    static let side = 64

    /// An opaque gradient (red along x, green along y, blue fixed): what a palette bands.
    static func gradient() -> [UInt8] {
        (0..<side * side).flatMap { i -> [UInt8] in
            let x = i % side
            let y = i / side
            return [UInt8(x * 255 / (side - 1)), UInt8(y * 255 / (side - 1)), 96, 255]
        }
    }

    /// The mean over 8 x 8 blocks and colour channels of |block mean of `a` - block mean of `b`|:
    /// what a viewer's eye, averaging neighbouring pixels, sees of the difference.
    static func blockError(_ a: [UInt8], _ b: [UInt8]) -> Double {
        var total = 0.0
        var blocks = 0
        for by in stride(from: 0, to: side, by: 8) {
            for bx in stride(from: 0, to: side, by: 8) {
                for channel in 0..<3 {
                    var sumA = 0
                    var sumB = 0
                    for y in by..<by + 8 {
                        for x in bx..<bx + 8 {
                            sumA += Int(a[(y * side + x) * 4 + channel])
                            sumB += Int(b[(y * side + x) * 4 + channel])
                        }
                    }
                    total += Double(abs(sumA - sumB)) / 64
                    blocks += 1
                }
            }
        }
        return total / Double(blocks)
    }

    @Test("a still gradient beside a moving bar keeps every dithered colour from frame to frame")
    func stillAreasStayStill() {
        let background = Self.gradient()
        // Eight frames: the gradient on the left half, a white bar moving down the right half.
        let frames = (0..<8).map { index -> [UInt8] in
            var frame = background
            for y in index * 8..<index * 8 + 8 {
                for x in Self.side / 2..<Self.side {
                    frame.replaceSubrange(
                        (y * Self.side + x) * 4..<(y * Self.side + x) * 4 + 4, with: [255, 255, 255, 255])
                }
            }
            return frame
        }
        let quantized = PaletteQuantizer(maxColors: 16, dither: true).quantize(frames, width: Self.side)
        let undithered = PaletteQuantizer(maxColors: 16).quantize(frames, width: Self.side)
        #expect(quantized[0] != undithered[0], "the dithered frame differs from the nearest-colour one")
        for (index, frame) in quantized.enumerated() {
            var changed = 0
            for y in 0..<Self.side {
                for x in 0..<Self.side / 2
                where frame[(y * Self.side + x) * 4..<(y * Self.side + x) * 4 + 4]
                    != quantized[0][(y * Self.side + x) * 4..<(y * Self.side + x) * 4 + 4]
                {
                    changed += 1
                }
            }
            #expect(changed == 0, "frame \(index): \(changed) pixels of the still half changed colour")
        }
        let colours = Set(
            quantized.flatMap { frame in stride(from: 0, to: frame.count, by: 4).map { Array(frame[$0..<$0 + 4]) } })
        #expect(colours.count <= 16)
    }

    @Test(
        "dithered, a 16-colour gradient's 8 x 8 averages are at least twice as close to the input's as the nearest colours'"
    )
    func tracksTheAverage() {
        let input = Self.gradient()
        let dithered = PaletteQuantizer(maxColors: 16, dither: true).quantize([input], width: Self.side)[0]
        let nearest = PaletteQuantizer(maxColors: 16).quantize([input], width: Self.side)[0]
        let ditheredError = Self.blockError(input, dithered)
        let nearestError = Self.blockError(input, nearest)
        #expect(ditheredError * 2 <= nearestError, "block error dithered \(ditheredError), nearest \(nearestError)")
    }

    @Test("dithering keeps alpha 0 and 255 exact and premultiplied colour within alpha")
    func alphaExact() {
        // Rows of transparent, opaque and translucent pixels of every colour.
        let frame: [UInt8] = (0..<Self.side * Self.side).flatMap { i -> [UInt8] in
            let alpha: Int = [0, 255, 128, 40][i / Self.side % 4]
            return [UInt8(alpha * (i % 64) / 63), UInt8(alpha * (i / 64) / 63), UInt8(alpha / 2), UInt8(alpha)]
        }
        let out = PaletteQuantizer(maxColors: 16, dither: true).quantize([frame], width: Self.side)[0]
        for p in stride(from: 0, to: frame.count, by: 4) {
            #expect(
                (frame[p + 3] == 0) == (out[p + 3] == 0) && (frame[p + 3] == 255) == (out[p + 3] == 255),
                "pixel \(p / 4)")
            #expect(out[p] <= out[p + 3] && out[p + 1] <= out[p + 3] && out[p + 2] <= out[p + 3], "pixel \(p / 4)")
        }
    }
}
