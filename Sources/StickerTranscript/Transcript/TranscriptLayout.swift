import StickerPack
import StickerRenderer

/// Light or dark.
public enum Appearance: String, Sendable, Hashable, CaseIterable {
    /// White screen, grey received bubbles.
    case light
    /// Black screen, dark grey received bubbles.
    case dark

    /// The colours.
    public var palette: MessagesPalette { self == .light ? .light : .dark }
}

/// A rectangle in points.
public struct PointRect: Sendable, Hashable {
    /// Left edge.
    public var x: Double
    /// Top edge.
    public var y: Double
    /// Width.
    public var width: Double
    /// Height.
    public var height: Double

    /// Creates a rectangle.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Right edge.
    public var maxX: Double { x + width }
    /// Bottom edge.
    public var maxY: Double { y + height }
}

/// Where everything of a conversation goes, in points from the top of the whole transcript.
public struct TranscriptLayout {
    /// One placed thing.
    public struct Item {
        /// What it is.
        public enum Kind {
            /// A date header: its line, centred.
            case date(TextLine)
            /// A text bubble: its lines, sender, service, and whether it has the tail.
            case bubble(lines: [TextLine], sender: Sender, service: MessageService, tail: Bool)
            /// A sticker sent alone.
            case sticker(name: String, sender: Sender)
            /// A template message.
            case template(TemplateMessage, sender: Sender, layout: TemplateLayout)
            /// "Delivered" under the last sent message.
            case delivered(TextLine)
        }
        /// What it is.
        public var kind: Kind
        /// Its box (a bubble's body, without the tail).
        public var frame: PointRect
        /// Its number among the messages (from 1), for a message.
        public var message: Int?
        /// The index of the conversation's event it shows (`nil` for "Delivered").
        public var event: Int?

        /// Every line of text it draws.
        public var lines: [TextLine] {
            switch kind {
            case .date(let line), .delivered(let line): [line]
            case .bubble(let lines, _, _, _): lines
            case .sticker: []
            case .template(_, _, let layout):
                layout.titleLines + layout.subtitleLines + (layout.leading + layout.trailing).flatMap(\.lines)
            }
        }
    }

    /// The template message's parts, in points from its top left.
    public struct TemplateLayout {
        /// The image's box (zero height without an image).
        public var image: PointRect
        /// The title and subtitle lines over the image.
        public var titleLines: [TextLine]
        /// The subtitle lines.
        public var subtitleLines: [TextLine]
        /// The caption bar's box.
        public var bar: PointRect
        /// Left column: caption then subcaption lines.
        public var leading: [(lines: [TextLine], secondary: Bool)]
        /// Right column: trailing caption then trailing subcaption lines.
        public var trailing: [(lines: [TextLine], secondary: Bool)]
        /// The app's icon in the caption bar, when the pack has one.
        public var icon: PointRect?
        /// Where the captions start, from the balloon's left.
        public var captionX: Double
    }

    /// The screen's width in points.
    public let width: Double
    /// The items, top to bottom (peels are not items: they are drawn over them).
    public let items: [Item]

    /// Each message's frame, by its number (from 1), as a peel names it.
    public var messageFrames: [Int: PointRect] {
        Dictionary(items.compactMap { item in item.message.map { ($0, item.frame) } }, uniquingKeysWith: { a, _ in a })
    }
    /// The whole transcript's height.
    public let contentHeight: Double

