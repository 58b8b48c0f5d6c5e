import Testing

@testable import AnimationCodec

/// A frame drawn OVER part of the rectangle the frame before it disposed to background is
/// drawn there as SOURCE, and that part is not cleared first. These animations, built byte by
/// byte, lay such frames across the cleared rectangle's edges (and past the canvas's), with
/// transparent pixels, partly transparent ones and data that stops short; the expected
/// canvases are worked out here from the GIF and APNG rules alone.
@Suite("Frames over part of a cleared rectangle")
struct PartlyClearedRectangleTests {
    static let (width, height) = (40, 24)
    typealias Rect = (x: Int, y: Int, width: Int, height: Int)

    /// A canvas of premultiplied pixels, drawn on by the rules of the formats.
    struct Canvas: Equatable {
        var pixels = [PremultipliedRGBA](
            repeating: PremultipliedRGBA(r: 0, g: 0, b: 0, a: 0),
            count: PartlyClearedRectangleTests.width
                * PartlyClearedRectangleTests.height)

        /// Sets every pixel of `rect` inside the canvas to transparent black.
        mutating func clear(_ rect: Rect) {
            for y in rect.y..<(rect.y + rect.height) where y < height {
                for x in rect.x..<(rect.x + rect.width) where x < width {
                    pixels[y * width + x] = PremultipliedRGBA(r: 0, g: 0, b: 0, a: 0)
                }
            }
        }

        /// Straight `rgba` OVER the pixel at (x, y): each channel c·a/255 + d·(255 - a)/255,
        /// rounded to nearest once per term, in floating point.
        mutating func over(x: Int, y: Int, _ rgba: [Int]) {
            let a = Double(rgba[3])
            let d = pixels[y * width + x]
            func channel(_ source: Int, _ under: UInt8) -> UInt8 {
                let premultiplied = (Double(source) * a / 255).rounded(.toNearestOrAwayFromZero)
                return UInt8(premultiplied + (Double(under) * (255 - a) / 255).rounded(.toNearestOrAwayFromZero))
            }
            pixels[y * width + x] = PremultipliedRGBA(
                r: channel(rgba[0], d.r), g: channel(rgba[1], d.g), b: channel(rgba[2], d.b), a: channel(255, d.a))
        }
    }

    /// A decoded frame's pixels, to compare with a canvas worked out here.
    static func canvas(of frame: Frame) -> Canvas {
        var canvas = Canvas()
        for y in 0..<height {
            for x in 0..<width { canvas.pixels[y * width + x] = frame.pixel(x: x, y: y) }
        }
        return canvas
    }

    /// GIF: red everywhere (kept), a green rectangle (disposed to background), then a patterned
    /// frame across that rectangle's lower right edge and past the canvas's right and bottom
    /// edges, with runs of the transparent index (disposed to background), then a small frame.
    @Test(
        "GIF frames over part of a cleared rectangle show what the rules give",
        arguments: [false, true], [680, 150, 0])
    func gif(interlaced: Bool, keptPixels: Int) throws {
        for threads in [1, 2] { try gif(interlaced: interlaced, keptPixels: keptPixels, threads: threads) }
    }

