import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs helper programs (Python scripts, reference decoders, ffmpeg) from the tests, each in a
/// process group of its own and under a time limit, so a helper that hangs fails the test that
/// ran it instead of stalling the whole run.
public enum TestProcess {
    /// How long a helper may run when the caller names no limit: far beyond what any of them
    /// takes on a loaded 2-core machine (the slowest, a corpus generator, takes seconds).
    public static let defaultTimeout: Duration = .seconds(300)

    /// A helper that outlived its time limit; it and its process group were killed.
    public struct TimedOut: Error, CustomStringConvertible {
        /// The command line, as given to ``TestProcess/run(_:standardOutput:timeout:)``.
        public var arguments: [String]
        /// The limit it outlived.
        public var timeout: Duration

        public var description: String {
            "`\(arguments.joined(separator: " "))` was still running after \(timeout) and was killed, with its process group"
        }
    }

    /// A helper that could not be started at all.
    public struct CannotStart: Error, CustomStringConvertible {
        /// The command line.
        public var arguments: [String]
        /// posix_spawn's error number.
        public var code: Int32

        public var description: String {
            "`\(arguments.joined(separator: " "))` could not be started: \(String(cString: strerror(code)))"
        }
    }

    /// Runs `arguments` through `/usr/bin/env` (so the first is looked up on `PATH`), with
    /// standard input empty, standard output into the file `standardOutput` (created or
    /// emptied; discarded when nil) and standard error discarded, and returns its exit status
    /// (the signal's number when a signal ended it, as `Process.terminationStatus` does).
    ///
    /// The child starts with the signal mask cleared and default dispositions (a test runs on a
    /// worker thread that blocks signals), as the leader of a new process group, with none of the
    /// test process's other descriptors. When it is still running after `timeout`, its whole
    /// process group is killed (SIGKILL) and ``TimedOut`` is thrown, naming the command.
    @discardableResult
    public static func run(_ arguments: [String], standardOutput: URL? = nil, timeout: Duration = defaultTimeout) throws -> Int32 {
        let pid = try spawn(["/usr/bin/env"] + arguments, standardOutput: standardOutput?.path ?? "/dev/null")
        let watchdog = Watchdog(processGroup: pid, timeout: timeout)
        // Wait for the exit without reaping: while the child is a zombie its pid, and so its
        // process group's id, cannot be reused, so the watchdog can never signal a stranger.
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
        let killed = watchdog.stop()
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        if killed { throw TimedOut(arguments: arguments, timeout: timeout) }
        let terminatingSignal = status & 0x7F
        return terminatingSignal == 0 ? (status >> 8) & 0xFF : terminatingSignal
    }

    /// Starts `argv` (an absolute path first) as described in ``run(_:standardOutput:timeout:)``;
    /// its pid.
    private static func spawn(_ argv: [String], standardOutput: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, standardOutput, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // Descriptors the tests hold open without close-on-exec (a browser's pipes) stay out
        // of the child, so it cannot keep their other ends from seeing the end of the stream.
        addCloseFrom(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t(), all = sigset_t()
        sigemptyset(&empty)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)  // a new group, led by the child
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        let pointers: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        var pid: pid_t = 0
        let code = pointers.withUnsafeBufferPointer { posix_spawn(&pid, argv[0], &actions, &attributes, $0.baseAddress!, environ) }
        guard code == 0 else { throw CannotStart(arguments: Array(argv.dropFirst()), code: code) }
        return pid
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), looked up at run
    /// time: Swift's Glibc module is built without `_GNU_SOURCE`, which declares it.
    private static func addCloseFrom(_ actions: inout posix_spawn_file_actions_t, _ lowest: Int32) {
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return }
        _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, lowest)
    }

    /// A thread that kills a process group when a time limit passes before ``stop()``.
    private final class Watchdog: @unchecked Sendable {
        /// Signalled by ``stop()``: the child has exited.
        private let exited = DispatchSemaphore(value: 0)
        /// Signalled by the thread once it has decided, so ``stop()`` can read ``killed``.
        private let decided = DispatchSemaphore(value: 0)
        /// Whether the limit passed and the group was killed; written by the thread before
        /// `decided` is signalled, read only after.
        private var killed = false

        init(processGroup: pid_t, timeout: Duration) {
            let (seconds, attoseconds) = timeout.components
            let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
            let thread = Thread { [self] in
                if exited.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .timedOut {
                    killpg(processGroup, SIGKILL)
                    killed = true
                }
                decided.signal()
            }
            thread.name = "TestProcess watchdog \(processGroup)"
            thread.start()
        }

        /// Tells the thread the child has exited and waits for its verdict: whether it killed
        /// the group (the limit passed first).
        func stop() -> Bool {
            exited.signal()
            decided.wait()
            return killed
        }
    }
}
