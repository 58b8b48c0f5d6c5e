import Foundation
import TestSupport
import Testing

/// `--progress` on `frames`, `render`, `fit` and `transcript`, with stderr a file (not a terminal): `lines`
/// prints exactly one line a step, `none` nothing, and `auto` nothing (its bar is only for a
/// terminal). The steps are counted from the fixtures: frames written, browser frames
/// rendered (one a change of either sticker), stickers fitted.
@Suite("Option matrix: --progress", .timeLimit(.minutes(3)))
struct ProgressOptionTests {
    enum Command: String, CaseIterable, Sendable { case frames, render, fit, transcript }

    /// The command line for `command` writing into `folder`, and the lines `--progress lines`
    /// must print.
    static func job(_ command: Command, in folder: URL) throws -> (arguments: [String], lines: [String]) {
        switch command {
        case .frames:
            // eight.png has eight frames.
            return (
                ["frames", try OptionFixtures.path("eight.png"), "--out", folder.appendingPathComponent("frames").path],
                (1...8).map { "frames \($0)/8" }
            )
        case .render:
            // a (2 x 300 ms) and b (3 x 250 ms) change at 0, 250, 300, 500 and 600 ms in the longest loop.
            let steps = ExpectedTiming.changeTimes([OptionFixtures.twoDelays, OptionFixtures.threeDelays], until: 750)
                .count
            return (
                [
                    "render", try OptionFixtures.path("animate"), "--scale", "1", "-o",
                    folder.appendingPathComponent("b.apng").path
                ],
                (1...steps).map { "rendering \($0)/\(steps)" }
            )
        case .fit:
            return (
                [
                    "fit", try OptionFixtures.path("pair"), "--threads", "1", "-o",
                    folder.appendingPathComponent("P.xcstickers").path
                ],
                // One thread: the stickers finish in order, each named with its seconds.
                ["fitting 1/2: first made (S s)", "fitting 2/2: second made (S s)"]
            )
        case .transcript:
            // The timing sticker over one second: eight frames (0, 100, 200, 400, 500, 600, 800, 900 ms).
            let script = try TranscriptCommandTests.timingScript(in: folder)
            return (
                [
                    "transcript", script.path, "--scale", "1", "--animate", "--duration", "1s", "-o",
                    folder.appendingPathComponent("t.apng").path
                ],
                (1...8).map { "rendering \($0)/8" }
            )
        }
    }

