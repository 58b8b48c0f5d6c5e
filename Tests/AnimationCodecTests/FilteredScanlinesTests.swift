import TestSupport
import Testing

@testable import AnimationCodec

/// The encoder's filtered scanlines against the PNG specification's filters (section 9.2)
/// and its adaptive heuristic (section 12.8: the filter whose bytes, read as signed, have the
/// smallest absolute sum; ties to the lower filter type) written here a byte at a time, for
/// rows of every width around the encoder's sixteen-byte steps, in 1, 3 and 4 bytes a pixel.
@Suite("PNG row filtering for the encoder", .timeLimit(.minutes(1)))
struct FilteredScanlinesTests {
    /// `raw` filtered with `filter` after the row `above` (zeros above the first row).
    static func specFiltered(_ filter: UInt8, _ raw: [UInt8], above: [UInt8], bpp: Int) -> [UInt8] {
        raw.indices.map { i in
            let x = Int(raw[i])
            let a = i >= bpp ? Int(raw[i - bpp]) : 0
            let b = Int(above[i])
            let c = i >= bpp ? Int(above[i - bpp]) : 0
            let prediction: Int
            switch filter {
            case 0: prediction = 0
            case 1: prediction = a
            case 2: prediction = b
            case 3: prediction = (a + b) / 2
            default:
                let p = a + b - c
                let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - c))
                prediction = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
            }
            return UInt8((x - prediction + 256) % 256)
        }
    }

    /// The scanlines of `rows` (raw bytes) with `strategy`'s filters, each after its filter byte.
    static func specScanlines(_ rows: [[UInt8]], bpp: Int, fixed: UInt8?) -> [UInt8] {
        var out: [UInt8] = []
        var above = [UInt8](repeating: 0, count: rows.first?.count ?? 0)
        for raw in rows {
            let candidates = (UInt8(0)...4).map { specFiltered($0, raw, above: above, bpp: bpp) }
            let chosen =
                fixed.map(Int.init)
                ?? candidates.indices.min { lhs, rhs in
                    func sum(_ bytes: [UInt8]) -> Int { bytes.reduce(0) { $0 + abs(Int(Int8(bitPattern: $1))) } }
                    let (l, r) = (sum(candidates[lhs]), sum(candidates[rhs]))
                    return l != r ? l < r : lhs < rhs
                }!
            out.append(UInt8(chosen))
            out += candidates[chosen]
            above = raw
        }
        return out
    }

    /// Rows of opaque pixels that drift from row to row (so each filter wins somewhere), with
    /// runs of one colour and jumps between them.
    static func opaquePixels(width: Int, height: Int, seed: UInt64) -> [UInt32] {
        var random = SplitMix(seed: seed)
        var pixels: [UInt32] = []
        for y in 0..<height {
            var colour = UInt32(truncatingIfNeeded: random.next()) & 0xFF_FFFF
            for x in 0..<width {
                switch random.next() % 6 {
                case 0: colour = UInt32(truncatingIfNeeded: random.next()) & 0xFF_FFFF
                case 1: colour = (colour &+ 0x01_0203 &* UInt32(x + y)) & 0xFF_FFFF
                default: break
                }
                pixels.append(0xFF00_0000 | colour)
            }
        }
        return pixels
    }

    /// `FilteredScanlines.make` over a whole image of `pixels`.
    static func made(_ pixels: [UInt32], width: Int, model: PNGColorModel, strategy: FilteredScanlines.Strategy)
        -> [UInt8]
    {
        pixels.withUnsafeBufferPointer { canvas in
            FilteredScanlines.make(
                canvas: canvas.baseAddress!, canvasWidth: width,
                rect: FrameRect(x: 0, y: 0, width: width, height: pixels.count / width), model: model,
                strategy: strategy)
        }
    }

    @Test(
        "RGBA and RGB rows: every fixed filter and the adaptive choice, as the specification filters them",
        arguments: [1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 33, 64, 65, 103, 408])
    func directColour(width: Int) {
        let pixels = Self.opaquePixels(width: width, height: 5, seed: UInt64(width))
        for (model, bpp) in [(PNGColorModel.rgba, 4), (.rgb, 3)] {
            // Opaque pixels: straight colour is the premultiplied colour.
            let rows = (0..<5).map { y in
                pixels[(y * width)..<((y + 1) * width)].flatMap { pixel -> [UInt8] in
                    let bytes = (0..<4).map { UInt8(truncatingIfNeeded: pixel >> (8 * $0)) }
                    return Array(bytes.prefix(bpp))
                }
            }
            for strategy in FilteredScanlines.Strategy.allCases {
                let expected = Self.specScanlines(rows, bpp: bpp, fixed: strategy.fixedFilter)
                #expect(
                    Self.made(pixels, width: width, model: model, strategy: strategy) == expected,
                    "\(model) \(strategy) at width \(width)")
            }
        }
    }

    @Test(
        "palette rows (8-bit indexes): every fixed filter and the adaptive choice",
        arguments: [1, 9, 16, 17, 40, 255, 409])
    func paletteIndexes(width: Int) {
        // 200 colours: indexes of 8 bits, and pixels that change from one to another.
        let colours = (0..<200).map { 0xFF00_0000 | UInt32($0) &* 0x01_0305 & 0xFF_FFFF }
        let palette = PNGPalette(colors: colours)
        var random = SplitMix(seed: 77 + UInt64(width))
        var index = 0
        let pixels = (0..<(width * 4)).map { _ -> UInt32 in
            if random.next() % 3 == 0 { index = Int(random.next() % 200) }
            return colours[index]
        }
        let rows = (0..<4).map { y in pixels[(y * width)..<((y + 1) * width)].map { palette.index(of: $0) } }
        for strategy in FilteredScanlines.Strategy.allCases {
            let expected = Self.specScanlines(rows, bpp: 1, fixed: strategy.fixedFilter)
            #expect(
                Self.made(pixels, width: width, model: .palette(palette), strategy: strategy) == expected,
                "\(strategy) at width \(width)")
        }
    }

    @Test("the extremes: bytes of 0 and 255 side by side, where sums of absolute values are largest")
    func extremes() {
        // Columns alternating black and white every pixel, rows inverted every row: every
        // filter's bytes are at or near -128 and 127.
        let width = 300
        let pixels = (0..<(width * 3)).map { i -> UInt32 in
            ((i % width) + i / width) % 2 == 0 ? 0xFF00_0000 : 0xFFFF_FFFF
        }
        let rows = (0..<3).map { y in
            pixels[(y * width)..<((y + 1) * width)].flatMap { pixel in
                (0..<4).map { UInt8(truncatingIfNeeded: pixel >> (8 * $0)) }
            }
        }
        for strategy in FilteredScanlines.Strategy.allCases {
            #expect(
                Self.made(pixels, width: width, model: .rgba, strategy: strategy)
                    == Self.specScanlines(rows, bpp: 4, fixed: strategy.fixedFilter), "\(strategy)")
        }
    }
}
