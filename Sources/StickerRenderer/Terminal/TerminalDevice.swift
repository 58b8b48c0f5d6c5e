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

    /// Writes all of `text`, retrying interrupted writes; a closed reader ends it quietly.
    public func write(_ text: String) {
        // A failed write means the reader went away; playback notices nothing worse.
        FileDescriptorOutput.write(Array(text.utf8), to: STDOUT_FILENO)
    }
}
