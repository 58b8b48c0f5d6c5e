import Foundation
import Testing

@testable import StickerPixels

/// The downscaler: premultiplied space keeps soft edges their colour, and the widened
/// kernel averages away detail finer than the output (no aliasing).
@Suite("Resampler")
struct ResamplerTests {
    /// Left half opaque red, right half transparent.
    static func halfRed(_ side: Int) -> RGBAImage {
        var image = RGBAImage(width: side, height: side)
        for y in 0..<side {
            for x in 0..<(side / 2) {
                image.pixels.replaceSubrange(((y * side + x) * 4)..<((y * side + x) * 4 + 4), with: [255, 0, 0, 255])
            }
        }
        return image
    }

    /// The filters that blend past a pixel's own area (the box filter has tests of its own below).
    static let smoothFilters: [Resampler.Filter] = [.lanczos3, .bicubic, .triangle]

    @Test(
        "A soft edge keeps its colour: every partly transparent pixel is pure red", arguments: smoothFilters,
        [(408, 102), (408, 306), (618, 489), (5, 2)])
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

    @Test(
        "A one-pixel checkerboard averages to grey, with no moiré", arguments: smoothFilters,
        [(408, 102), (408, 306), (618, 163)])
    func checkerboard(_ filter: Resampler.Filter, _ sizes: (Int, Int)) {
        var image = RGBAImage(width: sizes.0, height: sizes.0)
        for y in 0..<sizes.0 {
            for x in 0..<sizes.0 {
                let v: UInt8 = (x + y) % 2 == 0 ? 255 : 0
                image.pixels.replaceSubrange(
                    ((y * sizes.0 + x) * 4)..<((y * sizes.0 + x) * 4 + 4), with: [v, v, v, 255])
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

    @Test("Box: each output pixel is the mean of the source pixels it covers (a pixel cut in half counts half)")
    func boxAreaMean() {
        // 7 x 1 -> 2 x 1 (ratio 3.5): output 0 covers source [0, 3.5), output 1 covers [3.5, 7).
        let values: [UInt8] = [10, 40, 70, 200, 90, 30, 250]
        var image = RGBAImage(width: 7, height: 1)
        for (x, v) in values.enumerated() {
            image.pixels.replaceSubrange((x * 4)..<(x * 4 + 4), with: [v, v / 2, 0, 255])
        }
        let out = Resampler(filter: .box).resize(image, width: 2, height: 1)
        // By hand: (10 + 40 + 70 + 100) / 3.5 = 62.86; (100 + 90 + 30 + 250) / 3.5 = 134.29; green is
        // the mean of v / 2 rounded down: (5 + 20 + 35 + 50) / 3.5 = 31.43, (50 + 45 + 15 + 125) / 3.5 = 67.14.
        let expected: [(r: Double, g: Double)] = [(62.86, 31.43), (134.29, 67.14)]
        for x in 0..<2 {
            let p = out.pixel(x: x, y: 0)
            #expect(
                abs(Double(p.r) - expected[x].r) <= 1 && abs(Double(p.g) - expected[x].g) <= 1 && p.a == 255,
                "\(x): \(p)")
        }
        // An 8 x 8 of four flat 4 x 4 quadrants -> 2 x 2: each output is exactly its quadrant,
        // translucent ones included (premultiplied means of equal pixels).
        let quadrants: [[UInt8]] = [[255, 0, 0, 255], [0, 100, 0, 100], [0, 0, 0, 0], [17, 34, 51, 68]]
        var blocks = RGBAImage(width: 8, height: 8)
        for y in 0..<8 {
            for x in 0..<8 {
                blocks.pixels.replaceSubrange(
                    ((y * 8 + x) * 4)..<((y * 8 + x) * 4 + 4), with: quadrants[(y / 4) * 2 + x / 4])
            }
        }
        let small = Resampler(filter: .box).resize(blocks, width: 2, height: 2)
        for y in 0..<2 {
            for x in 0..<2 {
                let p = small.pixel(x: x, y: y)
                #expect([p.r, p.g, p.b, p.a] == quadrants[y * 2 + x], "\(x),\(y)")
            }
        }
    }

    @Test("Box: a sharp edge stays sharp where the output grid meets it, with nothing past it")
    func boxNoRinging() {
        // Half red at 408 -> 60 (ratio 6.8): a box never reaches past the source pixels an output pixel covers, so columns past the edge stay 0.
        let out = Resampler(filter: .box).resize(Self.halfRed(408), width: 60, height: 60)
        for y in 0..<60 {
            for x in 0..<60 {
                let p = out.pixel(x: x, y: y)
                // Output x covers source [6.8x, 6.8(x + 1)): red ends at 204 = 6.8 x 30.
                #expect(p.a == (x < 30 ? 255 : 0) && p.r == p.a && p.g == 0 && p.b == 0, "\(x),\(y): \(p)")
            }
        }
    }

    @Test("Bicubic is Keys' cubic with a = -0.5: its values at the taps worked out by hand")
    func bicubicKernel() {
        // w(x) = 1.5|x|^3 - 2.5|x|^2 + 1 below 1; -0.5|x|^3 + 2.5|x|^2 - 4|x| + 2 from 1 to 2.
        let expected: [(Double, Double)] = [
            (0, 1), (0.5, 0.5625), (1, 0), (1.5, -0.0625), (2, 0), (2.5, 0), (-0.5, 0.5625), (0.25, 0.8671875)
        ]
        for (x, w) in expected {
            #expect(abs(Resampler.Filter.bicubic.weight(x) - w) < 1e-12, "w(\(x))")
        }
        #expect(Resampler.Filter.bicubic.support == 2)
    }

    @Test("The fast kernel matches a direct Lanczos-3 from the formula within 1, transparent margins included")
    func matchesReference() {
        // A disc of varying colour and alpha on a transparent square, with a transparent hole.
        let side = 61
        var image = RGBAImage(width: side, height: side)
        for y in 0..<side {
            for x in 0..<side {
                let dx = Double(x) - 30
                let dy = Double(y) - 30
                let r = (dx * dx + dy * dy).squareRoot()
                guard r < 24, r > 4 else { continue }
                let a = UInt8(r > 20 ? 120 : 255)
                let o = (y * side + x) * 4
                image.pixels[o] = UInt8(Int(a) * ((x * 37) % 256) / 255)
                image.pixels[o + 1] = UInt8(Int(a) * ((y * 53) % 256) / 255)
                image.pixels[o + 2] = UInt8(Int(a) / 2)
                image.pixels[o + 3] = a
            }
        }
        for size in [45, 20, 7] {
            let fast = Resampler().resize(image, width: size, height: size)
            let reference = ReferenceLanczos.resize(image, width: size, height: size)
            let worst = zip(fast.pixels, reference.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(worst <= 1, "\(size): worst difference \(worst)")
        }
    }

    @Test("Filtered sums become bytes clamped to 0...255 and colour to alpha, rounded to nearest")
    func clampedBytes() {
        // Worked by hand: alpha first (0...255), then each colour into 0...alpha.
        #expect(Resampler.clampedBytes([300, -5, 100.4, 200]) == [200, 0, 100, 200])
        #expect(Resampler.clampedBytes([10.4, 11.6, 0.49, 255.7]) == [10, 12, 0, 255])
        #expect(Resampler.clampedBytes([5, 5, 5, -3]) == [0, 0, 0, 0])
        #expect(Resampler.clampedBytes([254.6, 254.6, 254.6, 254.6]) == [255, 255, 255, 255])
        #expect(Resampler.clampedBytes([0.2, 0.7, 0, 0.7]) == [0, 1, 0, 1])
    }

    @Test("Pixel pairs interleave two pixels channel by channel; a row's last pixel pairs with zero")
    func pixelPairs() {
        let row: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
        row.withUnsafeBytes { bytes in
            #expect(Resampler.pixelPair(bytes, offset: 0, last: false) == [1, 5, 2, 6, 3, 7, 4, 8])
            #expect(Resampler.pixelPair(bytes, offset: 4, last: true) == [5, 0, 6, 0, 7, 0, 8, 0])
        }
        // 200 * 3 + 100 * -2 per channel, in one step.
        #expect(
            Resampler.multiplyAddPairs([200, 100, 200, 100, 200, 100, 200, 100], [3, -2, 3, -2, 3, -2, 3, -2]) == [
                400, 400, 400, 400
            ])
    }

    @Test("A solid colour stays exactly that colour at any size")
    func solid() {
        let image = RGBAImage(width: 408, height: 408, pixels: Array([UInt8]([60, 30, 10, 128]).repeated(408 * 408)))
        for size in [306, 102, 37, 500] {
            let out = Resampler().resize(image, width: size, height: size)
            #expect(
                Set(stride(from: 0, to: out.pixels.count, by: 4).map { Array(out.pixels[$0..<($0 + 4)]) }) == [
                    [60, 30, 10, 128]
                ])
        }
    }

    /// A strip `long` pixels along one side and 1 across, red but for 16 green pixels in its middle.
    static func strip(long: Int, vertical: Bool) -> RGBAImage {
        var image = RGBAImage(width: vertical ? 1 : long, height: vertical ? long : 1)
        for i in 0..<long {
            let green = (long / 2 - 8)..<(long / 2 + 8)
            image.pixels.replaceSubrange(
                (i * 4)..<(i * 4 + 4), with: green.contains(i) ? [0, 255, 0, 255] : [255, 0, 0, 255])
        }
        return image
    }

    @Test("Cover: a long strip covers a square with its centre only, scaled from that part (1 x 65,536 to 1,024 px)")
    func coverLongStrip() {
        for vertical in [true, false] {
            // Scaled whole, the strip would be 1,024 x 67,108,864 pixels (256 GiB): the visible
            // middle pixel of the source is all the square shows.
            let out = Resampler().cover(Self.strip(long: 65_536, vertical: vertical), width: 1024, height: 1024)
            #expect(out.width == 1024 && out.height == 1024)
            #expect(out.pixels.count == 1024 * 1024 * 4)
            #expect(
                stride(from: 0, to: out.pixels.count, by: 4).allSatisfy {
                    Array(out.pixels[$0..<($0 + 4)]) == [UInt8]([0, 255, 0, 255])
                })
        }
    }