    /// The GIF test with `keptPixels` of the patterned frame's 680 coded, on `threads`.
    private func gif(interlaced: Bool, keptPixels: Int, threads: Int) throws {
        let palette: [(UInt8, UInt8, UInt8)] = [(0, 0, 0), (255, 0, 0), (0, 255, 0), (0, 0, 255)]
        let colours: [PremultipliedRGBA] = [
            PremultipliedRGBA(r: 0, g: 0, b: 0, a: 255), PremultipliedRGBA(r: 255, g: 0, b: 0, a: 255),
            PremultipliedRGBA(r: 0, g: 255, b: 0, a: 255), PremultipliedRGBA(r: 0, g: 0, b: 255, a: 255)
        ]
        let rects: [Rect] = [(0, 0, Self.width, Self.height), (4, 2, 24, 16), (10, 6, 34, 20), (2, 1, 9, 5)]
        // Runs of five of each index along a row, shifted by one index a row.
        var patterned: [UInt8] = []
        for y in 0..<20 {
            for x in 0..<34 { patterned.append(UInt8((x / 5 + y) % 4)) }
        }
        typealias Image = (indexes: [UInt8], disposal: UInt8, kept: Int?, transparent: UInt8?)
        let images: [Image] = [
            ([UInt8](repeating: 1, count: Self.width * Self.height), 1, nil, nil),
            ([UInt8](repeating: 2, count: 24 * 16), 2, nil, nil),
            (patterned, 2, keptPixels, 3),
            ([UInt8](repeating: 0, count: 9 * 5), 1, nil, nil)
        ]
        let gif = GIFBuilder(width: Self.width, height: Self.height, palette: palette).animation(
            zip(images, rects).enumerated().map { index, element in
                GIFBuilder.Image(
                    indexes: element.0.indexes, keptPixels: element.0.kept, disposal: element.0.disposal,
                    transparentIndex: element.0.transparent, interlaced: interlaced && index == 2, rect: element.1)
            })
        let frames = try AnimationDecoder(bytes: gif).decodeAllFrames(threads: threads)
        #expect(frames.count == 4)

        var canvas = Canvas()
        var pendingClear: Rect?
        for (index, (image, rect)) in zip(images, rects).enumerated() {
            if let pendingClear { canvas.clear(pendingClear) }
            let rows =
                interlaced && index == 2
                ? [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { stride(from: $0.0, to: rect.height, by: $0.1) }
                : Array(0..<rect.height)
            let coded = image.kept ?? image.indexes.count
            for (storedRow, y) in rows.enumerated() {
                for x in 0..<rect.width where storedRow * rect.width + x < coded {
                    let value = image.indexes[y * rect.width + x]
                    let (canvasX, canvasY) = (rect.x + x, rect.y + y)
                    guard value != image.transparent, canvasX < Self.width, canvasY < Self.height else { continue }
                    canvas.pixels[canvasY * Self.width + canvasX] = colours[Int(value)]
                }
            }
            pendingClear = image.disposal == 2 ? rect : nil
            if index < frames.count {
                #expect(Self.canvas(of: frames[index]) == canvas, "frame \(index)")
            }
        }
    }

    /// APNG: red everywhere (kept), a green rectangle (disposed to background), then a frame
    /// blended OVER across that rectangle's lower right edge, of opaque, transparent and
    /// half-transparent pixels (disposed to background), then a small OVER frame on its left.
    @Test("APNG frames over part of a cleared rectangle show what the rules give", arguments: [1, 2])
    func apng(threads: Int) throws {
        let rects: [Rect] = [(0, 0, Self.width, Self.height), (4, 2, 24, 16), (10, 6, 30, 18), (6, 4, 12, 6)]
        func pattern(_ x: Int, _ y: Int) -> [Int] {
            switch (x / 3 + y) % 4 {
            case 0: return [0, 0, 0, 0]
            case 1: return [40, 80, 200, 255]
            case 2: return [250, 200, 10, 128]
            default: return [90, 30, 160, 77]
            }
        }
        let frames: [(rgba: (Int, Int) -> [Int], dispose: UInt8, blend: UInt8)] = [
            ({ _, _ in [255, 0, 0, 255] }, 0, 0),
            ({ _, _ in [0, 255, 0, 255] }, 1, 0),
            (pattern, 1, 1),
            ({ x, y in pattern(y, x) }, 0, 1)
        ]
        var png = TestPNG()
        png.header(width: Self.width, height: Self.height)
        png.chunk("acTL", TestPNG.be32(frames.count) + TestPNG.be32(0))
        var sequence = 0
        for (index, (frame, rect)) in zip(frames, rects).enumerated() {
            png.chunk(
                "fcTL",
                TestPNG.frameControl(
                    sequence: sequence, width: rect.width, height: rect.height, x: rect.x, y: rect.y,
                    dispose: frame.dispose, blend: frame.blend))
            sequence += 1
            var rows: [UInt8] = []
            for y in 0..<rect.height {
                rows.append(0)
                for x in 0..<rect.width { rows += frame.rgba(x, y).map { UInt8($0) } }
            }
            if index == 0 {
                png.chunk("IDAT", TestPNG.zlibStored(rows))
            } else {
                png.chunk("fdAT", TestPNG.be32(sequence) + TestPNG.zlibStored(rows))
                sequence += 1
            }
        }
        png.chunk("IEND", [])
        let decoded = try AnimationDecoder(bytes: png.bytes).decodeAllFrames(threads: threads)
        #expect(decoded.count == frames.count)

        var canvas = Canvas()
        var pendingClear: Rect?
        for (index, (frame, rect)) in zip(frames, rects).enumerated() {
            if let pendingClear { canvas.clear(pendingClear) }
            for y in 0..<rect.height {
                for x in 0..<rect.width {
                    let (canvasX, canvasY) = (rect.x + x, rect.y + y)
                    if frame.blend == 0 { canvas.clear((canvasX, canvasY, 1, 1)) }
                    canvas.over(x: canvasX, y: canvasY, frame.rgba(x, y))
                }
            }
            pendingClear = frame.dispose == 1 ? rect : nil
            if index < decoded.count {
                #expect(Self.canvas(of: decoded[index]) == canvas, "frame \(index)")
            }
        }
    }
}
