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

    /// A child that could not be waited for (not ours, or already reaped elsewhere).
    public struct CannotWait: Error, CustomStringConvertible {
        /// The command line.
        public var arguments: [String]
        /// waitpid's error number.
        public var code: Int32

        public var description: String {
            "`\(arguments.joined(separator: " "))` could not be waited for: \(String(cString: strerror(code)))"
        }
    }

    /// Runs `arguments` through `/usr/bin/env` (so the first is looked up on `PATH`), with
    /// standard input empty, standard output into the file `standardOutput` (created or
    /// emptied; discarded when nil) and standard error discarded, and returns its exit status
    /// (the signal's number when a signal ended it, as `Process.terminationStatus` does).
    ///
    /// The child starts as ``spawn(_:standardOutput:standardError:environment:directory:newSession:)``
    /// starts it. When it is still running after `timeout`, its whole process group is killed
    /// (SIGKILL) and ``TimedOut`` is thrown, naming the command.
    @discardableResult
    public static func run(_ arguments: [String], standardOutput: URL? = nil, timeout: Duration = defaultTimeout) throws
        -> Int32
    {
        let pid = try spawn(["/usr/bin/env"] + arguments, standardOutput: standardOutput?.path ?? "/dev/null")
        return try wait(for: pid, arguments: arguments, timeout: timeout)
    }

    /// What a finished program printed, and how it ended.
    public struct Output: Sendable {
        /// The exit status (the signal's number when a signal ended it).
        public var status: Int32
        /// Its standard output, as UTF-8.
        public var stdout: String
        /// Its standard error, as UTF-8.
        public var stderr: String
    }

    /// Runs `arguments` like ``run(_:standardOutput:timeout:)`` and returns what it printed on
    /// standard output and standard error. Both go to files, not pipes, so a child that fills
    /// one while the test reads the other cannot stall. `environment` replaces the test
    /// process's environment when given; `directory` is the child's working directory.
    public static func capture(
        _ arguments: [String], environment: [String: String]? = nil, directory: URL? = nil,
        timeout: Duration = defaultTimeout
    ) throws -> Output {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("test-process-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (out, err) = (folder.appendingPathComponent("stdout"), folder.appendingPathComponent("stderr"))
        let pid = try spawn(
            ["/usr/bin/env"] + arguments, standardOutput: out.path, standardError: .file(err.path),
            environment: environment.map { $0.map { "\($0.key)=\($0.value)" }.sorted() }, directory: directory?.path)
        let status = try wait(for: pid, arguments: arguments, timeout: timeout)
        func text(_ url: URL) -> String {
            String(decoding: FileManager.default.contents(atPath: url.path) ?? Data(), as: UTF8.self)
        }
        return Output(status: status, stdout: text(out), stderr: text(err))
    }

    /// Waits for `pid` to exit, killing its process group when `timeout` passes first (then
    /// throws ``TimedOut``); its exit status, or the signal's number when a signal ended it.
    public static func wait(for pid: pid_t, arguments: [String], timeout: Duration = defaultTimeout) throws -> Int32 {
        let watchdog = Watchdog(processGroup: pid, timeout: timeout)
        // Wait for the exit without reaping: while the child is a zombie its pid, and so its
        // process group's id, cannot be reused, so the watchdog can never signal a stranger.
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
        let killed = watchdog.stop()
        var status: Int32 = 0
        var reaped: pid_t
        repeat { reaped = waitpid(pid, &status, 0) } while reaped < 0 && errno == EINTR
        if killed { throw TimedOut(arguments: arguments, timeout: timeout) }
        guard reaped == pid else { throw CannotWait(arguments: arguments, code: errno) }
        let terminatingSignal = status & 0x7F
        return terminatingSignal == 0 ? (status >> 8) & 0xFF : terminatingSignal
    }

    /// Where a spawned child's standard error goes.
    public enum StandardError {
        /// A file, created or emptied (opened as it is for a new session's terminal).
        case file(String)
        /// A descriptor of the test process, duplicated onto the child's.
        case descriptor(Int32)
    }

    /// Starts `argv` (an absolute path first) and returns its pid; the caller waits for it
    /// (``wait(for:arguments:timeout:)``, or `waitpid`).
    ///
    /// Standard input is empty; standard output goes to the file `standardOutput`, standard
    /// error as `standardError` says. The child starts with the signal mask cleared and default
    /// dispositions (a test runs on a worker thread that blocks signals, and a child inheriting
    /// that mask would never see SIGINT, SIGTERM or SIGCHLD), with none of the test process's
    /// other descriptors, in `directory` when given, with `environment` ("NAME=value" strings)
    /// or the test process's own. It leads a new process group, so a time limit can kill it
    /// and everything it started; with `newSession` it leads a new session, so the first
    /// terminal it opens (its `standardOutput`, when that is a pty) becomes its controlling
    /// terminal, `/dev/tty`.
    public static func spawn(
        _ argv: [String], standardOutput: String = "/dev/null", standardError: StandardError = .file("/dev/null"),
        environment: [String]? = nil, directory: String? = nil, newSession: Bool = false
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        // A new session's terminal is opened as it is (Linux makes it the controlling terminal
        // only so: opened with O_CREAT it is not); output files are created or truncated.
        let outputFlags = newSession ? O_RDWR : O_WRONLY | O_CREAT | O_TRUNC
        posix_spawn_file_actions_addopen(&actions, 1, standardOutput, outputFlags, 0o600)
        switch standardError {
        case .file(let path): posix_spawn_file_actions_addopen(&actions, 2, path, outputFlags, 0o600)
        case .descriptor(let descriptor): posix_spawn_file_actions_adddup2(&actions, descriptor, 2)
        }
        // Descriptors the tests hold open without close-on-exec (a browser's pipes) stay out
        // of the child, so it cannot keep their other ends from seeing the end of the stream.
        try addGlibcAction("posix_spawn_file_actions_addclosefrom_np", &actions, argument: 3)
        if let directory {
            try directory.withCString { path in
                try addGlibcAction("posix_spawn_file_actions_addchdir_np", &actions, path: path)
            }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        var all = sigset_t()
        sigemptyset(&empty)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        let setSID: Int32 = 0x80  // POSIX_SPAWN_SETSID (glibc), not imported by Swift
        if !newSession { posix_spawnattr_setpgroup(&attributes, 0) }  // a new group, led by the child
        let group = newSession ? setSID : Int32(POSIX_SPAWN_SETPGROUP)
        posix_spawnattr_setflags(&attributes, Int16(Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF) | group))
        var pid: pid_t = 0
        let code = withCStrings(argv) { args in
            guard let environment else { return posix_spawn(&pid, argv[0], &actions, &attributes, args, environ) }
            return withCStrings(environment) { posix_spawn(&pid, argv[0], &actions, &attributes, args, $0) }
        }
        guard code == 0 else { throw CannotStart(arguments: Array(argv.dropFirst()), code: code) }
        return pid
    }

    /// `strings` as a null-terminated array of C strings, alive for the duration of `body`.
    private static func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R)
        -> R
    {
        let pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    /// Adds one of glibc's own file actions (`posix_spawn_file_actions_addclosefrom_np`, 2.34,
    /// taking a descriptor; `posix_spawn_file_actions_addchdir_np`, 2.29, taking a path), looked
    /// up at run time: Swift's Glibc module is built without `_GNU_SOURCE`, which declares them.
    private static func addGlibcAction(
        _ name: String, _ actions: inout posix_spawn_file_actions_t,
        argument: Int32 = 0, path: UnsafePointer<CChar>? = nil
    ) throws {
        guard let symbol = dlsym(nil, name) else { throw CannotStart(arguments: [name], code: ENOSYS) }
        if let path {
            typealias WithPath =
                @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
            _ = unsafeBitCast(symbol, to: WithPath.self)(&actions, path)
        } else {
            typealias WithDescriptor = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
            _ = unsafeBitCast(symbol, to: WithDescriptor.self)(&actions, argument)
        }
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
