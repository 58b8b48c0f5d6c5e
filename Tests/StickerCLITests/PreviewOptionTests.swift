import Foundation
import Testing

/// `stickers preview`'s time options on animations whose frames are solid colours (drawn by
/// Pillow): the picture written into a pipe is read back cell by cell from its colour escapes.
@Suite("Option matrix: preview", .timeLimit(.minutes(3)))
struct PreviewOptionTests {
    /// The cells of the one picture `stickers preview ARGUMENTS` writes when stdout is a pipe.
    static func picture(_ arguments: [String]) throws -> [[ANSIPicture.Cell]] {
        let result = try CLITests.runExecutable(["preview"] + arguments + ["--colors", "truecolor"])
        try #require(result.status == 0, "\(result.stderr)")
        return ANSIPicture.cells(result.stdout)
    }

    /// Whether every cell of `cells` (and there are some) shows `colour` in both halves.
    static func all(_ cells: [[ANSIPicture.Cell]], _ colour: Colour) -> Bool {
        !cells.isEmpty
            && cells.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0 == ANSIPicture.Cell(top: colour, bottom: colour) } }
    }

    @Test("--at T: the picture is the frame the stored delays give at T, looping", arguments: [0.0, 350, 750, 950])
    func at(ms: Double) throws {
        let frame = ExpectedTiming.frame(at: ms, shown: OptionFixtures.eightDelays)
        // 64 x 64 px in 6 x 2 cells (6 x 4 px): 4 x 4 px, 4 columns of 2 lines.
        let cells = try Self.picture([
            try OptionFixtures.path("eight.png"), "--width", "6", "--height", "2", "--at", "\(Int(ms))ms"
        ])
        #expect(cells.count == 2 && cells.allSatisfy { $0.count == 4 })
        #expect(Self.all(cells, OptionFixtures.eightColours[frame]), "frame \(frame) at \(ms) ms: \(cells)")
    }

    @Test("--at T with --timing: raw keeps the 5 ms delays, apple shows them for 100 ms", arguments: ["raw", "apple"])
    func atWithTiming(policy: String) throws {
        let shown = OptionFixtures.timingDelays.map { ExpectedTiming.shown($0, policy: policy) }
        let frame = ExpectedTiming.frame(at: 150, shown: shown)
        #expect(frame == (policy == "raw" ? 2 : 1))
        let cells = try Self.picture([
            try OptionFixtures.path("timing.png"), "--width", "4", "--height", "2", "--timing", policy, "--at", "0.15s"
        ])
        #expect(Self.all(cells, OptionFixtures.timingColours[frame]), "\(policy): \(cells)")
    }

    /// The cells of `pair/` (a solid sticker and the timing one) drawn as the whole expanded
    /// view in a 40 x 20 cell window (40 x 40 px), with `arguments`.
    static func browser(_ arguments: [String]) throws -> [[ANSIPicture.Cell]] {
        try picture(
            [try OptionFixtures.path("pair"), "--whole-view", "--style", "expanded", "--width", "40", "--height", "20"]
                + arguments)
    }

    @Test(
        "a pack's browser: --view and --device set the picture's shape, fitted to the window",
        arguments: [
            ("--view", "300x600", 20, 20), ("--view", "600x300", 40, 10), ("--device", "iphone-8", 22, 20),
            ("--device", "ipad-pro-12.9", 30, 20)
        ])
    func viewShape(option: String, value: String, columns: Int, lines: Int) throws {
        // W x H points in 40 x 40 px, two pixels a cell down: 300 x 600 is 20 x 40 px; 600 x 300
        // is 40 x 20; the iPhone 8's 375 x 667 is 22.5 x 40 (22 columns); the 12.9" iPad Pro's
        // 1024 x 1366 is 29.98 x 40 (30).
        let cells = try Self.browser([option, value, "--background", "white"])
        #expect(
            cells.count == lines && cells.allSatisfy { $0.count == columns },
            "\(cells.count) lines of \(cells.map(\.count))")
    }

    @Test("a pack's browser: --background fills the view around the stickers; --size sets how much of it they cover")
    func backgroundAndSize() throws {
        for (name, colour) in [("red", Colour(hex: 0xFF3B30)), ("#00FF00", Colour(0, 255, 0))] {
            let cells = try Self.browser(["--view", "300x600", "--background", name])
            // The bottom half of the view holds no sticker: all background.
            #expect(Self.all(Array(cells.suffix(5)), colour), "\(name): \(cells.suffix(5))")
        }
        /// How many half-cells show the solid sticker's colour.
        func covered(_ size: String) throws -> Int {
            try Self.browser(["--view", "300x600", "--background", "white", "--size", size, "--filter", "box"]).joined()
                .reduce(0) {
                    $0 + ($1.top == OptionFixtures.solidColour ? 1 : 0)
                        + ($1.bottom == OptionFixtures.solidColour ? 1 : 0)
                }
        }
        // Small, regular and large cells are 72, 102 and 163 pt: the sticker's area grows with
        // their square (about 1 : 2 : 5), give or take the pixels its edges share.
        let (small, regular, large) = (try covered("small"), try covered("regular"), try covered("large"))
        #expect(
            small > 0 && Double(regular) > 1.4 * Double(small) && Double(large) > 2 * Double(regular),
            "\(small) \(regular) \(large)")
    }

    @Test(
        "a pack's browser: --scale renders finer, and the box filter's means make the same cells; lanczos3 differs at the edges"
    )
    func scaleAndFilter() throws {
        let common = ["--device", "iphone-8", "--background", "white"]
        let boxAtOne = try Self.browser(common + ["--scale", "1", "--filter", "box"])
        let boxAtThree = try Self.browser(common + ["--scale", "3", "--filter", "box"])
        let lanczos = try Self.browser(common + ["--scale", "3", "--filter", "lanczos3"])
        #expect(boxAtOne == boxAtThree, "the mean of a cell's pixels does not depend on how many there are")
        #expect(lanczos != boxAtThree && lanczos.count == boxAtThree.count, "lanczos3 rings where box does not")
        let refused = try CLITests.runExecutable(["preview", try OptionFixtures.path("pair"), "--scale", "4"])
        #expect(refused.status == 64 && refused.stdout.isEmpty, "\(refused.stderr)")
    }

    /// The frames (indexes into ``OptionFixtures/eightColours``) of each synchronized update
    /// preview wrote while playing; nil for an update whose colour is none of them.
    static func framesDrawn(_ stdout: String) -> [Int?] {
        stdout.split(separator: "\u{1B}[?2026h").dropFirst().map { update in
            ANSIPicture.backgrounds(update).first.flatMap { OptionFixtures.eightColours.firstIndex(of: $0) }
        }
    }

    @Test(
        "--loops N: plays exactly N loops of the animation, every frame once a loop, in order, and stops",
        arguments: [1, 2])
    func loops(count: Int) throws {
        // The hidden --stepped-clock plays at the instants the wall clock would, with no waits:
        // which frames are drawn does not depend on how promptly the process wakes.
        let result = try CLITests.runExecutable([
            "preview", try OptionFixtures.path("eight.png"), "--play", "--stepped-clock",
            "--width", "4", "--height", "2", "--colors", "truecolor",
            "--speed", "2", "--loops", "\(count)"
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("\u{1B}[?1049h"), "the alternate screen first")
        #expect(result.stdout.hasSuffix("\u{1B}[?1049l"), "the terminal is restored at the end")
        let expected: [Int?] = (0..<count).flatMap { _ in (0..<8).map { Optional($0) } }
        #expect(Self.framesDrawn(result.stdout) == expected)
    }

    @Test(
        "--loops N on the wall clock: it takes at least N loops of playing time, and draws the frames in order, none twice",
        arguments: [1, 2])
    func loopsTakeTheirTime(count: Int) throws {
        // Eight frames of 100 ms at speed 2 are 0.4 s a loop. A busy machine may wake late and
        // skip frames, so only what holds however late: a lower bound on the time, frames in
        // the order of the animation, and never more draws than N loops have frames.
        let start = Date()
        let result = try CLITests.runExecutable([
            "preview", try OptionFixtures.path("eight.png"), "--play", "--width", "4", "--height", "2",
            "--colors", "truecolor", "--speed", "2", "--loops", "\(count)"
        ])
        let elapsed = Date().timeIntervalSince(start)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("\u{1B}[?1049l"), "the terminal is restored at the end")
        #expect(elapsed >= 0.4 * Double(count) - 0.001, "it played \(count) loops of 0.4 s: \(elapsed) s")
        let frames = Self.framesDrawn(result.stdout)
        try #require(!frames.isEmpty && frames.allSatisfy { $0 != nil }, "\(frames)")
        #expect(frames.first == 0, "starts on frame 0")
        #expect(
            zip(frames, frames.dropFirst()).allSatisfy { $0 != $1 }, "a frame is drawn once, then the next: \(frames)")
        #expect(frames.count <= 8 * count, "\(frames)")
    }
}