    /// Lays out `conversation` for a screen `width` points wide; `stickerPixels` gives each
    /// sticker's pixel size, `imagePixels` each template image's.
    /// With `hasIcon`, template messages show the app's icon in their caption bar.
    public init(
        _ conversation: Conversation, width: Double, styles: TranscriptStyles,
        stickerPixels: [String: (width: Int, height: Int)], imagePixels: [String: (width: Int, height: Int)] = [:],
        hasIcon: Bool = false
    ) {
        typealias M = MessagesMetrics
        self.width = width
        let maxBubble = M.bubbleMaximumWidthRatio * width
        var items: [Item] = []
        var y = M.screenInset
        var previous: Sender?
        var messageNumber = 0
        func sender(of event: ConversationEvent) -> Sender? {
            switch event {
            case .text(let sender, _, _), .sticker(let sender, _), .template(let sender, _): return sender
            case .peel, .date: return nil
            }
        }
        // A run ends at a message from someone else, at a date header, or at the end: the
        // sender of the next message or date after each event (nil for a date or the end).
        let shownIndices = conversation.events.indices.filter {
            if case .peel = conversation.events[$0] { false } else { true }
        }
        let shown = shownIndices.map { conversation.events[$0] }
        let lastSent = shown.lastIndex { sender(of: $0) == .me }
        for (index, event) in shown.enumerated() {
            if case .date(let text) = event {
                let line = TextLayout.lines(text, style: styles.label)[0]
                let baseline: Double
                if items.isEmpty {
                    // The opening header: a line box at the top, the first message 7.6 below it.
                    baseline = y + TranscriptRenderer.baseline(styles.label, lineHeight: M.labelLineHeight)
                    y += M.labelLineHeight + M.dateHeaderGap
                } else {
                    // Between messages: placed by its ink, measured from the messages around it.
                    let ink = TextLayout.inkBounds(of: line, style: styles.label)
                    baseline = y + M.dateHeaderInkGaps.above - ink.top
                    y = baseline + ink.bottom + M.dateHeaderInkGaps.below
                }
                items.append(
                    Item(
                        kind: .date(line),
                        frame: PointRect(
                            x: (width - line.width) / 2, y: baseline - styles.label.ascender,
                            width: line.width, height: styles.label.ascender + styles.label.descender),
                        event: shownIndices[index]))
                previous = nil
                continue
            }
            let from = sender(of: event)!
            if let previous { y += previous == from ? M.gapInRun : M.gapBetweenRuns }
            messageNumber += 1
            let next = index + 1 < shown.count ? sender(of: shown[index + 1]) : nil
            var item: Item
            switch event {
            case .text(_, let text, let service):
                let lines = TextLayout.lines(
                    text, style: styles.body, maxWidth: maxBubble - 2 * M.bubblePaddingHorizontal)
                let bubbleWidth = min(
                    maxBubble, max(M.bubbleMinimumWidth, TextLayout.width(of: lines) + 2 * M.bubblePaddingHorizontal))
                let height = Double(lines.count) * M.bodyLineHeight + 2 * M.bubblePaddingVertical
                let x = from == .me ? width - M.edgeInset - bubbleWidth : M.edgeInset
                item = Item(
                    kind: .bubble(lines: lines, sender: from, service: service, tail: next != from),
                    frame: PointRect(x: x, y: y, width: bubbleWidth, height: height), message: messageNumber)
            case .sticker(_, let name):
                let size = Self.stickerPoints(stickerPixels[name] ?? (M.defaultStickerPixels, M.defaultStickerPixels))
                let x = from == .me ? width - M.edgeInset - size.width : M.edgeInset
                item = Item(
                    kind: .sticker(name: name, sender: from),
                    frame: PointRect(x: x, y: y, width: size.width, height: size.height),
                    message: messageNumber)
            case .template(_, let template):
                let layout = Self.templateLayout(
                    template, width: maxBubble, styles: styles,
                    imagePixels: template.image.flatMap { imagePixels[$0] }, hasIcon: hasIcon)
                let height = layout.bar.maxY
                let x = from == .me ? width - M.edgeInset - maxBubble : M.edgeInset
                item = Item(
                    kind: .template(template, sender: from, layout: layout),
                    frame: PointRect(x: x, y: y, width: maxBubble, height: height),
                    message: messageNumber)
            case .peel, .date:
                continue
            }
            item.event = shownIndices[index]
            items.append(item)
            y = item.frame.maxY
            if index == lastSent {
                // "Delivered" under the last sent message, placed by its ink: its top
                // deliveredGap below the message, its right edge deliveredInset in from the message's.
                let line = TextLayout.lines("Delivered", style: styles.labelBold)[0]
                let ink = TextLayout.inkBounds(of: line, style: styles.labelBold)
                let baseline = y + M.deliveredGap - ink.top
                let x = item.frame.maxX - M.deliveredInset - ink.right
                items.append(
                    Item(
                        kind: .delivered(line),
                        frame: PointRect(
                            x: x, y: baseline - styles.labelBold.ascender, width: line.width,
                            height: styles.labelBold.ascender + styles.labelBold.descender)))
                y = baseline + styles.labelBold.descender
            }
            previous = from
        }
        self.items = items
        contentHeight = y + M.screenInset
    }

    /// A sticker's size in points: its pixels / 3, scaled to keep the longer side within 100-206.
    public static func stickerPoints(_ pixels: (width: Int, height: Int)) -> (width: Double, height: Double) {
        let longer = Double(max(pixels.width, pixels.height, 1)) / 3
        let clamped = min(
            max(longer, MessagesMetrics.stickerPoints.lowerBound), MessagesMetrics.stickerPoints.upperBound)
        let factor = clamped / longer
        return (Double(pixels.width) / 3 * factor, Double(pixels.height) / 3 * factor)
    }

