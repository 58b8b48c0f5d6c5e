import AnimationCodec
import StickerFit
import StickerPack
import StickerRenderer

/// One pack's page: the verdict, the findings, the browser, the conversation, a card per sticker.
enum ReviewPage {
    /// The page's HTML; `source` gives each image file's URL (a relative path, or a data URL),
    /// `index` links back to the index page of several packs.
    static func html(_ review: PackReview, source: (String) -> String, index: String?) -> String {
        let review = review.pathsFromFolder()
        var ids = Set<String>()
        let cardIDs = review.cards.map { HTMLText.identifier($0.name, prefix: "sticker-", used: &ids) }
        let report = review.report
        let title = "Review of \(review.name)"
        var out = head(title: title, css: ReviewStyle.css(photo: source(PackReviewer.photoFile)))
        out += "<main>\n"
        if let index { out += "<p><a href=\"\(HTMLText.escape(index))\">All packs</a></p>\n" }
        out += "<h1>\(HTMLText.escape(title))</h1>\n"
        if review.hasAnimation { out += motionControl }
        let totalBytes = report.stickers.reduce(0) { $0 + $1.fileBytes }
        out +=
            "<p class=\"muted\">\(HTMLText.escape(review.shownPath)): \(counted(review.cards.count, "sticker")), grid size \(HTMLText.escape(report.gridSize))"
            + "\(report.gridSizeDeclared ? "" : " (not declared)"), \(String(groupingThousands: totalBytes)) bytes in all.</p>\n"
        out += verdict(report)
        out += findings(report, cards: review.cards, cardIDs: cardIDs)
        out += shots(
            "The browser", id: "browser", review.browser, source: source,
            note:
                "The sticker browser as Messages lays it out, every sticker playing on one clock (the first \(trim(PackReviewer.longestAnimation)) s at most).",
            alt: { "The sticker browser, \($0)" })
        out += shots(
            "The conversation", id: "conversation", review.transcript, source: source,
            note:
                "The pack's stickers sent in a conversation and one peeled onto a bubble, as Messages shows them (as stickers transcript draws it).",
            alt: { "A Messages conversation using the pack's stickers, \($0) appearance" })
        out += "<h2 id=\"stickers\">Stickers</h2>\n"
        if review.cards.isEmpty { out += "<p>The pack has no sticker.</p>\n" }
        // Stickers of one name are told apart by their place in the pack: the report has a
        // summary per sticker in the cards' order, and each finding names its sticker's place
        // (one about several stickers of a name goes on each of their cards).
        let summaries = report.stickers.count == review.cards.count ? report.stickers : nil
        for (index, card) in review.cards.enumerated() {
            out += self.card(
                card, id: cardIDs[index], summary: summaries?[index] ?? report.stickers.first { $0.name == card.name },
                findings: report.findings.filter { finding in
                    finding.stickerIndex.map { $0 == index } ?? (finding.sticker == card.name)
                }, budget: review.fitBudget, source: source)
        }
        out += "</main>\n"
        if review.hasAnimation { out += "<script>\n\(motionScript)</script>\n" }
        out += "</body>\n</html>\n"
        return out
    }

