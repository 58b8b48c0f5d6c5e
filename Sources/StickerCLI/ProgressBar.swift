import Foundation

/// A one-line progress bar on stderr, drawn only when stderr is a terminal and only once
/// the work has taken a second, then erased.
final class ProgressBar {
    private let label: String
    private let start = Date()
    private let enabled = isatty(STDERR_FILENO) == 1
    private var drawn = false

    init(_ label: String) { self.label = label }

    /// Shows `done` of `total`.
    func update(_ done: Int, of total: Int) {
        guard enabled, total > 0, Date().timeIntervalSince(start) >= 1 else { return }
        let width = 30
        let filled = min(width, done * width / total)
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        FileHandle.standardError.write(Data("\r\(label) [\(bar)] \(done)/\(total)\u{1B}[K".utf8))
        drawn = true
    }

    /// Erases the bar.
    func finish() {
        guard drawn else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        drawn = false
    }
}
