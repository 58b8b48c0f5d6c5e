import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// How close an output shows to a reference: at each reference frame's start time, the frame
/// the output shows then (its loop repeating) against the reference frame, over every channel
/// of the premultiplied pixels.
struct ShownFidelity: Sendable, Encodable, Equatable {
    /// The largest difference of one channel, 0-255 (0: exact).
    var maxError: Int
    /// PSNR in dB over all channels and instants; `nil` when exact (infinite).
    var psnr: Double?

    /// `shown` against `reference`; `nil` when their canvases differ in size.
    static func measure(_ shown: ShownFrames, against reference: ShownFrames) -> ShownFidelity? {
        guard shown.width == reference.width, shown.height == reference.height else { return nil }
        var worst = 0
        var squares = 0.0, samples = 0.0
        var start = 0.0
        for (index, frame) in reference.frames.enumerated() {
            let other = shown.frames[shown.frameIndex(at: start)]
            start += reference.durations[index]
            frame.withUnsafeBufferPointer { a in
                other.withUnsafeBufferPointer { b in
                    var sum = 0
                    for i in 0..<a.count {
                        let d = Int(a[i]) - Int(b[i])
                        sum += d * d
                        if Int(d.magnitude) > worst { worst = Int(d.magnitude) }
                    }
                    squares += Double(sum)
                }
            }
            samples += Double(frame.count)
        }
        guard squares > 0 else { return ShownFidelity(maxError: 0, psnr: nil) }
        return ShownFidelity(maxError: worst, psnr: 10 * log10(255 * 255 / (squares / samples)))
    }
}
