import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The preview in real terminals, headless under Xvfb: xterm as a VT340 (sixel) and kitty
/// (kitty's graphics protocol, on Mesa's software OpenGL). Each plays a sticker; screenshots of
/// the window (xwd) are matched against the sticker's frames as Pillow decodes them, drawn over
/// the terminal's background (Tests/Scripts/screen_match.py). An animation must show two
/// different frames, each matching: the test waits for the change by taking screenshots until
/// it sees it, never for a fixed time.
@Suite(
    "preview in real terminals (Xvfb: xterm -ti vt340, kitty)", .serialized, .timeLimit(.minutes(10)),
    .enabled(if: RealTerminal.available, "needs Xvfb, xterm, kitty, xwd and ImageMagick: make test installs them"))
struct RealTerminalTests {
    static let still = CLITests.samplePack.appendingPathComponent("05-still-blob.png").path
    static let star = CLITests.samplePack.appendingPathComponent("02-spinning-star.gif").path

    @Test("xterm -ti vt340 shows a still as a sixel image, within a level of Pillow's pixels over white")
    func xtermStill() throws {
        let display = try RealTerminal.Display()
        defer { display.stop() }
        let terminal = try display.xterm(["preview", Self.still, "--graphics", "sixel"], title: "sixel-still")
        defer { terminal.stop() }
        let match = try terminal.waitForMatch(Self.still, background: "255,255,255") { $0.mean < 1 && $0.p99 <= 8 }
        #expect(match?.frame == 0, "\(String(describing: match))")
    }

    @Test("xterm -ti vt340 plays the animation as sixels: two different frames, each as Pillow draws it")
    func xtermAnimation() throws {
        let display = try RealTerminal.Display()
        defer { display.stop() }
        // A tenth of the speed: a frame shows for 0.6 s, so a screenshot rarely spans a change.
        let terminal = try display.xterm(
            ["preview", Self.star, "--graphics", "sixel", "--speed", "0.1"], title: "sixel-star")
        defer { terminal.stop() }
        let frames = try terminal.waitForFrames(Self.star, background: "255,255,255", count: 2) {
            $0.mean < 1 && $0.p99 <= 8
        }
        #expect(frames.count >= 2, "frames seen: \(frames)")
    }

    @Test("auto asks each terminal: xterm -ti vt340 answers sixel, kitty its graphics query")
    func detection() throws {
        let display = try RealTerminal.Display()
        defer { display.stop() }
        let answers = display.folder.appendingPathComponent("answers")
        try FileManager.default.createDirectory(at: answers, withIntermediateDirectories: true)
        let xterm = try display.xterm(
            ["preview", "--detect", CLITests.samplePack.path], title: "detect-xterm",
            output: answers.appendingPathComponent("xterm.txt").path)
        defer { xterm.stop() }
        let kitty = try display.kitty(
            ["preview", "--detect", CLITests.samplePack.path], title: "detect-kitty",
            output: answers.appendingPathComponent("kitty.txt").path)
        defer { kitty.stop() }
        let xtermSaid = try xterm.waitForOutput(answers.appendingPathComponent("xterm.txt"))
        let kittySaid = try kitty.waitForOutput(answers.appendingPathComponent("kitty.txt"))
        #expect(xtermSaid.hasPrefix("sixel (the terminal says: sixel;"), "\(xtermSaid) \(xterm.diagnostics())")
        #expect(
            kittySaid.hasPrefix("kitty (the terminal says: kitty graphics with animation;"),
            "\(kittySaid) \(kitty.diagnostics())")
    }

    @Test("kitty shows the still exactly")
    func kittyStill() throws {
        let display = try RealTerminal.Display()
        defer { display.stop() }
        let terminal = try display.kitty(["preview", Self.still, "--graphics", "kitty"], title: "kitty-still")
        defer { terminal.stop() }
        let match = try terminal.waitForMatch(Self.still, background: "0,0,0") { $0.mean < 0.5 && $0.p99 <= 2 }
        #expect(match?.frame == 0, "\(String(describing: match)) \(terminal.diagnostics())")
    }

    @Test("kitty plays the uploaded loop itself: two different frames, each exact")
    func kittyAnimation() throws {
        let display = try RealTerminal.Display()
        defer { display.stop() }
        // A tenth of the speed (the gaps sent are ten times as long): a frame shows for 0.6 s, so a
        // screenshot of the software-rendered window rarely spans a change.
        let terminal = try display.kitty(
            ["preview", Self.star, "--graphics", "kitty", "--speed", "0.1"], title: "kitty-star")
        defer { terminal.stop() }
        let frames = try terminal.waitForFrames(Self.star, background: "0,0,0", count: 2) {
            $0.mean < 0.5 && $0.p99 <= 2
        }
        #expect(frames.count >= 2, "frames seen: \(frames)")
    }
}

