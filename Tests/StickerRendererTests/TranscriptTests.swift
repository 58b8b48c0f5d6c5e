import AnimationCodec
import Foundation
import StickerPack
import StickerPixels
import StickerRenderer
import StickerTranscript
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The transcript against geometry worked out from the documented numbers (docs/TRANSCRIPT-MODEL.md):
/// colours inside and outside a bubble's corner and tail, light and dark, a sticker's footprint
/// on each side, a peeled sticker's turned corner, line breaks at the computed width.
@Suite("Transcript", .timeLimit(.minutes(3)))
struct TranscriptTests {
    static let screen = ViewSize(width: 393, height: 852)

    static func options(scale: Int = 3, appearance: Appearance = .light, all: Bool = false) -> TranscriptOptions {
        var options = TranscriptOptions()
        options.scale = scale
        options.appearance = appearance
        options.view = screen
        options.showAll = all
        return options
    }

    /// The pixel at (`x`, `y`) points (the pixel containing that point).
    static func color(_ image: RGBAImage, _ x: Double, _ y: Double, scale: Int) -> [UInt8] {
        let p = image.pixel(x: Int(x * Double(scale)), y: Int(y * Double(scale)))
        return [p.r, p.g, p.b, p.a]
    }

    static func rgb(_ hex: UInt32) -> [UInt8] { [UInt8(hex >> 16), UInt8(hex >> 8 & 0xFF), UInt8(hex & 0xFF), 255] }

    @Test(
        "a received bubble: its colour inside the rounded corner and the tail, the background outside both, in light and dark"
    )
    func receivedBubbleGeometry() throws {
        for (appearance, bubble, background) in [
            (Appearance.light, Self.rgb(0xE9E9EB), Self.rgb(0xFFFFFF)),
            (.dark, Self.rgb(0x262629), Self.rgb(0x000000))
        ] {
            let conversation = Conversation(events: [.text(.them, "Hi", service: .iMessage)])
            let renderer = try TranscriptRenderer(
                conversation, pack: StickerPack(name: "", origin: .files, stickers: []),
                options: Self.options(appearance: appearance))
            let image = try renderer.snapshot(at: 0)
            // One line: 40 pt tall, 48 pt wide at least, 16 pt from the left edge and the top.
            let frame = try #require(renderer.layout.items.first?.frame)
            #expect(frame.x == 16 && frame.y == 16 && frame.height == 40 && frame.width >= 48, "\(frame)")
            func at(_ dx: Double, _ dy: Double) -> [UInt8] { Self.color(image, frame.x + dx, frame.y + dy, scale: 3) }
            // Top-left corner, radius 20: (1, 1) is 26.9 from the arc's centre (20, 20), outside;
            // (7, 7) is 18.4 from it, inside by more than a pixel.
            #expect(at(1, 1) == background, "\(appearance) outside the corner")
            #expect(at(7, 7) == bubble, "\(appearance) inside the corner")
            #expect(at(4, 20) == bubble, "\(appearance) inside the left padding")
            #expect(at(frame.width + 1, 20) == background)
            // The tail, mirrored to the bottom-left: the sent tail's points (x from the right edge,
            // y below the bottom) (-10.5, 4.5) is inside it; (-5, 3) lies right of its bulge and
            // (-20, 4) under its underside (which meets the body at x -22).
            #expect(at(10.5, 40 + 4.5) == bubble, "\(appearance) inside the tail")
            #expect(at(5, 40 + 3) == background, "\(appearance) beside the tail")
            #expect(at(20, 40 + 4) == background, "\(appearance) under the tail")
            // No tail below the bubble's right half.
            #expect(at(frame.width - 10, 40 + 2) == background)
        }
    }

