import TestSupport
import Testing

@testable import StickerFit

/// Frames kept as patches against other frames give back exactly the frames they were made
/// from, and a frame that differs in a few places is kept in a few percent of its bytes: the
/// frames are built here pixel by pixel, with the differences placed by hand.
@Suite("fit: frames kept as patches", .timeLimit(.minutes(1)))
struct FramePatchTests {
    static let pixels = 64 * 64

    /// A frame of random pixels.
    static func randomFrame(seed: UInt64) -> [UInt8] {
        var generator = SplitMix(seed: seed)
        return generator.bytes(4 * pixels)
    }

    /// `base` with pixel `index` of each of `changed` set to a colour no pixel of `base` has
    /// there (its bytes each plus one).
    static func frame(_ base: [UInt8], changing changed: [Int]) -> [UInt8] {
        var frame = base
        for index in changed {
            for byte in 4 * index..<4 * index + 4 { frame[byte] &+= 1 }
        }
        return frame
    }

    @Test("a frame that differs at both ends and in runs with gaps of every width up to 4 comes back exactly")
    func runsAndGaps() {
        let base = Self.randomFrame(seed: 1)
        // The first and last pixels; runs of 1, 2 and 3 pixels with 1, 2, 3 and 4 equal pixels
        // between them, around the gap at which runs are joined.
        var changed = [0, Self.pixels - 1]
        var at = 100
        for gap in 1...4 {
            for length in 1...3 {
                changed += (at..<at + length)
                at += length + gap
            }
        }
        let frame = Self.frame(base, changing: changed)
        let patch = FramePatch(frame, against: base)
        #expect(patch.applied(to: base) == frame)
        // The pixels changed, at most 16 equal ones joined between them, two words a run.
        #expect(patch.storedBytes < 4 * (changed.count + 16 + 2 * changed.count))
    }

    @Test("a frame that differs in 1% of its pixels is kept in under a tenth of its bytes")
    func sparseIsSmall() {
        let base = Self.randomFrame(seed: 2)
        // A 6x7 block of pixels, as an edge that moved.
        let changed = (10..<16).flatMap { y in (20..<27).map { y * 64 + $0 } }
        let frame = Self.frame(base, changing: changed)
        let patch = FramePatch(frame, against: base)
        #expect(patch.applied(to: base) == frame)
        #expect(patch.storedBytes * 10 < frame.count)
    }

    @Test("a frame that differs everywhere is kept whole, and one that differs nowhere holds nothing")
    func wholeAndEqual() {
        let base = Self.randomFrame(seed: 3)
        let other = Self.randomFrame(seed: 4)
        let whole = FramePatch(other, against: base)
        #expect(whole.applied(to: base) == other)
        #expect(whole.storedBytes == other.count)
        let same = FramePatch(base, against: base)
        #expect(same.applied(to: base) == base)
        #expect(same.storedBytes == 0)
    }

    @Test("patched frames read back as the frames appended, each against its own base")
    func patchedFrames() {
        let bases = (0..<3).map { Self.randomFrame(seed: 10 + UInt64($0)) }
        let frames = [
            Self.frame(bases[2], changing: [5, 6, 7]),
            bases[0],
            Self.randomFrame(seed: 20),
            Self.frame(bases[1], changing: Array(0..<Self.pixels))
        ]
        var patched = PatchedFrames(bases: bases)
        for (frame, base) in zip(frames, [2, 0, 1, 1]) { patched.append(frame, against: base) }
        #expect(Array(patched) == frames)
        #expect(Array(PatchedFrames(bases)) == bases)
        #expect(PatchedFrames(bases).patchBytes == 0)
    }
}
