import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Unbuffered writes to a file descriptor, whole (retrying short writes, interrupts and a
/// non-blocking descriptor's "try again").
public enum FileDescriptorOutput {
    /// Writes `bytes` to standard output, remembering the first write that fails
    /// (``standardOutputError``), so a command can say its output was lost (a full disk).
    public static func standardOutput(_ bytes: [UInt8]) {
        guard !write(bytes, to: STDOUT_FILENO) else { return }
        let code = errno
        firstFailure.withLock { failure in
            if failure == nil { failure = code }
        }
    }

    /// Why the first write to standard output through ``standardOutput(_:)`` that failed did
    /// (`errno`); `nil` when none did.
    public static var standardOutputError: Int32? { firstFailure.withLock { $0 } }

    private static let firstFailure = Mutex<Int32?>(nil)

    /// Writes `text` to standard error.
    public static func standardError(_ text: String) { write(Array(text.utf8), to: STDERR_FILENO) }

    /// Writes `bytes` to `descriptor`; returns whether all of them were written (when not,
    /// `errno` says why).
    @discardableResult
    public static func write(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                if n <= 0 {
                    // A write of nothing leaves errno as it was: say why.
                    if n == 0 { errno = EIO }
                    return false
                }
                offset += n
            }
            return true
        }
    }
}
