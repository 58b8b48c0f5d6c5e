import ArgumentParser
import FoundationEssentials
import StickerPack

#if canImport(Glibc)
    import Glibc
#endif

/// How a command shows its progress on stderr (`--progress`).
public enum ProgressStyle: String, EnumArgument, CaseIterable, Sendable {
    /// A bar redrawn in place, only when stderr is a terminal and the work has taken a second;
    /// on a terminal that cannot redraw a line (`TERM` unset or `dumb`: an editor's shell, a
    /// screen reader's console), lines as `lines` writes them, at most one a second and the last.
    case auto
    /// One line per step (`rendering 12/600`), from the first step, whatever stderr is: for
    /// CI logs and for scripts that wait for the work to start.
    case lines
    /// Nothing.
    case none
}

/// The `--progress` option shared by the commands that can take a while.
public struct ProgressOptions: ParsableArguments {
    /// How progress is shown.
    @Option(
        help:
            "Progress on stderr: auto (a bar on a terminal; lines on a dumb one), lines (one line a step) or none.")
    public var progress: ProgressStyle = .auto

    /// How long the work runs before `auto` draws its bar (tests draw it at once).
    @Option(name: .customLong("progress-after"), help: .hidden)
    var progressAfterNumber = DecimalNumber(1)

    /// `--progress-after`: seconds before a bar is shown.
    public var progressAfter: Double {
        get { progressAfterNumber.value }
        set { progressAfterNumber = DecimalNumber(newValue) }
    }

    /// Creates the options (argument parsing fills them in).
    public init() {}

    /// Refuses a `--progress-after` that is negative or not a number of seconds.
    public func validate() throws {
        guard progressAfter >= 0, progressAfter.isFinite else {
            throw ValidationError("--progress-after must be a number of seconds, 0 or more.")
        }
    }

    /// The bar or lines these options ask for, labelled `label`.
    func bar(_ label: String) -> ProgressBar { ProgressBar(label, style: progress, after: progressAfter) }
}

/// Progress on stderr: a one-line bar (drawn only when stderr is a terminal and only once the
/// work has taken a second, then erased), or one plain line a step. Unchecked Sendable: callers
/// on several threads call it one at a time (``PackFitter`` serialises its progress calls).
final class ProgressBar: @unchecked Sendable {
    private let label: String
    private let start = Date()
    private let style: ProgressStyle
    /// Seconds of work before `auto` draws the bar.
    private let after: Double
    private var drawn = false
    /// Whether `auto` chose lines (a terminal that cannot redraw one), and when the last was
    /// written: such lines wait as the bar does, then come at most one a second, and the last.
    private var pacedLines = false
    private var lastLine: Date?

    init(_ label: String, style: ProgressStyle = .auto, after: Double = 1) {
        self.label = label
        self.after = after
        if style == .auto {
            let term = ProcessInfo.processInfo.environment["TERM"] ?? ""
            self.style = isatty(STDERR_FILENO) != 1 ? .none : term.isEmpty || term == "dumb" ? .lines : .auto
            pacedLines = self.style == .lines
        } else {
            self.style = style
        }
    }

    /// Shows `done` of `total`; a line also shows `note`, what the step did (the bar has no room).
    func update(_ done: Int, of total: Int, note: String? = nil) {
        switch style {
        case .none:
            return
        case .lines:
            if pacedLines {
                let now = Date()
                guard now.timeIntervalSince(start) >= after,
                    done >= total || lastLine.map({ now.timeIntervalSince($0) >= 1 }) ?? true
                else { return }
                lastLine = now
            }
            let noted = note.map { ": " + TerminalText.oneLine($0) } ?? ""
            FileDescriptorOutput.standardError("\(label) \(done)/\(total)\(noted)\n")
        case .auto:
            guard total > 0, Date().timeIntervalSince(start) >= after else { return }
            let width = 30
            let filled = min(width, done * width / total)
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            FileDescriptorOutput.standardError("\r\(label) [\(bar)] \(done)/\(total)\u{1B}[K")
            drawn = true
        }
    }

    /// Erases the bar.
    func finish() {
        guard drawn else { return }
        FileDescriptorOutput.standardError("\r\u{1B}[K")
        drawn = false
    }
}