    @Test(
        "Cover: a long image's visible part scaled alone equals the whole image scaled then cropped (scale kept, centred)",
        arguments: [(2, 400, 200, 250), (3, 500, 200, 250), (400, 2, 250, 200), (500, 3, 250, 200), (7, 3000, 300, 300)]
    )
    func coverCropKeepsScale(_ sourceWidth: Int, _ sourceHeight: Int, _ width: Int, _ height: Int) {
        // Rows (or columns, for a wide image) of one pixel cycling red, green, blue, white.
        let cycle: [[UInt8]] = [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [255, 255, 255, 255]]
        var image = RGBAImage(width: sourceWidth, height: sourceHeight)
        for y in 0..<sourceHeight {
            for x in 0..<sourceWidth {
                let o = (y * sourceWidth + x) * 4
                image.pixels.replaceSubrange(o..<(o + 4), with: cycle[(sourceWidth > sourceHeight ? x : y) % 4])
            }
        }
        // The definition: the whole image scaled to cover, then its centre cut out.
        let scale = max(Double(width) / Double(sourceWidth), Double(height) / Double(sourceHeight))
        let (w, h) = (
            max(width, Int((Double(sourceWidth) * scale).rounded())),
            max(height, Int((Double(sourceHeight) * scale).rounded()))
        )
        #expect(w * h > 4 * width * height, "the case takes the cropping path")
        let expected = Resampler().resize(image, width: w, height: h).cropped(
            to: PixelRect(x: (w - width) / 2, y: (h - height) / 2, width: width, height: height))
        let out = Resampler().cover(image, width: width, height: height)
        #expect(out.width == width && out.height == height)
        // Along the long axis, through the middle: each pixel's nearest stripe colour. The
        // stripes' edges must fall where the whole image scaled puts them, to the pixel (the
        // crop starts at a whole source pixel, which may scale to a fraction of one): same
        // stripes, same order, each edge within one pixel.
        func edges(_ picture: RGBAImage) -> [(position: Int, stripe: Int)] {
            let wide = sourceWidth > sourceHeight
            let count = wide ? width : height
            var found: [(Int, Int)] = []
            for i in 0..<count {
                let pixel = wide ? picture.pixel(x: i, y: height / 2) : picture.pixel(x: width / 2, y: i)
                let values = [Int(pixel.r), Int(pixel.g), Int(pixel.b)]
                func distance(_ stripe: Int) -> Int {
                    var sum = 0
                    for channel in 0..<3 {
                        let d = values[channel] - Int(cycle[stripe][channel])
                        sum += d * d
                    }
                    return sum
                }
                let nearest = (0..<cycle.count).min { distance($0) < distance($1) }!
                if found.last?.1 != nearest { found.append((i, nearest)) }
            }
            return found
        }
        let made = edges(out)
        let wanted = edges(expected)
        #expect(made.map(\.stripe) == wanted.map(\.stripe), "\(made) against \(wanted)")
        #expect(
            zip(made, wanted).allSatisfy { abs($0.position - $1.position) <= 1 }, "\(made) against \(wanted)")
        #expect(wanted.count >= 3, "the window crosses stripes")
    }

    @Test("Cover: an image of another aspect is scaled to fill and cropped to its centre")
    func coverCrops() {
        // 4 x 2 (columns red, green, blue, white) into 2 x 2: scale 1, the middle two columns.
        var image = RGBAImage(width: 4, height: 2)
        let columns: [[UInt8]] = [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [255, 255, 255, 255]]
        for y in 0..<2 {
            for x in 0..<4 { image.pixels.replaceSubrange(((y * 4 + x) * 4)..<((y * 4 + x) * 4 + 4), with: columns[x]) }
        }
        let out = Resampler().cover(image, width: 2, height: 2)
        #expect(out.width == 2 && out.height == 2)
        #expect(out.pixels == columns[1] + columns[2] + columns[1] + columns[2])
        #expect(Resampler().cover(image, width: 0, height: 5).pixels.isEmpty)
    }
}

