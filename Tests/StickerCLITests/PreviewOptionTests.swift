import Foundation
import Testing

/// `stickers preview`'s time options on animations whose frames are solid colours (drawn by
/// Pillow): the picture written into a pipe is read back cell by cell from its colour escapes.
@Suite("Option matrix: preview", .timeLimit(.minutes(1)))
struct PreviewOptionTests {
    /// The cells of the one picture `stickers preview ARGUMENTS` writes when stdout is a pipe.
    static func picture(_ arguments: [String]) throws -> [[ANSIPicture.Cell]] {
        let result = try CLITests.runExecutable(["preview"] + arguments + ["--colors", "truecolor"])
        try #require(result.status == 0, "\(result.stderr)")
        return ANSIPicture.cells(result.stdout)
    }

    /// Whether every cell of `cells` (and there are some) shows `colour` in both halves.
    static func all(_ cells: [[ANSIPicture.Cell]], _ colour: Colour) -> Bool {
        !cells.isEmpty && cells.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0 == ANSIPicture.Cell(top: colour, bottom: colour) } }
    }

    @Test("--at T: the picture is the frame the stored delays give at T, looping", arguments: [0.0, 350, 750, 950])
    func at(ms: Double) throws {
        let frame = ExpectedTiming.frame(at: ms, shown: OptionFixtures.eightDelays)
        // 64 x 64 px in 6 x 2 cells (6 x 4 px): 4 x 4 px, 4 columns of 2 lines.
        let cells = try Self.picture([try OptionFixtures.path("eight.png"), "--width", "6", "--height", "2", "--at", "\(Int(ms))ms"])
        #expect(cells.count == 2 && cells.allSatisfy { $0.count == 4 })
        #expect(Self.all(cells, OptionFixtures.eightColours[frame]), "frame \(frame) at \(ms) ms: \(cells)")
    }

    @Test("--at T with --timing: raw keeps the 5 ms delays, apple shows them for 100 ms", arguments: ["raw", "apple"])
    func atWithTiming(policy: String) throws {
        let shown = OptionFixtures.timingDelays.map { ExpectedTiming.shown($0, policy: policy) }
        let frame = ExpectedTiming.frame(at: 150, shown: shown)
        #expect(frame == (policy == "raw" ? 2 : 1))
        let cells = try Self.picture([try OptionFixtures.path("timing.png"), "--width", "4", "--height", "2", "--timing", policy, "--at", "0.15s"])
        #expect(Self.all(cells, OptionFixtures.timingColours[frame]), "\(policy): \(cells)")
    }

    @Test("--loops N: plays N loops of the animation and stops, drawing its frames in order and never a loop more",
          arguments: [1, 2])
    func loops(count: Int) throws {
        let fixture = try OptionFixtures.path("eight.png")
        // --play draws into the pipe as into a terminal; eight frames of 100 ms at speed 2 are
        // 0.4 s a loop, wall clock.
        let start = Date()
        let result = try CLITests.runExecutable(["preview", fixture, "--play", "--width", "4", "--height", "2",
                                                 "--colors", "truecolor", "--speed", "2", "--loops", "\(count)"])
        let elapsed = Date().timeIntervalSince(start)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("\u{1B}[?1049l"), "the terminal is restored at the end")
        #expect(elapsed >= 0.4 * Double(count) - 0.001, "it played \(count) loops of 0.4 s: \(elapsed) s")
        // Each synchronized update draws one frame; a late wake-up may skip a frame, never repeat one.
        let updates = result.stdout.split(separator: "\u{1B}[?2026h").dropFirst()
        let frames = updates.map { ANSIPicture.backgrounds($0).first.flatMap { OptionFixtures.eightColours.firstIndex(of: $0) } }
        try #require(!frames.isEmpty && frames.allSatisfy { $0 != nil }, "\(frames)")
        var positions: [Int] = []  // frame index plus 8 per loop
        for frame in frames.map({ $0! }) {
            let loop = positions.last.map { frame > $0 % 8 ? $0 / 8 : $0 / 8 + 1 } ?? 0
            positions.append(loop * 8 + frame)
        }
        #expect(positions.first == 0, "starts on frame 0")
        #expect(positions.last.map { $0 / 8 } == count - 1, "the last frame drawn is in loop \(count): \(positions)")
        #expect(positions.count <= 8 * count, "\(positions)")
    }
}
