#if canImport(Glibc)
    import Glibc
#endif

/// A monotonic clock in nanoseconds: the decoder's phase timings and the bench's harness read it.
package enum Stopwatch {
    /// Nanoseconds since an arbitrary start, never going back.
    @inline(__always)
    package static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// Seconds since `start`, a reading of ``now()``.
    @inline(__always)
    package static func seconds(since start: UInt64) -> Double { Double(now() &- start) / 1e9 }
}
