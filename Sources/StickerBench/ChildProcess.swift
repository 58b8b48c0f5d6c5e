import Dispatch
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a program to completion, counting (or keeping) what it writes to standard output and
/// reading its CPU time from `wait4`: how the bench runs the players and tools it compares with.
enum ChildProcess {
    struct Result {
        /// Bytes written to standard output.
        var bytes: Int
        /// What it wrote to standard output, when kept.
        var output: [UInt8] = []
        /// User + system CPU seconds.
        var cpuSeconds: Double
        /// Wall seconds.
        var wallSeconds: Double
        /// Exit status (or 128 + signal).
        var status: Int32
        /// Whether the output held the marker asked for (true when none was asked for).
        var sawMarker = true
    }

    /// Looks for one byte string in output read in pieces, a match split across them included.
    struct MarkerScan {
        private let marker: [UInt8]
        private var tail: [UInt8] = []
        /// Whether the marker has been seen.
        private(set) var seen: Bool

        /// A scan for `marker` (nil: nothing to look for, counted as seen).
        init(_ marker: [UInt8]?) {
            self.marker = marker ?? []
            seen = marker == nil
        }

        /// Reads the next piece of output.
        mutating func scan(_ piece: ArraySlice<UInt8>) {
            guard !seen else { return }
            let window = tail + piece
            seen =
                window.count >= marker.count
                && (0...(window.count - marker.count)).contains {
                    window[$0..<($0 + marker.count)].elementsEqual(marker)
                }
            tail = Array(window.suffix(max(0, marker.count - 1)))
        }
    }

    /// Runs `argv`; with `keepOutput` its standard output is kept in ``Result/output``, else
    /// only counted. Standard error goes to the file at `errorPath` (replaced), else /dev/null.
    static func run(
        _ argv: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
        keepOutput: Bool = false, errorPath: String? = nil, marker: [UInt8]? = nil
    ) throws -> Result {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw POSIXError(.EMFILE) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let env = environment.map { "\($0.key)=\($0.value)" }
        var pid: pid_t = 0
        let start = DispatchTime.now().uptimeNanoseconds
        let status = withCStrings(argv) { args in
            withCStrings(env) { posix_spawnp(&pid, argv[0], &actions, nil, args, $0) }
        }
        close(fds[1])
        guard status == 0 else {
            close(fds[0])
            throw POSIXError(POSIXErrorCode(rawValue: status) ?? .ENOENT)
        }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var total = 0
        var kept: [UInt8] = []
        var scan = MarkerScan(marker)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
            if n > 0 {
                total += n
                if keepOutput { kept += buffer[0..<n] }
                scan.scan(buffer[0..<n])
                continue
            }
            if n < 0 && errno == EINTR { continue }
            break
        }
        close(fds[0])
        var result = reap(pid, started: start, bytes: total, output: kept)
        result.sawMarker = scan.seen
        return result
    }

    /// Runs `argv` on a new pseudo-terminal of `columns` x `rows` cells of `cell` pixels (its
    /// window size reports both, as a graphics terminal's does), as the leader of a new session
    /// whose controlling terminal it is; counts what it writes to the terminal.
    static func runInTerminal(
        _ argv: [String], columns: Int, rows: Int, cell: (width: Int, height: Int), marker: [UInt8]? = nil
    ) throws -> Result {
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard master >= 0 else { throw POSIXError(.ENODEV) }
        defer { close(master) }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        // TIOCSPTLCK and TIOCGPTN: posix_openpt's helpers need _XOPEN_SOURCE in Swift.
        guard ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0 else {
            throw POSIXError(.ENODEV)
        }
        var size = winsize(
            ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: UInt16(columns * cell.width),
            ws_ypixel: UInt16(rows * cell.height))
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        let slave = "/dev/pts/\(number)"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in [0, 1, 2] { posix_spawn_file_actions_addopen(&actions, descriptor, slave, O_RDWR, 0) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        let setSID: Int16 = 0x80  // POSIX_SPAWN_SETSID (glibc), not imported by Swift
        posix_spawnattr_setflags(&attributes, setSID)
        let env = ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" }
        var pid: pid_t = 0
        let start = DispatchTime.now().uptimeNanoseconds
        let status = withCStrings(argv) { args in
            withCStrings(env) { posix_spawnp(&pid, argv[0], &actions, &attributes, args, $0) }
        }
        guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: status) ?? .ENOENT) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var total = 0
        var scan = MarkerScan(marker)
        // Until the child and everything it started close the terminal (the read fails, EIO).
        while true {
            let n = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
            if n > 0 {
                total += n
                scan.scan(buffer[0..<n])
                continue
            }
            if n < 0 && errno == EINTR { continue }
            break
        }
        var result = reap(pid, started: start, bytes: total)
        result.sawMarker = scan.seen
        return result
    }

    /// Waits for `pid` and gives its CPU time (`wait4`), the wall time since `start` and its
    /// exit status (or 128 + signal).
    private static func reap(_ pid: pid_t, started start: UInt64, bytes: Int, output: [UInt8] = []) -> Result {
        var exit: Int32 = 0
        var usage = rusage()
        while wait4(pid, &exit, 0, &usage) < 0 && errno == EINTR {}
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let cpu =
            Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        let code = (exit & 0x7F) == 0 ? (exit >> 8) & 0xFF : 128 + (exit & 0x7F)
        return Result(bytes: bytes, output: output, cpuSeconds: cpu, wallSeconds: wall, status: code)
    }

    private static func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R)
        -> R
    {
        let pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
