import Foundation
import Testing

/// `--progress` on `frames`, `render` and `fit`, with stderr a pipe (not a terminal): `lines`
/// prints exactly one line a step, `none` nothing, and `auto` nothing (its bar is only for a
/// terminal). The steps are counted from the fixtures: frames written, browser frames
/// rendered (one a change of either sticker), stickers fitted.
@Suite("Option matrix: --progress", .timeLimit(.minutes(1)))
struct ProgressOptionTests {
    enum Command: String, CaseIterable, Sendable { case frames, render, fit }

    /// The command line for `command` writing into `folder`, and the lines `--progress lines`
    /// must print.
    static func job(_ command: Command, in folder: URL) throws -> (arguments: [String], lines: [String]) {
        switch command {
        case .frames:
            // eight.png has eight frames.
            return (["frames", try OptionFixtures.path("eight.png"), "--out", folder.appendingPathComponent("frames").path],
                    (1...8).map { "frames \($0)/8" })
        case .render:
            // a (2 x 300 ms) and b (3 x 250 ms) change at 0, 250, 300, 500 and 600 ms in the longest loop.
            let steps = ExpectedTiming.changeTimes([OptionFixtures.twoDelays, OptionFixtures.threeDelays], until: 750).count
            return (["render", try OptionFixtures.path("animate"), "--scale", "1", "-o", folder.appendingPathComponent("b.apng").path],
                    (1...steps).map { "rendering \($0)/\(steps)" })
        case .fit:
            return (["fit", try OptionFixtures.path("pair"), "--threads", "1", "-o", folder.appendingPathComponent("P.xcstickers").path],
                    ["fitting 1/2", "fitting 2/2"])
        }
    }

    @Test("--progress lines, none and auto (stderr a pipe)", arguments: Command.allCases, ["lines", "none", "auto"])
    func progress(command: Command, style: String) throws {
        let folder = CLITests.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (arguments, lines) = try Self.job(command, in: folder)
        let result = try CLITests.runExecutable(arguments + ["--progress", style])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == (style == "lines" ? lines.map { $0 + "\n" }.joined() : ""), "\(result.stderr.debugDescription)")
    }
}
