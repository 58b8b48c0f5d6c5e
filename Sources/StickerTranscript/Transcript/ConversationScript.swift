import StickerRenderer

/// Reads a conversation written by hand, one event a line (docs/transcript.md has the whole
/// syntax):
///
/// ```
/// # a comment
/// pack: corpus/sample-pack
/// date: Today 9:41
/// them: Are we still on for tonight?
/// me: yes!! 🎉
/// me sms: running late
/// me: sticker 01-bouncing-blob
/// peel 02-spinning-star on 2 at 0.85,0.10 scale 0.8 rotate -12
/// me: message image=card.png image-title="Dinner" caption="Table for two" trailing-caption="$42"
/// ```
///
/// Every mistake is a ``ConversationScriptError`` with its line number.
public enum ConversationScript {
    /// Scales a peel may have.
    public static let peelScales: ClosedRange<Double> = 0.25...4
    /// The most peels a conversation may have: each is drawn rotated and scaled over the
    /// others in every frame, so a script of thousands would draw for hours.
    public static let maxPeels = 64

    /// The fields of a `message` line, as written, in the order they are documented.
    public static let templateFields = [
        "image", "image-title", "image-subtitle", "caption", "subcaption",
        "trailing-caption", "trailing-subcaption"
    ]

    /// Parses `text`; the result's ``ParsedConversation/lines`` gives each event's line number.
    public static func parse(_ text: String) throws(ConversationScriptError) -> ParsedConversation {
        var parsed = ParsedConversation(conversation: Conversation(), lines: [])
        var messages = 0
        var peels = 0
        // A byte-order mark (Windows editors write one before UTF-8) is no text.
        let text = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        for (offset, rawLine) in lines.enumerated() {
            let number = offset + 1
            let line = rawLine.trimmingSuffix("\r").trimmed
            if line.isEmpty || line.hasPrefix("#") { continue }
            func fail(_ message: String) -> ConversationScriptError {
                ConversationScriptError(line: number, message: message)
            }

            let event: ConversationEvent
            if line.hasPrefix("peel ") || line == "peel" {
                peels += 1
                guard peels <= maxPeels else { throw fail("a conversation has at most \(maxPeels) peels") }
                event = .peel(try parsePeel(line, messagesSoFar: messages, fail: fail))
            } else if let colon = line.firstIndex(of: ":") {
                let key = line[..<colon].trimmed
                let value = line[line.index(after: colon)...].trimmed
                switch key {
                case "pack":
                    guard parsed.conversation.pack == nil else {
                        throw fail("the pack is already named; a conversation has one pack")
                    }
                    guard !value.isEmpty else { throw fail("`pack:` needs a folder or catalog path") }
                    parsed.conversation.pack = value
                    parsed.packLine = number
                    continue
                case "date":
                    guard !value.isEmpty else {
                        throw fail("`date:` needs the header's text, for example `date: Today 9:41`")
                    }
                    event = .date(value)
                default:
                    let words = key.split(separator: " ")
                    guard let first = words.first, let sender = Sender(rawValue: String(first)), words.count <= 2,
                        words.count == 1 || words[1] == "sms"
                    else {
                        throw fail(
                            "expected `me:`, `them:`, `me sms:`, `them sms:`, `date:`, `pack:` or `peel`, found `\(key):`"
                        )
                    }
                    event = try parseMessage(
                        value, sender: sender, service: words.count == 2 ? .sms : .iMessage, fail: fail)
                }
            } else {
                throw fail("expected `me:`, `them:`, `date:`, `pack:` or `peel ...`, found `\(line.prefix(40))`")
            }
            if event.isMessage { messages += 1 }
            parsed.conversation.events.append(event)
            parsed.lines.append(number)
        }
        // An empty script (the wrong file, or one not yet written) would draw an empty screen.
        guard messages > 0 else {
            let lastWritten = lines.lastIndex { !$0.trimmingSuffix("\r").trimmed.isEmpty }.map { $0 + 1 } ?? 1
            throw ConversationScriptError(
                line: lastWritten,
                message: "the script sends no messages: write one a line, such as `me: Hello` or `them: sticker NAME`")
        }
        return parsed
    }

