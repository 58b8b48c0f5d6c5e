#if canImport(Glibc)
    import Glibc
#endif

/// Unbuffered writes to a file descriptor, whole (retrying short writes, interrupts and a
/// non-blocking descriptor's "try again").
public enum FileDescriptorOutput {
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
                if n <= 0 { return false }
                offset += n
            }
            return true
        }
    }
}
