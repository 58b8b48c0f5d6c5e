import Foundation
import TestSupport
import Testing

/// An opaque or transparent colour, straight (not premultiplied) RGBA.
struct Colour: Hashable, CustomStringConvertible {
    var r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255

    init(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }

    /// `#RRGGBB`.
    init(hex: UInt32) { self.init(UInt8(hex >> 16), UInt8((hex >> 8) & 0xFF), UInt8(hex & 0xFF)) }

    var description: String { "(\(r), \(g), \(b), \(a))" }
    /// The colour as a Python tuple of its red, green and blue.
    var python: String { "(\(r), \(g), \(b))" }
}

/// The small stickers the option tests run the commands on, drawn by Pillow (an encoder that
/// shares nothing with the code under test) once per test run into one temporary folder.
/// Every animation is read back by Pillow as it is written, and the script stops unless
/// Pillow reads exactly the delays and colours below: the tests compute from these.
enum OptionFixtures {
    /// The colour of the solid stickers.
    static let solidColour = Colour(10, 120, 200)
    /// timing.png (408 px): three frames stored for 5, 5 and 200 ms, so the timing policies
    /// disagree about them.
    static let timingColours = [Colour(255, 0, 0), Colour(0, 255, 0), Colour(0, 0, 255)]
    static let timingDelays: [Double] = [5, 5, 200]
    /// eight.png (64 px): eight frames of 100 ms, each its own colour.
    static let eightColours = [
        Colour(255, 0, 0), Colour(0, 255, 0), Colour(0, 0, 255), Colour(255, 255, 0),
        Colour(255, 0, 255), Colour(0, 255, 255), Colour(128, 64, 0), Colour(255, 255, 255)
    ]
    static let eightDelays = [Double](repeating: 100, count: 8)
    /// ninety.png (64 px): ninety frames of 33 ms (2.97 s), each its own colour: frame k's
    /// starts at k x 33 ms, a time that seconds in floating point do not all hold exactly.
    static let ninetyColours: [Colour] = (0..<90).map { (k: Int) -> Colour in
        let red = UInt8(k * 2)
        let green = UInt8(255 - k * 2)
        let blue = UInt8(k * 37 % 256)
        return Colour(red, green, blue)
    }
    static let ninetyDelays = [Double](repeating: 33, count: 90)
    /// two.png and three.png (408 px): 2 x 300 ms and 3 x 250 ms, the stickers of animate/.
    static let twoColours = [Colour(200, 30, 30), Colour(30, 200, 30)]
    static let twoDelays: [Double] = [300, 300]
    static let threeColours = [Colour(30, 30, 200), Colour(200, 200, 30), Colour(30, 200, 200)]
    static let threeDelays: [Double] = [250, 250, 250]

    /// The folder holding every fixture:
    /// - timing.png, eight.png, ninety.png, two.png, three.png: the animations above (looping
    ///   forever);
    /// - solid.png (408 px) and solid618.png (618 px) of ``solidColour``;
    /// - pattern.png, opaque 408 px stripes and gradients, and pattern.rgba, its pixels;
    /// - noise.png, 300 px of random RGBA (no lossless encoding gets it under 150,000 bytes);
    /// - loose.png, an opaque 300 px gradient with a little noise, stored uncompressed;
    /// - seven/ (7 x solid.png), five618/ (5 x solid618.png), animate/ (a = two.png,
    ///   b = three.png) and pair/ (first = solid.png, second = timing.png): packs.
    static func folder() throws -> URL { try built.get() }

    /// A fixture by its path in ``folder()``.
    static func path(_ name: String) throws -> String { try folder().appendingPathComponent(name).path }

    private static let built: Result<URL, any Error> = Result {
        let folder = CLITests.temporaryDirectory()
        try Python.run(script, [folder.path])
        atexit { try? FileManager.default.removeItem(at: OptionFixtures.removable) }
        return folder
    }

    /// What the exit handler removes (the folder, once built).
    private static var removable: URL { (try? built.get()) ?? URL(fileURLWithPath: "/nonexistent") }

    private static func list(_ colours: [Colour]) -> String {
        "[" + colours.map(\.python).joined(separator: ", ") + "]"
    }
    private static func list(_ delays: [Double]) -> String {
        "[" + delays.map { String(Int($0)) }.joined(separator: ", ") + "]"
    }

