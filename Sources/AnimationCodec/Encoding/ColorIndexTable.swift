/// Up to 256 packed RGBA colours and an index for each, in an open-addressed table of 1,024
/// slots: counting an animation's colours and mapping its pixels to palette indexes look up
/// every changed pixel, where hashing through `Hasher` cost several times the rest of the work.
struct ColorIndexTable: Sendable {
    /// The most colours held.
    static let capacity = 256
    private static let slotCount = 1024

    /// Each slot's colour, meaningful only where `entries` is not 0.
    private var keys = [UInt32](repeating: 0, count: slotCount)
    /// Each slot's index + 1; 0 marks an empty slot.
    private var entries = [UInt16](repeating: 0, count: slotCount)
    /// The colours in the order they were inserted (their indexes).
    private(set) var colors: [UInt32] = []

    /// A table holding `colors`, each at its position in the array (at most 256, no repeats).
    init(_ colors: [UInt32] = []) {
        for color in colors { precondition(insert(color), "more than \(Self.capacity) colours") }
        precondition(self.colors.count == colors.count, "a colour repeats")
    }

    /// The first slot to probe for `color`: the high bits of a multiplicative hash.
    @inline(__always)
    private static func home(_ color: UInt32) -> Int { Int((color &* 0x9E37_79B1) >> 22) }

    /// The index of `color`, or `nil` when it is not held.
    @inline(__always)
    func index(of color: UInt32) -> UInt8? {
        var slot = Self.home(color)
        while true {
            let entry = entries[slot]
            if entry == 0 { return nil }
            if keys[slot] == color { return UInt8(truncatingIfNeeded: entry &- 1) }
            slot = (slot &+ 1) & (Self.slotCount &- 1)
        }
    }

    /// Adds `color` (if new) as the next index; `false` when it is new and the table is full.
    @inline(__always)
    mutating func insert(_ color: UInt32) -> Bool {
        var slot = Self.home(color)
        while true {
            let entry = entries[slot]
            if entry == 0 { break }
            if keys[slot] == color { return true }
            slot = (slot &+ 1) & (Self.slotCount &- 1)
        }
        guard colors.count < Self.capacity else { return false }
        keys[slot] = color
        colors.append(color)
        entries[slot] = UInt16(colors.count)
        return true
    }
}
