import FoundationEssentials
import StickerPack

#if canImport(Glibc)
    import Glibc
#endif

/// The process's peak resident memory (VmHWM), resettable on Linux through
/// `/proc/self/clear_refs`, so each benchmarked file gets its own peak.
package enum PeakMemory {
    /// Resets the peak to the current resident size; returns whether the kernel allowed it.
    @discardableResult
    package static func reset() -> Bool {
        let fd = open("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return FileDescriptorOutput.write(Array("5".utf8), to: fd)
    }

    /// Peak resident bytes since the last reset, or `nil` where /proc is unavailable.
    package static func bytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let digits = line.split(separator: " ").compactMap { Int($0) }
            return digits.first.map { $0 * 1024 }
        }
        return nil
    }
}
