/// The bounds the validator checks. Apple documents the file size, pixel sizes and the
/// description length; the animation lints borrow from LINE, Signal and stickies.store.
public struct ValidationThresholds: Sendable, Hashable {
    /// Files this size or larger are over 500 KB read as 500 x 1000 bytes (warning).
    public var fileBytesWarning = 500_000
    /// Files this size or larger are over 500 KB however it is read (500 x 1024; error).
    public var fileBytesError = 512_000
    /// The smallest side allowed, in pixels (100 pt @3x).
    public var minSide = 300
    /// The largest side allowed, in pixels (206 pt @3x).
    public var maxSide = 618
    /// The longest description, in UTF-16 code units (what `NSString.length` counts).
    public var maxDescriptionLength = 150
    /// Frame delays under this many milliseconds are warned about, and timed as the 100 ms
    /// Messages shows them for (Apple's image players: `FrameTimingPolicy.apple`).
    public var shortDelayMilliseconds = 11.0
    /// The longest loop, in seconds, before a warning.
    public var maxLoopSeconds = 4.0
    /// The most frames before a warning.
    public var maxFrames = 60
    /// The highest average frame rate before a warning.
    public var maxFramesPerSecond = 30.0
    /// The most bytes all frames may take decoded before a warning.
    public var maxDecodedBytes = 128 << 20

    /// The average frame rate that counts as `rate` frames per second: a little above it, so
    /// that `rate` stored in whole milliseconds passes (30 fps as 33 ms frames is 30.3 fps), and
    /// half a percent above it in any case (a container's rounded last frame puts a 30 fps clip
    /// at 30.01-30.1 fps). Both `validate`'s frame-rate rule and `fit --max-fps` use it.
    public static func tolerated(framesPerSecond rate: Double) -> Double {
        let milliseconds = (1000 / rate).rounded(.down)
        return max(rate * 1.005, milliseconds >= 1 ? 1000 / milliseconds : rate)
    }

    /// The defaults described on each property.
    public static let `default` = ValidationThresholds()

    /// Creates the default thresholds; change properties to taste.
    public init() {}
}
