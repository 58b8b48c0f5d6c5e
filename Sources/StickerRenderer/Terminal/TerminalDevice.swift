import FoundationEssentials
import StickerPack

#if canImport(Glibc)
    import Glibc
#endif

/// Where the player draws: a size in cells and a byte sink.
public protocol TerminalDevice: AnyObject {
    /// The window size in cells, if known.
    func size() -> (columns: Int, rows: Int)?
    /// Writes text as it is.
    func write(_ text: String)
}

/// The process's standard output as a terminal (the window size from `TIOCGWINSZ`).
public final class StandardOutputTerminal: TerminalDevice {
    /// Creates the device.
    public init() {}

    /// Whether standard output is a terminal.
    public static var isTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// The window size from `TIOCGWINSZ`, if standard output is a terminal.
    public func size() -> (columns: Int, rows: Int)? {
        var window = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else {
            return nil
        }
        return (Int(window.ws_col), Int(window.ws_row))
    }

    /// Writes all of `text`, retrying interrupted writes; a failure is remembered
    /// (``FileDescriptorOutput/standardOutputError``: a full disk fails the command, a closed
    /// reader does not).
    public func write(_ text: String) {
        FileDescriptorOutput.standardOutput(Array(text.utf8))
    }
}
