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

    @Test(
        "a frame as palette codes: 0 where transparent, else 1 + its entry; a byte a pixel up to 255 colours, two at 256; the codes give the pixels back"
    )
    func codes() {
        for count in [255, 256] {
            // Opaque entries at the centres of 5-bit cells 32 levels apart, so each pixel at one
            // is nearest its own entry.
            func level(_ cell: Int) -> UInt8 { UInt8(cell * 32 + 4) }
            let entries: [(UInt8, UInt8, UInt8)] = (0..<count).map { k in
                (level(k % 8), level(k / 8 % 8), level(k / 64))
            }
            let palette = entries.map { SIMD4<Double>(Double($0.0), Double($0.1), Double($0.2), 255) }
            // Every entry once, last first, with a transparent pixel after every 16th.
            var pixels: [UInt8] = []
            var expected: [Int] = []
            for k in (0..<count).reversed() {
                pixels += [entries[k].0, entries[k].1, entries[k].2, 255]
                expected.append(k + 1)
                if k % 16 == 0 {
                    pixels += [0, 0, 0, 0]
                    expected.append(0)
                }
            }
            var remapper = PaletteQuantizer.Remapper(
                PaletteQuantizer(maxColors: 256), width: expected.count, palette: palette)
            let indexes = remapper.indexes(pixels)
            switch indexes {
            case .narrow(let codes):
                #expect(count == 255, "a byte a pixel for 255 colours only")
                #expect(codes.map(Int.init) == expected)
            case .wide(let codes):
                #expect(count == 256, "two bytes a pixel for 256 colours only")
                #expect(codes.map(Int.init) == expected)
            }
            #expect(remapper.pixels(indexes) == pixels, "each pixel is its own entry's colour")
            #expect(remapper.map(pixels) == pixels)
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
