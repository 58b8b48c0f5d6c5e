import Testing

@testable import StickerReview

/// Names and findings reach the page only as text.
@Suite struct HTMLTextTests {
    @Test func markupCharactersBecomeEntities() {
        #expect(
            HTMLText.escape("<img src=x onerror=\"a\"> & 'b'")
                == "&lt;img src=x onerror=&quot;a&quot;&gt; &amp; &#39;b&#39;")
        #expect(HTMLText.escape("a\u{1}b\u{7F}c\u{9B}") == #"a\u{1}b\u{7F}c\u{9B}"#)
        // A right-to-left override would show "evil\u{202E}gnp.exe" as "evilexe.png".
        #expect(HTMLText.escape("evil\u{202E}gnp.exe\u{2066}") == #"evil\u{202E}gnp.exe\u{2066}"#)
        #expect(HTMLText.escape("tab\tline\n") == #"tab\u{9}line"# + "\n")
        #expect(HTMLText.escape("café 🎉") == "café 🎉")
    }

    @Test func backtickedSpansAreCode() {
        #expect(
            HTMLText.escapeWithCode("`stickers fit` scales it to <408> px with `--size`")
                == "<code>stickers fit</code> scales it to &lt;408&gt; px with <code>--size</code>")
        #expect(HTMLText.escapeWithCode("one ` alone") == "one ` alone")
        #expect(HTMLText.escapeWithCode("none") == "none")
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
