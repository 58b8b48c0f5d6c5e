import Dispatch
import FoundationEssentials
import StickerPack
#if canImport(Glibc)
import Glibc
#endif
import StickerRenderer

/// Removes half-written outputs when the process is interrupted (SIGINT, SIGTERM, SIGHUP), then
/// lets the signal end the process as it would have: Ctrl-C during `frames` or a long render
/// leaves no staging folder or temporary file behind, and earlier outputs stay untouched.
///
/// The handlers are installed on the first registration only, so commands that write nothing
/// (and `preview`, which handles its own signals) keep the default behaviour.
enum InterruptCleanup {
    private static let lock = Lock()
    nonisolated(unsafe) private static var pending: Set<String> = []
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    /// Removes `path` (file or folder) if the process is interrupted before ``unregister(_:)``.
    static func register(_ path: String) {
        lock.withLock {
            pending.insert(path)
            if sources.isEmpty { installHandlers() }
        }
    }

    /// Forgets `path`: it was committed or already removed.
    static func unregister(_ path: String) {
        _ = lock.withLock { pending.remove(path) }
    }

    /// ``AtomicFile/write(_:to:)`` with its temporary file removed on an interrupt.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws(AtomicFile.WriteError) {
        let temporary = AtomicFile.temporaryPath(for: path)
        register(temporary)
        defer { unregister(temporary) }
        try AtomicFile.write(bytes, to: path)
    }

    private static func installHandlers() {
        let queue = DispatchQueue(label: "stickers.interrupt-cleanup")
        for number in [SIGINT, SIGTERM, SIGHUP] {
            signal(number, SIG_IGN)  // delivered to the dispatch source instead
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { cleanUpAndDie(signal: number) }
            source.resume()
            sources.append(source)
        }
    }

    private static func cleanUpAndDie(signal number: Int32) -> Never {
        // The lock stays taken until the process ends: a main thread that fails once its
        // staging folder is gone blocks in unregister(_:) instead of exiting before the
        // removal is done.
        lock.lock()
        for path in pending {
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
