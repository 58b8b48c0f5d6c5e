import Foundation
import Testing

/// `stickers render`'s options, each changing the output in a way worked out here: the layout
/// from docs/BROWSER-MODEL.md's rules, the frame shown from the stored delays, the scaled
/// pixels from filters written in the test. Stills are read as PPM, animations by Pillow.
@Suite("Option matrix: render", .timeLimit(.minutes(3)))
struct RenderOptionTests {
    /// Runs `stickers render ARGUMENTS -o OUT` (OUT named `output` in a fresh folder): the
    /// output file's bytes and stdout.
    static func render(_ arguments: [String], output: String) throws -> (file: Data, stdout: String) {
        let folder = CLITests.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent(output)
        let result = try CLITests.runExecutable(["render"] + arguments + ["-o", out.path])
        try #require(result.status == 0, "\(arguments): \(result.stderr)")
        return (try Data(contentsOf: out), result.stdout)
    }

    /// A still render, as a PPM (every background here is opaque, so it holds every pixel).
    static func still(_ arguments: [String]) throws -> Picture {
        try Picture(ppm: try render(arguments, output: "out.ppm").file)
    }

    /// An animated render, read by Pillow: its frames and their durations in milliseconds.
    static func animation(_ arguments: [String]) throws -> (frames: [Picture], durations: [Double]) {
        let file = CLITests.temporaryDirectory().appendingPathExtension("apng")
        defer { try? FileManager.default.removeItem(at: file) }
        try render(arguments, output: "out.apng").file.write(to: file)
        return try Pillow.animation(file)
    }

