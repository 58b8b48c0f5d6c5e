/// A small deterministic generator (SplitMix64) for test data: the same values on every run.
public struct SplitMix: RandomNumberGenerator {
    /// The generator's state.
    public var state: UInt64

    /// Starts from `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A byte from 0 to `limit`.
    public mutating func byte(upTo limit: UInt8) -> UInt8 { UInt8(next() % (UInt64(limit) + 1)) }

    /// `count` random bytes.
    public mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) } }
}
