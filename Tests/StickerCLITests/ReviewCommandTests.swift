import Foundation
import TestSupport
import Testing

/// The generator tag every review page's head carries (written out here, as a user would see it).
enum ReviewWriterTag {
    static let generator = "<meta name=\"generator\" content=\"stickers review\">"
}

/// `stickers review` and `stickers fit --dry-run`: every option, the exit status, the folder
/// written all-or-nothing, the JSON summary against the files themselves.
@Suite("Option matrix: review", .timeLimit(.minutes(3)))
struct ReviewCommandTests {
    static func review(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try CLITests.runExecutable(["review"] + arguments)
    }

    /// A pack that breaks a rule: solid.png (408 px) and small.png, a 100 px disc drawn by
    /// Pillow (Apple's smallest side is 300 px).
    static func badPack() throws -> URL {
        let folder = CLITests.temporaryDirectory().appendingPathComponent("bad")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: try OptionFixtures.path("solid.png"), toPath: folder.appendingPathComponent("solid.png").path)
        try Python.run(
            """
            import sys
            from PIL import Image, ImageDraw
            image = Image.new("RGBA", (100, 100), (0, 0, 0, 0))
            ImageDraw.Draw(image).ellipse((10, 10, 90, 90), fill=(200, 40, 40, 255))
            image.save(sys.argv[1])
            """, [folder.appendingPathComponent("small.png").path])
        return folder
    }

    static func fileBytes(_ folder: URL) throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).reduce(0) { total, name in
            total
                + ((try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)[.size]
                    as? Int) ?? 0)
        }
    }

    @Test(
        "one pack: DIR/index.html and its images; exit 0 when it passes, 1 when it breaks a rule; --json sums up from the files"
    )
    func onePack() throws {
        let out = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let seven = try OptionFixtures.path("seven")
        let good = try Self.review([seven, "-o", out.appendingPathComponent("good").path, "--fit-level", "1"])
        #expect(good.status == 0, "\(good.stderr)")
        #expect(good.stdout.contains("seven: passes, 0 errors, "), "\(good.stdout)")
        let images = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("good/images").path)
        // 4 browser drawings, 2 conversations, the photo, a preview and a filmstrip per sticker.
        #expect(images.count == 4 + 2 + 1 + 7 * 2, "\(images.sorted())")

        let bad = try Self.badPack()
        let result = try Self.review([bad.path, "-o", out.appendingPathComponent("bad").path, "--json", "--no-fit"])
        #expect(result.status == 1, "a pack with an error fails the job")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let packs = try #require(json["packs"] as? [[String: Any]])
        #expect(packs.count == 1)
        #expect(
            packs[0]["errors"] as? Int == 1 && packs[0]["stickers"] as? Int == 2 && packs[0]["passed"] as? Bool == false
        )
        #expect(packs[0]["worstSticker"] as? String == "small")
        #expect(packs[0]["totalBytes"] as? Int == (try Self.fileBytes(bad)))
        let page = try #require(json["page"] as? String)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("Fails Apple's rules: 1 error"))
        #expect(!html.contains("would do"), "--no-fit leaves out the dry run")
    }

    @Test(
        "a reader of its progress that goes away (a closed pipe) does not end it: the page is written, exit 0, no staging folder left"
    )
    func closedPipe() throws {
        let folder = CLITests.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("pages")
        let (pid, progress) = try PreviewTests.spawnWithStderrPipe([
            try PreviewTests.executable(), "review", CLITests.samplePack.path, "-o", out.path, "--no-fit",
            "--progress", "lines", "--threads", "1"
        ])
        close(progress)  // nobody reads: the lines written from now on meet a closed pipe
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        #expect(status & 0x7F == 0 && (status >> 8) & 0xFF == 0, "exited 0, not killed by SIGPIPE: \(status)")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("index.html").path))
        let hidden = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") }
        #expect(hidden.isEmpty, "no staging folder left: \(hidden)")
    }

    @Test("several packs: a page each and an index; --threads 1 and 2 write the same pages; --progress lines")
    func severalPacks() throws {
        let out = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let packs = [try OptionFixtures.path("seven"), try OptionFixtures.path("animate"), try Self.badPack().path]
        let one = try Self.review(
            packs + ["-o", out.appendingPathComponent("one").path, "--threads", "1", "--no-fit", "--progress", "lines"])
        #expect(one.status == 1, "one of the packs breaks a rule")
        #expect(one.stderr.contains("reviewing 1/"), "\(one.stderr.prefix(200))")
        for page in ["index.html", "seven/index.html", "animate/index.html", "bad/index.html"] {
            #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("one/\(page)").path), "\(page)")
        }
        let two = try Self.review(
            packs + ["-o", out.appendingPathComponent("two").path, "--threads", "2", "--no-fit", "--progress", "none"])
        #expect(two.status == 1 && two.stderr.isEmpty)
        for page in ["index.html", "seven/index.html", "animate/index.html", "bad/index.html"] {
            let a = try Data(contentsOf: out.appendingPathComponent("one/\(page)"))
            let b = try Data(contentsOf: out.appendingPathComponent("two/\(page)"))
            #expect(a == b, "\(page) does not depend on the thread count")
        }
        let index = try String(contentsOf: out.appendingPathComponent("one/index.html"), encoding: .utf8)
        #expect(index.contains("1 of 3 packs fail Apple's rules."))
        #expect(index.contains("<a href=\"bad/index.html\">bad</a>"))
        #expect(!index.contains("url(\"\")"), "the index has no photo, and no empty URL for one")
    }

    @Test("--single-file: one HTML file a page; an earlier review is replaced, a folder of other files refused")
    func singleFileAndReplacing() throws {
        let out = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let dir = out.appendingPathComponent("review")
        let seven = try OptionFixtures.path("seven")
        #expect(try Self.review([seven, "-o", dir.path, "--no-fit"]).status == 0)
        let single = try Self.review([seven, "-o", dir.path, "--no-fit", "--single-file"])
        #expect(single.status == 0, "\(single.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["index.html"],
            "the earlier review is replaced as a whole")

        let mine = out.appendingPathComponent("mine")
        try FileManager.default.createDirectory(at: mine, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: mine.appendingPathComponent("notes.txt"))
        let refused = try Self.review([seven, "-o", mine.path, "--no-fit"])
        #expect(
            refused.status == 1
                && refused.stderr.contains("other than an earlier review's (notes.txt, and no review's index.html)"),
            "\(refused.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: mine.path) == ["notes.txt"])

        // A site of the user's own with an index.html of its own is not an earlier review either.
        let site = out.appendingPathComponent("site")
        try FileManager.default.createDirectory(
            at: site.appendingPathComponent("photos"), withIntermediateDirectories: true)
        try Data("<html><body>mine</body></html>".utf8).write(to: site.appendingPathComponent("index.html"))
        try Data("keep".utf8).write(to: site.appendingPathComponent("photos/a.jpg"))
        let notMine = try Self.review([seven, "-o", site.path, "--no-fit"])
        #expect(
            notMine.status == 1
                && notMine.stderr.contains(
                    "other than an earlier review's (index.html, which stickers review did not write)"),
            "\(notMine.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: site.path).sorted() == ["index.html", "photos"])
        #expect(try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8).contains("mine"))

        // An earlier review that is the current folder is not pulled from under the shell.
        let here = try TestProcess.capture(
            [try CLITests.executable(), "review", seven, "-o", ".", "--no-fit"], directory: dir)
        #expect(here.status == 1 && here.stderr.contains("current folder"), "\(here.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["index.html"])

        // An empty output path (an unset variable) names no folder: a usage error, the current
        // folder as it was, for every command that writes a folder.
        let work = out.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: work.appendingPathComponent("main.swift"))
        for arguments in [
            ["review", seven, "-o", "", "--no-fit"], ["frames", seven, "--out", ""],
            ["xcode", seven, "-o", "", "--name", "App", "--bundle-id", "org.example.app"]
        ] {
            let empty = try TestProcess.capture([try CLITests.executable()] + arguments, directory: work)
            #expect(empty.status == 64 && empty.stderr.contains("empty path"), "\(arguments[0]): \(empty.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: work.path) == ["main.swift"])
        }

        // An earlier review of several packs (a folder per pack) is replaced as a whole.
        let packs = out.appendingPathComponent("packs")
        let bad = try Self.badPack()
        defer { try? FileManager.default.removeItem(at: bad.deletingLastPathComponent()) }
        #expect(try Self.review([seven, bad.path, "-o", packs.path, "--no-fit"]).status == 1)
        // A desktop's own files in it (shown in Finder) do not make it someone else's.
        try Data().write(to: packs.appendingPathComponent(".DS_Store"))
        try Data().write(to: packs.appendingPathComponent("bad/images/.DS_Store"))
        let marker = packs.appendingPathComponent("bad/index.html")
        try Data("stale \(ReviewWriterTag.generator)".utf8).write(to: marker)
        let again = try Self.review([seven, bad.path, "-o", packs.path, "--no-fit"])
        #expect(again.status == 1 && again.stdout.contains("wrote "), "\(again.stdout)\(again.stderr)")
        #expect(!(try String(contentsOf: marker, encoding: .utf8)).hasPrefix("stale"), "the page was written anew")

        // A photo of the user's dropped into an earlier review's images/ is not a review's.
        try Data("mine".utf8).write(to: packs.appendingPathComponent("bad/images/holiday.jpg"))
        let withPhoto = try Self.review([seven, bad.path, "-o", packs.path, "--no-fit"])
        #expect(
            withPhoto.stderr.contains("other than an earlier review's (bad/images/holiday.jpg)"), "\(withPhoto.stderr)")
        #expect(FileManager.default.fileExists(atPath: packs.appendingPathComponent("bad/images/holiday.jpg").path))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == [
                "mine", "packs", "review", "site", "work"
            ],
            "no staging folder left")
    }

    @Test("--view, --device and --scale size the drawings; --photo is the photo background, at most 640 px")
    func screenAndPhoto() throws {
        let out = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let dir = out.appendingPathComponent("r")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let photo = out.appendingPathComponent("photo.png")
        try Python.run(
            """
            import sys
            from PIL import Image
            Image.new("RGB", (1000, 800), (20, 200, 90)).save(sys.argv[1])
            """, [photo.path])
        let result = try Self.review([
            try OptionFixtures.path("seven"), "-o", dir.path, "--no-fit", "--view", "320x600", "--scale", "1",
            "--photo", photo.path
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let conversation = try FitCommandTests.pillow(dir.appendingPathComponent("images/conversation-light.png"))
            .frames
        #expect(conversation.first?.count == 320 * 600 * 4)
        let background = try FitCommandTests.pillow(dir.appendingPathComponent("images/photo.jpg")).frames
        #expect(background.first?.count == 640 * 512 * 4)
        let centre = Array(try #require(background.first)[(256 * 640 + 320) * 4..<(256 * 640 + 320) * 4 + 3])
        #expect(zip(centre, [20, 200, 90] as [UInt8]).allSatisfy { abs(Int($0) - Int($1)) <= 3 }, "\(centre)")
        let device = try Self.review([
            try OptionFixtures.path("seven"), "-o", out.appendingPathComponent("d").path, "--no-fit", "--device",
            "iphone-8"
        ])
        #expect(device.status == 0)
        #expect(
            try FitCommandTests.pillow(out.appendingPathComponent("d/images/conversation-dark.png")).frames.first?.count
                == 375 * 2 * 667 * 2 * 4,
            "--scale is 2 by default")
    }

    @Test(
        "the fit dry run is what fit writes: the page's bytes after, --max-bytes and --fit-level, against the catalog fit writes"
    )
    func dryRunMatchesFit() throws {
        let out = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let bad = try Self.badPack()
        let review = try Self.review([
            bad.path, "-o", out.appendingPathComponent("r").path, "--fit-level", "3", "--max-bytes", "400000"
        ])
        #expect(review.status == 1)
        let catalog = out.appendingPathComponent("Fit.xcstickers")
        let fit = try CLITests.runExecutable([
            "fit", bad.path, "-o", catalog.path, "--level", "3", "--max-bytes", "400000"
        ])
        #expect(fit.status == 0, "\(fit.stderr)")
        let html = try String(contentsOf: out.appendingPathComponent("r/index.html"), encoding: .utf8)
        for sticker in ["small", "solid"] {
            let folder = catalog.appendingPathComponent("Sticker Pack.stickerpack/\(sticker).sticker")
            let file = try #require(
                try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0 != "Contents.json" })
            let bytes = try #require(
                try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(file).path)[.size]
                    as? Int)
            let card = try #require(
                html.components(separatedBy: "<article").first { $0.contains("<h3>\(sticker)</h3>") })
            let formatted = bytes >= 1000 ? "\(bytes / 1000),\(String(format: "%03d", bytes % 1000))" : "\(bytes)"
            #expect(card.contains("\u{2192} \(formatted) bytes (at most 400,000)"), "\(sticker): \(bytes)")
            #expect(card.contains("compression level 3"))
        }
        let dry = try CLITests.runExecutable(["fit", bad.path, "--dry-run", "--level", "3", "--max-bytes", "400000"])
        #expect(dry.status == 0 && dry.stdout.contains("dry run: nothing written"), "\(dry.stdout)")
        #expect(
            dry.stdout.components(separatedBy: "\n").filter { $0.contains(" ok ") || $0.hasPrefix("  ok") }.count == 2)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == ["Fit.xcstickers", "r"],
            "the dry run writes nothing")
    }

    @Test(
        "bad options are refused before any work",
        arguments: [
            ["--fit-level", "13"], ["--fit-level", "0"], ["--threads", "0"], ["--max-bytes", "0"],
            ["--max-bytes", "512000"], ["--scale", "4"],
            ["--no-fit", "--fit-level", "5"], ["--no-fit", "--fit-level", "12"], ["--no-fit", "--max-bytes", "100"],
            ["--view", "wide"]
        ])
    func badOptions(_ options: [String]) throws {
        let out = CLITests.temporaryDirectory()
        let result = try Self.review([try OptionFixtures.path("seven"), "-o", out.path] + options)
        #expect(result.status == 64, "\(options): \(result.status) \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test("two stickers of one name each get their own facts and findings")
    func stickersOfOneName() throws {
        let out = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let pack = out.appendingPathComponent("pack")
        try FileManager.default.createDirectory(at: pack, withIntermediateDirectories: true)
        // smile.gif: a 200 px disc on a transparent ground (too small); smile.png: a 408 px
        // opaque red square (no transparent pixel).
        try Python.run(
            """
            import sys
            from PIL import Image, ImageDraw
            Image.new("RGB", (408, 408), (255, 0, 0)).save(sys.argv[1] + "/smile.png")
            disc = Image.new("P", (200, 200), 0)
            disc.putpalette([0, 0, 0, 0, 0, 255])
            ImageDraw.Draw(disc).ellipse((10, 10, 190, 190), fill=1)
            disc.save(sys.argv[1] + "/smile.gif", transparency=0)
            """, [pack.path])
        let reviewed = out.appendingPathComponent("review")
        let result = try Self.review([pack.path, "-o", reviewed.path, "--no-fit"])
        #expect(result.status == 1, "the 200 px sticker breaks a rule: \(result.stderr)")
        let page = try String(contentsOf: reviewed.appendingPathComponent("index.html"), encoding: .utf8)
        let cards = page.components(separatedBy: "<article class=\"card\"").dropFirst().map {
            $0.components(separatedBy: "</article>")[0]
        }
        try #require(cards.count == 2)
        // Folder order: smile.gif, then smile.png.
        #expect(cards[0].contains("200 x 200") && !cards[0].contains("408 x 408"), "\(cards[0])")
        #expect(cards[0].contains("<code>pixel-size</code>") && !cards[0].contains("<code>transparency</code>"))
        #expect(cards[1].contains("408 x 408") && !cards[1].contains("200 x 200"), "\(cards[1])")
        #expect(cards[1].contains("<code>transparency</code>") && !cards[1].contains("<code>pixel-size</code>"))
        // The finding about both names goes on both cards.
        #expect(cards.allSatisfy { $0.contains("<code>duplicate-name</code>") })
    }

    @Test(
        "packs given by absolute paths are named on their pages by their folders' names, never where they were made, an empty one too; each card names its file; errors come first"
    )
    func pagesKeepPathsOff() throws {
        let out = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let empty = out.appendingPathComponent("made-here").appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let seven = try OptionFixtures.path("seven")
        let bad = try Self.badPack()
        defer { try? FileManager.default.removeItem(at: bad.deletingLastPathComponent()) }
        // An opaque sticker (a warning) before small.png (an error) in the validator's order.
        try FileManager.default.copyItem(
            atPath: try OptionFixtures.path("solid.png"), toPath: bad.appendingPathComponent("a-opaque.png").path)
        let review = out.appendingPathComponent("review")
        let result = try Self.review([seven, empty.path, bad.path, "-o", review.path, "--no-fit"])
        #expect(result.status == 1, "\(result.stderr)")
        let pages = try FileManager.default.contentsOfDirectory(atPath: review.path).sorted().filter {
            $0 != "index.html"
        }
        #expect(pages == ["bad", "empty", "seven"])
        for page in ["index.html", "bad/index.html", "empty/index.html", "seven/index.html"] {
            let html = try String(contentsOf: review.appendingPathComponent(page), encoding: .utf8)
            for made in [out.path, URL(fileURLWithPath: seven).deletingLastPathComponent().path, bad.path] {
                #expect(!html.contains(made), "\(page) shows \(made)")
            }
        }
        let emptyPage = try String(contentsOf: review.appendingPathComponent("empty/index.html"), encoding: .utf8)
        #expect(emptyPage.contains(">empty: not a sticker pack (no image files"), "\(emptyPage)")
        let badPage = try String(contentsOf: review.appendingPathComponent("bad/index.html"), encoding: .utf8)
        #expect(
            badPage.contains("<dt>File</dt><dd>small.png</dd>") && badPage.contains("<dt>File</dt><dd>solid.png</dd>"))
        // small.png breaks a rule (an error); a-opaque.png, before it, is a warning: errors first.
        let rows = badPage.components(separatedBy: "<tr><td data-label=\"Severity\" class=\"").dropFirst()
            .map { $0.hasPrefix("error") }
        #expect(rows.contains(false) && rows == rows.sorted { $0 && !$1 }, "\(badPage)")
    }

    @Test("an output folder whose name is 250 bytes, within the file system's 255, is written")
    func longOutputName() throws {
        let out = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let folder = out.appendingPathComponent(String(repeating: "r", count: 250))
        let result = try Self.review([try OptionFixtures.path("seven"), "-o", folder.path, "--no-fit"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("index.html").path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == [folder.lastPathComponent])
    }

    @Test(
        "a pack that cannot be read, or an empty folder, is its page's one error, with no drawing of a browser or conversation it does not have; a catalog missing one sticker's file is reviewed with that sticker's error; the other packs' pages are written"
    )
    func unreadablePack() throws {
        let out = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let sample = CLITests.repoRoot.appendingPathComponent("corpus/Sample.xcstickers")
        // The sample catalog whose sticker pack's Contents.json is not JSON.
        let broken = out.appendingPathComponent("Broken.xcstickers")
        try FileManager.default.copyItem(at: sample, to: broken)
        try Data("not json".utf8).write(to: broken.appendingPathComponent("Sticker Pack.stickerpack/Contents.json"))
        let empty = out.appendingPathComponent("Empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        // The sample catalog without the file its Star sticker names.
        let gap = out.appendingPathComponent("Gap.xcstickers")
        try FileManager.default.copyItem(at: sample, to: gap)
        try FileManager.default.removeItem(
            at: gap.appendingPathComponent("Sticker Pack.stickerpack/Star.sticker/star.png"))
        let reviewed = out.appendingPathComponent("review")
        let result = try Self.review(
            [
                try OptionFixtures.path("seven"), broken.path, empty.path, gap.path, "-o", reviewed.path, "--no-fit",
                "--json"
            ])
        #expect(result.status == 1, "\(result.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let packs = try #require(summary["packs"] as? [[String: Any]])
        #expect(packs.map { $0["passed"] as? Bool } == [true, false, false, false], "\(result.stdout)")
        #expect(packs.map { $0["errors"] as? Int } == [0, 1, 1, 1], "\(result.stdout)")
        #expect(packs.map { $0["stickers"] as? Int } == [7, 0, 0, 2], "\(result.stdout)")
        #expect(FileManager.default.fileExists(atPath: reviewed.appendingPathComponent("seven/index.html").path))
        let pages = try packs.dropFirst().map { pack in
            let pagePath = try #require(pack["page"] as? String)
            return (
                pagePath,
                try String(contentsOf: reviewed.appendingPathComponent(pagePath), encoding: .utf8)
            )
        }
        #expect(pages[0].1.contains("invalid Contents.json"), "the page says why the catalog cannot be read")
        #expect(!pages[0].1.contains(broken.path + "/"), "the page names the file from the catalog's folder")
        #expect(pages[1].1.contains("no image files"), "the page says why the folder is no pack")
        for (pagePath, page) in pages.prefix(2) {
            #expect(!page.contains("<img"), "\(pagePath) draws a pack it could not read")
            #expect(!page.contains("id=\"browser\"") && !page.contains("id=\"conversation\""))
            let images = reviewed.appendingPathComponent(pagePath).deletingLastPathComponent()
                .appendingPathComponent("images")
            let drawn = (try? FileManager.default.contentsOfDirectory(atPath: images.path)) ?? []
            #expect(drawn.allSatisfy { !$0.hasPrefix("browser") && !$0.hasPrefix("conversation") }, "\(drawn)")
        }
        // The catalog with a gap: Heart is drawn and has its card; Star's error names its file.
        let gapPage = pages[2].1
        #expect(gapPage.contains("id=\"browser\"") && gapPage.contains("id=\"sticker-heart\""))
        #expect(
            gapPage.contains("star.png: file named by the catalog is missing"),
            "the page names the missing file from the catalog's folder")
        #expect(!gapPage.contains(gap.path + "/"))
    }

    @Test("a missing pack, a missing -o, fit with neither -o nor --dry-run: errors")
    func missingInputs() throws {
        let out = CLITests.temporaryDirectory()
        let missing = try Self.review(["/nonexistent/pack", "-o", out.path])
        #expect(missing.status == 1 && missing.stderr.contains("/nonexistent/pack"), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
        #expect(try Self.review([try OptionFixtures.path("seven")]).status == 64)
        let fit = try CLITests.runExecutable(["fit", try OptionFixtures.path("seven")])
        #expect(fit.status == 64 && fit.stderr.contains("--dry-run"), "\(fit.stderr)")
    }
}
