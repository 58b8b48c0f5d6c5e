import AnimationCodec
import Foundation
import StickerPack
import StickerPixels
import StickerRenderer
import TestSupport
import Testing

/// Whole renders against pixels worked out by hand: solid stickers on solid backgrounds at
/// cells computed from the layout model, animation timing on the shared clock, and the
/// animated APNG's frames and delays.
@Suite("Browser rendering")
struct RenderTests {
    /// A temporary folder of generated sticker files (inputs only).
    final class Files {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("render-tests-\(UUID().uuidString)")
        init() { try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: url) }

        func solid(_ name: String, side: Int, _ rgba: [UInt8]) -> URL {
            let pixels = Array((0..<(side * side)).flatMap { _ in rgba })
            return write(name, PNGEncoder.encode(premultiplied: pixels, width: side, height: side))
        }

        /// An APNG of full-canvas solid frames.
        func animation(_ name: String, side: Int, colors: [[UInt8]], delaysMs: [Int], plays: Int) -> URL {
            var writer = APNGWriter(width: side, height: side, frameCount: colors.count, plays: plays)
            for (color, delay) in zip(colors, delaysMs) {
                writer.append(
                    premultiplied: Array((0..<(side * side)).flatMap { _ in color }), x: 0, y: 0, width: side,
                    height: side,
                    delay: FrameDelay(numerator: delay, denominator: 1000))
            }
            return write(name, writer.finish())
        }