    private static let script = """
        import os, shutil, sys
        import numpy as np
        from PIL import Image

        out = sys.argv[1]
        os.makedirs(out, exist_ok=True)

        def solid(side, colour):
            return Image.new("RGBA", (side, side), tuple(colour) + (255,))

        def animation(name, side, colours, durations):
            path = os.path.join(out, name)
            frames = [solid(side, c) for c in colours]
            frames[0].save(path, save_all=True, append_images=frames[1:], duration=durations, loop=0)
            image = Image.open(path)
            assert image.n_frames == len(colours), path
            for i in range(image.n_frames):
                image.seek(i)
                assert image.info["duration"] == durations[i], (path, i, image.info["duration"])
                assert image.convert("RGBA").getpixel((side // 2, side // 2))[:3] == tuple(colours[i]), (path, i)

        def pack(name, files):
            os.makedirs(os.path.join(out, name))
            for target, source in files:
                shutil.copy(os.path.join(out, source), os.path.join(out, name, target))

        animation("timing.png", 408, \(list(timingColours)), \(list(timingDelays)))
        animation("eight.png", 64, \(list(eightColours)), \(list(eightDelays)))
        animation("ninety.png", 64, \(list(ninetyColours)), \(list(ninetyDelays)))
        animation("two.png", 408, \(list(twoColours)), \(list(twoDelays)))
        animation("three.png", 408, \(list(threeColours)), \(list(threeDelays)))
        solid(408, \(solidColour.python)).save(os.path.join(out, "solid.png"))
        solid(618, \(solidColour.python)).save(os.path.join(out, "solid618.png"))
        y, x = np.mgrid[0:408, 0:408]
        pattern = np.dstack([np.where((x // 6 + y // 10) % 2 == 0, 255, 0), x * 255 // 407, y * 255 // 407,
                             np.full_like(x, 255)]).astype(np.uint8)
        Image.fromarray(pattern, "RGBA").save(os.path.join(out, "pattern.png"))
        with open(os.path.join(out, "pattern.rgba"), "wb") as f:
            f.write(pattern.tobytes())
        rng = np.random.default_rng(5)
        Image.fromarray(rng.integers(0, 256, (300, 300, 4), dtype=np.uint8), "RGBA").save(os.path.join(out, "noise.png"))
        y, x = np.mgrid[0:300, 0:300]
        loose = np.dstack([(x + y) // 4 + rng.integers(0, 6, x.shape), x // 2, y // 2, np.full_like(x, 255)])
        Image.fromarray(loose.clip(0, 255).astype(np.uint8), "RGBA").save(os.path.join(out, "loose.png"), compress_level=0)
        pack("seven", [("s%d.png" % i, "solid.png") for i in range(7)])
        pack("five618", [("s%d.png" % i, "solid618.png") for i in range(5)])
        pack("animate", [("a.png", "two.png"), ("b.png", "three.png")])
        pack("pair", [("first.png", "solid.png"), ("second.png", "timing.png")])
        """
}

/// Runs Python scripts (Pillow and numpy are the tests' reference tools).
enum Python {
    /// A script that failed, with what it printed on stderr.
    struct Failure: Error, CustomStringConvertible { var description: String }

    /// Runs `script` with `arguments`; fails the test with Python's stderr when it fails.
    static func run(_ script: String, _ arguments: [String]) throws {
        let output = try TestProcess.capture(["python3", "-c", script] + arguments)
        guard output.status == 0 else { throw Failure(description: "python3 failed: \(output.stderr)") }
    }
}

/// An image as a reference reader gives it (Pillow, or the binary PPM parser below): straight
/// RGBA, top row first.
struct Picture {
    var width: Int, height: Int
    var pixels: [UInt8]

