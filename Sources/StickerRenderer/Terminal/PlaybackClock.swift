import Dispatch

/// The time a ``TerminalPlayer`` plays by: how long it has played, and a way to wait for the
/// next frame that a signal can cut short.
public protocol PlaybackClock: AnyObject {
    /// Seconds since playback started.
    func elapsed() -> Double
    /// Waits until `deadline` seconds since the start (`.infinity`: until woken), or less when
    /// `wake` fires first.
    func wait(until deadline: Double, wake: DispatchSemaphore)
}

/// The wall clock (monotonic): what `stickers preview` plays by.
public final class WallClock: PlaybackClock {
    private let start = DispatchTime.now().uptimeNanoseconds

    /// A clock that starts now.
    public init() {}

    /// Seconds since the clock was made.
    public func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }

    /// Sleeps on `wake` until `deadline`.
    public func wait(until deadline: Double, wake: DispatchSemaphore) {
        if deadline.isInfinite {
            wake.wait()
        } else {
            let seconds = min(max(0, deadline - elapsed()), 86_400)
            _ = wake.wait(timeout: .now() + .nanoseconds(Int(seconds * 1e9)))
        }
    }
}

/// A clock that jumps to the end of each wait at once: playback as fast as the machine runs,
/// with exactly the timing a wall clock would give. For tests and for measuring output.
public final class SteppedClock: PlaybackClock {
    /// The time playback has reached.
    public private(set) var now = 0.0

    /// A clock at 0.
    public init() {}

    /// The time reached so far.
    public func elapsed() -> Double { now }

    /// Jumps to `deadline` without sleeping (always forward, by at least the smallest step,
    /// so a deadline that rounds to now cannot stall playback); a wait that only a signal can
    /// end (`.infinity`) still waits for it.
    public func wait(until deadline: Double, wake: DispatchSemaphore) {
        if deadline.isFinite { now = max(deadline, now.nextUp) } else { wake.wait() }
    }
}