    @Test(
        "--progress lines, none and auto (stderr not a terminal)", arguments: Command.allCases,
        ["lines", "none", "auto"])
    func progress(command: Command, style: String) throws {
        let folder = CLITests.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (arguments, lines) = try Self.job(command, in: folder)
        let result = try CLITests.runExecutable(arguments + ["--progress", style])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            Self.secondsHidden(result.stderr) == (style == "lines" ? lines.map { $0 + "\n" }.joined() : ""),
            "\(result.stderr.debugDescription)")
    }

    /// `text` with each "(2.24 s)" a progress line gives read as "(S s)": the seconds vary.
    static func secondsHidden(_ text: String) -> String {
        text.replacing(#/\([0-9]+\.[0-9]{2} s\)/#, with: "(S s)")
    }

    @Test(
        "a reader of the progress lines that goes away (a closed pipe) does not end the command: the file is written, exit 0",
        arguments: [Command.render, .transcript])
    func closedPipe(command: Command) throws {
        let folder = CLITests.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (arguments, _) = try Self.job(command, in: folder)
        let (pid, progress) = try PreviewTests.spawnWithStderrPipe(
            [try PreviewTests.executable()] + arguments + ["--progress", "lines"])
        close(progress)  // nobody reads: the lines written from now on meet a closed pipe
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        #expect(status & 0x7F == 0 && (status >> 8) & 0xFF == 0, "exited 0, not killed by SIGPIPE: \(status)")
        let output = try #require(arguments.last)
        #expect(FileManager.default.fileExists(atPath: output), "\(output) written")
    }

    @Test("fit's progress lines name each sticker as it finishes, made or not, on two threads")
    func fitLinesNameStickers() throws {
        let folder = CLITests.temporaryDirectory()
        let pack = folder.appendingPathComponent("pack")
        try FileManager.default.createDirectory(at: pack, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(
            atPath: try OptionFixtures.path("solid.png"), toPath: pack.appendingPathComponent("first.png").path)
        // An empty file: no image, so no sticker can be made of it.
        try Data().write(to: pack.appendingPathComponent("empty.png"))
        let result = try CLITests.runExecutable([
            "fit", pack.path, "--threads", "2", "--progress", "lines", "-o",
            folder.appendingPathComponent("P.xcstickers").path
        ])
        #expect(result.status == 1, "one sticker cannot be made: \(result.stderr)")
        let lines = Self.secondsHidden(result.stderr).split(separator: "\n").map(String.init)
            .filter { $0.hasPrefix("fitting ") }
        // Two threads: either may finish first; the count goes up in the order they finish.
        #expect(lines.count == 2, "\(result.stderr)")
        #expect(lines.map { $0.prefix(12) } == ["fitting 1/2:", "fitting 2/2:"], "\(lines)")
        #expect(
            Set(lines.map { $0.dropFirst(13) }) == ["first made (S s)", "empty cannot be made (S s)"], "\(lines)")
    }

    @Test("--progress auto on a terminal: the bar drawn in place at each step, then erased")
    func barOnATerminal() throws {
        let text = try Self.fitOnATerminal(term: "xterm-256color")
        // Each update redraws the one line from its start and clears what is left of it: half
        // the bar at 1 of 2, all of it at 2 of 2; the end erases the line; nothing scrolls.
        let half =
            "\rfitting [" + String(repeating: "#", count: 15) + String(repeating: "-", count: 15) + "] 1/2\u{1B}[K"
        let full = "\rfitting [" + String(repeating: "#", count: 30) + "] 2/2\u{1B}[K"
        #expect(text == half + full + "\r\u{1B}[K", "\(text.debugDescription)")
    }

    @Test("--progress auto on a terminal that cannot redraw a line (TERM=dumb): one line a step, no escape")
    func linesOnADumbTerminal() throws {
        let text = try Self.fitOnATerminal(term: "dumb")
        // The terminal turns each line feed into a carriage return and a line feed.
        let lines = text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(lines.map { $0.prefix(12) } == ["fitting 1/2:", "fitting 2/2:"], "\(text.debugDescription)")
        #expect(!text.contains("\u{1B}") && !text.contains("["), "\(text.debugDescription)")
    }

    /// What `fit --progress auto` of the two-sticker fixture writes to stderr on a terminal of
    /// kind `term`, one thread. The bar waits for a second of work before it shows;
    /// --progress-after 0 (hidden, for tests) shows it from the first step, so nothing here
    /// depends on the machine's speed.
    static func fitOnATerminal(term: String) throws -> String {
        let folder = CLITests.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (master, slave) = try PreviewTests.pseudoTerminal()
        defer { close(master) }
        let pid = try TestProcess.spawn(
            [
                try PreviewTests.executable(), "fit", try OptionFixtures.path("pair"), "--threads", "1", "--progress",
                "auto", "--progress-after", "0", "-o", folder.appendingPathComponent("P.xcstickers").path
            ],
            standardOutput: folder.appendingPathComponent("report.txt").path, standardError: .file(slave),
            environment: environment(term: term))
        let text = String(decoding: PreviewTests.readToEnd(master), as: UTF8.self)
        #expect(try TestProcess.wait(for: pid, arguments: ["fit"]) == 0)
        return text
    }

    /// The test process's environment with `TERM` set to `term` (a CI job may have none).
    static func environment(term: String) -> [String] {
        ProcessInfo.processInfo.environment.filter { $0.key != "TERM" }.map { "\($0.key)=\($0.value)" } + [
            "TERM=\(term)"
        ]
    }
}
