import AnimationCodec
import StickerPack

/// The page over several packs: a table of their verdicts, sortable by any column.
enum ReviewIndexPage {
    /// The index's HTML for `summaries` (each with its page's relative link).
    static func html(_ summaries: [PackSummary]) -> String {
        let failing = summaries.filter { !$0.passed }.count
        var out = ReviewPage.head(
            title: "Review of \(counted(summaries.count, "pack"))", css: ReviewStyle.css(photo: nil))
        out += "<main>\n<h1>Review of \(counted(summaries.count, "pack"))</h1>\n"
        out +=
            failing == 0
            ? "<p class=\"verdict pass\" id=\"verdict\">Every pack passes Apple's rules.</p>\n"
            : "<p class=\"verdict fail\" id=\"verdict\">\(failing) of \(summaries.count) packs fail Apple's rules.</p>\n"
        out += "<h2 id=\"packs\">Packs</h2>\n<p class=\"muted\">Select a column's name to sort by it.</p>\n"
        out += "<table class=\"sortable stack\">\n<thead><tr>"
        let columns: [(String, Bool)] = [
            ("Pack", false), ("Stickers", true), ("Errors", true), ("Warnings", true), ("Bytes", true),
            ("Worst sticker", false)
        ]
        for (name, numeric) in columns {
            out +=
                "<th scope=\"col\" aria-sort=\"none\"\(numeric ? " class=\"num\"" : "")><button type=\"button\">\(name)</button></th>"
        }
        out += "</tr></thead>\n<tbody>\n"
        for summary in summaries {
            // Where two packs share a name, the path (as given, when relative) tells them apart.
            let path = PackReview.shown(summary.path, name: summary.pack)
            let shownPath = path == summary.pack ? "" : " <span class=\"muted\">\(HTMLText.escape(path))</span>"
            out +=
                "<tr><td data-label=\"Pack\" data-sort=\"\(HTMLText.escape(summary.pack))\"><a href=\"\(HTMLText.escape(summary.page))\">\(HTMLText.escape(summary.pack))</a>\(shownPath)</td>"
                + "<td data-label=\"Stickers\" class=\"num\" data-sort=\"\(summary.stickers)\">\(summary.stickers)</td>"
                + "<td data-label=\"Errors\" class=\"num\(summary.errors > 0 ? " error" : "")\" data-sort=\"\(summary.errors)\">\(summary.errors)</td>"
                + "<td data-label=\"Warnings\" class=\"num\" data-sort=\"\(summary.warnings)\">\(summary.warnings)</td>"
                + "<td data-label=\"Bytes\" class=\"num\" data-sort=\"\(summary.totalBytes)\">\(String(groupingThousands: summary.totalBytes))</td>"
                + "<td data-label=\"Worst sticker\" data-sort=\"\(HTMLText.escape(summary.worstSticker ?? ""))\">\(HTMLText.escape(summary.worstSticker ?? "none"))</td></tr>\n"
        }
        out += "</tbody>\n</table>\n</main>\n<script>\n\(ReviewStyle.sortScript)</script>\n</body>\n</html>\n"
        return out
    }
}