    /// A template message `width` points wide: the image (its aspect clamped), the titles over
    /// it (only with an image), the caption bar under it with up to three lines a caption, after the app's icon.
    static func templateLayout(
        _ template: TemplateMessage, width: Double, styles: TranscriptStyles,
        imagePixels: (width: Int, height: Int)?, hasIcon: Bool
    ) -> TemplateLayout {
        typealias M = MessagesMetrics
        var imageHeight = 0.0
        if template.image != nil {
            let pixels = imagePixels ?? (1, 1)
            let aspect = Double(pixels.height) / Double(max(1, pixels.width))
            // The image spans the balloon and the 6 pt cropped off each side.
            imageHeight =
                (width + 2 * M.templateImageCrop)
                * min(max(aspect, M.templateImageAspect.lowerBound), M.templateImageAspect.upperBound)
        }
        let iconSpace = hasIcon ? M.templateIconSize.x + M.templateIconGap : 0
        let textWidth = width - 2 * M.captionPadding.x - iconSpace
        /// The largest count up to `most` whose `lines` take at most the caption's lines (more
        /// words or characters never take fewer lines, so the count is bisected); 0 when none does.
        func mostFitting(_ most: Int, _ lines: (Int) -> [TextLine]) -> Int {
            var low = 0
            var high = most
            while low < high {
                let middle = (low + high + 1) / 2
                if lines(middle).count <= M.captionMaximumLines { low = middle } else { high = middle - 1 }
            }
            return low
        }
        func lines(_ text: String?, _ style: TextStyle, _ share: Double) -> [TextLine] {
            guard let text else { return [] }
            let width = textWidth * share
            let all = TextLayout.lines(text, style: style, maxWidth: width)
            guard all.count > M.captionMaximumLines else { return all }
            // Truncated: the most words that fit the lines with an ellipsis after them.
            let words = text.split(separator: " ")
            func set(_ text: String) -> [TextLine] { TextLayout.lines(text + "…", style: style, maxWidth: width) }
            let count = mostFitting(words.count - 1) { set(words.prefix($0).joined(separator: " ")) }
            var fitted = set(words.prefix(count).joined(separator: " "))
            if count == 0, let first = words.first {
                // A first word longer than the lines is cut at the third, between characters.
                fitted = set(String(first.prefix(mostFitting(first.count - 1) { set(String(first.prefix($0))) })))
            }
            return fitted.count <= M.captionMaximumLines ? fitted : Array(all.prefix(M.captionMaximumLines))
        }
        let hasTrailing = template.trailingCaption != nil || template.trailingSubcaption != nil
        let leadingShare = hasTrailing ? M.captionShares.leading : 1
        let trailingShare = M.captionShares.trailing
        let leading = [
            (lines(template.caption, styles.caption, leadingShare), false),
            (lines(template.subcaption, styles.caption, leadingShare), true)
        ]
        .filter { !$0.0.isEmpty }
        let trailing = [
            (lines(template.trailingCaption, styles.caption, trailingShare), false),
            (lines(template.trailingSubcaption, styles.caption, trailingShare), true)
        ].filter { !$0.0.isEmpty }
        let rows = max(leading.reduce(0) { $0 + $1.0.count }, trailing.reduce(0) { $0 + $1.0.count })
        var barHeight = rows == 0 ? 0 : Double(rows) * M.captionLineHeight + 2 * M.captionPadding.y
        if hasIcon { barHeight = max(barHeight, M.templateIconSize.y + 2 * M.captionPadding.y) }
        return TemplateLayout(
            image: PointRect(x: 0, y: 0, width: width, height: imageHeight),
            titleLines: imageHeight > 0 ? lines(template.imageTitle, styles.imageTitle, 1) : [],
            subtitleLines: imageHeight > 0 ? lines(template.imageSubtitle, styles.caption, 1) : [],
            bar: PointRect(
                x: 0, y: imageHeight, width: width,
                height: max(barHeight, imageHeight == 0 ? 2 * M.captionPadding.y + M.captionLineHeight : 0)),
            leading: leading.map { (lines: $0.0, secondary: $0.1) },
            trailing: trailing.map { (lines: $0.0, secondary: $0.1) },
            icon: hasIcon
                ? PointRect(
                    x: M.captionPadding.x, y: imageHeight + M.captionPadding.y,
                    width: M.templateIconSize.x, height: M.templateIconSize.y) : nil,
            captionX: M.captionPadding.x + iconSpace)
    }
}