    init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width; self.height = height; self.pixels = pixels
    }

    /// A binary PPM (P6, maxval 255, a single whitespace after each header field as the
    /// commands write it), opaque.
    init(ppm data: Data) throws {
        let bytes = [UInt8](data)
        var fields: [Int] = []
        var index = 2
        try #require(bytes.starts(with: Array("P6".utf8)), "a P6 file")
        while fields.count < 3 {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A { index += 1 }
            var value = 0
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                value = value * 10 + Int(bytes[index] - 0x30); index += 1
            }
            fields.append(value)
        }
        index += 1  // the single whitespace before the pixels
        let (width, height) = (fields[0], fields[1])
        try #require(
            fields[2] == 255 && bytes.count - index == width * height * 3,
            "\(fields), \(bytes.count - index) pixel bytes")
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for p in 0..<(width * height) {
            pixels[p * 4] = bytes[index + p * 3]; pixels[p * 4 + 1] = bytes[index + p * 3 + 1];
            pixels[p * 4 + 2] = bytes[index + p * 3 + 2]
        }
        self.init(width: width, height: height, pixels: pixels)
    }

    /// The pixel at (`x`, `y`); outside the image, ``outside``.
    func pixel(_ x: Int, _ y: Int) -> Colour {
        guard (0..<width).contains(x), (0..<height).contains(y) else { return Self.outside }
        let o = (y * width + x) * 4
        return Colour(pixels[o], pixels[o + 1], pixels[o + 2], pixels[o + 3])
    }

    /// What ``pixel(_:_:)`` gives outside the image: transparent, so no opaque expectation
    /// holds there and a wrong size fails a test instead of crashing it.
    static let outside = Colour(0, 0, 0, 0)

    /// Whether every pixel of `rect` (x, y, width, height) is `colour`.
    func all(_ colour: Colour, x: Int, y: Int, width w: Int, height h: Int) -> Bool {
        (y..<(y + h)).allSatisfy { py in (x..<(x + w)).allSatisfy { pixel($0, py) == colour } }
    }

    /// The runs of `colour` along row `y`, as ranges of x.
    func runs(of colour: Colour, row y: Int) -> [Range<Int>] { Self.runs(count: width) { pixel($0, y) == colour } }

    /// The runs of `colour` down column `x`, as ranges of y.
    func runs(of colour: Colour, column x: Int) -> [Range<Int>] { Self.runs(count: height) { pixel(x, $0) == colour } }

    private static func runs(count: Int, _ matches: (Int) -> Bool) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        var start: Int?
        for i in 0...count {
            let inside = i < count && matches(i)
            if inside, start == nil { start = i }
            if !inside, let s = start { runs.append(s..<i); start = nil }
        }
        return runs
    }
}

extension Picture: CustomTestStringConvertible {
    /// Its size, not its pixels, in a failed expectation.
    var testDescription: String { "\(width)x\(height) image" }
}

/// Pillow as the tests' reference decoder.
enum Pillow {
    /// Every frame of each of `urls` (an APNG's default image only when it is a frame, as
    /// Pillow iterates them) and each frame's duration in milliseconds.
    static func animations(_ urls: [URL]) throws -> [(frames: [Picture], durations: [Double])] {
        let out = CLITests.temporaryDirectory()
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        let script = """
            import json, os, sys
            from PIL import Image, ImageSequence
            out, files = sys.argv[1], sys.argv[2:]
            meta = []
            for i, path in enumerate(files):
                image = Image.open(path)
                durations = []
                for k, frame in enumerate(ImageSequence.Iterator(image)):
                    durations.append(frame.info.get("duration", 0))
                    with open(os.path.join(out, "%d-%d.rgba" % (i, k)), "wb") as f:
                        f.write(frame.convert("RGBA").tobytes())
                meta.append({"width": image.size[0], "height": image.size[1], "durations": durations})
            with open(os.path.join(out, "meta.json"), "w") as f:
                json.dump(meta, f)
            """
        try Python.run(script, [out.path] + urls.map(\.path))
        let meta = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("meta.json")))
                as? [[String: Any]])
        return try meta.enumerated().map { index, entry in
            let width = try #require(entry["width"] as? Int)
            let height = try #require(entry["height"] as? Int)
            let durations = (entry["durations"] as? [NSNumber] ?? []).map(\.doubleValue)
            let frames = try durations.indices.map { k in
                Picture(
                    width: width, height: height,
                    pixels: [UInt8](try Data(contentsOf: out.appendingPathComponent("\(index)-\(k).rgba"))))
            }
            return (frames, durations)
        }
    }

    /// Every frame of `url` and its durations.
    static func animation(_ url: URL) throws -> (frames: [Picture], durations: [Double]) { try animations([url])[0] }

    /// The first frame of `url`.
    static func image(_ url: URL) throws -> Picture { try #require(try animation(url).frames.first) }
}