/// The preview in Konsole (Debian's 22.12) under Xvfb: it shows kitty's stills but plays no
/// kitty animation (it does not answer a frame added to an image), and shows iTerm2's inline
/// images (a GIF's first frame only). auto must find that out and play the frames itself.
@Suite(
    "preview in Konsole (Xvfb): kitty stills without animation, iTerm2's images", .serialized,
    .timeLimit(.minutes(10)),
    .enabled(if: RealTerminal.available && RealTerminal.konsoleAvailable, "needs Konsole: make test installs it"))
struct KonsoleTests {
    @Test("--detect in Konsole: kitty graphics without animation, and sixel")
    func detection() throws {
        let display = try RealTerminal.Display()
        defer { display.stop() }
        let answer = display.folder.appendingPathComponent("konsole.txt")
        let konsole = try display.konsole(
            ["preview", "--detect", CLITests.samplePack.path], title: "detect-konsole", output: answer.path)
        defer { konsole.stop() }
        let said = try konsole.waitForOutput(answer)
        #expect(
            said.hasPrefix("kitty (the terminal says: kitty graphics without animation and sixel;"),
            "\(said) \(konsole.diagnostics())")
    }

    @Test("Konsole shows a kitty still exactly")
    func kittyStill() throws {
        let display = try RealTerminal.Display()
        defer { display.stop() }
        let terminal = try display.konsole(
            ["preview", RealTerminalTests.still, "--graphics", "kitty"], title: "konsole-kitty-still")
        defer { terminal.stop() }
        let match = try terminal.waitForMatch(RealTerminalTests.still, background: "0,0,0") {
            $0.mean < 0.5 && $0.p99 <= 2
        }
        #expect(match?.frame == 0, "\(String(describing: match))")
    }

    @Test("auto in Konsole plays the animation by placing stored frames in turn: two different frames, each exact")
    func kittyFrames() throws {
        let display = try RealTerminal.Display()
        defer { display.stop() }
        let terminal = try display.konsole(
            ["preview", RealTerminalTests.star, "--speed", "0.1"], title: "konsole-kitty-star")
        defer { terminal.stop() }
        let frames = try terminal.waitForFrames(RealTerminalTests.star, background: "0,0,0", count: 2) {
            $0.mean < 0.5 && $0.p99 <= 2
        }
        #expect(frames.count >= 2, "frames seen: \(frames)")
    }

    @Test("Konsole shows an iTerm2 inline image: the still exactly")
    func iTerm2Still() throws {
        let display = try RealTerminal.Display()
        defer { display.stop() }
        let terminal = try display.konsole(
            ["preview", RealTerminalTests.still, "--graphics", "iterm2"], title: "konsole-iterm2-still")
        defer { terminal.stop() }
        let match = try terminal.waitForMatch(RealTerminalTests.still, background: "0,0,0") {
            $0.mean < 0.5 && $0.p99 <= 2
        }
        #expect(match?.frame == 0, "\(String(describing: match))")
    }
}

/// Xvfb, a terminal in it, and screenshots of its window.
enum RealTerminal {
    static let tools = ["Xvfb", "xterm", "kitty", "xwd", "xwininfo", "convert"]
    static let available = tools.allSatisfy(installed)
    static let konsoleAvailable = installed("konsole")

    /// How long a terminal is waited for, from its start to the last thing awaited of it,
    /// before the test fails: each wait ends as soon as what it awaits shows, so only a broken
    /// terminal (or a machine stalled for minutes) meets it. Two terminals and the display's
    /// start stay under the suites' time limit, so a broken terminal fails its test with a
    /// message.
    static let patience: Duration = .seconds(200)

