import ArgumentParser

/// The ranges numeric options take. Past their upper ends a value only overflows the
/// arithmetic it feeds or asks for more memory or time than any machine has, so it is a usage
/// error (exit 64) naming the range, like any value out of range.
enum OptionBounds {
    /// Worker threads: far more than any machine's cores (each thread holds its own frames).
    static let threads = 1...256
    /// Timed repeats of one measurement.
    static let repeats = 1...100_000
    /// `--max-frames`: a million frames is over four hours at 60 fps.
    static let maxFrames = 1...1_000_000
    /// `--max-pixels`: 4 Gi pixels, a 65,536 x 65,536 canvas of 16 GiB.
    static let maxPixels = 1...(4 << 30)
    /// `--max-decoded`: 1 TiB of frames in all (they stream; this bounds the work).
    static let maxDecoded = 1...(1 << 40)
    /// `--max-file`: 4 GiB, read whole.
    static let maxFile = 1...(4 << 30)
    /// `preview --loops`.
    static let loops = 1...1_000_000
    /// `preview --speed`: a thousand times slower to a thousand times faster.
    static let speed = 0.001...1000.0
    /// `--max-duration`, in seconds: at least one 10 ms frame, at most an hour.
    static let maxDuration = 0.01...3600.0

    /// Throws the usage error `"\(option) must be A to B\(unit)."` unless `value` is in `range`.
    static func check<Value: Comparable>(
        _ value: Value?, in range: ClosedRange<Value>, _ option: String, unit: String = ""
    ) throws {
        guard let value, !range.contains(value) else { return }
        throw ValidationError("\(option) must be \(shown(range.lowerBound)) to \(shown(range.upperBound))\(unit).")
    }

    /// A bound as it is typed: counts of a power of two with their K, M or G suffix.
    private static func shown<Value>(_ bound: Value) -> String {
        if let count = bound as? Int, count >= 1 << 20 { return ScaledCount(count).description }
        if let number = bound as? Double, number == number.rounded() { return String(Int(number)) }
        return "\(bound)"
    }
}
