import StickerRenderer
import Testing

/// The downscaler: premultiplied space keeps soft edges their colour, and the widened
/// kernel averages away detail finer than the output (no aliasing).
@Suite("Resampler")
struct ResamplerTests {
    /// Left half opaque red, right half transparent.
    static func halfRed(_ side: Int) -> RGBAImage {
        var image = RGBAImage(width: side, height: side)
        for y in 0..<side {
            for x in 0..<(side / 2) { image.pixels.replaceSubrange(((y * side + x) * 4)..<((y * side + x) * 4 + 4), with: [255, 0, 0, 255]) }
        }
        return image
    }

    @Test("A soft edge keeps its colour: every partly transparent pixel is pure red", arguments: Resampler.Filter.allCases, [(408, 102), (408, 306), (618, 489), (5, 2)])
    func softEdge(_ filter: Resampler.Filter, _ sizes: (Int, Int)) {
        let out = Resampler(filter: filter).resize(Self.halfRed(sizes.0), width: sizes.1, height: sizes.1)
        var partial = 0
        for y in 0..<out.height {
            for x in 0..<out.width {
                let p = out.pixel(x: x, y: y)
                // Premultiplied pure red: r equals alpha, no green or blue. Straight-alpha
                // averaging would mix in the transparent pixels' black and give r < a.
                #expect(p.r == p.a && p.g == 0 && p.b == 0, "\(filter) at \(x),\(y): \(p)")
                if p.a > 0 && p.a < 255 { partial += 1 }
            }
        }
        #expect(partial > 0)  // the edge really is soft
    }

    @Test("A one-pixel checkerboard averages to grey, with no moiré", arguments: Resampler.Filter.allCases, [(408, 102), (408, 306), (618, 163)])
    func checkerboard(_ filter: Resampler.Filter, _ sizes: (Int, Int)) {
        var image = RGBAImage(width: sizes.0, height: sizes.0)
        for y in 0..<sizes.0 {
            for x in 0..<sizes.0 {
                let v: UInt8 = (x + y) % 2 == 0 ? 255 : 0
                image.pixels.replaceSubrange(((y * sizes.0 + x) * 4)..<((y * sizes.0 + x) * 4 + 4), with: [v, v, v, 255])
            }
        }
        let out = Resampler(filter: filter).resize(image, width: sizes.1, height: sizes.1)
        var worst = 0.0
        for y in 3..<(out.height - 3) {
            for x in 3..<(out.width - 3) {
                let p = out.pixel(x: x, y: y)
                worst = max(worst, abs(Double(p.r) - 127.5))
                #expect(p.a == 255)
            }
        }
        // Nearest-pixel sampling would give 0 or 255; any aliasing shows as bands far from 127.5.
        // Lanczos (the default) suppresses it almost entirely; the tent filter leaves a little.
        #expect(worst <= (filter == .lanczos3 ? 4 : 10), "\(filter) \(sizes): worst deviation \(worst)")
    }

    @Test("A solid colour stays exactly that colour at any size")
    func solid() {
        let image = RGBAImage(width: 408, height: 408, pixels: Array([UInt8]([60, 30, 10, 128]).repeated(408 * 408)))
        for size in [306, 102, 37, 500] {
            let out = Resampler().resize(image, width: size, height: size)
            #expect(Set(stride(from: 0, to: out.pixels.count, by: 4).map { Array(out.pixels[$0..<($0 + 4)]) }) == [[60, 30, 10, 128]])
        }
    }
}

extension Array {
    func repeated(_ count: Int) -> [Element] { (0..<count).flatMap { _ in self } }
}