    @Test("only the last bubble of a run has the tail; runs are 4.33 pt apart inside and 10.2 pt between")
    func runsAndGaps() throws {
        let conversation = Conversation(events: [
            .text(.them, "one", service: .iMessage), .text(.them, "two", service: .iMessage),
            .text(.me, "three", service: .iMessage)
        ])
        let renderer = try TranscriptRenderer(
            conversation, pack: StickerPack(name: "", origin: .files, stickers: []), options: Self.options())
        let bubbles = renderer.layout.items.filter { $0.message != nil }
        #expect(bubbles.count == 3)
        guard bubbles.count == 3 else { return }
        #expect(abs(bubbles[1].frame.y - bubbles[0].frame.maxY - 4.3333) < 1e-9)
        #expect(abs(bubbles[2].frame.y - bubbles[1].frame.maxY - 10.2) < 1e-9)
        let tails = bubbles.map { item -> Bool in
            if case .bubble(_, _, _, let tail) = item.kind { return tail }
            return false
        }
        #expect(tails == [false, true, true])
        // The first bubble has no tail: below its bottom-left corner is background.
        let image = try renderer.snapshot(at: 0)
        #expect(Self.color(image, bubbles[0].frame.x + 10.5, bubbles[0].frame.maxY + 2, scale: 3) == Self.rgb(0xFFFFFF))
        #expect(Self.color(image, bubbles[1].frame.x + 10.5, bubbles[1].frame.maxY + 2, scale: 3) == Self.rgb(0xE9E9EB))
        // The sent bubble is right-aligned 16 pt from the edge, and "Delivered" sits under it.
        #expect(abs(bubbles[2].frame.maxX - (393 - 16)) < 1e-9)
        let delivered = renderer.layout.items.last
        if case .delivered = delivered?.kind {} else { Issue.record("no Delivered label last") }
    }

