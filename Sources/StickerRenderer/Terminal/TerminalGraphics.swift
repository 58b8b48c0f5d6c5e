import Dispatch
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// How the preview draws: one of the terminal graphics protocols, or half blocks.
public enum GraphicsMode: String, Sendable, Hashable, CaseIterable {
    /// What the terminal says it supports (blocks when it is not a terminal).
    case auto
    /// kitty's graphics protocol: frames sent once, played by the terminal (where it plays no
    /// animations, each picture stored once and shown in turn by our clock).
    case kitty
    /// iTerm2's inline images: one GIF (or PNG) the terminal plays.
    case iterm2
    /// DEC sixels, a palette a frame, timed by our clock.
    case sixel
    /// Upper half blocks in truecolor or 256 colours.
    case blocks
}

/// What a terminal says about itself in one round trip: the kitty graphics query and whether
/// it takes animation frames, the window's size in pixels (`CSI 14 t`) and the primary device
/// attributes (`CSI c`), whose reply, which nearly every terminal sends, ends the wait.
public struct TerminalCapabilities: Sendable, Hashable {
    /// The kitty query was answered `OK`.
    public var kitty = false
    /// A frame added to a kitty image was answered `OK` (kitty, WezTerm): the terminal plays
    /// animations itself. Terminals with only kitty's stills (Konsole, Ghostty) answer an
    /// error or nothing.
    public var kittyAnimation = false
    /// The device attributes list 4 (sixel graphics).
    public var sixel = false
    /// The window's size in pixels, when the terminal told it.
    public var windowPixels: (width: Int, height: Int)?
    /// Whether any reply came (a terminal that answers nothing costs the timeout).
    public var answered = false

    /// Creates capabilities (none by default).
    public init(
        kitty: Bool = false, kittyAnimation: Bool = false, sixel: Bool = false,
        windowPixels: (width: Int, height: Int)? = nil
    ) {
        self.kitty = kitty
        self.kittyAnimation = kittyAnimation
        self.sixel = sixel
        self.windowPixels = windowPixels
    }

    /// Equal when every field is.
    public static func == (a: Self, b: Self) -> Bool {
        a.kitty == b.kitty && a.kittyAnimation == b.kittyAnimation && a.sixel == b.sixel && a.answered == b.answered
            && a.windowPixels?.width == b.windowPixels?.width && a.windowPixels?.height == b.windowPixels?.height
    }

    /// Hashes every field.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kitty)
        hasher.combine(kittyAnimation)
        hasher.combine(sixel)
        hasher.combine(answered)
        hasher.combine(windowPixels?.width)
        hasher.combine(windowPixels?.height)
    }

    /// The question, every part wrapped for tmux's passthrough when `tmux` (tmux answers the
    /// device attributes itself, and forwards the rest only with `allow-passthrough on`).
    public static func question(tmux: Bool) -> String {
        let kitty = KittyGraphics.query + KittyGraphics.animationProbe
        return (tmux ? TerminalGraphics.tmuxPassthrough(kitty) : kitty) + "\u{1B}[14t" + "\u{1B}[c"
    }

    /// What `reply` says, wherever each answer sits among the others.
    public static func parse(_ reply: [UInt8]) -> TerminalCapabilities {
        var capabilities = TerminalCapabilities()
        capabilities.answered = !reply.isEmpty
        let text = String(decoding: reply, as: UTF8.self)
        if let kitty = text.firstRange(of: "\u{1B}_Gi=31;") {
            capabilities.kitty = text[kitty.upperBound...].hasPrefix("OK")
        }
        // ESC _G i=32[,r=2] ; OK: the probe's frame was taken.
        if let frame = text.firstRange(of: "\u{1B}_Gi=\(KittyGraphics.animationProbeID)") {
            let keys = text[frame.upperBound...].prefix { $0 != "\u{1B}" }
            capabilities.kittyAnimation =
                capabilities.kitty && (keys.first == "," || keys.first == ";")
                && keys.drop { $0 != ";" }.hasPrefix(";OK")
        }
        // CSI 4 ; height ; width t
        if let start = text.firstRange(of: "\u{1B}[4;") {
            let fields = text[start.upperBound...].prefix { $0 != "t" }.split(separator: ";")
            if fields.count == 2, let height = Int(fields[0]), let width = Int(fields[1]), height > 0, width > 0 {
                capabilities.windowPixels = (width, height)
            }
        }
        // CSI ? 6x ; attr ; ... c
        if let start = text.firstRange(of: "\u{1B}[?") {
            let body = text[start.upperBound...].prefix { $0 != "c" }
            capabilities.sixel = body.split(separator: ";").dropFirst().contains("4")
        }
        return capabilities
    }

    /// The protocol `auto` draws with: kitty when the terminal answers its query, iTerm2's
    /// when `TERM_PROGRAM` names a terminal that speaks it (iTerm.app, WezTerm), sixel when the
    /// device attributes list it, else half blocks.
    public func choice(environment: [String: String]) -> GraphicsMode {
        if kitty { return .kitty }
        if let program = environment["TERM_PROGRAM"], TerminalGraphics.iTerm2Programs.contains(program) {
            return .iterm2
        }
        if sixel { return .sixel }
        return .blocks
    }
}

