import AnimationCodec
import Foundation
import StickerPack
import StickerRenderer
import StickerTranscript
import TestSupport
import Testing

/// Hostile conversation scripts: every prefix and thousands of corruptions of a real script end
/// in a conversation or a typed error on a line that exists, and a conversation too long to draw
/// whole is refused before its canvas is allocated.
@Suite("Conversation scripts: hostile input", .timeLimit(.minutes(5)))
struct ConversationHostileTests {
    static let script = """
        # dinner plans
        pack: sample-pack
        date: Today 9:41
        them: Are we still on for tonight?
        me: yes!! 🎉
        me sms: running late
        me: sticker 01-bouncing-blob
        them: "sticker party"
        peel 02-spinning-star on 2 at 0.85,0.10 scale 0.8 rotate -12
        me: message image=card.png image-title="Dinner" caption="Table for two" trailing-caption="$42"
        """

    /// Parses `text`: a conversation whose events each have a line, or an error on a line of it.
    static func check(_ text: String) {
        let lineCount = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .count
        do {
            let parsed = try ConversationScript.parse(text)
            #expect(parsed.lines.count == parsed.conversation.events.count)
            #expect(parsed.lines.allSatisfy { (1...lineCount).contains($0) })
            for event in parsed.conversation.events {
                if case .peel(let peel) = event {
                    #expect(
                        peel.message >= 1 && (0...1).contains(peel.x) && (0...1).contains(peel.y)
                            && ConversationScript.peelScales.contains(peel.scale))
                }
            }
        } catch {
            #expect((1...lineCount).contains(error.line), "\(error) in a script of \(lineCount) lines")
            #expect(!error.message.isEmpty)
        }
    }

    @Test("every prefix of a script, by character, parses or fails on one of its lines")
    func prefixes() {
        var prefix = ""
        for character in Self.script {
            prefix.append(character)
            Self.check(prefix)
        }
    }

    @Test(
        "5,000 corruptions (bytes changed, dropped, doubled; invalid UTF-8 repaired) parse or fail on one of their lines"
    )
    func corruptions() {
        var random = SplitMix(seed: 0x5C21)
        let bytes = Array(Self.script.utf8)
        let specials: [UInt8] = [0x0A, 0x0D, 0x22, 0x3A, 0x3D, 0x2C, 0x20, 0x00, 0xFF, 0x2D, 0x30, 0x2E]
        for _ in 0..<5_000 {
            var corrupted = bytes
            for _ in 0..<(1 + Int(random.next() % 4)) {
                let index = Int(random.next() % UInt64(corrupted.count))
                switch random.next() % 3 {
                case 0:
                    corrupted[index] =
                        random.next() % 2 == 0
                        ? specials[Int(random.next() % UInt64(specials.count))]
                        : UInt8(truncatingIfNeeded: random.next())
                case 1: corrupted.remove(at: index)
                default: corrupted.insert(corrupted[index], at: index)
                }
                if corrupted.isEmpty { corrupted = [0x23] }
            }
            Self.check(String(decoding: corrupted, as: UTF8.self))
        }
    }

    @Test("64 peels parse; a 65th, which would be drawn over the others in every frame, is refused on its line")
    func peelLimit() throws {
        let peel = "peel 02-spinning-star on 1 at 0.5,0.5 scale 4 rotate 45\n"
        let allowed = "me: hi\n" + String(repeating: peel, count: 64)
        #expect(try ConversationScript.parse(allowed).conversation.events.count == 65)
        #expect(throws: ConversationScriptError(line: 66, message: "a conversation has at most 64 peels")) {
            try ConversationScript.parse(allowed + peel)
        }
    }

    @Test(
        "100,000 messages parse in one pass; drawn whole they are refused by the pixel limit before any canvas, one screen draws"
    )
    func longConversation() throws {
        let text = String(repeating: "them: hello there\nme: hi\n", count: 50_000)
        let parsed = try ConversationScript.parse(text)
        #expect(parsed.conversation.messages.count == 100_000)
        var options = TranscriptOptions()
        options.scale = 1
        options.showAll = true
        let empty = StickerPack(name: "", origin: .files, stickers: [])
        #expect(throws: TranscriptError.self) {
            try TranscriptRenderer(parsed.conversation, pack: empty, options: options)
        }
        do {
            _ = try TranscriptRenderer(parsed.conversation, pack: empty, options: options)
        } catch {
            #expect(error.description.contains("over the limit"), "\(error)")
        }
        options.showAll = false
        let renderer = try TranscriptRenderer(parsed.conversation, pack: empty, options: options)
        let image = try renderer.snapshot(at: 0)
        #expect(image.width == 393 && image.height == 852)
        #expect(renderer.scrolled > 1_000_000, "scrolled to the end of a conversation millions of points long")
    }

    @Test("a single text of 200,000 characters wraps into one tall bubble and one screen of it draws")
    func hugeBubble() throws {
        let words = String(repeating: "stickers ", count: 22_222)
        let conversation = Conversation(events: [.text(.me, words, service: .iMessage)])
        var options = TranscriptOptions()
        options.scale = 1
        let renderer = try TranscriptRenderer(
            conversation, pack: StickerPack(name: "", origin: .files, stickers: []), options: options)
        let bubble = try #require(renderer.layout.items.first)
        #expect(bubble.frame.height > 50_000)
        #expect(bubble.frame.width <= 280.33 / 402 * 393 + 1e-9)
        _ = try renderer.snapshot(at: 0)
    }
}