    @Test("a sticker sent alone: 408 px is 136 pt, 16 pt from its sender's edge, no bubble around it")
    func stickerFootprint() throws {
        let files = RenderTests.Files()
        let red = files.solid("red.png", side: 408, [255, 0, 0, 255])
        let pack = RenderTests.pack([red])
        for sender in [Sender.me, .them] {
            let conversation = Conversation(events: [.sticker(sender, name: "red.png")])
            let image = try TranscriptRenderer(conversation, pack: pack, options: Self.options(scale: 1)).snapshot(
                at: 0)
            let left = sender == .me ? 393 - 16 - 136 : 16
            let row = 16 + 68
            for x in 0..<image.width {
                let p = image.pixel(x: x, y: row)
                let inside = x >= left && x < left + 136
                #expect(
                    (p == PremultipliedRGBA(r: 255, g: 0, b: 0, a: 255)) == inside, "\(sender): column \(x) is \(p)")
            }
            // Rows 16 ..< 152 at its centre column.
            for y in 0..<300 {
                let p = image.pixel(x: left + 68, y: y)
                #expect((p.r == 255 && p.g == 0) == (y >= 16 && y < 152), "\(sender): row \(y) is \(p)")
            }
        }
    }

    /// One received message, `text`, with a 408 px red square (`red.png`) peeled onto it as
    /// `peel` says, drawn whole (--all) at `scale`: the renderer, its image at 0 s and the
    /// message's frame.
    static func redPeel(on text: String, _ peel: Peel, scale: Int) throws -> (
        renderer: TranscriptRenderer, image: RGBAImage, frame: PointRect
    ) {
        let files = RenderTests.Files()
        let red = files.solid("red.png", side: 408, [255, 0, 0, 255])
        let conversation = Conversation(events: [.text(.them, text, service: .iMessage), .peel(peel)])
        let renderer = try TranscriptRenderer(
            conversation, pack: RenderTests.pack([red]), options: Self.options(scale: scale, all: true))
        let image = try renderer.snapshot(at: 0)
        return (renderer, image, try #require(renderer.layout.items.first?.frame))
    }

    @Test("a peeled sticker turned 30 degrees has its corner where the rotation puts it")
    func peeledCorner() throws {
        let (renderer, image, frame) = try Self.redPeel(
            on: "A long enough message to peel a sticker onto",
            Peel(sticker: "red.png", message: 1, x: 0.5, y: 0.5, scale: 0.5, rotation: 30), scale: 2)
        // 136 pt at scale 0.5: a 68 pt square about the message's centre; its top-right corner
        // (34, -34) turned 30 degrees clockwise (y down) lands at (34 cos - (-34) sin, 34 sin + (-34) cos).
        let angle = 30.0 * .pi / 180
        // --all makes room above for the turned square: half its height turned, 34 (sin + cos),
        // reaches 46.4 pt above the message's centre, past the top when that is nearer.
        let top = frame.y + frame.height / 2 - 34 * (sin(angle) + cos(angle))
        #expect(top < 0 && abs(renderer.scrolled - top) < 1e-9, "\(renderer.scrolled), \(top)")
        // The image starts `scrolled` points into the transcript (above it, when negative).
        let centre = SIMD2(frame.x + frame.width / 2, frame.y - renderer.scrolled + frame.height / 2)
        let corner = centre + SIMD2(34 * cos(angle) + 34 * sin(angle), 34 * sin(angle) - 34 * cos(angle))
        let direction = (centre - corner) / ((centre - corner) * (centre - corner)).sum().squareRoot()
        let inside = corner + direction * 2
        let outside = corner - direction * 2
        #expect(Self.color(image, inside.x, inside.y, scale: 2) == [255, 0, 0, 255], "2 pt inside the corner")
        #expect(Self.color(image, outside.x, outside.y, scale: 2) != [255, 0, 0, 255], "2 pt beyond the corner")
        // The unturned corner's place (34, -34) from the centre is not red: it was turned away.
        #expect(Self.color(image, centre.x + 32, centre.y - 32, scale: 2) != [255, 0, 0, 255])
    }

    @Test("--all takes in a peel reaching above the first message: the image grows by what reaches past")
    func peelAboveTheTop() throws {
        let (renderer, image, frame) = try Self.redPeel(
            on: "Hi", Peel(sticker: "red.png", message: 1, x: 0.5, y: 0, scale: 1, rotation: 0), scale: 1)
        // 408 px is 136 pt: centred on the bubble's top edge (16 pt down), the square reaches
        // 68 pt above it, 52 pt above the transcript's top, and down to 84 pt, past the 72 pt
        // the bubble takes with the 16 pt insets: the image is the square's 136 pt.
        #expect(frame.y == 16 && frame.height == 40)
        #expect(renderer.scrolled == -52)
        #expect(image.height == 136, "\(image.height)")
        let x = frame.x + frame.width / 2
        #expect(Self.color(image, x, 1, scale: 1) == [255, 0, 0, 255], "the square's top row is in the image")
        #expect(Self.color(image, x, 135, scale: 1) == [255, 0, 0, 255], "its bottom row")
        #expect(Self.color(image, x + 69, 1, scale: 1) != [255, 0, 0, 255], "68 pt each side of its centre, no more")
    }

    @Test(
        "a sent iMessage bubble's blue is the screen's gradient at its row, light #77C7F5 at the top to #3682F7 at the bottom"
    )
    func sentGradient() throws {
        let conversation = Conversation(events: [.text(.me, "hello", service: .iMessage)])
        let renderer = try TranscriptRenderer(
            conversation, pack: StickerPack(name: "", origin: .files, stickers: []), options: Self.options(scale: 1))
        let image = try renderer.snapshot(at: 0)
        let frame = try #require(renderer.layout.items.first?.frame)
        let row = Int(frame.y + 3)
        let t = Double(row) / 852
        let top: [Double] = [0x77, 0xC7, 0xF5]
        let bottom: [Double] = [0x36, 0x82, 0xF7]
        let expected: [UInt8] = (0..<3).map { channel in
            let value: Double = top[channel] + (bottom[channel] - top[channel]) * t
            return UInt8(value.rounded())
        }
        let p = image.pixel(x: Int(frame.x + frame.width / 2), y: row)
        #expect([p.r, p.g, p.b] == expected)
    }

    @Test("text wraps where the words' FreeType advances (with the body's tracking) pass the bubble's text width")
    func lineBreaks() throws {
        let style = try TextStyle(
            fonts: TranscriptFonts(), size: 17, scale: 1, tracking: MessagesMetrics.bodyTracking, lineHeight: 20)
        // Word widths from FreeType's advance of each character's glyph, plus the tracking.
        func width(_ text: String) -> Double {
            text.reduce(0) { sum, character in
                let glyph = style.font.shape(String(character))[0].glyph
                return sum + style.font.freeTypeAdvance(of: glyph)! + MessagesMetrics.bodyTracking
            }
        }
        let words = ["Stickers", "belong", "where", "people", "talk", "every", "day"]
        let maxWidth = width("Stickers belong where") + width("p") / 2
        let lines = TextLayout.lines(words.joined(separator: " "), style: style, maxWidth: maxWidth)
        // Greedy breaking on the independent widths.
        var expected: [[String]] = [[]]
        for word in words {
            let candidate = (expected[expected.count - 1] + [word]).joined(separator: " ")
            if !expected[expected.count - 1].isEmpty && width(candidate) > maxWidth {
                expected.append([word])
            } else {
                expected[expected.count - 1].append(word)
            }
        }
        #expect(lines.count == expected.count, "\(lines.map(\.width)) vs \(expected)")
        for (line, words) in zip(lines, expected) {
            // HarfBuzz also applies Inter's kerning, a few tenths of a point a line.
            #expect(abs(line.width - width(words.joined(separator: " "))) < 2, "\(words): \(line.width)")
        }
        #expect(lines.allSatisfy { $0.width <= maxWidth })
    }

    @Test(
        "a date header ends a run: the bubble before it keeps its tail, and the header sits 11.33 pt below it by its ink"
    )
    func dateEndsRun() throws {
        let conversation = Conversation(events: [
            .text(.them, "before", service: .iMessage), .date("Yesterday 21:04"),
            .text(.them, "after", service: .iMessage)
        ])
        let renderer = try TranscriptRenderer(
            conversation, pack: StickerPack(name: "", origin: .files, stickers: []), options: Self.options())
        let bubbles = renderer.layout.items.filter { $0.message != nil }
        guard bubbles.count == 2, case .bubble(_, _, _, let tail) = bubbles[0].kind else {
            Issue.record("\(renderer.layout.items.map(\.kind))")
            return
        }
        #expect(tail, "the bubble before a date header is the last of its run")
        // The header's ink, found in the pixels: the first row below the first bubble's tail
        // with grey ink, and the last one.
        let image = try renderer.snapshot(at: 0)
        let background = PremultipliedRGBA(r: 255, g: 255, b: 255, a: 255)
        let from = Int(((bubbles[0].frame.maxY + MessagesMetrics.tailHang + 0.5) * 3).rounded(.up))
        let to = Int((bubbles[1].frame.y * 3).rounded(.down))
        let inked = (from..<to).filter { y in (0..<image.width).contains { image.pixel(x: $0, y: y) != background } }
        let first = try #require(inked.first)
        let last = try #require(inked.last)
        #expect(abs(Double(first) / 3 - (bubbles[0].frame.maxY + 11.33)) <= 0.67, "ink top \(Double(first) / 3)")
        #expect(abs(bubbles[1].frame.y - (Double(last + 1) / 3 + 8.0)) <= 0.67, "ink bottom \(Double(last + 1) / 3)")
    }

    @Test("Delivered's ink ends 20.3 pt in from the sent bubble's right edge and starts 8.08 pt below it")
    func deliveredInk() throws {
        let conversation = Conversation(events: [.text(.me, "on my way", service: .sms)])
        let renderer = try TranscriptRenderer(
            conversation, pack: StickerPack(name: "", origin: .files, stickers: []), options: Self.options())
        let bubble = try #require(renderer.layout.items.first)
        let image = try renderer.snapshot(at: 0)
        let background = PremultipliedRGBA(r: 255, g: 255, b: 255, a: 255)
        // Below the tail (which hangs 6.8), only the label has ink.
        let rows =
            Int(
                ((bubble.frame.maxY + MessagesMetrics.tailHang + 0.5) * 3).rounded(.up))..<Int(
                ((bubble.frame.maxY + 30) * 3))
        var right = 0
        var top = Int.max
        for y in rows {
            for x in 0..<image.width where image.pixel(x: x, y: y) != background {
                right = max(right, x + 1)
                top = min(top, y)
            }
        }
        #expect(
            abs(Double(right) / 3 - (bubble.frame.maxX - 20.3)) <= 0.67,
            "ink right \(Double(right) / 3) vs \(bubble.frame.maxX - 20.3)")
        #expect(abs(Double(top) / 3 - (bubble.frame.maxY + 8.08)) <= 0.67, "ink top \(Double(top) / 3)")
    }

    @Test("SMS green is the measured ramp in both appearances (it does not change with the theme)")
    func smsGreen() throws {
        for appearance in Appearance.allCases {
            let conversation = Conversation(events: [.text(.me, "hi", service: .sms)])
            let renderer = try TranscriptRenderer(
                conversation, pack: StickerPack(name: "", origin: .files, stickers: []),
                options: Self.options(scale: 1, appearance: appearance))
            let frame = try #require(renderer.layout.items.first?.frame)
            let row = Int(frame.y + 3)
            let t = Double(row) / 852
            let top: [Double] = [0x53, 0xE6, 0x78]
            let bottom: [Double] = [0x31, 0xC3, 0x55]
            let expected: [UInt8] = (0..<3).map { channel in
                let value: Double = top[channel] + (bottom[channel] - top[channel]) * t
                return UInt8(value.rounded())
            }
            let p = try renderer.snapshot(at: 0).pixel(x: Int(frame.x + frame.width / 2), y: row)
            #expect([p.r, p.g, p.b] == expected, "\(appearance)")
        }
    }

    @Test("an unknown sticker is an error naming it and its script line")
    func unknownSticker() throws {
        let parsed = try ConversationScript.parse("them: hi\n\nme: sticker nope")
        #expect(throws: TranscriptError.self) {
            try TranscriptRenderer(
                parsed.conversation, pack: StickerPack(name: "", origin: .files, stickers: []), lines: parsed.lines)
        }
        do {
            _ = try TranscriptRenderer(
                parsed.conversation, pack: StickerPack(name: "", origin: .files, stickers: []), lines: parsed.lines)
        } catch {
            #expect(error.description.hasPrefix("line 3: the pack has no sticker named nope"), "\(error)")
        }
    }

    @Test("a missing font is an error that names the file and the package to install")
    func missingFont() {
        var options = Self.options()
        options.fonts = TranscriptFonts(font: "/nonexistent/font.otf")
        do {
            _ = try TranscriptRenderer(
                Conversation(events: [.text(.me, "hi", service: .sms)]),
                pack: StickerPack(name: "", origin: .files, stickers: []),
                options: options)
            Issue.record("no error")
        } catch {
            #expect(error.description.contains("/nonexistent/font.otf"), "\(error)")
        }
    }
}