/// The browser's timing, written from docs/cli.md's words rather than taken from the code.
enum ExpectedTiming {
    /// How long a frame stored for `ms` shows under the policy named `policy`: `apple` shows
    /// delays under 11 ms for 100 ms, `browser` reads whole milliseconds, rounded down, and
    /// shows those of 10 ms or less for 100 ms, `raw` keeps them.
    static func shown(_ ms: Double, policy: String) -> Double {
        switch policy {
        case "apple": return ms < 11 ? 100 : ms
        case "browser": return (ms + 1e-9).rounded(.down) <= 10 ? 100 : (ms + 1e-9).rounded(.down)
        default: return ms
        }
    }

    /// The start of each frame within a loop, milliseconds.
    static func starts(_ shown: [Double]) -> [Double] {
        var starts: [Double] = []
        var t = 0.0
        for ms in shown {
            starts.append(t)
            t += ms
        }
        return starts
    }

    /// The frame a sticker looping forever shows at `ms`.
    static func frame(at ms: Double, shown: [Double]) -> Int {
        let within = ms.truncatingRemainder(dividingBy: shown.reduce(0, +))
        return starts(shown).lastIndex { $0 <= within } ?? 0
    }

    /// Every instant in `0..<until` ms at which any of the stickers (looping forever) changes
    /// frame, and 0.
    static func changeTimes(_ stickers: [[Double]], until: Double) -> [Double] {
        var times: Set<Double> = [0]
        for shown in stickers {
            let loop = shown.reduce(0, +)
            var loopStart = 0.0
            while loopStart < until {
                for start in starts(shown) where loopStart + start < until { times.insert(loopStart + start) }
                loopStart += loop
            }
        }
        return times.sorted()
    }
}

/// The terminal picture `stickers preview` writes as text, read back cell by cell: SGR colours
/// (truecolor), spaces, upper and lower half blocks.
enum ANSIPicture {
    /// One cell: the colour of its upper and lower pixel (nil: the terminal's own).
    struct Cell: Equatable { var top: Colour?, bottom: Colour? }

    /// The cells of each line of `text`.
    static func cells(_ text: String) -> [[Cell]] {
        text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { line in
            var foreground: Colour?
            var background: Colour?
            var cells: [Cell] = []
            var rest = Substring(line)
            while let first = rest.first {
                if first == "\u{1B}", let end = rest.firstIndex(of: "m") {
                    let parameters = rest[rest.index(rest.startIndex, offsetBy: 2)..<end].split(separator: ";")
                        .compactMap { Int($0) }
                    apply(parameters, foreground: &foreground, background: &background)
                    rest = rest[rest.index(after: end)...]
                    continue
                }
                switch first {
                case "\u{2580}": cells.append(Cell(top: foreground, bottom: background))
                case "\u{2584}": cells.append(Cell(top: background, bottom: foreground))
                default: cells.append(Cell(top: background, bottom: background))
                }
                rest = rest.dropFirst()
            }
            return cells
        }
    }

    /// The background colours an update (the text between two escape sequences) sets, in order.
    static func backgrounds(_ text: Substring) -> [Colour] {
        var colours: [Colour] = []
        var foreground: Colour?
        var background: Colour?
        for match in text.matches(of: /\x1B\[([0-9;]*)m/) {
            apply(
                match.1.split(separator: ";").compactMap { Int($0) }, foreground: &foreground, background: &background)
            if let background, colours.last != background { colours.append(background) }
        }
        return colours
    }

    private static func apply(_ parameters: [Int], foreground: inout Colour?, background: inout Colour?) {
        var i = 0
        while i < parameters.count {
            let code = parameters[i]
            if code == 38 || code == 48, i + 4 < parameters.count, parameters[i + 1] == 2 {
                let colour = Colour(UInt8(parameters[i + 2]), UInt8(parameters[i + 3]), UInt8(parameters[i + 4]))
                if code == 38 { foreground = colour } else { background = colour }
                i += 5
                continue
            }
            switch code {
            case 0: foreground = nil; background = nil
            case 39: foreground = nil
            case 49: background = nil
            default: break
            }
            i += 1
        }
    }
}

/// A refused command line: the arguments, the exit code docs/cli.md gives (1: the input; 64: a
/// usage error), and the error line it must print.
struct Refusal: Sendable, CustomTestStringConvertible {
    var arguments: [String]
    var status: Int32
    var message: String
    var testDescription: String { arguments.dropFirst().joined(separator: " ") }
}