    /// Checks that the solid stickers of `image` sit in `grid`'s cells: along the middle of the
    /// first row and down the middle of the first column, the sticker colour covers exactly
    /// the cells (clipped at the canvas's bottom) and nothing else.
    static func expectStickers(
        in image: Picture, _ grid: ExpectedGrid, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let first = grid.cells[0]
        let row = grid.cells.filter { $0.y == first.y }.map { $0.x..<($0.x + $0.side) }
        let column = grid.cells.filter { $0.x == first.x && $0.y < image.height }.map {
            $0.y..<min($0.y + $0.side, image.height)
        }
        #expect(
            image.runs(of: OptionFixtures.solidColour, row: first.y + first.side / 2) == row,
            sourceLocation: sourceLocation)
        #expect(
            image.runs(of: OptionFixtures.solidColour, column: first.x + first.side / 2) == column,
            sourceLocation: sourceLocation)
    }

    @Test(
        "--compact-height: the strip is that many points (or that share of the view) high on the iPhone 15's 393 pt width",
        arguments: [("200pt", 1, 200), ("50%", 2, 426)])
    func compactHeight(height: String, scale: Int, points: Int) throws {
        let image = try Self.still([try OptionFixtures.path("seven"), "--compact-height", height, "--scale", "\(scale)"]
        )
        #expect(image.width == 393 * scale && image.height == points * scale)
        // Regular stickers on a 393 pt view: cells of 102 pt, 3 columns; the rows that fit are
        // drawn, the last one clipped.
        Self.expectStickers(in: image, ExpectedGrid(viewWidth: 393, cell: 102, count: 7, scale: scale))
    }

    @Test("--duration past 10,000 frame changes is a usage error naming the longest that fits; nothing is written")
    func durationPastFrameCap() throws {
        let star = CLITests.samplePack.appendingPathComponent("02-spinning-star.gif")
        // Pillow's delays, looped: the instant of the 10,001st change (counting 0) is the longest
        // duration whose changes a snapshot holds.
        let delays = try Pillow.animations([star])[0].durations
        var time = 0.0
        for change in 0..<10_000 { time += delays[change % delays.count] }
        let folder = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let out = folder.appendingPathComponent("long.apng")
        let result = try CLITests.runExecutable([
            "render", star.path, "--scale", "1", "--duration", "\(Int(time / 1000) + 100)s", "-o", out.path
        ])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(String(format: "--duration %.3fs", time / 1000)), "\(result.stderr)")
        // The usage line is render's own, not the top-level command's.
        #expect(result.stderr.contains("Usage: stickers render "), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test("--all: the expanded canvas grows to the rows every sticker needs")
    func showAll() throws {
        let pack = try OptionFixtures.path("seven")
        let view = ["--style", "expanded", "--view", "393x200", "--scale", "1"]
        let grid = ExpectedGrid(viewWidth: 393, cell: 102, count: 7, scale: 1)
        // 7 stickers in 3 columns: 3 rows, 8 + 3 x 102 + 2 x 16 + 8 = 354 pt.
        #expect(grid.neededHeight == 354)
        let clipped = try Self.still([pack] + view)
        #expect(clipped.width == 393 && clipped.height == 200)
        Self.expectStickers(in: clipped, grid)
        let all = try Self.still([pack] + view + ["--all"])
        #expect(all.width == 393 && all.height == 354)
        Self.expectStickers(in: all, grid)
        #expect(all.runs(of: OptionFixtures.solidColour, column: 67).count == 3, "the third row shows")
    }

    @Test(
        "--size: small, regular and large cells are 72, 102 and 163 pt on a 393 pt view, in 4, 3 and 2 columns",
        arguments: [("small", 72.0, 4), ("regular", 102.0, 3), ("large", 163.0, 2)])
    func size(size: String, cell: Double, columns: Int) throws {
        // 618 px stickers are 206 pt: each is shrunk to fill its cell.
        let image = try Self.still([try OptionFixtures.path("five618"), "--size", size, "--scale", "1"])
        let grid = ExpectedGrid(viewWidth: 393, cell: cell, count: 5, scale: 1)
        #expect(grid.columns == columns)
        #expect(image.width == 393 && image.height == 213)
        Self.expectStickers(in: image, grid)
    }

    @Test(
        "--timing raw, browser and apple: the frame at an instant follows the stored delays (5, 5, 200 ms) as each policy shows them",
        arguments: ["raw", "browser", "apple"], [7.0, 150.0, 215.0])
    func timing(policy: String, ms: Double) throws {
        let shown = OptionFixtures.timingDelays.map { ExpectedTiming.shown($0, policy: policy) }
        let expected = ExpectedTiming.frame(at: ms, shown: shown)
        let image = try Self.still([
            try OptionFixtures.path("timing.png"), "--scale", "1", "--timing", policy, "--at", "\(Int(ms))ms"
        ])
        // The only cell: 102 pt at (16, 8).
        #expect(
            image.all(OptionFixtures.timingColours[expected], x: 16, y: 8, width: 102, height: 102),
            "\(policy) at \(ms) ms shows frame \(expected): \(image.pixel(67, 59))")
    }

    @Test(
        "--filter: lanczos3, bicubic, triangle and box each give the pixels of that filter written here (within 1), and differ from each other"
    )
    func filter() throws {
        let source = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try OptionFixtures.path("pattern.rgba"))))
        var outputs: [String: [UInt8]] = [:]
        let filters = ["lanczos3", "bicubic", "triangle", "box"]
        for filter in filters {
            let image = try Self.still([try OptionFixtures.path("pattern.png"), "--scale", "1", "--filter", filter])
            // The 408 px sticker (136 pt) is shrunk into its 102 px cell at (16, 8).
            var cell: [UInt8] = []
            for y in 8..<110 { cell += image.pixels[((y * image.width + 16) * 4)..<((y * image.width + 118) * 4)] }
            let expected = ReferenceFilter(filter).resize(source, from: 408, to: 102)
            let worst = zip(cell, expected).map { abs(Int($0) - Int($1)) }.max() ?? .max
            #expect(worst <= 1, "\(filter): \(worst)")
            outputs[filter] = cell
        }
        for (i, first) in filters.enumerated() {
            for second in filters[(i + 1)...] {
                let (a, b): ([UInt8], [UInt8]) = (outputs[first] ?? [], outputs[second] ?? [])
                let difference = zip(a, b).map { (x: UInt8, y: UInt8) -> Int in abs(Int(x) - Int(y)) }.max() ?? 0
                #expect(difference > 4, "\(first) and \(second) give different pixels: \(difference)")
            }
        }
    }

    @Test(
        "--animate: an APNG with a frame at every change of either sticker, each lasting until the next",
        arguments: [nil, "1s"] as [String?])
    func animate(duration: String?) throws {
        let pack = try OptionFixtures.path("animate")
        let a = OptionFixtures.twoDelays
        let b = OptionFixtures.threeDelays  // a.png and b.png
        // Default length: the longest loop (750 ms).
        let length = duration == nil ? max(a.reduce(0, +), b.reduce(0, +)) : 1000
        let times = ExpectedTiming.changeTimes([a, b], until: length)
        #expect(times == (duration == nil ? [0, 250, 300, 500, 600] : [0, 250, 300, 500, 600, 750, 900]))
        let rendered = try Self.animation(
            [pack, "--scale", "1", "--animate"] + (duration.map { ["--duration", $0] } ?? []))
        #expect(rendered.frames.count == times.count)
        let expectedDurations = zip(times, times.dropFirst() + [length]).map { $1 - $0 }
        #expect(
            rendered.durations.count == expectedDurations.count
                && zip(rendered.durations, expectedDurations).allSatisfy { abs($0 - $1) < 1e-6 },
            "\(rendered.durations)")
        for (frame, time) in zip(rendered.frames, times) {
            // a in the first cell (16, 8), b in the second (146, 8): 102 px each.
            let colourA = OptionFixtures.twoColours[ExpectedTiming.frame(at: time, shown: a)]
            let colourB = OptionFixtures.threeColours[ExpectedTiming.frame(at: time, shown: b)]
            #expect(frame.all(colourA, x: 16, y: 8, width: 102, height: 102), "a at \(time) ms")
            #expect(frame.all(colourB, x: 146, y: 8, width: 102, height: 102), "b at \(time) ms")
        }
    }
}

