import CTerminal

#if canImport(Glibc)
    import Glibc
#endif

/// Puts a terminal's settings back if SIGINT, SIGTERM, SIGHUP or SIGQUIT ends the process while
/// they are changed (echo and line editing off for a query's reply): the shell would otherwise
/// be left without echo. The signal then ends the process as it would have (status 130, 143,
/// 129, 131). The handler is C (`CTerminal`), so it touches only C statics and makes only
/// async-signal-safe calls.
enum TerminalSettingsGuard {
    /// Runs `body` with `saved` to be written back to `fd` should one of the signals arrive
    /// meanwhile; signals the process ignores or handles itself are left as they are.
    static func restoring<Result>(_ saved: termios, to fd: Int32, _ body: () -> Result) -> Result {
        var settings = saved
        sticker_terminal_guard_begin(fd, &settings)
        defer { sticker_terminal_guard_end() }
        return body()
    }
}