    static func installed(_ tool: String) -> Bool {
        ["/usr/bin", "/bin", "/usr/local/bin"].contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)")
        }
    }

    /// A helper that could not start.
    struct Failure: Error, CustomStringConvertible { var description: String }

    /// What screen_match.py found.
    struct Match: CustomStringConvertible {
        var frame: Int
        var mean: Double
        var p99: Double
        var description: String { "frame \(frame), mean \(mean), p99 \(p99)" }
    }

    /// A headless X server on a display number it picks itself (`-displayfd`).
    final class Display {
        let number: String
        let pid: pid_t
        let folder: URL

        init() throws {
            folder = CLITests.temporaryDirectory()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let announced = folder.appendingPathComponent("display")
            // A new session opens its output as it is: the file must exist.
            _ = FileManager.default.createFile(atPath: announced.path, contents: nil)
            pid = try TestProcess.spawn(
                ["/usr/bin/env", "Xvfb", "-displayfd", "1", "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                standardOutput: announced.path, newSession: true)
            // Xvfb writes its display number once it accepts clients.
            var number = ""
            let deadline = ContinuousClock.now + .seconds(60)
            while ContinuousClock.now < deadline {
                number = (try? String(contentsOf: announced, encoding: .utf8))?.filter(\.isNumber) ?? ""
                if !number.isEmpty { break }
                var status: Int32 = 0
                if waitpid(pid, &status, WNOHANG) == pid { break }
                usleep(20_000)
            }
            self.number = number
            guard !number.isEmpty else {
                kill(-pid, SIGKILL)
                throw Failure(description: "Xvfb did not start")
            }
        }

        var environment: [String] {
            [
                "PATH=/usr/bin:/bin", "DISPLAY=:\(number)", "HOME=\(folder.path)", "LIBGL_ALWAYS_SOFTWARE=1",
                "XDG_RUNTIME_DIR=\(folder.path)"
            ]
        }

        /// `stickers ARGUMENTS` in xterm as a VT340, then the cursor hidden and the window
        /// kept open.
        func xterm(_ arguments: [String], title: String, output: String? = nil) throws -> Terminal {
            try Terminal(
                display: self, title: title,
                argv: [
                    "/usr/bin/env", "xterm", "-T", title, "-ti", "vt340", "-geometry", "100x40+0+0", "-e", "sh", "-c",
                    try Terminal.command(arguments, gate: Terminal.gate(in: folder, title: title), output: output)
                ])
        }

        /// `stickers ARGUMENTS` in kitty, 1000 x 700 pixels, the cursor the background's colour.
        func kitty(_ arguments: [String], title: String, output: String? = nil) throws -> Terminal {
            try Terminal(
                display: self, title: title,
                argv: [
                    "/usr/bin/env", "kitty", "--title", title, "-o", "initial_window_width=1000", "-o",
                    "initial_window_height=700", "-o", "remember_window_size=no", "-o", "cursor=#000000", "-o",
                    "cursor_blink_interval=0", "sh", "-c",
                    try Terminal.command(arguments, gate: Terminal.gate(in: folder, title: title), output: output)
                ])
        }

        /// `stickers ARGUMENTS` in Konsole: a profile of its own written first (white on black,
        /// no scroll bar, no blinking cursor), the menu and tab bars hidden. Its tool bar stays;
        /// screenshots are matched below it. Konsole takes no window title: its window is the
        /// display's Konsole window (one at a time).
        func konsole(_ arguments: [String], title: String, output: String? = nil) throws -> Terminal {
            let profiles = folder.appendingPathComponent(".local/share/konsole")
            let settings = folder.appendingPathComponent(".config")
            for directory in [profiles, settings] {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            }
            try """
            [Appearance]
            ColorScheme=WhiteOnBlack

            [General]
            Name=Test
            Parent=FALLBACK/
            TerminalColumns=100
            TerminalRows=35

            [Scrolling]
            ScrollBarPosition=2

            [Terminal Features]
            BlinkingCursorEnabled=false

            """.write(to: profiles.appendingPathComponent("Test.profile"), atomically: true, encoding: .utf8)
            try """
            [Desktop Entry]
            DefaultProfile=Test.profile

            """.write(to: settings.appendingPathComponent("konsolerc"), atomically: true, encoding: .utf8)
            return try Terminal(
                display: self, title: title,
                argv: [
                    "/usr/bin/env", "konsole", "--nofork", "--hide-menubar", "--hide-tabbar", "-e", "sh", "-c",
                    try Terminal.command(arguments, gate: Terminal.gate(in: folder, title: title), output: output)
                ], window: .konsole)
        }

        /// Ends the server: SIGTERM, so it removes its lock and socket, then SIGKILL if it has
        /// not gone within ten seconds.
        func stop() {
            kill(-pid, SIGTERM)
            let deadline = ContinuousClock.now + .seconds(10)
            var status: Int32 = 0
            while waitpid(pid, &status, WNOHANG) == 0 && ContinuousClock.now < deadline { usleep(10_000) }
            kill(-pid, SIGKILL)
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            try? FileManager.default.removeItem(at: folder)
        }
    }

    /// How a terminal's window is found: by its title, or as the display's Konsole window
    /// (whose screenshots are matched below its tool bar).
    enum Window {
        case titled
        case konsole
    }

    /// A terminal window running one command, which starts once the window is on the screen.
    ///
    /// Nothing here waits for a time: the command waits on a FIFO that the test opens once
    /// xwininfo reports the window viewable (so a terminal never draws before its window is
    /// mapped, as kitty's software-rendered window can do on a busy machine and then show
    /// nothing), and screenshots are taken until they show what is expected. A terminal is
    /// started again only when it exits (kitty, when its OpenGL context cannot be made yet on a
    /// server just started). ``RealTerminal/patience``, from the terminal's start, only bounds
    /// the waits for a terminal that is broken, so that the test fails rather than hangs.
    final class Terminal {
        let display: Display
        let title: String
        let window: Window
        private(set) var pid: pid_t = 0
        private let argv: [String]
        /// When waiting for this terminal ends (``RealTerminal/patience`` from its start).
        private let deadline = ContinuousClock.now + RealTerminal.patience
        /// Whether the terminal started last has exited (and been reaped).
        private var reaped = false

        /// The FIFO the command reads one line from before it starts.
        var gate: String { Self.gate(in: display.folder, title: title) }

        init(display: Display, title: String, argv: [String], window: Window = .titled) throws {
            self.display = display
            self.title = title
            self.argv = argv
            self.window = window
            try launch()
        }

        static func gate(in folder: URL, title: String) -> String {
            folder.appendingPathComponent("\(title).go").path
        }

        /// The contents of `file`, which the terminal's command writes whole when it succeeds;
        /// empty when it never came.
        func waitForOutput(_ file: URL) throws -> String {
            while ContinuousClock.now < deadline {
                if let text = try? String(contentsOf: file, encoding: .utf8) { return text }
                try relaunchIfExited()
                usleep(20_000)
            }
            return ""
        }

        /// What the terminal wrote to its standard error, and whether its window exists: for a
        /// failure's message.
        func diagnostics() -> String {
            let errors = display.folder.appendingPathComponent("\(title).err")
            let written = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            let shown = (try? windowArguments()) != nil
            return "[window \(shown ? "shown" : "missing"); stderr: \(written.suffix(2000))]"
        }

        /// Starts the terminal (again, up to three times, while it exits before its window
        /// shows), waits for its window to be viewable, then lets the command start.
        private func launch() throws {
            let log = display.folder.appendingPathComponent("\(title).log").path
            let errors = display.folder.appendingPathComponent("\(title).err").path
            for _ in 0..<3 {
                for file in [log, errors] { _ = FileManager.default.createFile(atPath: file, contents: nil) }
                unlink(gate)
                guard mkfifo(gate, 0o600) == 0 else { throw Failure(description: "mkfifo \(gate): errno \(errno)") }
                pid = try TestProcess.spawn(
                    argv, standardOutput: log, standardError: .file(errors), environment: display.environment,
                    newSession: true)
                reaped = false
                while ContinuousClock.now < deadline && !exited() {
                    if try windowViewable() {
                        if try openGate() { return }
                        break
                    }
                    usleep(20_000)
                }
                if ContinuousClock.now >= deadline { return }
            }
        }

        /// Writes the line the command waits for, once the command's shell has the FIFO open;
        /// false when the terminal exited first (or the wait ended).
        private func openGate() throws -> Bool {
            while ContinuousClock.now < deadline && !exited() {
                // Without a reader yet, a non-blocking open fails (ENXIO) instead of waiting.
                let fd = open(gate, O_WRONLY | O_NONBLOCK)
                if fd >= 0 {
                    defer { close(fd) }
                    guard write(fd, "go\n", 3) == 3 else { throw Failure(description: "cannot write \(gate)") }
                    return true
                }
                usleep(20_000)
            }
            return false
        }

        /// Whether the terminal started last has exited (reaped here, and remembered).
        private func exited() -> Bool {
            var status: Int32 = 0
            if !reaped && waitpid(pid, &status, WNOHANG) == pid { reaped = true }
            return reaped
        }

        /// Starts the terminal again when it has exited: its command ends by holding the
        /// window open, so it exits only when it failed.
        private func relaunchIfExited() throws {
            if exited() { try launch() }
        }

        /// Whether the window is on the display and mapped.
        func windowViewable() throws -> Bool {
            guard let arguments = try windowArguments() else { return false }
            let info = try TestProcess.capture(["xwininfo", "-display", ":\(display.number)"] + arguments)
            return info.status == 0 && info.stdout.contains("Map State: IsViewable")
        }

        /// The window as xwd and xwininfo name it (`-name TITLE` or `-id ID`); nil while it
        /// does not exist.
        func windowArguments() throws -> [String]? {
            switch window {
            case .titled:
                let found = try TestProcess.run(["xwininfo", "-display", ":\(display.number)", "-name", title]) == 0
                return found ? ["-name", title] : nil
            case .konsole:
                let tree = try TestProcess.capture(["xwininfo", "-display", ":\(display.number)", "-root", "-tree"])
                let line = tree.stdout.split(separator: "\n").first { $0.contains("(\"konsole\" \"konsole\")") }
                guard let id = line?.split(separator: " ").first(where: { $0.hasPrefix("0x") }) else { return nil }
                return ["-id", String(id)]
            }
        }

        /// The shell command: one line read from `gate` (the test writes it once the window is
        /// viewable), the preview (its output to `output` when given, written whole by a
        /// rename), then the cursor hidden and the window held open.
        static func command(_ arguments: [String], gate: String, output: String? = nil) throws -> String {
            let quoted = ([try PreviewTests.executable()] + arguments).map { "'\($0)'" }.joined(separator: " ")
            let run = output.map { "\(quoted) > '\($0).partial' && mv '\($0).partial' '\($0)'" } ?? quoted
            return "read go < '\(gate)'; \(run); printf '\\033[?25l'; exec sleep 600"
        }

        /// A screenshot of the window, matched against `sticker`'s frames; nil while the
        /// window does not exist yet.
        func match(_ sticker: String, background: String) throws -> Match? {
            let shot = display.folder.appendingPathComponent("\(title).png").path
            guard let windowArguments = try windowArguments() else { return nil }
            let captured = try TestProcess.run([
                "sh", "-c",
                "xwd -display :\(display.number) \(windowArguments.map { "'\($0)'" }.joined(separator: " ")) -silent"
                    + " | convert xwd:- '\(shot)'"
            ])
            guard captured == 0 else { return nil }
            let script = CLITests.repoRoot.appendingPathComponent("Tests/Scripts/screen_match.py").path
            let output = try TestProcess.capture(
                ["python3", script, shot, sticker, background] + (window == .konsole ? ["--below-bar"] : []))
            guard output.status == 0,
                let facts = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any],
                facts["found"] as? Bool == true
            else { return nil }
            return Match(
                frame: facts["frame"] as? Int ?? -1, mean: facts["mean"] as? Double ?? 255,
                p99: facts["p99"] as? Double ?? 255)
        }

        /// Screenshots until one matches by `good`; the last match.
        func waitForMatch(_ sticker: String, background: String, good: (Match) -> Bool) throws -> Match? {
            var last: Match?
            while ContinuousClock.now < deadline {
                last = try match(sticker, background: background)
                if let last, good(last) { return last }
                try relaunchIfExited()
            }
            return last
        }

        /// Screenshots until `count` different frames have matched by `good`.
        func waitForFrames(_ sticker: String, background: String, count: Int, good: (Match) -> Bool) throws
            -> Set<Int>
        {
            var frames: Set<Int> = []
            while ContinuousClock.now < deadline && frames.count < count {
                if let found = try match(sticker, background: background), good(found) {
                    frames.insert(found.frame)
                }
                try relaunchIfExited()
            }
            return frames
        }

        func stop() {
            kill(-pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
    }
}