    /// The part after `me:` or `them:`: a sticker, a template message or a text.
    private static func parseMessage(
        _ value: String, sender: Sender, service: MessageService,
        fail: (String) -> ConversationScriptError
    ) throws(ConversationScriptError) -> ConversationEvent {
        guard !value.isEmpty else {
            throw fail("`\(sender.rawValue):` needs a text, `sticker NAME` or `message FIELD=VALUE ...`")
        }
        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
            // Quoted: the text as it is, even when it starts with `sticker` or `message`.
            return .text(sender, String(value.dropFirst().dropLast()), service: service)
        }
        switch value.split(whereSeparator: { $0 == " " || $0 == "\t" }).first {
        case "sticker":
            let words = try quotedWords(value, fail: fail)
            guard words.count == 2 else {
                throw fail(
                    words.count == 1
                        ? "`sticker` needs the sticker's name, for example `sticker 01-bouncing-blob`"
                        : "`sticker` takes one name (in double quotes when it has spaces: `sticker \"my star\"`); to send this as text, put it all in double quotes"
                )
            }
            return .sticker(sender, name: words[1])
        case "message":
            let fields: [(String, String)]
            do {
                fields = try parseFields(value.dropFirst("message".count), fail: fail)
            } catch {
                // A text that happens to start with the word (its next word is no FIELD=VALUE):
                // say how to send it as text.
                let next = value.dropFirst("message".count).split(separator: " ").first
                guard let next, !next.contains("=") else { throw error }
                throw ConversationScriptError(
                    line: error.line, message: error.message + "; to send this as text, put it all in double quotes")
            }
            var template = TemplateMessage()
            for (name, text) in fields {
                switch name {
                case "image": template.image = text
                case "image-title": template.imageTitle = text
                case "image-subtitle": template.imageSubtitle = text
                case "caption": template.caption = text
                case "subcaption": template.subcaption = text
                case "trailing-caption": template.trailingCaption = text
                case "trailing-subcaption": template.trailingSubcaption = text
                default:
                    throw fail("unknown field `\(name)`: a message takes \(templateFields.joined(separator: ", "))")
                }
            }
            guard !fields.isEmpty else {
                throw fail("`message` needs at least one field, for example `message caption=\"Hello\"`")
            }
            if template.image == nil, template.imageTitle != nil || template.imageSubtitle != nil {
                throw fail(
                    "`image-title` and `image-subtitle` go with `image=FILE`: they are written over the image (use `caption=` without one)"
                )
            }
            return .template(sender, template)
        default:
            return .text(sender, value, service: service)
        }
    }

    /// The words of `text`, split at spaces and tabs; a word in double quotes keeps its spaces (a
    /// sticker's name such as `"my star"`), its quotes dropped.
    static func quotedWords(_ text: String, fail: (String) -> ConversationScriptError)
        throws(ConversationScriptError) -> [String]
    {
        var words: [String] = []
        var rest = text[...]
        while let start = rest.firstIndex(where: { $0 != " " && $0 != "\t" }) {
            rest = rest[start...]
            if rest.first == "\"" {
                let body = rest.dropFirst()
                guard let close = body.firstIndex(of: "\"") else { throw fail("a quote opened is never closed") }
                guard close > body.startIndex else { throw fail("a name in quotes is empty") }
                words.append(String(body[..<close]))
                rest = body[body.index(after: close)...]
                guard rest.isEmpty || rest.first == " " || rest.first == "\t" else {
                    throw fail("expected a space after a closing quote")
                }
            } else {
                let end = rest.firstIndex(where: { $0 == " " || $0 == "\t" }) ?? rest.endIndex
                words.append(String(rest[..<end]))
                rest = rest[end...]
            }
        }
        return words
    }

    /// `name=value name="a value" ...`, each name once.
    private static func parseFields(_ text: Substring, fail: (String) -> ConversationScriptError)
        throws(ConversationScriptError) -> [(String, String)]
    {
        var fields: [(String, String)] = []
        var rest = text.trimmed[...]
        while !rest.isEmpty {
            guard let equals = rest.firstIndex(of: "="), !rest[..<equals].contains(" ") else {
                throw fail("expected FIELD=VALUE, found `\(rest.prefix(while: { $0 != " " }))`")
            }
            let name = String(rest[..<equals])
            guard !fields.contains(where: { $0.0 == name }) else { throw fail("the field `\(name)` is given twice") }
            rest = rest[rest.index(after: equals)...]
            let value: Substring
            if rest.first == "\"" {
                let body = rest.dropFirst()
                guard let close = body.firstIndex(of: "\"") else {
                    throw fail("the quote that opens `\(name)`'s value is never closed")
                }
                value = body[..<close]
                rest = body[body.index(after: close)...]
                guard rest.isEmpty || rest.first == " " else {
                    throw fail("expected a space after `\(name)`'s closing quote")
                }
            } else {
                let end = rest.firstIndex(of: " ") ?? rest.endIndex
                value = rest[..<end]
                rest = rest[end...]
            }
            guard !value.isEmpty else { throw fail("`\(name)` is empty") }
            fields.append((name, String(value)))
            rest = rest.trimmed[...]
        }
        return fields
    }

    /// `peel NAME on N at X,Y [scale S] [rotate DEGREES]`.
    private static func parsePeel(
        _ line: String, messagesSoFar: Int,
        fail: (String) -> ConversationScriptError
    ) throws(ConversationScriptError) -> Peel {
        let usage = "`peel NAME on MESSAGE at X,Y [scale S] [rotate DEGREES]`"
        let words = try quotedWords(line, fail: fail)
        guard words.count >= 6, words[2] == "on", words[4] == "at" else { throw fail("a peel is written \(usage)") }
        guard let message = Int(words[3]), message >= 1 else {
            throw fail("`on` takes a message number from 1, found `\(words[3])`")
        }
        guard message <= messagesSoFar else {
            throw fail(
                "message \(message) is not sent yet: \(messagesSoFar == 1 ? "1 message comes" : "\(messagesSoFar) messages come") before this line"
            )
        }
        let position = words[5].split(separator: ",", omittingEmptySubsequences: false)
        guard position.count == 2, let x = DurationParsing.decimal(position[0]),
            let y = DurationParsing.decimal(position[1])
        else {
            throw fail("`at` takes X,Y as fractions of the message's width and height, for example `at 0.85,0.10`")
        }
        guard (0...1).contains(x), (0...1).contains(y) else {
            throw fail("`at` \(words[5]) is outside the message: X and Y go from 0 to 1")
        }
        var peel = Peel(sticker: words[1], message: message, x: x, y: y)
        var index = 6
        var given: Set<String> = []
        while index < words.count {
            guard index + 1 < words.count else {
                throw fail("`\(words[index])` needs a number; a peel is written \(usage)")
            }
            guard given.insert(words[index]).inserted else { throw fail("`\(words[index])` is given twice") }
            // Decimal only: Swift's Double reads hexadecimal (0x10) too.
            let number = DurationParsing.decimal(Substring(words[index + 1]))
            switch words[index] {
            case "scale":
                guard let scale = number, peelScales.contains(scale) else {
                    throw fail(
                        "`scale` takes a number from \(peelScales.lowerBound) to \(peelScales.upperBound), found `\(words[index + 1])`"
                    )
                }
                peel.scale = scale
            case "rotate":
                guard let degrees = number, degrees.isFinite, abs(degrees) <= 360 else {
                    throw fail("`rotate` takes degrees from -360 to 360, found `\(words[index + 1])`")
                }
                peel.rotation = degrees
            default:
                throw fail("unknown `\(words[index])`; a peel is written \(usage)")
            }
            index += 2
        }
        return peel
    }
}

/// A conversation read from a script, with the line each event came from (for later errors,
/// such as a sticker the pack does not have).
public struct ParsedConversation: Sendable, Hashable {
    /// The conversation.
    public var conversation: Conversation
    /// The line number of each of `conversation.events`.
    public var lines: [Int]
    /// The line of `pack:`, when there is one.
    public var packLine: Int?

    /// A conversation with the line of each event (empty when it was not read from a script).
    public init(conversation: Conversation, lines: [Int]) {
        self.conversation = conversation
        self.lines = lines
    }
}

/// A mistake in a conversation script, with its line.
public struct ConversationScriptError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The line, from 1.
    public var line: Int
    /// What is wrong and how it is written instead.
    public var message: String

    /// Creates an error.
    public init(line: Int, message: String) {
        self.line = line
        self.message = message
    }

    /// `line 3: ...`.
    public var description: String { "line \(line): \(message)" }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmed: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }

    /// Without one `suffix` at the end.
    fileprivate func trimmingSuffix(_ suffix: Character) -> SubSequence {
        last == suffix ? dropLast() : self[...]
    }
}
