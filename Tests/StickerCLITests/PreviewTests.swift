import AnimationCodec
import Foundation
import StickerCLI
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `stickers preview` as a user sees it: inside a real terminal (tmux), read back with
/// `capture-pane`: the picture fits the window, re-fits after a resize, and Ctrl-C restores
/// the screen and the cursor. Plus the not-a-terminal path and errors.
@Suite("stickers preview", .serialized, .timeLimit(.minutes(3)))
struct PreviewTests {
    /// A private tmux server (its own socket), UTF-8, torn down after the test.
    final class Tmux {
        let socket = "stickers-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let tmux = "/usr/bin/tmux"

        /// Runs tmux to completion, under TestProcess's time limit, its output in a file: the
        /// server that `new-session` forks inherits the client's descriptors, so a pipe would never close.
        @discardableResult
        func run(_ arguments: [String]) throws -> String {
            let output = FileManager.default.temporaryDirectory.appendingPathComponent(
                "\(socket)-\(UUID().uuidString).out"
            ).path
            defer { unlink(output) }
            let pid = try PreviewTests.spawn(
                [tmux, "-L", socket] + arguments, stdout: output,
                environment: ["LANG=C.UTF-8", "TERM=xterm-256color", "PATH=/usr/bin:/bin", "HOME=/tmp"])
            _ = try TestProcess.wait(for: pid, arguments: ["tmux"] + arguments)
            return String(decoding: FileManager.default.contents(atPath: output) ?? Data(), as: UTF8.self)
        }

        func screen() throws -> [String] { try run(["capture-pane", "-p", "-t", "s"]).components(separatedBy: "\n") }
        func flags() throws -> String {
            try run(["display", "-p", "-t", "s", "#{alternate_on} #{cursor_flag}"]).trimmingCharacters(
                in: .whitespacesAndNewlines)
        }
        func stop() {
            _ = try? run(["kill-server"])
            unlink("/tmp/tmux-\(getuid())/\(socket)")
        }
    }

    /// Starts `argv` through ``TestProcess/spawn(_:standardOutput:standardError:environment:directory:newSession:)``
    /// (a clean signal mask, default dispositions, a process group or, with `newSession`, a
    /// session of its own), standard output to `stdout`, standard error to `stderr` or onto
    /// `stderrDescriptor`, with only `environment`; returns its pid.
    static func spawn(
        _ argv: [String], stdout: String = "/dev/null", stderr: String = "/dev/null",
        stderrDescriptor: Int32? = nil, environment: [String] = ["PATH=/usr/bin:/bin"],
        newSession: Bool = false
    ) throws -> pid_t {
        try TestProcess.spawn(
            argv, standardOutput: stdout, standardError: stderrDescriptor.map { .descriptor($0) } ?? .file(stderr),
            environment: environment, newSession: newSession)
    }

