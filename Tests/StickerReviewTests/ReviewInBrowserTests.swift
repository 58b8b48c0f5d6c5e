import Foundation
import StickerReview
import TestSupport
import Testing

/// The review pages in a real browser (Debian's headless Chromium, over its DevTools protocol):
/// what a reader sees, at a phone's width and a laptop's, in light and in dark.
@Suite(.serialized, .timeLimit(.minutes(5))) struct ReviewInBrowserTests {
    /// The checks every page passes, returned as a list of what failed (empty when all pass).
    /// Contrast is WCAG's: relative luminance of the text colour against the first opaque
    /// background behind it, 4.5:1 for body text and 3:1 for large text (24 px, or 18.66 px bold).
    static let pageChecks = """
        (() => {
          const failures = [];
          const width = document.documentElement.clientWidth;
          if (document.documentElement.lang !== "en") failures.push("lang is " + document.documentElement.lang);
          for (const image of document.images) {
            if (!(image.complete && image.naturalWidth > 0)) failures.push("not loaded: " + image.src.slice(0, 80));
            if (!image.alt.trim()) failures.push("no alt: " + image.src.slice(0, 80));
          }
          if (document.documentElement.scrollWidth > width) failures.push("page scrolls sideways: " + document.documentElement.scrollWidth + " > " + width);
          for (const element of document.body.querySelectorAll("*")) {
            const box = element.getBoundingClientRect();
            if (box.width > 0 && (box.right > width + 0.5 || box.left < -0.5)) {
              failures.push("wider than the viewport: " + element.tagName + "." + element.className + " " + Math.round(box.left) + "-" + Math.round(box.right));
            }
          }
          const levels = Array.from(document.querySelectorAll("h1,h2,h3,h4,h5,h6")).map(h => Number(h.tagName[1]));
          if (levels[0] !== 1 || levels.filter(l => l === 1).length !== 1) failures.push("not one h1 first: " + levels.join(""));
          for (let i = 1; i < levels.length; i++) if (levels[i] > levels[i - 1] + 1) failures.push("heading skips a level: h" + levels[i - 1] + " then h" + levels[i]);
          const parse = text => (text.match(/[\\d.]+/g) || []).map(Number);
          const luminance = rgb => {
            const c = rgb.slice(0, 3).map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
            return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
          };
          for (const element of document.body.querySelectorAll("*")) {
            const text = Array.from(element.childNodes).filter(n => n.nodeType === 3).map(n => n.textContent).join("").trim();
            if (!text || element.getClientRects().length === 0) continue;
            const style = getComputedStyle(element);
            let behind = element, background = null;
            while (behind) {
              const b = getComputedStyle(behind);
              if (b.backgroundImage !== "none") break;
              const rgba = parse(b.backgroundColor);
              if (rgba.length === 3 || (rgba.length === 4 && rgba[3] === 1)) { background = rgba; break; }
              behind = behind.parentElement;
            }
            if (!background) continue;
            const fg = parse(style.color), l1 = luminance(fg), l2 = luminance(background);
            const ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
            const size = parseFloat(style.fontSize), bold = Number(style.fontWeight) >= 700;
            const needed = (size >= 24 || (bold && size >= 18.66)) ? 3 : 4.5;
            if (ratio < needed) failures.push("contrast " + ratio.toFixed(2) + " < " + needed + ": " + element.tagName + " \\"" + text.slice(0, 30) + "\\"");
          }
          return failures;
        })()
        """

    /// The page of a failing pack and of the sample catalog, at 390 and 1280 px, light and
    /// dark: no error, every image loaded, nothing wider than the viewport, headings in order,
    /// AA contrast.
    @Test(arguments: ["bad", "catalog"])
    func pagePassesEveryCheck(_ pack: String) throws {
        let path =
            pack == "catalog"
            ? ReviewFixtures.sampleCatalog : try ReviewFixtures.packs().appendingPathComponent(pack).path
        let (folder, _) = try ReviewFixtures.review([path], name: "browser-\(pack)")
        let browser = try HeadlessChromium()
        for width in [390, 1280] {
            for scheme in ["light", "dark"] {
                try browser.setViewport(width: width, scheme: scheme)
                try browser.navigate(folder.appendingPathComponent("index.html").absoluteString)
                let failures = try browser.evaluate(Self.pageChecks) as? [String]
                #expect(failures == [], "\(pack) at \(width) px, \(scheme): \((failures ?? []).prefix(8))")
            }
        }
        #expect(browser.pageErrors.isEmpty, "\(browser.pageErrors.prefix(5))")
    }

    /// The checks above catch each fault they look for, on a page made with every one.
    @Test func checksCatchEveryFault() throws {
        let folder = ReviewFixtures.temporaryFolder("faults")
        let page = folder.appendingPathComponent("faults.html")
        try Data(
            """
            <!DOCTYPE html><html lang="fr"><head><meta charset="utf-8"><title>f</title></head>
            <body style="background:#fff;margin:0"><h1>a</h1><h3>b</h3><p style="color:#aaa">pale text</p>
            <div style="width:2000px">wide</div><img src="missing.png" alt="x"><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt=""></body></html>
            """.utf8
        ).write(to: page)
        let browser = try HeadlessChromium()
        try browser.setViewport(width: 390)
        try browser.navigate(page.absoluteString)
        let failures = (try browser.evaluate(Self.pageChecks) as? [String]) ?? []
        for fault in [
            "lang is fr", "not loaded: file://", "no alt: data:", "page scrolls sideways",
            "wider than the viewport: DIV",
            "heading skips a level: h1 then h3", "contrast 2.32 < 4.5: P \"pale text\""
        ] {
            #expect(failures.contains { $0.hasPrefix(fault) }, "\(fault) not in \(failures)")
        }
    }

    /// A reader who asks for less motion sees every animation as its still, and the page's
    /// button stops and restarts them for anyone.
    @Test func reducedMotionShowsStills() throws {
        let (folder, _) = try ReviewFixtures.review([ReviewFixtures.samplePack], name: "motion")
        let browser = try HeadlessChromium()
        try browser.setViewport(width: 1280)
        // What each animated image shows, its file's name and whether it loaded, once every one
        // shows a still (`true`) or an animation (`false`): a change of a source's media is
        // taken up by the browser in its own time, so this waits for it (up to 2,000 looks).
        func shown(stills wanted: Bool) -> String {
            """
            new Promise(resolve => {
              let looks = 0;
              const look = () => {
                const list = Array.from(document.querySelectorAll("img[data-animated]")).map(i =>
                  [i.currentSrc.split("/").pop(), i.complete && i.naturalWidth > 0]);
                const settled = list.every(([name, loaded]) => loaded && name.endsWith("-still.png") === \(wanted));
                if (settled || ++looks > 2000) resolve(list); else setTimeout(look, 5);
              };
              look();
            })
            """
        }
        func stills(_ images: Any?) -> (animations: Int, stills: Int, loaded: Bool) {
            let list = images as? [[Any]] ?? []
            let names = list.compactMap { $0.first as? String }
            let stills = names.filter { $0.hasSuffix("-still.png") }.count
            return (names.count - stills, stills, list.allSatisfy { $0.last as? Bool == true })
        }
        try browser.navigate(folder.appendingPathComponent("index.html").absoluteString)
        let moving = stills(try browser.evaluate(shown(stills: false)))
        // The sample pack: 5 animated stickers, 4 browsers and 2 conversations that play.
        #expect(moving.animations > 0 && moving.stills == 0 && moving.loaded, "\(moving)")
        try browser.send(
            "Emulation.setEmulatedMedia", ["features": [["name": "prefers-reduced-motion", "value": "reduce"]]])
        try browser.navigate(folder.appendingPathComponent("index.html").absoluteString)
        let reduced = stills(try browser.evaluate(shown(stills: true)))
        #expect(reduced.animations == 0 && reduced.stills == moving.animations && reduced.loaded, "\(reduced)")
        #expect(
            try browser.evaluate("document.getElementById('motion').getAttribute('aria-pressed')") as? String == "true")
        // The button plays them for this reader too, and stops them again.
        try browser.evaluate("document.getElementById('motion').click()")
        let played = stills(try browser.evaluate(shown(stills: false)))
        #expect(played.animations == moving.animations && played.stills == 0, "\(played)")
        try browser.evaluate("document.getElementById('motion').click()")
        let again = stills(try browser.evaluate(shown(stills: true)))
        #expect(again.animations == 0 && again.stills == moving.animations, "\(again)")
        // Each sticker's tile holds its image whole (a picture element takes no box of its own).
        let overflowing =
            try browser.evaluate(
                """
                Array.from(document.querySelectorAll(".tile img")).filter(i => {
                  const t = i.closest(".tile").getBoundingClientRect(), b = i.getBoundingClientRect();
                  return b.bottom > t.bottom + 0.5 || b.right > t.right + 0.5 || b.top < t.top - 0.5 || b.left < t.left - 0.5;
                }).length
                """) as? Int
        #expect(overflowing == 0)
        // The button, with no such setting: stills, then the animations again.
        try browser.send(
            "Emulation.setEmulatedMedia", ["features": [["name": "prefers-reduced-motion", "value": "no-preference"]]])
        try browser.navigate(folder.appendingPathComponent("index.html").absoluteString)
        try browser.evaluate("document.getElementById('motion').click()")
        let stopped = stills(try browser.evaluate(shown(stills: true)))
        #expect(stopped.animations == 0 && stopped.stills == moving.animations, "\(stopped)")
        try browser.evaluate("document.getElementById('motion').click()")
        let playing = stills(try browser.evaluate(shown(stills: false)))
        #expect(playing.animations == moving.animations && playing.stills == 0, "\(playing)")
        #expect(browser.pageErrors.isEmpty, "\(browser.pageErrors.prefix(5))")
    }

    /// Every link of the findings table lands on its sticker's card, in view.
    @Test func findingLinksLandOnTheirCards() throws {
        let (folder, _) = try ReviewFixtures.review(
            [try ReviewFixtures.packs().appendingPathComponent("bad").path], name: "links")
        let browser = try HeadlessChromium()
        try browser.setViewport(width: 390)
        try browser.navigate(folder.appendingPathComponent("index.html").absoluteString)
        let links =
            try browser.evaluate(
                "Array.from(document.querySelectorAll('#findings ~ table a')).map(a => [a.getAttribute('href'), a.textContent])"
            ) as? [[String]] ?? []
        // bad/ has one error, on tiny: its row links to tiny's card.
        #expect(links.map { $0[1] } == ["tiny"])
        for link in links {
            try browser.evaluate("window.scrollTo(0, 0)")
            let landed =
                try browser.evaluate(
                    """
                    (() => { const a = Array.from(document.querySelectorAll('#findings ~ table a')).find(a => a.getAttribute('href') === '\(link[0])');
                      a.click();
                      const target = document.querySelector(':target');
                      if (!target) return 'no target';
                      const box = target.getBoundingClientRect();
                      return [target.tagName, target.querySelector('h3').textContent, box.top >= -1 && box.top < innerHeight].join(' '); })()
                    """) as? String
            #expect(landed == "ARTICLE \(link[1]) true", "\(link)")
        }
    }

    /// A sticker's animated preview shows another frame a moment later: screenshots of it
    /// are taken until one differs from the first (the red disc turns blue after 300 ms).
    @Test func animatedPreviewMoves() throws {
        let (folder, _) = try ReviewFixtures.review(
            [try ReviewFixtures.packs().appendingPathComponent("good").path], name: "animated")
        let browser = try HeadlessChromium()
        try browser.setViewport(width: 1280)
        try browser.navigate(folder.appendingPathComponent("index.html").absoluteString)
        let box =
            try browser.evaluate(
                """
                (() => { const image = document.querySelector('#sticker-a-circle img[data-animated]');
                  image.scrollIntoView(); const r = image.getBoundingClientRect();
                  return [r.x + scrollX, r.y + scrollY, r.width, r.height]; })()
                """) as? [Double] ?? []
        try #require(box.count == 4 && box[2] > 0)
        let first = try browser.screenshot(x: box[0], y: box[1], width: box[2], height: box[3])
        var changed = false
        // Each screenshot waits for a new frame to be drawn; the loop ends at the change.
        for _ in 0..<2000 where !changed {
            changed = try browser.screenshot(x: box[0], y: box[1], width: box[2], height: box[3]) != first
        }
        #expect(changed)
    }

    /// Names sort as text with their numbers read as numbers ("2024-autumn" before "2024-winter",
    /// "pack 9" before "pack 10"), not as the number a name starts with.
    @Test func indexSortsNamesNaturally() throws {
        let root = ReviewFixtures.temporaryFolder("natural")
        let sticker = URL(fileURLWithPath: ReviewFixtures.samplePack).appendingPathComponent("05-still-blob.png")
        let names = ["2024-winter", "pack 10", "2024-summer", "pack 9", "2024-autumn"]
        for name in names {
            let pack = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: pack, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: sticker, to: pack.appendingPathComponent("blob.png"))
        }
        let (folder, _) = try ReviewFixtures.review(names.map { root.appendingPathComponent($0).path }, name: "natural")
        let browser = try HeadlessChromium()
        try browser.navigate(folder.appendingPathComponent("index.html").absoluteString)
        let rows = "Array.from(document.querySelectorAll('tbody tr')).map(r => r.cells[0].textContent)"
        #expect(try browser.evaluate(rows) as? [String] == names)
        try browser.evaluate("document.querySelectorAll('th button')[0].click()")
        #expect(
            try browser.evaluate(rows) as? [String] == [
                "2024-autumn", "2024-summer", "2024-winter", "pack 9", "pack 10"
            ])
        try browser.evaluate("document.querySelectorAll('th button')[0].click()")
        #expect(
            try browser.evaluate(rows) as? [String] == [
                "pack 10", "pack 9", "2024-winter", "2024-summer", "2024-autumn"
            ])
    }

    /// The index of several packs: every page link works, and a column's button sorts the rows.
    @Test func indexSortsByAColumn() throws {
        let packs = try ReviewFixtures.packs()
        let (folder, _) = try ReviewFixtures.review(
            [
                packs.appendingPathComponent("good").path, packs.appendingPathComponent("bad").path,
                ReviewFixtures.samplePack
            ], name: "index")
        let browser = try HeadlessChromium()
        try browser.setViewport(width: 390)
        try browser.navigate(folder.appendingPathComponent("index.html").absoluteString)
        let failures = try browser.evaluate(Self.pageChecks) as? [String]
        #expect(failures == [], "\((failures ?? []).prefix(8))")
        let rows =
            "Array.from(document.querySelectorAll('tbody tr')).map(r => r.cells[0].textContent + ':' + r.cells[2].textContent)"
        #expect(try browser.evaluate(rows) as? [String] == ["good:0", "bad:1", "sample-pack:0"])
        try browser.evaluate("document.querySelectorAll('th button')[2].click()")
        #expect(try browser.evaluate(rows) as? [String] == ["good:0", "sample-pack:0", "bad:1"])
        try browser.evaluate("document.querySelectorAll('th button')[2].click()")
        #expect(try browser.evaluate(rows) as? [String] == ["bad:1", "good:0", "sample-pack:0"])
        #expect(
            try browser.evaluate("document.querySelectorAll('th')[2].getAttribute('aria-sort')") as? String
                == "descending")
        let pages = try #require(
            try browser.evaluate("Array.from(document.querySelectorAll('tbody a')).map(a => a.href)") as? [String])
        // One link a pack, each to the index.html of its own folder beside the index.
        #expect(pages.count == 3 && Set(pages).count == 3, "\(pages)")
        for page in pages {
            let url = try #require(URL(string: page), "\(page)")
            #expect(
                url.isFileURL && url.lastPathComponent == "index.html"
                    && url.deletingLastPathComponent().deletingLastPathComponent().standardizedFileURL.path
                        == folder.standardizedFileURL.path,
                "\(page)")
        }
        for page in pages {
            try browser.navigate(page)
            #expect(
                try browser.evaluate("document.querySelector('main a').getAttribute('href')") as? String
                    == "../index.html", "\(page)")
            let loaded =
                try browser.evaluate("Array.from(document.images).every(i => i.complete && i.naturalWidth > 0)")
                as? Bool
            #expect(loaded == true, "\(page)")
        }
        #expect(browser.pageErrors.isEmpty, "\(browser.pageErrors.prefix(5))")
    }
}
