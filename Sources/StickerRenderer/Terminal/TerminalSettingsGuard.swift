#if canImport(Glibc)
    import Glibc
#endif

/// Puts a terminal's settings back if SIGINT, SIGTERM or SIGHUP ends the process while they are
/// changed (echo and line editing off for a query's reply): the shell would otherwise be left
/// without echo. The signal then ends the process as it would have (status 130, 143, 129).
enum TerminalSettingsGuard {
    /// The terminal whose settings the handler restores (-1: none), and those settings; set
    /// before the handlers are installed and read only by them.
    nonisolated(unsafe) private static var guardedDescriptor: Int32 = -1
    nonisolated(unsafe) private static var savedSettings = termios()

    /// The signals that end the process by default and are restored for.
    private static let signals = [SIGINT, SIGTERM, SIGHUP]

    /// Runs `body` with `saved` to be written back to `fd` should one of the signals arrive
    /// meanwhile; signals the process ignores or handles itself are left as they are.
    static func restoring<Result>(_ saved: termios, to fd: Int32, _ body: () -> Result) -> Result {
        savedSettings = saved
        guardedDescriptor = fd
        var previous: [(Int32, sigaction)] = []
        for number in signals {
            var old = sigaction()
            guard sigaction(number, nil, &old) == 0, old.__sigaction_handler.sa_handler == nil else { continue }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = restoreAndEnd
            sigemptyset(&action.sa_mask)
            if sigaction(number, &action, nil) == 0 { previous.append((number, old)) }
        }
        defer {
            for (number, old) in previous {
                var old = old
                sigaction(number, &old, nil)
            }
            guardedDescriptor = -1
        }
        return body()
    }

    /// The handler: only async-signal-safe calls (`tcsetattr`, `signal`, `raise`).
    private static let restoreAndEnd: @convention(c) (Int32) -> Void = { number in
        if TerminalSettingsGuard.guardedDescriptor >= 0 {
            _ = tcsetattr(TerminalSettingsGuard.guardedDescriptor, TCSANOW, &TerminalSettingsGuard.savedSettings)
        }
        signal(number, SIG_DFL)
        raise(number)
    }
}
