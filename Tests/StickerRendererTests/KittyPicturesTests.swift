import StickerPixels
import StickerRenderer
import Testing

/// The bookkeeping of kitty pictures placed in turn, step by step against what each step must
/// send, worked out by hand: stored once, placed, the one before removed, a spare number past
/// the budget, everything deleted at the end.
@Suite("terminal: kitty pictures placed in turn", .timeLimit(.minutes(1)))
struct KittyPicturesTests {
    /// A 2 x 2 picture of one opaque grey: 16 bytes.
    static func picture(_ grey: UInt8) -> RGBAImage {
        RGBAImage(width: 2, height: 2, pixels: Array(repeating: [grey, grey, grey, 255], count: 4).flatMap { $0 })
    }

    /// The image numbers `escapes` stores (`a=t`), places (`a=p`), removes from the screen
    /// (`a=d,d=i`) and deletes (`a=d,d=I`), in order, as "t5", "p5", "r5", "d5".
    static func steps(_ escapes: String) -> [String] {
        escapes.matches(of: /\x1B_Ga=([tpd]),(?:f=100,)?(?:d=([iI]),)?i=(\d+)/).map { match in
            let action = match.1 == "d" ? (match.2 == "I" ? "d" : "r") : String(match.1)
            return action + String(match.3)
        }
    }

    @Test(
        "each frame stored once and placed, the one before removed; past the budget a spare number sent whole each time; all deleted"
    )
    func placedInTurn() {
        // Room for two 16-byte pictures; numbers from 100 (the spare) up.
        var pictures = KittyPictures(firstID: 100, capacity: 32)
        #expect(Self.steps(pictures.show(Self.picture(10), frame: 0)) == ["t101", "p101"])
        #expect(Self.steps(pictures.show(Self.picture(20), frame: 1)) == ["t102", "p102", "r101"])
        // Over the budget: the spare, stored and placed; the frame before removed.
        #expect(Self.steps(pictures.show(Self.picture(30), frame: 2)) == ["t100", "p100", "r102"])
        // The spare again: storing it anew took its placement away, so nothing to remove.
        #expect(Self.steps(pictures.show(Self.picture(40), frame: 3)) == ["t100", "p100"])
        // A frame stored before: placed, not sent again.
        #expect(Self.steps(pictures.show(Self.picture(10), frame: 0)) == ["p101", "r100"])
        #expect(pictures.show(Self.picture(10), frame: 0).isEmpty, "already shown")
        #expect(Self.steps(pictures.deleteAll()) == ["d101", "d102", "d100"])
        #expect(pictures.deleteAll().isEmpty)
    }

    @Test("a browser's pictures are known by their pixels: the same picture again is placed, not sent")
    func browserPictures() {
        var pictures = KittyPictures(firstID: 7)
        #expect(Self.steps(pictures.show(Self.picture(1), frame: nil)) == ["t8", "p8"])
        #expect(Self.steps(pictures.show(Self.picture(2), frame: nil)) == ["t9", "p9", "r8"])
        #expect(Self.steps(pictures.show(Self.picture(1), frame: nil)) == ["p8", "r9"])
        // Past the bytes kept for comparison: sent whole under the spare.
        var small = KittyPictures(firstID: 7, comparisonCapacity: 16)
        #expect(Self.steps(small.show(Self.picture(1), frame: nil)) == ["t8", "p8"])
        #expect(Self.steps(small.show(Self.picture(2), frame: nil)) == ["t7", "p7", "r8"])
        #expect(Self.steps(small.show(Self.picture(1), frame: nil)) == ["p8", "r7"])
    }
}
