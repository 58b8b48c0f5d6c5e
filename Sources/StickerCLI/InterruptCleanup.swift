import Dispatch
import FoundationEssentials
import StickerPack
import StickerRenderer
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Removes half-written outputs when the process is interrupted (SIGINT, SIGTERM, SIGHUP), then
/// lets the signal end the process as it would have: Ctrl-C during `frames` or a long render
/// leaves no staging folder or temporary file behind, and earlier outputs stay untouched.
/// Once an output is staged, or a command that writes one has started
/// (``outliveClosedPipes()``), a closed pipe (SIGPIPE) no longer ends the process.
///
/// The handlers are installed on the first registration only, so commands that write nothing
/// (and `preview`, which handles its own signals) keep the default behaviour.
enum InterruptCleanup {
    /// The paths to remove, and the signal sources once installed.
    private struct State {
        var pending: Set<String> = []
        var route: SignalRoute?
    }

    private static let state = Mutex(State())

    /// Removes `path` (file or folder) if the process is interrupted before ``unregister(_:)``.
    static func register(_ path: String) {
        state.withLock { state in
            state.pending.insert(path)
            if state.route == nil { state.route = installHandlers() }
        }
    }

    /// Forgets `path`: it was committed or already removed.
    static func unregister(_ path: String) {
        _ = state.withLock { $0.pending.remove(path) }
    }

    /// Runs `body` with interrupts held back until it returns: a commit that renames an earlier
    /// output aside and the new one into place is never cut between the two renames, so the
    /// destination always holds one of them whole (an interrupt then cleans up after the
    /// commit, and ends the process as it would have).
    static func deferringInterrupts<Result>(_ body: () throws -> Result) throws -> Result {
        try committing.withLock { _ in try body() }
    }

    /// Held by a commit in progress; an interrupt's clean-up takes it first.
    private static let committing = Mutex(())

    /// ``AtomicFile/write(_:to:)`` with its temporary file removed on an interrupt.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws(AtomicFile.WriteError) {
        let temporary = AtomicFile.temporaryPath(for: path)
        register(temporary)
        defer { unregister(temporary) }
        try AtomicFile.write(bytes, to: path)
    }

    /// Keeps the process going when a reader of stderr or stdout goes away (`2>&1 | head -1`):
    /// called by a command that writes an output file before its work starts, so it is not
    /// ended with its output half made. The lines no longer read fail to write (EPIPE, which
    /// the writers let go) and the output is finished and committed. A handler that does
    /// nothing, not SIG_IGN, so a program this one runs gets the default back.
    static func outliveClosedPipes() {
        signal(SIGPIPE) { _ in }
    }

    /// Routes the signals to the clean-up for the rest of the process; one that arrives while
    /// the route is set up waits for it (`SignalRoute`) rather than being lost.
    private static func installHandlers() -> SignalRoute {
        // An output is staged: a closed pipe does not end the process with it half written.
        outliveClosedPipes()
        return SignalRoute(
            [SIGINT, SIGTERM, SIGHUP].map { number in (number, { cleanUpAndDie(signal: number) }) },
            queue: DispatchQueue(label: "stickers.interrupt-cleanup"))
    }

    private static func cleanUpAndDie(signal number: Int32) -> Never {
        // The lock stays taken until the process ends: a main thread that fails once its
        // staging folder is gone blocks in unregister(_:) instead of exiting before the
        // removal is done.
        committing.withLock { _ -> Never in cleanUp(andRaise: number) }
    }

    private static func cleanUp(andRaise number: Int32) -> Never {
        state.withLock { state -> Never in
            for path in state.pending {
                // The main thread may still be writing into a staging folder: renaming it first
                // means no new file can appear in it while it is removed (a plain recursive remove
                // lost that race and left the folder behind).
                let doomed = path + ".removing"
                let target = rename(path, doomed) == 0 ? doomed : path
                try? FileManager.default.removeItem(atPath: target)
            }
            // End the way the default action would, so the parent sees "killed by SIGINT": this
            // (dispatch) thread blocks signals, so unblock it here and raise it at this thread,
            // where it is delivered before raise returns.
            signal(number, SIG_DFL)
            var only = sigset_t()
            sigemptyset(&only)
            sigaddset(&only, number)
            pthread_sigmask(SIG_UNBLOCK, &only, nil)
            raise(number)
            _exit(128 + number)  // not reached
        }
    }
}
