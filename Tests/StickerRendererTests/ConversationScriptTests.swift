import StickerRenderer
import StickerTranscript
import Testing

/// The conversation script: every kind of line read as written, and every mistake reported
/// with its line number and a message that says how it is written instead.
@Suite("Conversation scripts", .timeLimit(.minutes(3)))
struct ConversationScriptTests {
    @Test("the documented example reads event by event, with each event's line")
    func example() throws {
        let script = """
            # dinner plans
            pack: corpus/sample-pack
            date: Today 9:41

            them: Are we still on for tonight?
            me: yes!! 🎉
            me sms: running late
            me: sticker 01-bouncing-blob
            them: sticker 03-beating-heart
            me: "sticker party"
            peel 02-spinning-star on 2 at 0.85,0.10 scale 0.8 rotate -12
            me: message image=card.png image-title="Dinner" caption="Table for two" subcaption="8 pm" trailing-caption="$42"
            """
        let parsed = try ConversationScript.parse(script)
        #expect(parsed.conversation.pack == "corpus/sample-pack")
        let expected: [ConversationEvent] = [
            .date("Today 9:41"),
            .text(.them, "Are we still on for tonight?", service: .iMessage),
            .text(.me, "yes!! 🎉", service: .iMessage),
            .text(.me, "running late", service: .sms),
            .sticker(.me, name: "01-bouncing-blob"),
            .sticker(.them, name: "03-beating-heart"),
            .text(.me, "sticker party", service: .iMessage),
            .peel(Peel(sticker: "02-spinning-star", message: 2, x: 0.85, y: 0.10, scale: 0.8, rotation: -12)),
            .template(
                .me,
                TemplateMessage(
                    image: "card.png", imageTitle: "Dinner", caption: "Table for two", subcaption: "8 pm",
                    trailingCaption: "$42"))
        ]
        #expect(parsed.conversation.events == expected)
        #expect(parsed.lines == [3, 5, 6, 7, 8, 9, 10, 11, 12])
        #expect(parsed.conversation.messages.count == 7, "a date and a peel are not messages")
    }

