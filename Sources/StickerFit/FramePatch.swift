/// A frame kept as the pixels where it differs from another frame of the same size, its base.
///
/// The frames the fit scales with the softer filter differ from the Lanczos-scaled ones only
/// where the picture has edges or texture: flat art's fills come out the same under both. Kept
/// as runs of the pixels that differ, such a frame takes a few percent of its bytes; a frame
/// that differs almost everywhere (a photograph) is kept whole.
struct FramePatch: Sendable {
    private enum Storage {
        /// The frame itself.
        case whole([UInt8])
        /// Runs of pixels that differ from the base: where each starts and how long it is, in
        /// pixels, and their pixels one run after the other.
        case runs(starts: [Int32], lengths: [Int32], pixels: [UInt32])
    }

    private let storage: Storage

    /// Runs of differing pixels closer than this are kept as one run, the equal pixels between
    /// included: a run's start and length take as much as two pixels.
    static let joinedGap = 2

    /// `frame`, kept against `base` (as many bytes; RGBA8 pixels).
    init(_ frame: [UInt8], against base: [UInt8]) {
        precondition(frame.count == base.count, "a frame patch's base is a frame of the same size")
        var starts: [Int32] = []
        var lengths: [Int32] = []
        var pixels: [UInt32] = []
        let isSmall = frame.withUnsafeBytes { rawFrame in
            base.withUnsafeBytes { rawBase in
                let new = rawFrame.bindMemory(to: UInt32.self)
                let old = rawBase.bindMemory(to: UInt32.self)
                // Kept as runs while they hold at most half the frame's pixels.
                let most = new.count / 2
                var i = 0
                while i < new.count {
                    guard new[i] != old[i] else {
                        i += 1
                        continue
                    }
                    // A run from i to the first `joinedGap` equal pixels in a row after it.
                    var end = i + 1
                    var equal = 0
                    while end < new.count && equal < Self.joinedGap {
                        equal = new[end] == old[end] ? equal + 1 : 0
                        end += 1
                    }
                    end -= equal
                    starts.append(Int32(i))
                    lengths.append(Int32(end - i))
                    pixels.append(contentsOf: new[i..<end])
                    if pixels.count + 2 * starts.count > most { return false }
                    i = end
                }
                return true
            }
        }
        storage = isSmall ? .runs(starts: starts, lengths: lengths, pixels: pixels) : .whole(frame)
    }

    /// The frame: `base` (the one it was made against) with the pixels that differ written over.
    func applied(to base: [UInt8]) -> [UInt8] {
        switch storage {
        case .whole(let frame):
            return frame
        case .runs(let starts, let lengths, let pixels):
            guard !starts.isEmpty else { return base }
            var frame = base
            frame.withUnsafeMutableBytes { raw in
                pixels.withUnsafeBufferPointer { runs in
                    let out = raw.bindMemory(to: UInt32.self).baseAddress!
                    var from = 0
                    for (start, length) in zip(starts, lengths) {
                        // Safe: every run lies within the frame it was made from, of this size.
                        (out + Int(start)).update(from: runs.baseAddress! + from, count: Int(length))
                        from += Int(length)
                    }
                }
            }
            return frame
        }
    }

    /// The bytes the patch holds, its base not counted.
    var storedBytes: Int {
        switch storage {
        case .whole(let frame): frame.count
        case .runs(let starts, let lengths, let pixels): 4 * (starts.count + lengths.count + pixels.count)
        }
    }
}
