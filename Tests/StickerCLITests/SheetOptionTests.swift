import Foundation
import Testing

/// `stickers sheet` and `stickers filmstrip`, pixel by pixel: solid stickers and animations
/// whose frames are solid colours (drawn by Pillow), so every cell's expected colour is known
/// exactly. Outputs are written and read as PPM.
@Suite("Option matrix: sheet and filmstrip", .timeLimit(.minutes(3)))
struct SheetOptionTests {
    /// Runs `stickers COMMAND ARGUMENTS -o out.ppm` in a fresh folder: the image (every
    /// background here is opaque, so the PPM holds every pixel) and stdout.
    static func run(_ command: String, _ arguments: [String]) throws -> (image: Picture, stdout: String) {
        let folder = CLITests.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out.ppm")
        let result = try CLITests.runExecutable([command] + arguments + ["-o", out.path])
        try #require(result.status == 0, "\(arguments): \(result.stderr)")
        return (try Picture(ppm: Data(contentsOf: out)), result.stdout)
    }

    /// The opaque presets, in the sheet's column order (docs/cli.md): white, black, red, yellow,
    /// (multicolor), light #F2F2F7, dark #1C1C1E, (checker). Red and yellow are iOS's system colours.
    static let solidPresets: [Int: Colour] = [
        0: Colour(hex: 0xFFFFFF), 1: Colour(hex: 0x000000), 2: Colour(hex: 0xFF3B30),
        3: Colour(hex: 0xFFCC00), 5: Colour(hex: 0xF2F2F7), 6: Colour(hex: 0x1C1C1E)
    ]
    /// Apple's six test hues, the multicolor bands.
    static let multicolor: Set<Colour> = [
        Colour(hex: 0xFF3B30), Colour(hex: 0xFF9500), Colour(hex: 0xFFCC00),
        Colour(hex: 0x34C759), Colour(hex: 0x007AFF), Colour(hex: 0xAF52DE)
    ]