    @Test("a peel's scale and rotation default to 1 and 0; CRLF line ends and tabs are accepted")
    func defaults() throws {
        let parsed = try ConversationScript.parse("them:\thi\r\npeel star on 1 at 0,1\r\n")
        #expect(
            parsed.conversation.events == [
                .text(.them, "hi", service: .iMessage), .peel(Peel(sticker: "star", message: 1, x: 0, y: 1))
            ])
    }

    @Test("a sticker name with spaces is written in double quotes, sent and peeled")
    func quotedNames() throws {
        let parsed = try ConversationScript.parse(
            "me: sticker \"my star\"\npeel \"a-b 2\" on 1 at 0.5,0.5 rotate 10\nthem: \"sticker my star\"\nme: sticker\t\"tab\""
        )
        #expect(
            parsed.conversation.events == [
                .sticker(.me, name: "my star"),
                .peel(Peel(sticker: "a-b 2", message: 1, x: 0.5, y: 0.5, rotation: 10)),
                .text(.them, "sticker my star", service: .iMessage),
                .sticker(.me, name: "tab")
            ])
    }

    @Test(
        "every mistake names its line and says what is expected",
        arguments: [
            ("me: hi\nyou: hello", 2, "expected `me:`, `them:`"),
            ("me: hi\n\nhello there", 3, "expected `me:`, `them:`, `date:`, `pack:` or `peel ...`"),
            ("me:", 1, "`me:` needs a text"),
            ("them sms:   ", 1, "`them:` needs a text"),
            ("me mms: hi", 1, "expected `me:`"),
            ("pack: a\npack: b", 2, "already named"),
            ("pack:", 1, "`pack:` needs a folder"),
            ("date:", 1, "`date:` needs the header's text"),
            ("me: sticker", 1, "needs the sticker's name"),
            ("me: sticker two words", 1, "in double quotes when it has spaces: `sticker \"my star\"`"),
            ("me: sticker \"my star", 1, "a quote opened is never closed"),
            ("me: sticker \"my\"star", 1, "a space after a closing quote"),
            ("me: sticker \"\"", 1, "a name in quotes is empty"),
            ("me: hi\npeel \"my star on 1 at 0.5,0.5", 2, "a quote opened is never closed"),
            ("me: message", 1, "at least one field"),
            ("me: message colour=red", 1, "unknown field `colour`"),
            ("me: message caption=a caption=b", 1, "given twice"),
            ("me: message caption=\"open", 1, "never closed"),
            ("me: message caption=\"a\"b", 1, "a space after"),
            ("me: message caption=", 1, "`caption` is empty"),
            ("me: message caption", 1, "expected FIELD=VALUE"),
            ("me: hi\npeel star on 1", 2, "a peel is written"),
            ("me: hi\npeel star on 0 at 0.5,0.5", 2, "from 1"),
            (
                "me: hi\npeel star on 2 at 0.5,0.5\nme: later", 2,
                "message 2 is not sent yet: 1 message comes before this line"
            ),
            (
                "date: Today\npeel star on 1 at 0.5,0.5", 2,
                "message 1 is not sent yet: 0 messages come before this line"
            ),
            ("me: hi\npeel star on 1 at 0.5", 2, "X,Y as fractions"),
            ("me: hi\npeel star on 1 at 1.5,0.5", 2, "outside the message"),
            ("me: hi\npeel star on 1 at 0.5,0.5 scale 9", 2, "`scale` takes a number from 0.25 to 4.0"),
            ("me: hi\npeel star on 1 at 0.5,0.5 rotate nan", 2, "`rotate` takes degrees"),
            ("me: hi\npeel star on 1 at 0.5,0.5 rotate", 2, "`rotate` needs a number"),
            ("me: hi\npeel star on 1 at 0.5,0.5 spin 3", 2, "unknown `spin`"),
            // Hexadecimal, which Swift's Double reads, is no number here; nor is an option given twice.
            ("me: hi\npeel star on 1 at 0x1,0.5", 2, "X,Y as fractions"),
            ("me: hi\npeel star on 1 at 0.5,0.5 scale 0x2", 2, "`scale` takes a number from 0.25 to 4.0"),
            ("me: hi\npeel star on 1 at 0.5,0.5 rotate 0x10", 2, "`rotate` takes degrees"),
            ("me: hi\npeel star on 1 at 0.5,0.5 scale 2 scale 3", 2, "`scale` is given twice"),
            // A text that starts with "message" is told how to be sent as text.
            (
                "me: message me when you get there", 1,
                "expected FIELD=VALUE, found `me`; to send this as text, put it all in double quotes"
            ),
            ("", 1, "the script sends no messages"),
            ("pack: here\ndate: Today 9:41\n# nothing said", 3, "the script sends no messages"),
            ("pack: here\ndate: Today 9:41\n\n", 2, "the script sends no messages")
        ])
    func mistakes(script: String, line: Int, words: String) {
        #expect(throws: ConversationScriptError.self) { try ConversationScript.parse(script) }
        do {
            _ = try ConversationScript.parse(script)
        } catch {
            #expect(error.line == line, "\(error)")
            #expect(error.message.contains(words), "\(error)")
            #expect(error.description.hasPrefix("line \(line): "))
        }
    }

    @Test(
        "a pack given alone gets a conversation with every sticker sent once, sides alternating, and one peel onto a bubble"
    )
    func defaultConversation() {
        let names = ["a", "b", "c"]
        let conversation = Conversation.default(stickers: names)
        let sent = conversation.events.compactMap { event -> (Sender, String)? in
            if case .sticker(let sender, let name) = event { return (sender, name) }
            return nil
        }
        #expect(sent.map(\.1) == names)
        #expect(sent.map(\.0) == [.me, .them, .me])
        let texts = conversation.events.filter { if case .text = $0 { return true } else { return false } }
        #expect(texts.count >= 3)
        let peels = conversation.events.compactMap { event -> Peel? in
            if case .peel(let peel) = event { return peel }
            return nil
        }
        #expect(peels.count == 1)
        if let peel = peels.first {
            let target = conversation.messages[peel.message - 1]
            if case .text = target {} else { Issue.record("the peel lands on \(target), not a bubble") }
        }
    }
}