/// Template messages: the app's icon from a catalog's icon set, captions after it.
@Suite("Transcript: template messages", .timeLimit(.minutes(3)))
struct TranscriptTemplateTests {
    static let catalog = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("corpus/Sample.xcstickers")

    @Test(
        "a catalog's 27 x 20 pt icon is drawn at the caption bar's left, its mean colour the icon file's; captions start after it"
    )
    func appIcon() throws {
        let pack = try PackLoader.load(path: Self.catalog.path)
        let conversation = Conversation(events: [
            .template(.me, TemplateMessage(caption: "Table for two", trailingCaption: "$42"))
        ])
        var options = TranscriptOptions()
        options.scale = 3
        options.view = ViewSize(width: 393, height: 852)
        let renderer = try TranscriptRenderer(conversation, pack: pack, options: options)
        let item = try #require(renderer.layout.items.first)
        guard case .template(_, _, let parts) = item.kind, let icon = parts.icon else {
            Issue.record("no icon in \(item.kind)")
            return
        }
        #expect(icon.width == 27 && icon.height == 20 && parts.captionX == icon.x + 27 + 8)
        let image = try renderer.snapshot(at: 0)
        // The drawn icon's mean colour against the file's (both over all their pixels).
        let file = Self.catalog.appendingPathComponent("iMessage App Icon.stickersiconset/icon-27x20@3x-universal.png")
        let source = try AnimationDecoder(bytes: [UInt8](Data(contentsOf: file))).frame(at: 0)
        func mean(_ pixels: [UInt8]) -> [Double] {
            (0..<3).map { channel in
                stride(from: channel, to: pixels.count, by: 4).reduce(0.0) { $0 + Double(pixels[$1]) }
                    / Double(pixels.count / 4)
            }
        }
        let left = Int(((item.frame.x + icon.x) * 3).rounded())
        let top = Int(((item.frame.y + icon.y) * 3).rounded())
        var drawn: [UInt8] = []
        for y in top..<top + 60 {
            for x in left..<left + 81 { let p = image.pixel(x: x, y: y); drawn += [p.r, p.g, p.b, p.a] }
        }
        let expected = mean(source.pixels)
        let got = mean(drawn)
        for channel in 0..<3 {
            #expect(abs(expected[channel] - got[channel]) < 4, "channel \(channel): \(got) vs \(expected)")
        }
    }