/// A direct, slow Lanczos-3 downscale written from the formula (double precision, no
/// skipping, no streaming): the reference for the fast kernel.
enum ReferenceLanczos {
    static func kernel(_ x: Double) -> Double {
        let x = abs(x)
        if x < 1e-9 { return 1 }
        if x >= 3 { return 0 }
        return 3 * sin(Double.pi * x) * sin(Double.pi * x / 3) / (Double.pi * Double.pi * x * x)
    }

    /// Normalised weights of every source pixel for destination pixel `d`.
    static func weights(_ d: Int, source: Int, destination: Int) -> [(Int, Double)] {
        let scale = Double(source) / Double(destination)
        let stretch = max(1, scale)
        let centre = (Double(d) + 0.5) * scale
        var list: [(Int, Double)] = []
        for s in 0..<source {
            let w = kernel((Double(s) + 0.5 - centre) / stretch)
            if w != 0 { list.append((s, w)) }
        }
        let total = list.reduce(0) { $0 + $1.1 }
        return list.map { ($0.0, $0.1 / total) }
    }

    static func resize(_ image: RGBAImage, width: Int, height: Int) -> RGBAImage {
        var out = RGBAImage(width: width, height: height)
        let columns = (0..<width).map { weights($0, source: image.width, destination: width) }
        let rows = (0..<height).map { weights($0, source: image.height, destination: height) }
        for y in 0..<height {
            for x in 0..<width {
                var sum = [0.0, 0.0, 0.0, 0.0]
                for (sy, wy) in rows[y] {
                    for (sx, wx) in columns[x] {
                        let p = image.pixel(x: sx, y: sy)
                        let w = wx * wy
                        sum[0] += Double(p.r) * w; sum[1] += Double(p.g) * w; sum[2] += Double(p.b) * w;
                        sum[3] += Double(p.a) * w
                    }
                }
                let a = min(255, max(0, sum[3]))
                let o = (y * width + x) * 4
                for c in 0..<3 { out.pixels[o + c] = UInt8(min(a, max(0, sum[c])) + 0.5) }
                out.pixels[o + 3] = UInt8(a + 0.5)
            }
        }
        return out
    }
}

extension Array {
    func repeated(_ count: Int) -> [Element] { (0..<count).flatMap { _ in self } }
}