/// The terminal's side of graphics: asking it, its cell size, and tmux's passthrough.
public enum TerminalGraphics {
    /// `TERM_PROGRAM` values of terminals that show iTerm2's inline images.
    public static let iTerm2Programs: Set<String> = ["iTerm.app", "WezTerm"]

    /// The cell size assumed where the terminal tells no pixel size: 10 x 20 pixels.
    public static let assumedCell = (width: 10, height: 20)

    /// Asks the controlling terminal (see ``TerminalCapabilities``); nil when there is none.
    /// The wait ends at the device attributes' reply, which nearly every terminal sends; the
    /// timeout only bounds a terminal that sends none (or a machine too busy to answer sooner).
    public static func ask(environment: [String: String], timeout: Double = 2) -> TerminalCapabilities? {
        let tmux = environment["TMUX"].map { !$0.isEmpty } ?? false
        guard let reply = TerminalQuery.roundTrip(TerminalCapabilities.question(tmux: tmux), timeout: timeout) else {
            return nil
        }
        return TerminalCapabilities.parse(reply)
    }

    /// A cell's size in pixels: from `TIOCGWINSZ` when it reports pixels, else from the
    /// window's pixels the terminal told over its cells, else ``assumedCell``.
    public static func cellSize(
        columns: Int, rows: Int, windowPixels: (width: Int, height: Int)?
    ) -> (width: Int, height: Int) {
        var window = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_xpixel > 0, window.ws_ypixel > 0,
            window.ws_col > 0, window.ws_row > 0
        {
            return (
                max(1, Int(window.ws_xpixel) / Int(window.ws_col)), max(1, Int(window.ws_ypixel) / Int(window.ws_row))
            )
        }
        if let windowPixels, columns > 0, rows > 0 {
            return (max(1, windowPixels.width / columns), max(1, windowPixels.height / rows))
        }
        return assumedCell
    }

    /// The controlling terminal's window (`/dev/tty`'s `TIOCGWINSZ`): cells, and pixels when it
    /// reports them (0 otherwise); nil without one.
    public static func controllingWindow() -> (columns: Int, rows: Int, width: Int, height: Int)? {
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var window = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else { return nil }
        return (Int(window.ws_col), Int(window.ws_row), Int(window.ws_xpixel), Int(window.ws_ypixel))
    }

    /// `sequence` wrapped for tmux's passthrough (`ESC P tmux; ... ESC \`, every ESC inside
    /// doubled), which tmux forwards to the terminal outside when `allow-passthrough` is on.
    public static func tmuxPassthrough(_ sequence: String) -> String {
        "\u{1B}Ptmux;" + sequence.replacing("\u{1B}", with: "\u{1B}\u{1B}") + "\u{1B}\\"
    }
}

/// One question to the controlling terminal and its reply, read until the device attributes
/// reply (`ESC [ ? ... c`) that ends every question here, or the timeout.
public enum TerminalQuery {
    /// Writes `question` to `/dev/tty` with echo and line editing off and reads the reply
    /// (at most 4 KiB); nil when there is no terminal. The settings are restored before
    /// returning, and by an interrupt or a SIGTERM that ends the process meanwhile.
    public static func roundTrip(_ question: String, timeout: Double) -> [UInt8]? {
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var saved = termios()
        guard tcgetattr(fd, &saved) == 0 else { return nil }
        return TerminalSettingsGuard.restoring(saved, to: fd) {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ICANON | ECHO)
            guard tcsetattr(fd, TCSANOW, &quiet) == 0 else { return nil }
            defer { _ = tcsetattr(fd, TCSANOW, &saved) }
            return exchange(question, on: fd, timeout: timeout)
        }
    }

    /// Writes `question` to `fd` and reads until the device-attributes reply or `timeout`.
    private static func exchange(_ question: String, on fd: Int32, timeout: Double) -> [UInt8]? {
        let bytes = Array(question.utf8)
        guard bytes.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == bytes.count else { return nil }
        var reply: [UInt8] = []
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
        var buffer = [UInt8](repeating: 0, count: 256)
        while !holdsAttributesReply(reply), reply.count < 4096 {
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { break }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(max(1, (deadline - now) / 1_000_000)))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { break }
            let count = read(fd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            reply += buffer[0..<count]
        }
        return reply
    }

    /// Whether `bytes` hold a device-attributes reply (`ESC [ ? ... c`), the last answer.
    public static func holdsAttributesReply(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 3 else { return false }
        for start in 0...(bytes.count - 3)
        where bytes[start] == 0x1B && bytes[start + 1] == 0x5B && bytes[start + 2] == 0x3F {
            if bytes[(start + 3)...].contains(UInt8(ascii: "c")) { return true }
        }
        return false
    }
}
