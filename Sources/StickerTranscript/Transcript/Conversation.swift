import StickerPack
import StickerRenderer

/// A conversation as Messages shows it: who sent what, in order. Written by hand as a small
/// text file (``ConversationScript``) or made for a pack (``Conversation/default(stickers:)``).
public struct Conversation: Sendable, Hashable {
    /// The sticker pack the conversation's stickers come from (as written: relative to the
    /// script's folder), if the script names one.
    public var pack: String?
    /// The events, first to last.
    public var events: [ConversationEvent]

    /// Creates a conversation.
    public init(pack: String? = nil, events: [ConversationEvent] = []) {
        self.pack = pack
        self.events = events
    }

    /// The messages (events that take a place in the transcript), in order: what a peel's
    /// `on N` counts, from 1.
    public var messages: [ConversationEvent] { events.filter(\.isMessage) }
}

/// Who sent a message: the phone's owner (right side, blue or green) or the other person.
public enum Sender: String, Sendable, Hashable, CaseIterable {
    /// The phone's owner: right-aligned.
    case me
    /// The other person: left-aligned, grey.
    case them
}

/// The service a text went by: iMessage (blue) or SMS (green).
public enum MessageService: String, Sendable, Hashable {
    /// iMessage: a blue bubble when sent.
    case iMessage = "imessage"
    /// SMS / MMS: a green bubble when sent.
    case sms
}

/// A sticker stuck onto a message: where on it (its centre, as fractions of the message's
/// width and height from its top left), how big (× its point size) and how turned.
public struct Peel: Sendable, Hashable {
    /// The sticker's name in the pack.
    public var sticker: String
    /// The message it is stuck on, counted from 1 over ``Conversation/messages``.
    public var message: Int
    /// The sticker's centre, as a fraction of the message's width from its left edge.
    public var x: Double
    /// The sticker's centre, as a fraction of the message's height from its top edge.
    public var y: Double
    /// The sticker's scale against its point size (Messages allows about 0.5-1.5 when peeling).
    public var scale: Double
    /// Clockwise rotation in degrees.
    public var rotation: Double

    /// Creates a peel.
    public init(sticker: String, message: Int, x: Double, y: Double, scale: Double = 1, rotation: Double = 0) {
        self.sticker = sticker
        self.message = message
        self.x = x
        self.y = y
        self.scale = scale
        self.rotation = rotation
    }
}

/// An interactive message an iMessage app sends, drawn from the fields of an
/// `MSMessageTemplateLayout`.
public struct TemplateMessage: Sendable, Hashable {
    /// The image (a file path, as written: relative to the script's folder), if any.
    public var image: String?
    /// White text over the image's bottom left.
    public var imageTitle: String?
    /// White text under the image title.
    public var imageSubtitle: String?
    /// The caption bar's first line, on the left.
    public var caption: String?
    /// The caption bar's second line, on the left.
    public var subcaption: String?
    /// The caption bar's first line, on the right.
    public var trailingCaption: String?
    /// The caption bar's second line, on the right.
    public var trailingSubcaption: String?

    /// Creates a template message.
    public init(
        image: String? = nil, imageTitle: String? = nil, imageSubtitle: String? = nil, caption: String? = nil,
        subcaption: String? = nil, trailingCaption: String? = nil, trailingSubcaption: String? = nil
    ) {
        self.image = image
        self.imageTitle = imageTitle
        self.imageSubtitle = imageSubtitle
        self.caption = caption
        self.subcaption = subcaption
        self.trailingCaption = trailingCaption
        self.trailingSubcaption = trailingSubcaption
    }
}

/// One line of a conversation.
public enum ConversationEvent: Sendable, Hashable {
    /// A text bubble.
    case text(Sender, String, service: MessageService)
    /// A sticker sent on its own: no bubble, on the sender's side.
    case sticker(Sender, name: String)
    /// An interactive message from an iMessage app.
    case template(Sender, TemplateMessage)
    /// A sticker peeled from the browser and stuck onto an earlier message.
    case peel(Peel)
    /// A date header, centred (for example "Today 9:41").
    case date(String)

    /// Whether the event takes a place of its own in the transcript (a peel and a date do not
    /// count as messages).
    public var isMessage: Bool {
        switch self {
        case .text, .sticker, .template: return true
        case .peel, .date: return false
        }
    }

    /// The name of the sticker the event sends or peels; `nil` for any other event.
    public var stickerName: String? {
        switch self {
        case .sticker(_, let name): return name
        case .peel(let peel): return peel.sticker
        case .text, .template, .date: return nil
        }
    }
}

extension Conversation {
    /// The conversation `stickers transcript` writes for a pack given alone: a few bubbles both
    /// ways, each sticker sent once (alternating sides), and the first sticker peeled onto the
    /// bubble that answers them.
    public static func `default`(stickers: [String]) -> Conversation {
        var events: [ConversationEvent] = [
            .date("Today 9:41"),
            .text(.them, "Did the new stickers come through?", service: .iMessage),
            .text(.me, "They did! Sending a few now", service: .iMessage)
        ]
        for (index, name) in stickers.enumerated() {
            events.append(.sticker(index % 2 == 0 ? .me : .them, name: name))
        }
        events.append(.text(.them, "Love them 😍", service: .iMessage))
        // On "Love them", near the end, so the one screen scrolled to the latest shows it; at
        // the short bubble's right end, over the room beside it more than its text.
        let loveThem = events.filter(\.isMessage).count
        events.append(.text(.me, "Which one is your favourite?", service: .iMessage))
        if let first = stickers.first {
            events.append(.peel(Peel(sticker: first, message: loveThem, x: 0.95, y: 0.5, scale: 0.7, rotation: -12)))
        }
        return Conversation(events: events)
    }

    /// ``default(stickers:)`` for every sticker of `pack`, each sent by the word that picks it
    /// out alone (``StickerPack/reference(of:)``: `a.gif` where `a.png` shares its name).
    public static func `default`(for pack: StickerPack) -> Conversation {
        .default(stickers: pack.references)
    }
}