    /// Starts `argv` like ``spawn(_:stdout:stderr:stderrDescriptor:environment:newSession:)`` with its standard error on a
    /// pipe of one page (4 KiB), and returns the pid and the pipe's read end. A child that
    /// prints more than a page to it blocks until the test reads, so a test that stops reading
    /// knows the child cannot have finished: an event, not a race against the clock.
    static func spawnWithStderrPipe(_ argv: [String]) throws -> (pid: pid_t, stderr: Int32) {
        // Close-on-exec, so children that other tests start later never hold the write end
        // open; the dup2 onto the child's stderr clears the flag for that one copy.
        var ends: [Int32] = [0, 0]
        guard Glibc.pipe(&ends) == 0 else { throw CLIError("pipe failed") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let fSetPipeSize: Int32 = 1031  // F_SETPIPE_SZ (Linux), not exported without _GNU_SOURCE
        defer { close(ends[1]) }
        guard fcntl(ends[1], fSetPipeSize, 4096) == 4096 else {
            close(ends[0])
            throw CLIError("the pipe could not be set to one page")
        }
        do {
            return (try spawn(argv, stderrDescriptor: ends[1]), ends[0])
        } catch {
            close(ends[0])
            throw error
        }
    }

    /// Reads `fd` up to and including the first line that contains `text`; nil at the end of
    /// the stream (the child exited or closed it without printing it).
    static func readLine(from fd: Int32, containing text: String) -> String? {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(fd, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            guard count == 1 else { return nil }
            if byte == UInt8(ascii: "\n") {
                let string = String(decoding: line, as: UTF8.self)
                if string.contains(text) { return string }
                line.removeAll(keepingCapacity: true)
            } else {
                line.append(byte)
            }
        }
    }

    static func executable() throws -> String {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
                "stickers"),
            CLITests.repoRoot.appendingPathComponent(".build/debug/stickers")
        ]
        return try #require(candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }).path
    }

    /// The processes whose parent is `parent` (from /proc).
    static func children(of parent: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { name -> pid_t? in
            guard let pid = pid_t(name), let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            // After "pid (comm)": state, then the parent's pid.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && pid_t(fields[1]) == parent ? pid : nil
        }
    }

    /// The columns (1-based) holding any drawn cell.
    static func drawnColumns(_ lines: [String]) -> ClosedRange<Int>? {
        var low = Int.max
        var high = 0
        for line in lines {
            for (i, ch) in line.enumerated() where ch == "\u{2580}" || ch == "\u{2584}" {
                low = min(low, i + 1); high = max(high, i + 1)
            }
        }
        return high == 0 ? nil : low...high
    }

    /// Polls `condition` until it holds. The time limit only keeps a broken build from hanging
    /// the suite: it is far beyond what any of these events takes on a loaded machine.
    static func waitFor(_ seconds: Double = 120, until condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return try condition()
    }

    @Test("Plays in tmux, fits the window, re-fits on resize, and Ctrl-C restores the terminal")
    func tmuxSession() throws {
        #expect(FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux is needed (make deps installs it)")
        let tmux = Tmux()
        defer { tmux.stop() }
        let gif = CLITests.samplePack.appendingPathComponent("02-spinning-star.gif").path
        try tmux.run(["new-session", "-d", "-s", "s", "-x", "80", "-y", "30", "bash --norc --noprofile"])
        try tmux.run(["set-option", "-t", "s", "window-size", "manual"])
        try tmux.run([
            "send-keys", "-t", "s", "echo BEFORE; \(try Self.executable()) preview \(gif) --duration 600; echo EXIT=$?",
            "Enter"
        ])
        #expect(
            try Self.waitFor { try tmux.flags() == "1 0" && Self.drawnColumns(try tmux.screen()) != nil },
            "playing: alternate screen on, cursor hidden, something drawn")
        // 408 x 408 in 80 x 30 cells: 60 x 60 pixels = 60 columns, centred from column 11.
        let wide = try #require(Self.drawnColumns(try tmux.screen()))
        #expect(wide.lowerBound >= 11 && wide.upperBound <= 70, "\(wide)")
        #expect(wide.upperBound - wide.lowerBound >= 40, "the star spans most of its 60 columns: \(wide)")

        try tmux.run(["resize-window", "-t", "s", "-x", "40", "-y", "20"])
        // 408 x 408 in 40 x 20: 40 x 40 pixels, every drawn cell within the 40 columns.
        let refitted = try Self.waitFor {
            guard let range = Self.drawnColumns(try tmux.screen()) else { return false }
            return range.upperBound <= 40 && range.upperBound - range.lowerBound < 40
        }
        let narrow = Self.drawnColumns(try tmux.screen())
        #expect(refitted, "re-fitted to 40 columns: \(String(describing: narrow))")

        try tmux.run(["send-keys", "-t", "s", "C-c"])
        #expect(
            try Self.waitFor { try tmux.screen().contains { $0.contains("EXIT=130") } }, "Ctrl-C ends with status 130")
        #expect(try tmux.flags() == "0 1", "normal screen and a visible cursor again")
        let after = try tmux.screen()
        #expect(after.contains { $0 == "BEFORE" }, "the shell's screen is back as it was")
        #expect(Self.drawnColumns(after) == nil, "no picture left on the normal screen")

        // The end of playback (--duration) and SIGTERM restore the terminal too.
        try tmux.run([
            "send-keys", "-t", "s", "clear; \(try Self.executable()) preview \(gif) --duration 1; echo END=$?", "Enter"
        ])
        #expect(
            try Self.waitFor { try tmux.screen().contains { $0.contains("END=0") } },
            "--duration ends playback with status 0")
        #expect(try tmux.flags() == "0 1")
        try tmux.run([
            "send-keys", "-t", "s", "clear; \(try Self.executable()) preview \(gif) --duration 600; echo TERM=$?",
            "Enter"
        ])
        #expect(
            try Self.waitFor { try tmux.flags() == "1 0" && Self.drawnColumns(try tmux.screen()) != nil },
            "playing again")
        let shell = try #require(
            pid_t(
                try tmux.run(["display", "-p", "-t", "s", "#{pane_pid}"]).trimmingCharacters(
                    in: .whitespacesAndNewlines)))
        let player = try #require(Self.children(of: shell).first, "the preview runs under the pane's shell")
        kill(player, SIGTERM)
        #expect(
            try Self.waitFor { try tmux.screen().contains { $0.contains("TERM=143") } }, "SIGTERM ends with status 143")
        #expect(try tmux.flags() == "0 1")
        #expect(Self.drawnColumns(try tmux.screen()) == nil)
    }

    /// An 8x8 still of straight red at alpha 128 (premultiplied 128, 0, 0, 128).
    static func translucentRed() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("half-red-\(UUID().uuidString).png")
            .path
        let pixels = [UInt8](repeating: 0, count: 8 * 8 * 4).enumerated().map {
            $0.offset % 4 == 0 || $0.offset % 4 == 3 ? UInt8(128) : 0
        }
        try Data(PNGEncoder.encode(premultiplied: pixels, width: 8, height: 8)).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(
        "Translucent pixels show over the terminal's background, asked with OSC 11 (tmux answers with its window style)"
    )
    func terminalBackground() throws {
        let tmux = Tmux()
        defer { tmux.stop() }
        let still = try Self.translucentRed()
        defer { unlink(still) }
        try tmux.run(["new-session", "-d", "-s", "s", "-x", "80", "-y", "20", "bash --norc --noprofile"])
        try tmux.run(["set-option", "-t", "s", "window-style", "bg=#204060"])
        try tmux.run([
            "send-keys", "-t", "s",
            "clear; \(try Self.executable()) preview \(still) --width 8 --height 4 --colors truecolor; echo END=$?",
            "Enter"
        ])
        #expect(try Self.waitFor { try tmux.screen().contains { $0.contains("END=0") } })
        // Red 128 over (32, 64, 96): 128 + 32 x 127 / 255 = 143.9, 64 x 127 / 255 = 31.9, 96 x 127 / 255 = 47.8.
        let colored = try tmux.run(["capture-pane", "-e", "-p", "-t", "s"])
        #expect(
            colored.contains("48;2;144;32;48"), "composited over the window's background: \(colored.debugDescription)")
    }

    /// A new pseudo-terminal: the master's descriptor (close-on-exec) and the slave's path.
    /// (/dev/ptmx with Linux's ioctls: posix_openpt and friends need _XOPEN_SOURCE in Swift.)
    static func pseudoTerminal() throws -> (master: Int32, slave: String) {
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        try #require(master >= 0)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        let setLock: UInt = 0x4004_5431
        let getNumber: UInt = 0x8004_5430  // TIOCSPTLCK, TIOCGPTN
        guard ioctl(master, setLock, &unlock) == 0 && ioctl(master, getNumber, &number) == 0 else {
            close(master)
            throw CLIError("the pseudo-terminal could not be set up")
        }
        return (master, "/dev/pts/\(number)")
    }

    /// `argv` as the leader of a new session on a new pseudo-terminal of `columns` x `rows`
    /// cells and `pixels` (its window size, as TIOCGWINSZ reports it), its output and errors
    /// to the terminal: the terminal's side to read and answer (the caller closes it), and the
    /// process.
    static func spawnOnTerminal(
        _ argv: [String], columns: Int, rows: Int, pixels: (width: Int, height: Int), environment: [String]
    ) throws -> (master: Int32, pid: pid_t) {
        let (master, slave) = try pseudoTerminal()
        var size = winsize(
            ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: UInt16(pixels.width),
            ws_ypixel: UInt16(pixels.height))
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        do {
            let pid = try spawn(argv, stdout: slave, stderr: slave, environment: environment, newSession: true)
            return (master, pid)
        } catch {
            close(master)
            throw error
        }
    }

    /// Reads from `master` onto `heard` until `done` holds for all read so far, the writer
    /// closes, or 60 seconds pass with nothing to read.
    static func collect(_ master: Int32, onto heard: inout [UInt8], until done: (String) -> Bool) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !done(String(decoding: heard, as: UTF8.self)) {
            var ready = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 60_000) > 0 else { return }
            let count = Glibc.read(master, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            heard += buffer[0..<count]
        }
    }

    /// Everything written to a pseudo-terminal's slave, read from its `master` until every
    /// writer has closed it (the read then fails with EIO), or until `seconds` pass with nothing
    /// more to read: a child that hangs ends the test's wait instead of blocking it for good.
    static func readToEnd(_ master: Int32, seconds: Double = 120) -> [UInt8] {
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { break }
            var ready = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            let polled = poll(&ready, 1, Int32(min(left.components.seconds * 1000 + 1, 60_000)))
            if polled < 0 && errno == EINTR { continue }
            guard polled > 0 else { continue }
            let count = read(master, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            output += buffer[0..<count]
        }
        return output
    }

    @Test(
        "SIGTERM while the terminal is asked what it can do leaves echo and line editing on, and ends with the signal")
    func termDuringQuery() throws {
        let gif = CLITests.samplePack.appendingPathComponent("02-spinning-star.gif").path
        // A pseudo-terminal that never answers: the questions wait for their timeout.
        let (master, slave) = try Self.pseudoTerminal()
        defer { close(master) }
        let pid = try Self.spawn(
            [try Self.executable(), "preview", gif], stdout: slave, stderr: slave,
            environment: ["PATH=/usr/bin:/bin", "TERM=xterm-256color"], newSession: true)
        // The device-attributes question ends every query: asked, so echo is off now.
        var heard: [UInt8] = []
        Self.collect(master, onto: &heard) { $0.contains("\u{1B}[c") }
        #expect(String(decoding: heard, as: UTF8.self).contains("\u{1B}[c"), "asked")
        kill(pid, SIGTERM)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // Ended by the signal (during the query) or with 143 (had playback begun).
        let signalled = status & 0x7F
        #expect(signalled == SIGTERM || (signalled == 0 && (status >> 8) & 0xFF == 143), "status \(status)")
        let terminal = open(slave, O_RDWR | O_NOCTTY)
        try #require(terminal >= 0)
        defer { close(terminal) }
        var settings = termios()
        try #require(tcgetattr(terminal, &settings) == 0)
        #expect(settings.c_lflag & tcflag_t(ECHO) != 0 && settings.c_lflag & tcflag_t(ICANON) != 0)
    }

    @Test("SIGINT sent the instant playback takes the screen ends playback with status 130 and gives the screen back")
    func interruptAsPlaybackStarts() throws {
        // The star loops for ever: only the signal ends this preview.
        let gif = CLITests.samplePack.appendingPathComponent("02-spinning-star.gif").path
        let (master, slave) = try Self.pseudoTerminal()
        defer { close(master) }
        let pid = try Self.spawn(
            [try Self.executable(), "preview", gif, "--colors", "truecolor", "--width", "8", "--height", "4"],
            stdout: slave, stderr: slave,
            environment: ["PATH=/usr/bin:/bin", "TERM=xterm-256color"], newSession: true)
        // The alternate screen is the player's first write, right after it routes its signals.
        var heard: [UInt8] = []
        Self.collect(master, onto: &heard) { $0.contains("\u{1B}[?1049h") }
        try #require(String(decoding: heard, as: UTF8.self).contains("\u{1B}[?1049h"), "playback began")
        kill(pid, SIGINT)
        // Read until the preview closes the terminal as it exits; a lost signal leaves it
        // playing, and the read then ends at its deadline instead.
        let reading = ContinuousClock.now
        heard += Self.readToEnd(master, seconds: 60)
        var status: Int32 = 0
        if ContinuousClock.now - reading >= .seconds(60) {
            kill(pid, SIGKILL)
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            Issue.record("still playing a minute after SIGINT")
            return
        }
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        #expect(status & 0x7F == 0 && (status >> 8) & 0xFF == 130, "status \(status)")
        #expect(
            String(decoding: heard, as: UTF8.self).contains("\u{1B}[?25h\u{1B}[?1049l"), "cursor and screen given back")
    }

    @Test("A terminal that never answers OSC 11: the picture still comes, over black")
    func silentTerminal() throws {
        let still = try Self.translucentRed()
        defer { unlink(still) }
        // A pseudo-terminal whose other end the test holds and never writes to.
        let (master, slave) = try Self.pseudoTerminal()
        defer { close(master) }
        let pid = try Self.spawn(
            [try Self.executable(), "preview", still, "--width", "8", "--height", "4", "--colors", "truecolor"],
            stdout: slave, stderr: slave, environment: ["PATH=/usr/bin:/bin", "TERM=xterm-256color"],
            newSession: true)
        let output = Self.readToEnd(master)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        #expect(status == 0, "exit status \(status)")
        let text = String(decoding: output, as: UTF8.self)
        #expect(text.contains("\u{1B}]11;?"), "the question was asked")
        #expect(text.contains("48;2;128;0;0"), "red 128 over black: \(text.debugDescription)")
    }

    @Test("A pack in expanded style: the rows that hold stickers fill the window; --whole-view draws the whole view")
    func expandedPackFitsRows() throws {
        func picture(_ extra: [String]) throws -> (lines: Int, width: Int) {
            let result = try CLITests.runExecutable(
                [
                    "preview", CLITests.samplePack.path, "--style", "expanded", "--width", "100",
                    "--height", "40", "--colors", "truecolor"
                ] + extra)
            #expect(result.status == 0, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n")
            let visible = lines.map {
                $0.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression).count
            }
            return (lines.count, visible.max() ?? 0)
        }
        // 6 regular stickers on a 393x852 pt view: 3 columns, 2 rows of 102 pt cells, so the
        // rows end at 8 + 102 + 16 + 102 + 8 = 236 pt. 393x236 in 100x80 pixels: scale 100/393,
        // 100x60 pixels = 30 lines, every column used.
        let rows = try picture([])
        #expect(rows.lines == 30 && rows.width == 100, "\(rows)")
        // The whole 393x852 view in 100x80 pixels: scale 80/852, 37x80 pixels = 40 lines.
        let whole = try picture(["--whole-view"])
        #expect(whole.lines == 40 && whole.width == 37, "\(whole)")
    }

    @Test(
        "Not a terminal: one frame as ANSI text, the size from --width/--height; --frame N draws frame N, the last one past the end (as render does)",
        arguments: [0, 3, 7, 8, 100])
    func pipe(frame: Int) throws {
        // eight.png: 64 x 64, eight frames of 100 ms, each a solid colour of its own (Pillow wrote them).
        let animation = try OptionFixtures.path("eight.png")
        let result = try CLITests.runExecutable([
            "preview", animation, "--width", "30", "--height", "10", "--colors", "truecolor", "--frame", "\(frame)"
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        // 64 x 64 in 30 x 10 cells: 20 x 20 pixels -> 10 lines of 20 cells, then the final newline.
        #expect(lines.count == 11 && lines.last == "")
        #expect(
            !result.stdout.contains("\u{1B}[?1049h") && !result.stdout.contains("H\u{1B}"),
            "no screen switching, no cursor moves")
        let cells = ANSIPicture.cells(result.stdout)
        let colour = OptionFixtures.eightColours[min(frame, 7)]
        #expect(cells.count == 10 && cells.allSatisfy { $0.count == 20 })
        #expect(
            cells.allSatisfy { $0.allSatisfy { $0 == ANSIPicture.Cell(top: colour, bottom: colour) } },
            "every cell shows frame \(frame)'s \(colour): \(Set(cells.joined().map { "\($0.top?.description ?? "default")/\($0.bottom?.description ?? "default")" }))"
        )
    }

    @Test(
        "--frame N of ninety 33 ms frames draws frame N, past the first second too; --at the middle of frame N draws it",
        arguments: [1, 31, 32, 60, 89])
    func frameOfMany(frame: Int) throws {
        let animation = try OptionFixtures.path("ninety.png")
        let colour = OptionFixtures.ninetyColours[frame]
        let middle = String(format: "%.4fs", (Double(frame) + 0.5) * 0.033)
        for selection in [["--frame", "\(frame)"], ["--at", middle]] {
            let result = try CLITests.runExecutable(
                ["preview", animation, "--width", "8", "--height", "4", "--colors", "truecolor"] + selection)
            #expect(result.status == 0, "\(result.stderr)")
            let cells = ANSIPicture.cells(result.stdout)
            #expect(cells.count == 4 && cells.allSatisfy { $0.count == 8 }, "\(selection)")
            #expect(
                cells.allSatisfy { $0.allSatisfy { $0 == ANSIPicture.Cell(top: colour, bottom: colour) } },
                "\(selection): every cell should show frame \(frame)'s \(colour): \(Set(cells.joined().map { "\($0.top?.description ?? "default")" }))"
            )
        }
    }

    @Test(
        "Errors: the documented exit code, nothing on stdout, and the error first on stderr, alone for a bad input",
        arguments: [
            Refusal(
                arguments: ["preview", "/no/such/file.png"], status: 1,
                message: "Error: /no/such/file.png: no such file or folder"),
            Refusal(
                arguments: ["preview", "corpus/sample-pack/01-bouncing-blob.png", "--width", "1"], status: 64,
                message: "Error: --width must be 2 to 10000 cells."),
            Refusal(
                arguments: ["preview", "corpus/sample-pack/01-bouncing-blob.png", "--width", "9223372036854775807"],
                status: 64, message: "Error: --width must be 2 to 10000 cells."),
            Refusal(
                arguments: ["preview", "corpus/sample-pack/01-bouncing-blob.png", "--height", "4611686018427387904"],
                status: 64, message: "Error: --height must be 1 to 10000 cells."),
            // Frame N is found by walking N changes of a clock that loops for ever.
            Refusal(
                arguments: ["preview", "corpus/sample-pack/01-bouncing-blob.png", "--frame", "99999999999"],
                status: 64, message: "Error: --frame must be 0 to 1000000."),
            Refusal(
                arguments: ["preview", "corpus/sample-pack/01-bouncing-blob.png", "--speed", "0"], status: 64,
                message: "Error: --speed must be 0.001 to 1000."),
            Refusal(
                arguments: ["preview", "corpus/sample-pack/01-bouncing-blob.png", "--colors", "16"], status: 64,
                message:
                    "Error: The value '16' is invalid for '--colors <mode>'. Please provide one of 'truecolor' and '256'."
            )
        ])
    func errors(_ refusal: Refusal) throws {
        let args = refusal.arguments.map {
            $0.replacingOccurrences(of: "corpus/", with: CLITests.repoRoot.path + "/corpus/")
        }
        let result = try CLITests.runExecutable(args)
        #expect(result.status == refusal.status)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        #expect(lines.first == refusal.message, "\(result.stderr)")
        if refusal.status == 1 {
            #expect(lines.count == 1, "a bad input is one line: \(result.stderr)")
        } else {
            // A usage error: the parser's usage line follows the error.
            #expect(lines.contains { $0.hasPrefix("Usage: stickers preview") }, "\(result.stderr)")
        }
    }
}
