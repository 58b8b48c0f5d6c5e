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

    /// The frames (indexes into ``OptionFixtures/eightColours``) of each synchronized update
    /// preview wrote while playing; nil for an update whose colour is none of them.
    static func framesDrawn(_ stdout: String) -> [Int?] {
        stdout.split(separator: "\u{1B}[?2026h").dropFirst().map { update in
            ANSIPicture.backgrounds(update).first.flatMap { OptionFixtures.eightColours.firstIndex(of: $0) }
        }
    }

    @Test("--loops N: plays exactly N loops of the animation, every frame once a loop, in order, and stops",
          arguments: [1, 2])
    func loops(count: Int) throws {
        // The hidden --stepped-clock plays at the instants the wall clock would, with no waits:
        // which frames are drawn does not depend on how promptly the process wakes.
        let result = try CLITests.runExecutable(["preview", try OptionFixtures.path("eight.png"), "--play", "--stepped-clock",
                                                 "--width", "4", "--height", "2", "--colors", "truecolor",
                                                 "--speed", "2", "--loops", "\(count)"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("\u{1B}[?1049h"), "the alternate screen first")
        #expect(result.stdout.hasSuffix("\u{1B}[?1049l"), "the terminal is restored at the end")
        let expected: [Int?] = (0..<count).flatMap { _ in (0..<8).map { Optional($0) } }
        #expect(Self.framesDrawn(result.stdout) == expected)
    }

    @Test("--loops N on the wall clock: it takes at least N loops of playing time, and draws the frames in order, none twice",
          arguments: [1, 2])
    func loopsTakeTheirTime(count: Int) throws {
        // Eight frames of 100 ms at speed 2 are 0.4 s a loop. A busy machine may wake late and
        // skip frames, so only what holds however late: a lower bound on the time, frames in
        // the order of the animation, and never more draws than N loops have frames.
        let start = Date()
        let result = try CLITests.runExecutable(["preview", try OptionFixtures.path("eight.png"), "--play", "--width", "4", "--height", "2",
                                                 "--colors", "truecolor", "--speed", "2", "--loops", "\(count)"])
        let elapsed = Date().timeIntervalSince(start)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("\u{1B}[?1049l"), "the terminal is restored at the end")
        #expect(elapsed >= 0.4 * Double(count) - 0.001, "it played \(count) loops of 0.4 s: \(elapsed) s")
        let frames = Self.framesDrawn(result.stdout)
        try #require(!frames.isEmpty && frames.allSatisfy { $0 != nil }, "\(frames)")
        #expect(frames.first == 0, "starts on frame 0")
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0 != $1 }, "a frame is drawn once, then the next: \(frames)")
        #expect(frames.count <= 8 * count, "\(frames)")
    }
}
