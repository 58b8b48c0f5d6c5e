/// Frames kept as patches against other frames (``FramePatch``), or as those frames
/// themselves: a random-access collection whose elements are made as they are read.
struct PatchedFrames: RandomAccessCollection, Sendable {
    /// The frames the patches are made against.
    let bases: [[UInt8]]
    /// Each frame: the base it is made from and its patch (`nil`: the base itself).
    private var entries: [(base: Int, patch: FramePatch?)]

    /// No frames yet, to be added against `bases` (``append(_:against:)``).
    init(bases: [[UInt8]]) {
        self.bases = bases
        entries = []
    }

    /// `frames` themselves, each held once (no patch, nothing copied).
    init(_ frames: [[UInt8]]) {
        bases = frames
        entries = frames.indices.map { ($0, nil) }
    }

    /// Adds `frame`, kept as its patch against base `base`.
    mutating func append(_ frame: [UInt8], against base: Int) {
        entries.append((base, FramePatch(frame, against: bases[base])))
    }

    var startIndex: Int { 0 }
    var endIndex: Int { entries.count }

    /// Frame `index`, made from its base and patch.
    subscript(index: Int) -> [UInt8] {
        let entry = entries[index]
        return entry.patch?.applied(to: bases[entry.base]) ?? bases[entry.base]
    }

    /// The bytes the patches hold, the bases not counted.
    var patchBytes: Int { entries.reduce(0) { $0 + ($1.patch?.storedBytes ?? 0) } }
}
