import Foundation
import StickerPixels
import Testing

/// The quantizer's cells and the palette a terminal picture is given, against pictures whose
/// right answer is worked out by hand.
@Suite("pixels: palette quantizer cells and indexed pictures", .timeLimit(.minutes(2)))
struct PaletteQuantizerTests {
    /// An opaque 64 x 4 picture: column x is blue 4x + 1, red 60, green 120 (64 colours, each in
    /// a 6-bit cell of its own, two to a 5-bit cell).
    static func ramp() -> (pixels: [UInt8], width: Int) {
        var pixels: [UInt8] = []
        for _ in 0..<4 {
            for x in 0..<64 { pixels += [60, 120, UInt8(4 * x + 1), 255] }
        }
        return (pixels, 64)
    }

    /// The largest channel difference between two RGBA8 pictures.
    static func maxDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
        zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    @Test(
        "cells of 6 bits keep 64 blue steps 4 apart exactly; cells of 5 bits merge them in pairs (2 levels off or more)"
    )
    func finerCells() {
        let (pixels, width) = Self.ramp()
        let fine = PaletteQuantizer(maxColors: 256, cellBits: 6).quantize([pixels], width: width)[0]
        #expect(Self.maxDifference(fine, pixels) == 0)
        let coarse = PaletteQuantizer(maxColors: 256, cellBits: 5).quantize([pixels], width: width)[0]
        #expect(Self.maxDifference(coarse, pixels) >= 2)
    }

    @Test("a sixel's palette: the fewest of 32, 64, 128 and 256 colours within the PSNR asked for, measured here")
    func fewestColours() {
        // A 256 x 64 picture of 16,384 colours: red along x, green along y, blue from both.
        let side = (width: 256, height: 64)
        var pixels: [UInt8] = []
        for y in 0..<side.height {
            for x in 0..<side.width { pixels += [UInt8(x), UInt8(y * 4), UInt8((x + y * 4) / 2), 255] }
        }
        let image = RGBAImage(width: side.width, height: side.height, pixels: pixels)
        let most = IndexedImage(image, over: (0, 0, 0), palette: .most)
        let few = IndexedImage(image, over: (0, 0, 0), palette: .fewest(psnr: 30))
        // The PSNR of what was chosen, from its indexes and palette.
        func psnr(_ indexed: IndexedImage) -> Double {
            var squares = 0.0
            for i in 0..<(side.width * side.height) {
                let entry = Int(indexed.indexes[i])
                for channel in 0..<3 {
                    let d = Double(indexed.palette[3 * entry + channel]) - Double(pixels[4 * i + channel])
                    squares += d * d
                }
            }
            return 10 * log10(255 * 255 / (squares / Double(3 * side.width * side.height)))
        }
        let mostColours = most.palette.count / 3
        let fewColours = few.palette.count / 3
        #expect(mostColours > 128 && mostColours <= 256, "\(mostColours)")
        #expect(fewColours <= 128 && fewColours < mostColours, "\(fewColours) colours, \(psnr(few)) dB")
        #expect(psnr(few) >= 30, "\(psnr(few)) dB")
        #expect(psnr(most) >= psnr(few))
    }

    @Test("a picture of at most 256 colours keeps them exactly, whatever the palette asked for")
    func fewColoursExact() {
        let (pixels, width) = Self.ramp()
        let image = RGBAImage(width: width, height: 4, pixels: pixels)
        let indexed = IndexedImage(image, over: (0, 0, 0), palette: .fewest(psnr: 20))
        #expect(indexed.palette.count / 3 == 64)
        for i in 0..<(width * 4) {
            let entry = Int(indexed.indexes[i])
            #expect(Array(indexed.palette[3 * entry..<3 * entry + 3]) == Array(pixels[4 * i..<4 * i + 3]))
        }
    }

    @Test("a frame maps to the same colours alone, after other frames, or with all of them, dithered or not")
    func remapperOrder() {
        // Three 40 x 40 frames of a gradient with soft edges, each shifted.
        let frames: [[UInt8]] = (0..<3).map { shift in
            (0..<(40 * 40)).flatMap { i -> [UInt8] in
                let x = (i % 40 + 7 * shift) % 40
                let y = i / 40
                let alpha = y < 4 ? UInt8(y * 60) : 255
                return [UInt8(x * 6 % 256), UInt8(y * 6), UInt8((x + y) * 3), alpha].map { min($0, alpha) }
            }
        }
        for dither in [false, true] {
            let quantizer = PaletteQuantizer(maxColors: 24, dither: dither)
            let palette = quantizer.palette(PaletteQuantizer.histogram(of: frames))
            let together = quantizer.remap(frames, width: 40, palette: palette)
            for index in frames.indices {
                var alone = PaletteQuantizer.Remapper(quantizer, width: 40, palette: palette)
                #expect(alone.map(frames[index]) == together[index], "frame \(index), dither \(dither)")
            }
            var reversed = PaletteQuantizer.Remapper(quantizer, width: 40, palette: palette)
            let backwards = frames.reversed().map { reversed.map($0) }
            #expect(Array(backwards.reversed()) == together, "dither \(dither)")
        }
    }
}
