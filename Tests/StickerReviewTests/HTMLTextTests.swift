import Testing

@testable import StickerReview

/// Names and findings reach the page only as text.
@Suite struct HTMLTextTests {
    @Test func markupCharactersBecomeEntities() {
        #expect(
            HTMLText.escape("<img src=x onerror=\"a\"> & 'b'")
                == "&lt;img src=x onerror=&quot;a&quot;&gt; &amp; &#39;b&#39;")
        #expect(HTMLText.escape("a\u{1}b\u{7F}") == "a\u{FFFD}b\u{FFFD}")
        #expect(HTMLText.escape("café 🎉") == "café 🎉")
    }

    @Test func identifiersAreASCIIAndUnique() {
        var used = Set<String>()
        #expect(HTMLText.identifier("01 Bouncing Blob!", prefix: "sticker-", used: &used) == "sticker-01-bouncing-blob")
        #expect(
            HTMLText.identifier("01-bouncing-blob", prefix: "sticker-", used: &used) == "sticker-01-bouncing-blob-2")
        #expect(HTMLText.identifier("ÉÉÉ", prefix: "sticker-", used: &used) == "sticker-x")
        #expect(HTMLText.identifier("\"><script>", prefix: "sticker-", used: &used) == "sticker-script")
        // Cut at 60 characters, and no hyphen left at the cut.
        let long = String(repeating: "a", count: 59) + " b"
        #expect(
            HTMLText.identifier(long, prefix: "sticker-", used: &used) == "sticker-" + String(repeating: "a", count: 59)
        )
    }
}