        func write(_ name: String, _ bytes: [UInt8]) -> URL {
            let file = url.appendingPathComponent(name)
            try! Data(bytes).write(to: file)
            return file
        }
    }

    static func pack(_ urls: [URL]) -> StickerPack {
        StickerPack(
            name: "t", origin: .files, stickers: urls.map { Sticker(name: $0.lastPathComponent, source: .file($0)) })
    }

    static func options(scale: Int = 1, background: String = "white") -> RenderOptions {
        var options = RenderOptions()
        options.scale = scale
        options.background = Background(named: background)!
        return options
    }

    @Test("A solid red sticker on white fills exactly its cell: iPhone 15, regular, 1x")
    func solidSticker() throws {
        let files = Files()
        let red = files.solid("red.png", side: 408, [255, 0, 0, 255])
        let image = try BrowserRenderer(pack: Self.pack([red]), options: Self.options()).snapshot(at: 0)
        Self.expectRedCellOnWhite(width: image.width, height: image.height, pixel: image.pixel)
    }

    /// The 1x strip of one solid red 408-pixel sticker on white: 393 x 213 pt; first cell at
    /// (16, 8), 102 x 102 (408 px = 136 pt, shrunk to 102). Every pixel checked.
    static func expectRedCellOnWhite(width: Int, height: Int, pixel: (_ x: Int, _ y: Int) -> PremultipliedRGBA) {
        #expect(width == 393 && height == 213)
        for y in 0..<height {
            for x in 0..<width {
                let inside = (16..<118).contains(x) && (8..<110).contains(y)
                let expected =
                    inside
                    ? PremultipliedRGBA(r: 255, g: 0, b: 0, a: 255) : PremultipliedRGBA(r: 255, g: 255, b: 255, a: 255)
                if pixel(x, y) != expected {
                    Issue.record("(\(x),\(y)) is \(pixel(x, y)), expected \(expected)"); return
                }
            }
        }
    }

    @Test("A half-transparent sticker blends with the background: 50% blue over white")
    func translucent() throws {
        let files = Files()
        // Premultiplied (0, 0, 128, 128): blue at alpha 128.
        let blue = files.solid("blue.png", side: 300, [0, 0, 128, 128])
        var options = Self.options(scale: 2)
        options.size = .small
        let image = try BrowserRenderer(pack: Self.pack([blue]), options: options).snapshot(at: 0)
        // Small on 393 pt: 72 pt cells; 300 px = 100 pt shrunk to 72 pt = 144 px at 2x, at (32, 16).
        // OVER white: c = src + 255 * (255 - 128) / 255 = src + 127.
        #expect(image.pixel(x: 32 + 70, y: 16 + 70) == PremultipliedRGBA(r: 127, g: 127, b: 255, a: 255))
        #expect(image.pixel(x: 31, y: 16 + 70) == PremultipliedRGBA(r: 255, g: 255, b: 255, a: 255))
        #expect(image.pixel(x: 32 + 143, y: 16 + 143) == PremultipliedRGBA(r: 127, g: 127, b: 255, a: 255))
        #expect(image.pixel(x: 32 + 144, y: 16 + 143) == PremultipliedRGBA(r: 255, g: 255, b: 255, a: 255))
    }

    @Test("A transparent background keeps alpha; the second sticker lands in the second column")
    func transparentBackground() throws {
        let files = Files()
        let a = files.solid("a.png", side: 408, [0, 255, 0, 255])
        let b = files.solid("b.png", side: 408, [0, 0, 255, 255])
        let image = try BrowserRenderer(pack: Self.pack([a, b]), options: Self.options(background: "transparent"))
            .snapshot(at: 0)
        #expect(image.pixel(x: 0, y: 0) == PremultipliedRGBA(r: 0, g: 0, b: 0, a: 0))
        #expect(image.pixel(x: 16, y: 8) == PremultipliedRGBA(r: 0, g: 255, b: 0, a: 255))
        // Second column at 16 + 102 + 27.5 = 145.5 pt -> 146 px (rounded half away from zero).
        #expect(image.pixel(x: 145, y: 50) == PremultipliedRGBA(r: 0, g: 0, b: 0, a: 0))
        #expect(image.pixel(x: 146, y: 50) == PremultipliedRGBA(r: 0, g: 0, b: 255, a: 255))
    }

    @Test("A PNG snapshot composed row by row: red in its cell on white, as RGB")
    func pngSnapshot() throws {
        let files = Files()
        let red = files.solid("red.png", side: 408, [255, 0, 0, 255])
        let png = try BrowserRenderer(pack: Self.pack([red]), options: Self.options()).snapshotPNG(at: 0)
        #expect(png[25] == 2)  // IHDR colour type: RGB on an opaque background
        let image = try AnimationDecoder(bytes: png).frame(at: 0)
        Self.expectRedCellOnWhite(width: image.width, height: image.height, pixel: image.pixel)
    }

    @Test("A PNG snapshot on a transparent background keeps alpha (RGBA), stickers in their columns")
    func pngSnapshotTransparent() throws {
        let files = Files()
        let a = files.solid("a.png", side: 408, [0, 255, 0, 255])
        let b = files.solid("b.png", side: 408, [0, 0, 255, 255])
        let png = try BrowserRenderer(pack: Self.pack([a, b]), options: Self.options(background: "transparent"))
            .snapshotPNG(at: 0)
        #expect(png[25] == 6)
        let image = try AnimationDecoder(bytes: png).frame(at: 0)
        #expect(image.pixel(x: 0, y: 0) == PremultipliedRGBA(r: 0, g: 0, b: 0, a: 0))
        #expect(image.pixel(x: 16, y: 8) == PremultipliedRGBA(r: 0, g: 255, b: 0, a: 255))
        #expect(image.pixel(x: 145, y: 50) == PremultipliedRGBA(r: 0, g: 0, b: 0, a: 0))
        #expect(image.pixel(x: 146, y: 50) == PremultipliedRGBA(r: 0, g: 0, b: 255, a: 255))
    }

    /// A background kept whole (checker), alone or under a placeholder: outside the cells every
    /// pixel is the background's own, inside the first the sticker's, in the canvas and the PNG.
    @Test(
        "Snapshots on a checker background: the background's pixels around a red cell, with and without a placeholder",
        arguments: [false, true])
    func checkerSnapshot(_ withPlaceholder: Bool) throws {
        let files = Files()
        let red = files.solid("red.png", side: 408, [255, 0, 0, 255])
        let bad = files.write("bad.png", Array("not an image".utf8))
        let renderer = BrowserRenderer(
            pack: Self.pack(withPlaceholder ? [red, bad] : [red]), options: Self.options(background: "checker"))
        let background = try #require(Background(named: "checker")).canvas(width: 393, height: 213)
        let canvas = try renderer.snapshot(at: 0)
        let decoded = try AnimationDecoder(bytes: try renderer.snapshotPNG(at: 0)).frame(at: 0)
        for (name, width, height, pixel) in [
            ("canvas", canvas.width, canvas.height, canvas.pixel),
            ("png", decoded.width, decoded.height, decoded.pixel)
        ] {
            #expect(width == 393 && height == 213, "\(name)")
            check: for y in 0..<213 {
                for x in 0..<393 {
                    // Cells at x 16..<118 (the sticker) and 146..<248 (the placeholder), y 8..<110.
                    let row = (8..<110).contains(y)
                    if withPlaceholder && row && (146..<248).contains(x) { continue }
                    let expected =
                        row && (16..<118).contains(x)
                        ? PremultipliedRGBA(r: 255, g: 0, b: 0, a: 255) : background.pixel(x: x, y: y)
                    if pixel(x, y) != expected {
                        Issue.record("\(name) (\(x),\(y)) is \(pixel(x, y)), expected \(expected)"); break check
                    }
                }
            }
        }
    }

    /// Every background kind (one row for flat colours, the whole canvas otherwise), a
    /// placeholder, a translucent sticker and a later frame: both snapshots are drawn from the
    /// same rows, and the PNG (RGB or RGBA, row-encoded in parallel bands) holds exactly the
    /// canvas's pixels.
    @Test(
        "PNG snapshots hold the whole-canvas snapshot's pixels on every background",
        arguments: ["white", "#1C1C1E", "checker", "multicolor"])
    func pngSnapshotMatchesCanvas(_ background: String) throws {
        let files = Files()
        let bad = files.write("bad.png", Array("not an image".utf8))
        let blue = files.solid("blue.png", side: 300, [0, 0, 128, 128])
        let anim = files.animation(
            "anim.png", side: 408, colors: [[255, 0, 0, 255], [0, 90, 0, 90]], delaysMs: [100, 100], plays: 0)
        var options = Self.options(scale: 2, background: background)
        options.style = .expanded
        let renderer = BrowserRenderer(pack: Self.pack([blue, bad, anim, blue]), options: options)
        for time in [0, 0.15] {
            let canvas = try renderer.snapshot(at: time)
            let decoded = try AnimationDecoder(bytes: try renderer.snapshotPNG(at: time)).frame(at: 0)
            #expect(decoded.width == canvas.width && decoded.height == canvas.height)
            #expect(Self.firstDifference(decoded.pixels, canvas.pixels) == nil, "t = \(time)")
        }
        let canvas = try renderer.snapshot(frame: 1)
        let decoded = try AnimationDecoder(bytes: try renderer.snapshotPNG(frame: 1)).frame(at: 0)
        #expect(Self.firstDifference(decoded.pixels, canvas.pixels) == nil, "frame 1")
    }

    /// The first byte at which two equally long pixel buffers differ (a short failure message
    /// instead of two whole images).
    static func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> Int? {
        a.count != b.count ? min(a.count, b.count) : a.indices.first { a[$0] != b[$0] }
    }

    @Test("The shared clock: each sticker plays its own loop from 0 and rests after its last play")
    func sharedClock() throws {
        let files = Files()
        let red: [UInt8] = [255, 0, 0, 255]
        let blue: [UInt8] = [0, 0, 255, 255]
        let green: [UInt8] = [0, 255, 0, 255]
        // A: red 100 ms, blue 100 ms, forever. B: green 300 ms, red 200 ms, played once.
        let a = files.animation("a.png", side: 408, colors: [red, blue], delaysMs: [100, 100], plays: 0)
        let b = files.animation("b.png", side: 408, colors: [green, red], delaysMs: [300, 200], plays: 1)
        let renderer = BrowserRenderer(pack: Self.pack([a, b]), options: Self.options())
        func colors(at t: Double) throws -> [PremultipliedRGBA] {
            let image = try renderer.snapshot(at: t)
            return [image.pixel(x: 60, y: 50), image.pixel(x: 190, y: 50)]
        }
        let r = PremultipliedRGBA(r: 255, g: 0, b: 0, a: 255)
        let bl = PremultipliedRGBA(r: 0, g: 0, b: 255, a: 255)
        let g = PremultipliedRGBA(r: 0, g: 255, b: 0, a: 255)
        #expect(try colors(at: 0) == [r, g])
        #expect(try colors(at: 0.15) == [bl, g])
        #expect(try colors(at: 0.35) == [bl, r])  // A: 0.35 mod 0.2 = 0.15 -> blue
        #expect(try colors(at: 0.5) == [bl, r])  // B's single play ends at 0.5: it rests on its last frame
        #expect(try colors(at: 7.05) == [r, r])
        #expect(renderer.longestLoop == 0.5)
        #expect(renderer.changeTimes(duration: 0.5) == [0, 0.1, 0.2, 0.3, 0.4])
        // --frame N: each sticker on its frame N.
        let second = try renderer.snapshot(frame: 1)
        #expect([second.pixel(x: 60, y: 50), second.pixel(x: 190, y: 50)] == [bl, r])
    }

    @Test("The animated APNG: a frame at every change, delays between them, only changed cells stored")
    func animatedAPNG() throws {
        let files = Files()
        let red: [UInt8] = [255, 0, 0, 255]
        let blue: [UInt8] = [0, 0, 255, 255]
        let a = files.animation("a.png", side: 408, colors: [red, blue], delaysMs: [100, 150], plays: 0)
        let still = files.solid("s.png", side: 408, [0, 255, 0, 255])
        let renderer = BrowserRenderer(pack: Self.pack([a, still]), options: Self.options())
        let bytes = try SnapshotEncoder.apng(renderer, duration: 0.5)
        let decoder = try AnimationDecoder(bytes: bytes)
        // Changes at 0, 0.1, 0.25, 0.35: delays 100, 150, 100, then to the 0.5 s end: 150.
        #expect(decoder.info.format == .apng && decoder.info.loopCount == 0)
        #expect(decoder.info.frames.map { Int($0.delay.milliseconds.rounded()) } == [100, 150, 100, 150])
        // Frames after the first cover only the animated sticker's cell: (16, 8) 102 x 102.
        #expect(
            decoder.info.frames.dropFirst().allSatisfy { $0.rect == FrameRect(x: 16, y: 8, width: 102, height: 102) })
        let frames = try decoder.decodeAllFrames()
        let expectedA = [red, blue, red, blue]
        for (i, frame) in frames.enumerated() {
            #expect(Array(frame.pixels[((50 * 393 + 60) * 4)..<((50 * 393 + 60) * 4 + 4)]) == expectedA[i])
            #expect(Array(frame.pixels[((50 * 393 + 190) * 4)..<((50 * 393 + 190) * 4 + 4)]) == [0, 255, 0, 255])
        }
    }

    @Test("An unreadable sticker is a placeholder and a reported problem, not a failed render")
    func brokenSticker() throws {
        let files = Files()
        let bad = files.write("bad.png", Array("not an image at all".utf8))
        let good = files.solid("good.png", side: 408, [0, 0, 255, 255])
        let renderer = BrowserRenderer(pack: Self.pack([bad, good]), options: Self.options())
        #expect(renderer.problems.map(\.sticker) == ["bad.png"])
        let image = try renderer.snapshot(at: 0)
        // The placeholder fills the first cell, (16, 8) 102 x 102: grey (200) with a red
        // (255, 59, 48) border and diagonals 2 pixels thick (a 40th of the side, rounded down).
        let red = PremultipliedRGBA(r: 255, g: 59, b: 48, a: 255)
        let grey = PremultipliedRGBA(r: 200, g: 200, b: 200, a: 255)
        let white = PremultipliedRGBA(r: 255, g: 255, b: 255, a: 255)
        let cell: [(u: Int, v: Int, PremultipliedRGBA)] = [
            (0, 50, red), (1, 50, red), (2, 50, grey), (50, 1, red), (50, 2, grey), (101, 50, red), (100, 50, red),
            (99, 50, grey),
            (50, 101, red), (50, 99, grey), (50, 20, grey),
            (30, 30, red), (30, 31, red), (30, 32, grey), (31, 30, red), (32, 30, grey),  // the diagonal u = v
            (80, 21, red), (80, 22, red), (80, 23, grey), (80, 20, red), (80, 19, grey),  // the diagonal u + v = 101
            (0, 0, red), (101, 101, red)
        ]
        for (u, v, expected) in cell {
            #expect(image.pixel(x: 16 + u, y: 8 + v) == expected, "cell pixel (\(u), \(v))")
        }
        #expect(
            [
                image.pixel(x: 15, y: 50), image.pixel(x: 118, y: 50), image.pixel(x: 60, y: 7),
                image.pixel(x: 60, y: 110)
            ] == [white, white, white, white])
        #expect(image.pixel(x: 190, y: 50) == PremultipliedRGBA(r: 0, g: 0, b: 255, a: 255))
    }

    @Test("Backgrounds: named presets, #hex, checker squares and a photo scaled to cover")
    func backgrounds() throws {
        #expect(Background(named: "#FF8000") == .color(red: 255, green: 128, blue: 0))
        #expect(Background(named: "red") == .color(red: 255, green: 59, blue: 48))
        #expect(Background(named: "nonsense") == nil && Background(named: "#12345") == nil)
        let checker = Background.checker(cell: 8).canvas(width: 32, height: 16)
        #expect(checker.pixel(x: 0, y: 0) == PremultipliedRGBA(r: 255, g: 255, b: 255, a: 255))
        #expect(checker.pixel(x: 8, y: 0) == PremultipliedRGBA(r: 204, g: 204, b: 204, a: 255))
        #expect(checker.pixel(x: 8, y: 8) == PremultipliedRGBA(r: 255, g: 255, b: 255, a: 255))
        // A 2 x 1 photo (left black, right white) covering a 10 x 10 canvas: scaled to 20 x 10, centre cropped.
        let photo = RGBAImage(width: 2, height: 1, pixels: [0, 0, 0, 255, 255, 255, 255, 255])
        let covered = Background.image(photo, name: "p").canvas(width: 10, height: 10)
        #expect(covered.width == 10 && covered.height == 10 && covered.isOpaque)
        // Pillow's Lanczos resize of the same photo to 20 x 10, cropped to columns 5..<15, within a level.
        let pillow = try TestProcess.capture([
            "python3", "-c",
            """
            from PIL import Image
            photo = Image.new("RGB", (2, 1)); photo.putpixel((1, 0), (255, 255, 255))
            row = photo.resize((20, 10), Image.LANCZOS).crop((5, 0, 15, 10))
            print(" ".join(str(row.getpixel((x, y))[0]) for y in range(10) for x in range(10)))
            """
        ])
        let expected = pillow.stdout.split(separator: " ").compactMap {
            Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        #expect(expected.count == 100, "\(pillow.stderr)")
        for (index, value) in expected.enumerated() {
            let shown = covered.pixel(x: index % 10, y: index / 10)
            #expect(
                abs(Int(shown.r) - value) <= 1 && shown.r == shown.g && shown.g == shown.b,
                "(\(index % 10), \(index / 10)): \(shown.r), Pillow \(value)")
        }
        // Multicolour: Apple's red, orange, yellow, green, blue and purple in diagonal bands, the
        // six spanning half the shorter side (50 of 100 pixels, 8 or 9 each) and repeating.
        let multi = Background.multicolor.canvas(width: 100, height: 100)
        let hues = [(255, 59, 48), (255, 149, 0), (255, 204, 0), (52, 199, 89), (0, 122, 255), (175, 82, 222)]
            .map { PremultipliedRGBA(r: UInt8($0.0), g: UInt8($0.1), b: UInt8($0.2), a: 255) }
        let runs = [9, 8, 8, 9, 8, 8, 9, 8, 8, 9, 8, 8]  // band k starts at x = ceil(50k / 6)
        let firstRow = runs.enumerated().flatMap { band, length in Array(repeating: hues[band % 6], count: length) }
        #expect((0..<100).map { multi.pixel(x: $0, y: 0) } == firstRow)
        // Diagonal: every pixel has the colour of its neighbour up and to the right.
        #expect(
            (1..<100).allSatisfy { y in
                (0..<99).allSatisfy { x in multi.pixel(x: x, y: y) == multi.pixel(x: x + 1, y: y - 1) }
            })
    }

    @Test("Atomic writes replace a file whole and leave no temporary file")
    func atomicWrite() throws {
        let files = Files()
        let target = files.url.appendingPathComponent("out.png").path
        try AtomicFile.write([1, 2, 3], to: target)
        try AtomicFile.write([4, 5], to: target)
        #expect(FileManager.default.contents(atPath: target) == Data([4, 5]))
        try AtomicFile.write([6, 7, 8, 9], to: target, durable: true)
        #expect(FileManager.default.contents(atPath: target) == Data([6, 7, 8, 9]))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: files.url.path).filter { $0.hasPrefix(".") }.isEmpty)
        #expect(throws: AtomicFile.WriteError.self) { try AtomicFile.write([1], to: "/no/such/folder/out.png") }
    }
}