    /// The document's head, shared with the index page.
    static func head(title: String, css: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        \(ReviewWriter.generatorTag)
        <title>\(HTMLText.escape(title))</title>
        <style>
        \(css)
        </style>
        </head>
        <body>

        """
    }

    private static func verdict(_ report: ValidationReport) -> String {
        let counts = "\(counted(report.errorCount, "error")), \(counted(report.warningCount, "warning"))"
        return report.passed
            ? "<p class=\"verdict pass\" id=\"verdict\">Passes Apple's rules: \(counts).</p>\n"
            : "<p class=\"verdict fail\" id=\"verdict\">Fails Apple's rules: \(counts).</p>\n"
    }

    private static func findings(_ report: ValidationReport, cards: [StickerCard], cardIDs: [String]) -> String {
        var out = "<h2 id=\"findings\">Findings</h2>\n"
        guard !report.findings.isEmpty else { return out + "<p>None: every rule and lint passes.</p>\n" }
        out +=
            "<table class=\"stack\">\n<thead><tr><th scope=\"col\" style=\"width:18%\">Severity</th><th scope=\"col\" style=\"width:24%\">Sticker</th>"
            + "<th scope=\"col\" style=\"width:18%\">Rule</th><th scope=\"col\">Finding</th></tr></thead>\n<tbody>\n"
        // Errors first, then warnings, each in the validator's order.
        let ordered =
            report.findings.filter { $0.severity == .error } + report.findings.filter { $0.severity != .error }
        for finding in ordered {
            let sticker: String
            // The sticker's own card, else the first of its name.
            if let name = finding.sticker,
                let card = finding.stickerIndex.flatMap({ cardIDs.indices.contains($0) ? $0 : nil })
                    ?? cards.firstIndex(where: { $0.name == name })
            {
                sticker = "<a href=\"#\(cardIDs[card])\">\(HTMLText.escape(name))</a>"
            } else {
                sticker = HTMLText.escape(finding.sticker ?? "the pack")
            }
            // The message states its figures; `measured` and `limit` are for --json's readers.
            let message = HTMLText.escapeWithCode(finding.message)
            out +=
                "<tr><td data-label=\"Severity\" class=\"\(finding.severity.rawValue)\">\(finding.severity.rawValue)</td><td data-label=\"Sticker\">\(sticker)</td>"
                + "<td data-label=\"Rule\"><code>\(HTMLText.escape(finding.rule.rawValue))</code></td><td data-label=\"Finding\">\(message)</td></tr>\n"
        }
        return out + "</tbody>\n</table>\n"
    }

    private static func shots(
        _ heading: String, id: String, _ shots: [ReviewShot], source: (String) -> String,
        note: String, alt: (String) -> String
    ) -> String {
        guard !shots.isEmpty else { return "" }
        var out =
            "<h2 id=\"\(id)\">\(heading)</h2>\n<p class=\"muted\">\(HTMLText.escape(note))</p>\n<div class=\"shots\">\n"
        for shot in shots {
            out += "<figure>"
            if let image = shot.image {
                out += imageTag(image, source: source, alt: alt(shot.title))
            } else {
                out += "<p class=\"error\">Not drawn.</p>"
            }
            out +=
                "<figcaption>\(HTMLText.escape(shot.title))\(shot.problem.map { ": " + HTMLText.escape($0) } ?? "")</figcaption></figure>\n"
        }
        return out + "</div>\n"
    }

    private static func card(
        _ card: StickerCard, id: String, summary: StickerSummary?, findings: [ValidationFinding],
        budget: (maxBytes: Int, level: Int32), source: (String) -> String
    ) -> String {
        var out = "<article class=\"card\" id=\"\(id)\">\n<h3>\(HTMLText.escape(card.name))</h3>\n"
        out +=
            "<p>VoiceOver reads: \u{201C}\(HTMLText.escape(card.label))\u{201D}"
            + (card.labelSource.map { " (\(HTMLText.escapeWithCode($0)))" } ?? "") + "</p>\n"
        if let preview = card.preview {
            out += "<div class=\"backgrounds\">\n"
            for background in ReviewStyle.backgrounds {
                out +=
                    "<figure><div class=\"tile bg-\(background.id)\">"
                    + imageTag(preview, source: source, alt: "\(card.label), on \(background.label)", displayWidth: 120)
                    + "</div><figcaption>\(background.label)</figcaption></figure>\n"
            }
            out += "</div>\n"
        } else {
            out += "<p class=\"error\">Cannot be drawn: \(HTMLText.escape(card.problem ?? "unreadable"))</p>\n"
        }
        if let filmstrip = card.filmstrip {
            out +=
                "<h4>Frames</h4>\n"
                + imageTag(filmstrip, source: source, alt: "Every frame of \(card.label), each with its start time")
            if card.frames.count > 1 {
                out += "<details><summary>Frame times</summary><ol start=\"0\">"
                for frame in card.frames {
                    out += "<li>starts \(milliseconds(frame.start)) ms, shows \(milliseconds(frame.duration)) ms</li>"
                }
                out += "</ol></details>\n"
            }
        }
        out += "<h4>Facts</h4>\n" + facts(summary)
        out += "<h4>Findings</h4>\n"
        if findings.isEmpty {
            out += "<p>None.</p>\n"
        } else {
            out +=
                "<ul>"
                + findings.map {
                    "<li><span class=\"\($0.severity.rawValue)\">\($0.severity.rawValue)</span> <code>\(HTMLText.escape($0.rule.rawValue))</code>: \(HTMLText.escapeWithCode($0.message))</li>"
                }.joined() + "</ul>\n"
        }
        if let fit = card.fit { out += fitDryRun(fit, budget: budget) }
        return out + "</article>\n"
    }

    private static func facts(_ summary: StickerSummary?) -> String {
        guard let summary else { return "<p>Not read.</p>\n" }
        var rows: [(String, String)] = []
        if let first = summary.files.first {
            // From the pack's folder (``PackReview/pathsFromFolder()``); a sequence's first and count.
            rows.append(summary.files.count == 1 ? ("File", first) : ("Files", "\(summary.files.count), from \(first)"))
        }
        rows += [("Format", summary.format ?? "unreadable"), ("Bytes", String(groupingThousands: summary.fileBytes))]
        if let w = summary.width, let h = summary.height { rows.append(("Pixels", "\(w) x \(h)")) }
        if let frames = summary.frameCount {
            rows.append(("Frames", "\(frames)"))
            // As Messages shows it (a delay under 11 ms shows for 100 ms), as the frame times are.
            let stored = summary.loopMilliseconds ?? 0
            let loop = summary.shownLoopMilliseconds ?? stored
            if frames > 1, loop > 0 {
                rows.append(
                    (
                        "Loop",
                        "\(Int(loop.rounded())) ms, "
                            + (summary.plays.map { $0 == 0 ? "forever" : counted($0, "play") } ?? "forever")
                            + (loop == stored ? "" : " (\(Int(stored.rounded())) ms stored)")
                    ))
                rows.append(("Frame rate", "\(FrameRateFigure.text(Double(frames) * 1000 / loop)) fps"))
            }
        }
        if let decoded = summary.decodedBytes {
            rows.append(("Decoded", String(cFormat: "%.1f MiB", Double(decoded) / 1_048_576)))
        }
        return "<dl>" + rows.map { "<dt>\($0.0)</dt><dd>\(HTMLText.escape($0.1))</dd>" }.joined() + "</dl>\n"
    }

    private static func fitDryRun(_ fit: FitReport.Entry, budget: (maxBytes: Int, level: Int32)) -> String {
        var out = "<h4>What <code>stickers fit</code> would do</h4>\n"
        let quality =
            fit.psnr.map {
                String(cFormat: "%.1f dB PSNR", $0) + (fit.ssim.map { String(cFormat: ", SSIM %.4f", $0) } ?? "")
            } ?? "exact"
        let rate = fit.fpsAfter > 0 ? " at \(FrameRateFigure.text(fit.fpsAfter)) fps" : ""
        if fit.fitted {
            out +=
                "<p>Fits: \(String(groupingThousands: fit.bytesBefore)) \u{2192} \(String(groupingThousands: fit.bytesAfter)) bytes (at most \(String(groupingThousands: budget.maxBytes))), "
                + "\(fit.framesBefore) \u{2192} \(counted(fit.framesAfter, "frame"))\(rate), \(quality).</p>\n"
        } else {
            out +=
                "<p class=\"error\">Cannot fit: \(HTMLText.escape(fit.failure ?? "no candidate under the budget"))</p>\n"
        }
        // Every warning fit prints for it: the loss, and what the figures do not show (scaled
        // up, damaged input, parts not drawn).
        for warning in fit.unmeasuredWarnings {
            out += "<p class=\"warning\">Warning: \(HTMLText.escape(warning))</p>\n"
        }
        if let loss = fit.warning {
            out += "<p class=\"warning\">Loss: \(HTMLText.escape(loss))</p>\n"
        }
        if !fit.steps.isEmpty {
            out += "<ol>" + fit.steps.map { "<li>\(HTMLText.escape($0.description))</li>" }.joined() + "</ol>\n"
        }
        let note =
            budget.level == 12
            ? "A dry run at compression level 12, as <code>stickers fit</code> writes: "
                + (fit.fitted ? "these are the figures of the file it makes." : "it makes no file for this sticker.")
            : "A dry run at compression level \(budget.level); <code>stickers fit</code> writes at level 12, which compresses hardest"
                + (fit.fitted
                    ? " and the search may choose other settings (frame rate, colours, PSNR): these figures are not the file it makes."
                    : ".")
        return out + "<p class=\"muted\">\(note)</p>\n"
    }

    /// An `img` element shown at `displayWidth` CSS pixels (default: half its pixels, for 2x screens).
    static func imageTag(_ image: ReviewImage, source: (String) -> String, alt: String, displayWidth: Int? = nil)
        -> String
    {
        let width = displayWidth ?? max(1, image.width / 2)
        let height = max(1, Int((Double(image.height) * Double(width) / Double(max(1, image.width))).rounded()))
        let tag =
            "<img src=\"\(HTMLText.escape(source(image.file)))\" width=\"\(width)\" height=\"\(height)\" alt=\"\(HTMLText.escape(alt))\""
            + "\(image.isAnimated ? " data-animated=\"true\"" : "")>"
        // An animation's still is shown instead when the reader asks for less motion.
        guard image.isAnimated, let still = image.still else { return tag }
        return
            "<picture><source srcset=\"\(HTMLText.escape(source(still)))\" media=\"\(reducedMotion)\">\(tag)</picture>"
    }

    /// When an animation's still is shown: the reader's system asks for less motion. The page's
    /// "Stop animations" button sets every such query to `all` (the stills) or `not all` (the
    /// animations, for a reader who asked for less motion too).
    static let reducedMotion = "(prefers-reduced-motion: reduce)"

    /// The button that stops and starts every animation of the page (a toggle: pressed while
    /// the stills show, its name the same either way), and its script.
    static let motionControl =
        "<p><button type=\"button\" id=\"motion\" aria-pressed=\"false\">Stop animations</button></p>\n"
    static let motionScript = """
        (function(){
          var button = document.getElementById("motion");
          if (!button) return;
          var reduced = window.matchMedia && window.matchMedia("\(reducedMotion)").matches;
          if (reduced) button.setAttribute("aria-pressed", "true");
          button.addEventListener("click", function(){
            var stop = button.getAttribute("aria-pressed") !== "true";
            button.setAttribute("aria-pressed", stop ? "true" : "false");
            document.querySelectorAll("picture source").forEach(function(source){
              source.media = stop ? "all" : "not all";
            });
          });
        })();

        """

    private static func milliseconds(_ seconds: Double) -> String { String(Int((seconds * 1000).rounded())) }

    private static func trim(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
