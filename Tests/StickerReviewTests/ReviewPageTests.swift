import AnimationCodec
import Foundation
import StickerReview
import TestSupport
import Testing

/// The pages' content against what is known of the packs independently: Apple's rules applied
/// by hand to ReviewFixtures.py's drawings, the files' own sizes, Pillow's reading of the images.
@Suite(.timeLimit(.minutes(5))) struct ReviewPageTests {
    static func page(_ folder: URL, _ name: String = "index.html") throws -> String {
        try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }

    /// Runs Python (with Pillow) on `script`; its standard output.
    static func python(_ script: String, _ arguments: [String]) throws -> String {
        let output = try TestProcess.capture(["python3", "-c", script] + arguments)
        try #require(output.status == 0, "\(output.stderr)")
        return output.stdout
    }

    /// bad/ breaks one rule (tiny.png is 120 px; Apple's smallest side is 300 px) and mixes two
    /// sizes (a warning): the verdict says so first, the table has those two rows, and the
    /// error's row links to tiny's card.
    @Test func verdictAndFindingsOfABadPack() throws {
        let (folder, summaries) = try ReviewFixtures.review(
            [try ReviewFixtures.packs().appendingPathComponent("bad").path], name: "bad")
        let html = try Self.page(folder)
        #expect(html.contains("<p class=\"verdict fail\" id=\"verdict\">Fails Apple's rules: 1 error, 1 warning.</p>"))
        let verdict = try #require(html.range(of: "id=\"verdict\""))
        #expect(html.range(of: "<h2")!.lowerBound > verdict.lowerBound, "the verdict comes before every section")
        let rows = html.components(separatedBy: "<tr><td data-label=\"Severity\"").dropFirst()
        #expect(rows.count == 2)
        #expect(
            rows.contains {
                $0.contains("error") && $0.contains("<a href=\"#sticker-tiny\">tiny</a>") && $0.contains("pixel-size")
            })
        #expect(rows.contains { $0.contains("warning") && $0.contains("the pack") && $0.contains("mixed-sizes") })
        for row in rows.map({ $0.components(separatedBy: "</tr>")[0] }) {
            // Each figure stated once: "120x120 px" by the message, not again in parentheses.
            let figure = try #require(row.firstMatch(of: #/\d+x\d+/#)).output
            #expect(row.components(separatedBy: figure).count == 2, "\(row)")
        }
        #expect(html.contains("<article class=\"card\" id=\"sticker-tiny\">"))
        #expect(
            summaries.map(\.errors) == [1] && summaries.map(\.warnings) == [1]
                && summaries.map(\.worstSticker) == ["tiny"])
    }

    /// The card's dry run states every warning fit prints: tiny.png, 120 px, is scaled up to
    /// the pack's 408 px, 3.4 times, which looks soft.
    @Test func dryRunStatesEveryWarning() throws {
        let (folder, _) = try ReviewFixtures.review(
            [try ReviewFixtures.packs().appendingPathComponent("bad").path], name: "bad-warnings")
        let html = try Self.page(folder)
        let card = try #require(html.components(separatedBy: "<article class=\"card\" id=\"sticker-tiny\">").last)
            .components(separatedBy: "</article>")[0]
        #expect(
            card.contains(
                "<p class=\"warning\">Warning: the input was scaled up 3.4x, so it looks soft; artwork at least as large as the sticker (408 px) keeps it sharp</p>"
            ), "\(card)")
    }

    /// A sticker fit cannot make (an empty file) is said so on its card, and the dry run's note
    /// does not speak of figures of a file it makes, at level 12 as at a faster level.
    @Test func cardOfAStickerFitCannotMake() throws {
        let pack = ReviewFixtures.temporaryFolder("unfittable").appendingPathComponent("mine")
        try FileManager.default.copyItem(at: try ReviewFixtures.packs().appendingPathComponent("good"), to: pack)
        try Data().write(to: pack.appendingPathComponent("empty.png"))
        for level: Int32 in [1, 12] {
            var options = ReviewFixtures.fastOptions
            options.fitLevel = level
            let (folder, _) = try ReviewFixtures.review([pack.path], options: options, name: "unfittable-\(level)")
            let html = try Self.page(folder)
            let card = try #require(html.components(separatedBy: "<article class=\"card\" id=\"sticker-empty\">").last)
                .components(separatedBy: "</article>")[0]
            #expect(card.contains("<p class=\"error\">Cannot fit: "), "\(card)")
            #expect(!card.contains("figures"), "level \(level): \(card)")
            if level == 12 { #expect(card.contains("it makes no file for this sticker"), "\(card)") }
        }
    }

    /// A file and a sub-folder left out of a folder pack are named on the page by their path
    /// from the pack's folder, under their own rule: a page meant to be shared does not show
    /// where it was made.
    @Test func leftOutFilesAreNamedFromThePack() throws {
        let pack = ReviewFixtures.temporaryFolder("left-out").appendingPathComponent("mine")
        try FileManager.default.copyItem(at: try ReviewFixtures.packs().appendingPathComponent("good"), to: pack)
        try Data("to do".utf8).write(to: pack.appendingPathComponent("notes.txt"))
        try FileManager.default.createDirectory(
            at: pack.appendingPathComponent("old/drafts"), withIntermediateDirectories: true)
        let (folder, summaries) = try ReviewFixtures.review([pack.path], name: "left-out")
        let html = try Self.page(folder)
        let rows = html.components(separatedBy: "<tr><td data-label=\"Severity\"").dropFirst().map {
            $0.components(separatedBy: "</tr>")[0]
        }
        let leftOut = rows.filter { $0.contains("<code>left-out</code>") }
        #expect(leftOut.count == 2, "\(rows)")
        #expect(leftOut.contains { $0.contains(">notes.txt: ignored: not an image file<") }, "\(leftOut)")
        #expect(leftOut.contains { $0.contains(">old: ignored: a folder") }, "\(leftOut)")
        #expect(!rows.contains { $0.contains(pack.deletingLastPathComponent().path) }, "\(rows)")
        #expect(summaries.map(\.warnings) == [2] && summaries.map(\.errors) == [0])
    }

    /// A sticker name full of markup characters is text on the page, never markup.
    @Test func markupInANameIsText() throws {
        let (folder, _) = try ReviewFixtures.review(
            [try ReviewFixtures.packs().appendingPathComponent("bad").path], name: "markup")
        let html = try Self.page(folder)
        #expect(html.contains("<h3>odd &lt;b&gt;&amp;&quot;name&#39;</h3>"))
        #expect(!html.contains("<b>&"))
        #expect(html.contains("id=\"sticker-odd-b-name\""))
    }

    /// Each card's facts are the file's: its size on disk, its pixels, frames and timing as
    /// ReviewFixtures.py wrote them (2 frames of 300 ms, looping forever).
    @Test("A loop of 10 ms frames: the facts give it as Messages shows it (100 ms a frame), with the stored length")
    func factsShownTiming() throws {
        let pack = ReviewFixtures.temporaryFolder("quick")
        try FileManager.default.createDirectory(at: pack, withIntermediateDirectories: true)
        // 30 frames of 10 ms: stored, a 300 ms loop; shown, 30 x 100 ms = 3000 ms, 10 fps.
        let frames = (0..<30).map { index in
            PNGEncoder.AnimationFrame(
                pixels: [UInt8](repeating: UInt8(index * 8), count: 408 * 408 * 4),
                delay: FrameDelay(numerator: 10, denominator: 1000))
        }
        try Data(PNGEncoder.encodeAnimation(frames, width: 408, height: 408, plays: 0)).write(
            to: pack.appendingPathComponent("quick.png"))
        let (folder, _) = try ReviewFixtures.review([pack.path], name: "quick-facts")
        let html = try Self.page(folder)
        for fact in ["<dt>Loop</dt><dd>3000 ms, forever (300 ms stored)</dd>", "<dt>Frame rate</dt><dd>10.0 fps</dd>"] {
            #expect(html.contains(fact), "\(fact)")
        }
    }

    @Test func factsAreTheFile() throws {
        let packs = try ReviewFixtures.packs()
        let (folder, _) = try ReviewFixtures.review([packs.appendingPathComponent("good").path], name: "facts")
        let html = try Self.page(folder)
        let card = try #require(
            html.components(separatedBy: "<article").first { $0.contains("id=\"sticker-a-circle\"") })
        let bytes = try #require(
            try FileManager.default.attributesOfItem(atPath: packs.appendingPathComponent("good/a-circle.png").path)[
                .size] as? Int)
        let grouped = bytes >= 1000 ? "\(bytes / 1000),\(String(format: "%03d", bytes % 1000))" : "\(bytes)"
        for fact in [
            "<dt>Format</dt><dd>apng</dd>", "<dt>Bytes</dt><dd>\(grouped)</dd>", "<dt>Pixels</dt><dd>408 x 408</dd>",
            "<dt>Frames</dt><dd>2</dd>", "<dt>Loop</dt><dd>600 ms, forever</dd>", "<dt>Frame rate</dt><dd>3.3 fps</dd>",
            "<li>starts 0 ms, shows 300 ms</li><li>starts 300 ms, shows 300 ms</li>"
        ] {
            #expect(card.contains(fact), "\(fact)")
        }
        // 408 x 408 x 4 bytes x 2 frames decoded.
        #expect(
            card.contains(String(format: "<dt>Decoded</dt><dd>%.1f MiB</dd>", Double(408 * 408 * 4 * 2) / 1_048_576)))
    }

    /// The preview plays as the sticker does, read by Pillow: 2 frames of 300 ms looping
    /// forever, red then blue at the centre, transparent at the corner, 240 px; a still is a PNG.
    @Test func previewPlaysAsTheSticker() throws {
        let (folder, _) = try ReviewFixtures.review(
            [try ReviewFixtures.packs().appendingPathComponent("good").path], name: "preview")
        let script = """
            import sys, json
            from PIL import Image
            out = []
            for path in sys.argv[1:]:
                im = Image.open(path)
                frames = []
                for i in range(getattr(im, "n_frames", 1)):
                    im.seek(i)
                    rgba = im.convert("RGBA")
                    frames.append([im.info.get("duration", 0), list(rgba.getpixel((120, 120))), rgba.getpixel((2, 2))[3]])
                out.append([im.size[0], im.size[1], im.info.get("loop"), frames])
            print(json.dumps(out))
            """
        let images = folder.appendingPathComponent("images")
        let text = try Self.python(
            script,
            [
                images.appendingPathComponent("sticker-1-preview.png").path,
                images.appendingPathComponent("sticker-2-preview.png").path
            ])
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[Any]])
        #expect(decoded[0][0] as? Int == 240 && decoded[0][1] as? Int == 240 && decoded[0][2] as? Int == 0)
        let frames = try #require(decoded[0][3] as? [[Any]])
        #expect(frames.map { ($0[0] as? Double) ?? -1 } == [300, 300])
        #expect(frames.map { $0[1] as? [Int] ?? [] } == [[220, 30, 30, 255], [30, 60, 220, 255]])
        #expect(frames.map { $0[2] as? Int ?? -1 } == [0, 0])
        let still = try #require(decoded[1][3] as? [[Any]])
        #expect(still.count == 1 && still[0][1] as? [Int] == [40, 170, 60, 255])
    }

    /// The catalog's accessibility labels are the previews' alt text, on each background.
    @Test func altTextComesFromTheLabels() throws {
        let (folder, _) = try ReviewFixtures.review([ReviewFixtures.sampleCatalog], name: "labels")
        let html = try Self.page(folder)
        // corpus/Sample.xcstickers: Heart.stickersequence and Star.sticker carry these labels.
        for label in ["Beating heart", "Orange star"] {
            for background in ["white", "black", "red", "yellow", "multicolor", "a photo", "checker"] {
                #expect(html.contains("alt=\"\(label), on \(background)\""), "\(label) on \(background)")
            }
            #expect(html.contains("VoiceOver reads: \u{201C}\(label)\u{201D}</p>"))
        }
    }

    /// A folder's sticker has no label: its card says what `stickers fit` will write, and whence.
    @Test func folderCardsShowTheLabelFitMakes() throws {
        let (folder, _) = try ReviewFixtures.review([ReviewFixtures.samplePack], name: "folder-labels")
        let html = try Self.page(folder)
        #expect(
            html.contains(
                "VoiceOver reads: \u{201C}Bouncing blob\u{201D} (made from its file&#39;s name; <code>stickers fit --label</code> sets one)"
            ))
        #expect(html.contains("alt=\"Bouncing blob, on white\""))
    }

    /// Every page passes HTML Tidy with no warning: one pack, a catalog, an index of several.
    @Test func tidyFindsNothing() throws {
        let packs = try ReviewFixtures.packs()
        let (folder, _) = try ReviewFixtures.review(
            [
                packs.appendingPathComponent("good").path, packs.appendingPathComponent("bad").path,
                ReviewFixtures.sampleCatalog
            ], name: "tidy")
        let pages = ["index.html", "good/index.html", "bad/index.html", "sample/index.html"]
        for page in pages {
            let path = folder.appendingPathComponent(page).path
            try #require(FileManager.default.fileExists(atPath: path), "\(page)")
            let tidy = try TestProcess.capture(["/usr/bin/tidy", "-q", "-e", "--show-warnings", "yes", path])
            let report = tidy.stdout + tidy.stderr
            #expect(tidy.status == 0 && report.isEmpty, "\(page): \(report)")
        }
    }

    /// Tidy does report a fault of the kind the pages avoid, so its silence above means something.
    @Test func tidyReportsAFault() throws {
        let folder = ReviewFixtures.temporaryFolder("tidy-fault")
        let page = folder.appendingPathComponent("fault.html")
        try Data(
            "<!DOCTYPE html><html lang=\"en\"><head><title>t</title></head><body><img src=\"a.png\"><p><div></p></body></html>"
                .utf8
        ).write(to: page)
        // tidy's exit status 1 is "warnings"; the missing alt text is one of them.
        let tidy = try TestProcess.capture(["/usr/bin/tidy", "-q", "-e", page.path])
        #expect(tidy.status == 1 && tidy.stderr.contains("<img> lacks \"alt\" attribute"), "\(tidy.stderr)")
    }

    /// With every image inlined, the folder holds one HTML file and nothing it links to: each
    /// image is a data URL of a PNG (the photo of a JPEG), as many as the folder page has images.
    @Test func singleFileInlinesEveryImage() throws {
        var options = ReviewFixtures.fastOptions
        let good = try ReviewFixtures.packs().appendingPathComponent("good").path
        let (linked, _) = try ReviewFixtures.review([good], options: options, name: "linked")
        options.singleFile = true
        let (single, _) = try ReviewFixtures.review([good], options: options, name: "single")
        #expect(try FileManager.default.contentsOfDirectory(atPath: single.path) == ["index.html"])
        let html = try Self.page(single)
        #expect(!html.contains("images/"))
        let sources = html.components(separatedBy: "<img src=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(sources.count == (try Self.page(linked)).components(separatedBy: "<img src=\"").count - 1)
        for source in sources {
            let data = try #require(
                Data(base64Encoded: String(source.dropFirst("data:image/png;base64,".count))), "\(source.prefix(40))")
            #expect(
                source.hasPrefix("data:image/png;base64,") && Array(data.prefix(8)) == [137, 80, 78, 71, 13, 10, 26, 10]
            )
        }
        #expect(html.contains("url(\"data:image/jpeg;base64,/9j/"))
    }

    /// A sticker that cannot be read gets a card that says why, a placeholder in the drawings,
    /// and the rest of the page as usual.
    @Test func anUnreadableStickerIsShownAsSuch() throws {
        let packs = try ReviewFixtures.packs()
        let folder = ReviewFixtures.temporaryFolder("broken-pack")
        let circle = try Data(contentsOf: packs.appendingPathComponent("good/a-circle.png"))
        try circle.write(to: folder.appendingPathComponent("a-circle.png"))
        try circle.prefix(circle.count / 2).write(to: folder.appendingPathComponent("b-broken.png"))
        let (review, _) = try ReviewFixtures.review([folder.path], name: "broken")
        let html = try Self.page(review)
        #expect(html.contains("Fails Apple's rules"))
        let card = try #require(
            html.components(separatedBy: "<article").first { $0.contains("id=\"sticker-b-broken\"") })
        #expect(card.contains("<p class=\"error\">Cannot be drawn:"))
        #expect(html.contains("drawn as placeholders (unreadable): b-broken"))
        // The conversation is drawn too, the unreadable sticker as its placeholder, named under
        // each drawing (the browser's two and the conversation's two).
        for appearance in ["light", "dark"] {
            #expect(html.contains("conversation-\(appearance).png"), "\(appearance)")
        }
        let conversation = try #require(
            html.components(separatedBy: "id=\"conversation\"").last?.components(separatedBy: "id=\"stickers\"").first)
        #expect(conversation.components(separatedBy: "drawn as placeholders (unreadable): b-broken").count == 3)
    }
}