    /// A template message of `caption` alone laid out at 1x: its parts, the balloon's width in
    /// points and the caption's text style.
    static func caption(_ caption: String) throws -> (TranscriptLayout.TemplateLayout, Double, TextStyle) {
        let conversation = Conversation(events: [.template(.them, TemplateMessage(caption: caption))])
        var options = TranscriptOptions()
        options.scale = 1
        let renderer = try TranscriptRenderer(
            conversation, pack: StickerPack(name: "", origin: .files, stickers: []), options: options)
        let item = try #require(renderer.layout.items.first)
        var template: TranscriptLayout.TemplateLayout?
        if case .template(_, _, let parts) = item.kind { template = parts }
        let style = try TextStyle(
            fonts: TranscriptFonts(), size: MessagesMetrics.captionFontSize, scale: 1,
            lineHeight: MessagesMetrics.captionLineHeight)
        return (try #require(template, "no template message laid out"), item.frame.width, style)
    }

    @Test("a caption longer than three lines stops at the third, with an ellipsis after the last word that fits")
    func truncatedCaption() throws {
        let (parts, _, style) = try Self.caption(String(repeating: "words that go on ", count: 30))
        let lines = try #require(parts.leading.first?.lines)
        #expect(lines.count == 3)
        let ellipsis = try #require(style.font.shape("…").first?.glyph)
        #expect(lines.last?.glyphs.last?.glyph.glyph == ellipsis)
        #expect(parts.icon == nil && parts.captionX == MessagesMetrics.captionPadding.x, "no icon without a catalog")
    }

    @Test(
        "a caption of one word longer than three lines shows its first two lines whole and the third cut, with an ellipsis",
        arguments: ["https://example.com/" + String(repeating: "a", count: 200), String(repeating: "W", count: 63)])
    func longWordCaption(caption: String) throws {
        let (parts, width, style) = try Self.caption(caption)
        let lines = try #require(parts.leading.first?.lines)
        // The word alone, wrapped between characters at the same width, takes more than three lines.
        let textWidth = width - 2 * MessagesMetrics.captionPadding.x
        let whole = TextLayout.lines(caption, style: style, maxWidth: textWidth)
        #expect(whole.count > 3)
        let glyphs = { (line: TextLine) in line.glyphs.map(\.glyph.glyph) }
        let ellipsis = try #require(style.font.shape("…").first?.glyph)
        #expect(lines.count == 3, "\(lines.count) lines")
        #expect(lines.count == 3 && glyphs(lines[0]) == glyphs(whole[0]) && glyphs(lines[1]) == glyphs(whole[1]))
        let third = try #require(lines.last.map(glyphs))
        #expect(third.last == ellipsis)
        // The third line is the word's next characters, as many as leave room for the ellipsis.
        let next = glyphs(whole[2])
        #expect(third.count >= 2 && Array(third.dropLast()) == Array(next.prefix(third.count - 1)))
        #expect(third.count - 1 >= next.count - 3, "\(third.count - 1) of \(next.count) characters kept")
        #expect(lines.allSatisfy { $0.width <= textWidth })
    }

    @Test(
        "a 30 x 16000 image is cropped to the box before it is scaled (no huge resize), and titles show only over an image"
    )
    func tallImage() throws {
        let files = RenderTests.Files()
        var pixels: [UInt8] = []
        for y in 0..<16_000 { for _ in 0..<30 { pixels += y < 8_000 ? [255, 0, 0, 255] : [0, 0, 255, 255] } }
        let tall = files.write("tall.png", PNGEncoder.encode(premultiplied: pixels, width: 30, height: 16_000))
        let conversation = Conversation(events: [
            .template(.them, TemplateMessage(image: tall.path, imageTitle: "Title", caption: "caption")),
            .template(.them, TemplateMessage(imageTitle: "No image", caption: "caption"))
        ])
        var options = TranscriptOptions()
        options.scale = 1
        options.showAll = true
        let renderer = try TranscriptRenderer(
            conversation, pack: StickerPack(name: "", origin: .files, stickers: []), options: options)
        let items = renderer.layout.items.filter { $0.message != nil }
        guard items.count == 2, case .template(_, _, let first) = items[0].kind,
            case .template(_, _, let second) = items[1].kind
        else {
            Issue.record("two template messages expected")
            return
        }
        // Clamped to 3:4: as tall as 4/3 of the balloon and the 12 pt cropped off.
        #expect(abs(first.image.height - (items[0].frame.width + 12) * 4 / 3) < 1e-9)
        #expect(first.titleLines.count == 1 && second.titleLines.isEmpty && second.image.height == 0)
        // The crop is the middle 40 rows of the column (30 x 4/3): red above its centre, blue below.
        let image = try renderer.snapshot(at: 0)
        let x = Int(items[0].frame.x + items[0].frame.width / 2)
        let upper = image.pixel(x: x, y: Int(items[0].frame.y + first.image.height * 0.25))
        let lower = image.pixel(x: x, y: Int(items[0].frame.y + first.image.height * 0.75))
        #expect(
            upper == PremultipliedRGBA(r: 255, g: 0, b: 0, a: 255)
                && lower == PremultipliedRGBA(r: 0, g: 0, b: 255, a: 255), "\(upper) \(lower)")
    }
}