    /// Checks one tile of a sheet: the `cell` square at (`x` + `pad`, `y` + `pad`) is all
    /// `sticker`, and the frame of `pad` around it satisfies `background`.
    static func expectTile(
        _ image: Picture, x: Int, y: Int, cell: Int, pad: Int, sticker: Colour,
        background: (Colour) -> Bool, _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            image.all(sticker, x: x + pad, y: y + pad, width: cell, height: cell),
            "\(comment): the sticker fills its cell",
            sourceLocation: sourceLocation)
        let tile = cell + 2 * pad
        var wrong: [Colour] = []
        for py in y..<(y + tile) {
            for px in x..<(x + tile) where px < x + pad || px >= x + pad + cell || py < y + pad || py >= y + pad + cell
            {
                if !background(image.pixel(px, py)) { wrong.append(image.pixel(px, py)) }
            }
        }
        #expect(wrong.isEmpty, "\(comment): background pixels \(Set(wrong))", sourceLocation: sourceLocation)
    }

    @Test(
        "sheet: each sticker (a row) on each preset background (a column); a cell is the sticker, its surround the preset"
    )
    func presets() throws {
        // pair/: first = solid.png, second = timing.png (red at 0 s). Regular: 136 pt cells at
        // 1x with 8 pt around them, 152 px tiles.
        let (image, _) = try Self.run("sheet", [try OptionFixtures.path("pair")])
        #expect(image.width == 8 * 152 && image.height == 2 * 152)
        for (row, sticker) in [OptionFixtures.solidColour, OptionFixtures.timingColours[0]].enumerated() {
            for column in 0..<8 {
                let background: (Colour) -> Bool
                switch column {
                case 4: background = { Self.multicolor.contains($0) }
                case 7: background = { $0 == Colour(hex: 0xFFFFFF) || $0 == Colour(hex: 0xCCCCCC) }
                default: background = { [expected = Self.solidPresets[column]!] in $0 == expected }
                }
                Self.expectTile(
                    image, x: column * 152, y: row * 152, cell: 136, pad: 8, sticker: sticker,
                    background: background, "row \(row), column \(column)")
            }
        }
        // multicolor crosses several hues in a tile; checker alternates 8 px squares of white and grey.
        let bands = Set((0..<152).map { image.pixel(4 * 152 + $0, 2) })
        #expect(bands.count >= 3, "\(bands)")
        #expect(image.pixel(7 * 152 + 2, 2) != image.pixel(7 * 152 + 10, 2))
    }

    @Test("sheet --background: each adds a column of exactly that colour after the presets")
    func extraBackgrounds() throws {
        let (image, stdout) = try Self.run(
            "sheet", [try OptionFixtures.path("solid.png"), "--background", "#336699", "--background", "black"])
        #expect(image.width == 10 * 152 && image.height == 152)
        #expect(stdout.contains("#336699, black)"))
        Self.expectTile(
            image, x: 8 * 152, y: 0, cell: 136, pad: 8, sticker: OptionFixtures.solidColour,
            background: { $0 == Colour(hex: 0x336699) }, "#336699")
        Self.expectTile(
            image, x: 9 * 152, y: 0, cell: 136, pad: 8, sticker: OptionFixtures.solidColour,
            background: { $0 == Colour(hex: 0x000000) }, "black")
    }

    @Test(
        "sheet --scale and --size: the cell is the size's points times the scale, with 8 pt around it",
        arguments: [
            ("1", nil, 136), ("2", nil, 272), ("3", nil, 408), ("1", "small", 100), ("1", "large", 206),
            ("2", "large", 412)
        ] as [(String, String?, Int)])
    func scaleAndSize(scale: String, size: String?, cell: Int) throws {
        let (image, _) = try Self.run(
            "sheet", [try OptionFixtures.path("solid.png"), "--scale", scale] + (size.map { ["--size", $0] } ?? []))
        let pad = 8 * Int(scale)!
        let tile = cell + 2 * pad
        #expect(image.width == 8 * tile && image.height == tile)
        Self.expectTile(
            image, x: 0, y: 0, cell: cell, pad: pad, sticker: OptionFixtures.solidColour,
            background: { $0 == Colour(hex: 0xFFFFFF) }, "white")
    }

    @Test(
        "sheet --at: the frame shown is the one the stored delays (5, 5, 200 ms, each under 11 ms shown for 100 ms) give",
        arguments: [0.0, 50, 150, 250, 450])
    func at(ms: Double) throws {
        let shown = OptionFixtures.timingDelays.map { ExpectedTiming.shown($0, policy: "apple") }
        let expected = OptionFixtures.timingColours[ExpectedTiming.frame(at: ms, shown: shown)]
        let (image, _) = try Self.run("sheet", [try OptionFixtures.path("timing.png"), "--at", "\(Int(ms))ms"])
        Self.expectTile(
            image, x: 152, y: 0, cell: 136, pad: 8, sticker: expected, background: { $0 == Colour(hex: 0) },
            "at \(ms) ms")
    }

    /// A filmstrip's frame cells: `cell` px squares with 6 px around each, `columns` a row.
    static func frameCell(_ index: Int, columns: Int, cell: Int, tileHeight: Int) -> (x: Int, y: Int) {
        ((index % columns) * (cell + 12) + 6, (index / columns) * tileHeight + 6)
    }

    @Test(
        "filmstrip: cell k shows frame k; --cell sets the cells' side and the image's width",
        arguments: [(40, 4), (64, 3)])
    func filmstripFrames(cell: Int, columns: Int) throws {
        let (image, stdout) = try Self.run(
            "filmstrip", [try OptionFixtures.path("eight.png"), "--columns", "\(columns)", "--cell", "\(cell)"])
        let rows = (8 + columns - 1) / columns
        #expect(image.width == columns * (cell + 12))
        #expect(image.height % rows == 0)
        // Each tile is the cell, its 6 px margins and the label below: only the cell grows.
        let tileHeight = image.height / rows
        let label = tileHeight - cell - 12
        #expect(label > 0 && label < 40, "\(label)")
        for (index, colour) in OptionFixtures.eightColours.enumerated() {
            let (x, y) = Self.frameCell(index, columns: columns, cell: cell, tileHeight: tileHeight)
            #expect(
                image.all(colour, x: x, y: y, width: cell, height: cell),
                "frame \(index): \(image.pixel(x + cell / 2, y + cell / 2))")
            // The sheet's white shows right and below the cell: the cell is exactly `cell` wide and high.
            #expect(
                image.pixel(x + cell, y + cell / 2) == Colour(hex: 0xFFFFFF)
                    && image.pixel(x + cell / 2, y + cell) == Colour(hex: 0xFFFFFF))
        }
        #expect(stdout.contains("#7  start 700 ms  shows 100 ms"))
    }

    @Test("filmstrip of a still lists its one frame as a still, with no time it shows for")
    func filmstripStill() throws {
        let (_, stdout) = try Self.run("filmstrip", [try OptionFixtures.path("solid.png")])
        #expect(stdout.contains("  #0  a still"), "\(stdout)")
        #expect(!stdout.contains("shows"), "\(stdout)")
    }

    @Test(
        "filmstrip --timing: the printed start times and durations follow the stored delays under each policy",
        arguments: ["raw", "browser", "apple"])
    func filmstripTiming(policy: String) throws {
        let shown = OptionFixtures.timingDelays.map { ExpectedTiming.shown($0, policy: policy) }
        let (_, stdout) = try Self.run("filmstrip", [try OptionFixtures.path("timing.png"), "--timing", policy])
        let expected = zip(ExpectedTiming.starts(shown), shown).enumerated().map {
            "  #\($0)  start \(Int($1.0)) ms  shows \(Int($1.1)) ms"
        }
        #expect(Array(stdout.split(separator: "\n").dropFirst().map(String.init)) == expected)
    }

    @Test(
        "filmstrip --sticker: the named sticker of a pack; a pack of several needs it; an unknown name fails naming the choices"
    )
    func filmstripSticker() throws {
        let pack = try OptionFixtures.path("pair")
        let first = try Self.run("filmstrip", [pack, "--sticker", "first", "--cell", "32"])
        #expect(first.image.width == 32 + 12, "one frame")
        #expect(first.image.all(OptionFixtures.solidColour, x: 6, y: 6, width: 32, height: 32))
        let second = try Self.run("filmstrip", [pack, "--sticker", "second", "--cell", "32"])
        #expect(second.image.width == 3 * (32 + 12), "three frames")
        for (index, colour) in OptionFixtures.timingColours.enumerated() {
            #expect(second.image.all(colour, x: index * 44 + 6, y: 6, width: 32, height: 32), "frame \(index)")
        }
        let folder = CLITests.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let unknown = try CLITests.runExecutable([
            "filmstrip", pack, "--sticker", "third", "-o", folder.appendingPathComponent("x.ppm").path
        ])
        #expect(
            unknown.status == 1 && unknown.stderr == "Error: \(pack): no sticker named third (first, second)\n",
            "\(unknown.stderr)")
        let unnamed = try CLITests.runExecutable(["filmstrip", pack, "-o", folder.appendingPathComponent("x.ppm").path])
        // A pack of several stickers without --sticker is a usage error, with filmstrip's usage line.
        #expect(
            unnamed.status == 64
                && unnamed.stderr.hasPrefix(
                    "Error: \(pack): 2 stickers; choose one with --sticker\nUsage: stickers filmstrip "),
            "\(unnamed.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "nothing written")
    }

    @Test(
        "images larger than --max-pixels are refused before drawing; a background that is not one is a usage error"
    )
    func limitsAndBackgrounds() throws {
        let pack = try OptionFixtures.path("pair")
        let folder = CLITests.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("x.png").path
        // 200,000 pixels: the 408 px stickers (166,464) decode, and none of these images fits.
        // The sheet of two regular stickers on 8 backgrounds at scale 1, tiles of 136 + 16 px:
        // 1216 x 304. The filmstrip of three 1024 px frames: 3 x 1036 px wide. The browser on an
        // iPhone 15 at 3x, expanded: 1179 x 2556.
        for (arguments, image) in [
            (["sheet", pack, "--scale", "1"], "the sheet would be 1216x304 px"),
            (["filmstrip", pack, "--sticker", "second", "--cell", "1024"], "the filmstrip would be 3108x"),
            (["render", pack, "--style", "expanded"], "the browser would be 1179x2556 px")
        ] {
            let refused = try CLITests.runExecutable(arguments + ["-o", out, "--max-pixels", "200000"])
            #expect(
                refused.status == 1 && refused.stderr.contains(image)
                    && refused.stderr.contains("over the limit of 200000 pixels (--max-pixels)"),
                "\(arguments[0]): \(refused.stderr)")
        }
        for (background, message) in [
            ("#12345", "not a colour name, #RRGGBB or an image file"), ("photos/beach.jpg", "no such file")
        ] {
            for command in ["sheet", "render"] {
                let refused = try CLITests.runExecutable([command, pack, "-o", out, "--background", background])
                #expect(refused.status == 64 && refused.stderr.contains(message), "\(command): \(refused.stderr)")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "nothing written")
    }

    @Test("a sticker drawn from a damaged file is named on stderr by render, sheet and filmstrip, with what was wrong")
    func damagedStickerNamed() throws {
        let folder = CLITests.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // The first third of the sample's GIF: its first frames and no trailer.
        let gif = try Data(contentsOf: CLITests.samplePack.appendingPathComponent("02-spinning-star.gif"))
        let cut = folder.appendingPathComponent("cut.gif")
        try gif.prefix(gif.count / 3).write(to: cut)
        let info = try CLITests.runExecutable(["info", cut.path])
        #expect(info.stdout.contains("warning") || info.stderr.contains("warning"), "info says it is damaged")
        for command in ["render", "sheet", "filmstrip"] {
            let result = try CLITests.runExecutable([
                command, cut.path, "-o", folder.appendingPathComponent("x.png").path
            ])
            #expect(result.status == 0, "\(command): drawn as a browser shows it: \(result.stderr)")
            #expect(result.stderr.contains("warning: cut: "), "\(command): \(result.stderr)")
        }
    }
}