/// The browser grid by docs/BROWSER-MODEL.md's rules: 16 pt side insets, 8 pt top and bottom
/// insets, columns = (W - 32 + 16) / (cell + 16) rounded down, a full row's spare width shared
/// between its gaps, 16 pt between rows. Cells in output pixels, in pack order.
struct ExpectedGrid {
    var columns: Int
    var cells: [(x: Int, y: Int, side: Int)]
    /// The height every row needs, points.
    var neededHeight: Double

    init(viewWidth: Double, cell: Double, count: Int, scale: Int) {
        columns = max(1, Int(((viewWidth - 32 + 16) / (cell + 16)).rounded(.down)))
        let gap = columns > 1 ? (viewWidth - 32 - Double(columns) * cell) / Double(columns - 1) : 0
        let rows = (count + columns - 1) / columns
        neededHeight = 16 + Double(rows) * cell + Double(rows - 1) * 16
        let columns = columns
        cells = (0..<count).map { index in
            let x = 16 + Double(index % columns) * (cell + gap)
            let y = 8 + Double(index / columns) * (cell + 16)
            return (
                Int((x * Double(scale)).rounded()), Int((y * Double(scale)).rounded()),
                Int((cell * Double(scale)).rounded())
            )
        }
    }
}

/// A separable resampler written for the test: each destination pixel's centre maps back to
/// the source, the kernel is widened by the shrink factor, and the weights of the source
/// pixels inside the image are normalised to 1 (the usual convention, Pillow's too).
struct ReferenceFilter {
    let kernel: (Double) -> Double
    let support: Double

    /// The kernel named `name`, written from its definition: the tent, Keys' cubic with
    /// a = -0.5 (Catmull-Rom), the box (1 inside half a pixel), and Lanczos with 3 lobes.
    init(_ name: String) {
        switch name {
        case "triangle":
            support = 1
            kernel = { max(0, 1 - abs($0)) }
        case "bicubic":
            support = 2
            kernel = { x in
                let x = abs(x)
                if x < 1 { return 1.5 * x * x * x - 2.5 * x * x + 1 }
                if x < 2 { return -0.5 * x * x * x + 2.5 * x * x - 4 * x + 2 }
                return 0
            }
        case "box":
            support = 0.5
            kernel = { abs($0) < 0.5 ? 1 : 0 }
        default:
            support = 3
            kernel = { x in
                let x = abs(x)
                if x < 1e-12 { return 1 }
                if x >= 3 { return 0 }
                return 3 * sin(Double.pi * x) * sin(Double.pi * x / 3) / (Double.pi * Double.pi * x * x)
            }
        }
    }

    /// For each destination index, the source indices it reads and their weights.
    func weights(from source: Int, to destination: Int) -> [[(index: Int, weight: Double)]] {
        let ratio = Double(destination) / Double(source)
        let stretch = max(1, 1 / ratio)
        return (0..<destination).map { d in
            let centre = (Double(d) + 0.5) / ratio
            let low = max(0, Int((centre - support * stretch).rounded(.down)))
            let high = min(source - 1, Int((centre + support * stretch).rounded(.up)))
            let taps = (low...high).map { ($0, kernel((Double($0) + 0.5 - centre) / stretch)) }
            let total = taps.reduce(0) { $0 + $1.1 }
            return taps.map { ($0.0, $0.1 / total) }
        }
    }

    /// A square RGBA image of side `from` resized to side `to`, rounded to bytes.
    func resize(_ pixels: [UInt8], from: Int, to: Int) -> [UInt8] {
        let table = weights(from: from, to: to)
        var rows = [Double](repeating: 0, count: from * to * 4)  // every source row, filtered across
        for y in 0..<from {
            for (x, taps) in table.enumerated() {
                for c in 0..<4 {
                    rows[(y * to + x) * 4 + c] = taps.reduce(0) {
                        $0 + Double(pixels[(y * from + $1.index) * 4 + c]) * $1.weight
                    }
                }
            }
        }
        var out = [UInt8](repeating: 0, count: to * to * 4)
        for (y, taps) in table.enumerated() {
            for x in 0..<to {
                for c in 0..<4 {
                    let value = taps.reduce(0) { $0 + rows[($1.index * to + x) * 4 + c] * $1.weight }
                    out[(y * to + x) * 4 + c] = UInt8(min(255, max(0, value.rounded())))
                }
            }
        }
        return out
    }
}
