import AnimationCodec
import FoundationEssentials
import StickerPack
import StickerPixels
import StickerRenderer

#if canImport(Glibc)
    import Glibc
#endif

/// How a transcript is drawn.
public struct TranscriptOptions: Sendable {
    /// Light or dark.
    public var appearance: Appearance = .light
    /// The screen in points.
    public var view: ViewSize = DevicePreset.default.viewSize
    /// Pixels a point (1, 2 or 3).
    public var scale = 3
    /// The whole conversation, as tall as it is, instead of one screen scrolled to the end.
    public var showAll = false
    /// The fonts.
    public var fonts = TranscriptFonts()
    /// The codec's limits for the stickers and images.
    public var limits: DecodingLimits = .default
    /// How frame delays are shown.
    public var timing: FrameTimingPolicy = .apple

    /// The defaults: light, the default device, @3x, one screen.
    public init() {}
}

/// Why a transcript cannot be drawn.
public enum TranscriptError: Error, Sendable, CustomStringConvertible {
    /// The conversation names a sticker the pack does not have (with the script's line).
    case unknownSticker(name: String, line: Int?, known: [String])
    /// The conversation names a sticker by a name several of the pack's share (with the
    /// script's line and the words that pick out each: `a.gif`, `a.png`).
    case ambiguousSticker(name: String, line: Int?, references: [String])
    /// A sticker or image could not be read (with the script's line that first names it).
    case unreadable(name: String, line: Int?, error: String)
    /// The fonts or text libraries are missing.
    case text(TextError)
    /// The image would have more pixels than the limits allow (a very long conversation with
    /// `--all`, or a huge view).
    case tooLarge(ImageTooLarge)

    /// The script line the error names, if any.
    public var line: Int? {
        switch self {
        case .unknownSticker(_, let line, _), .ambiguousSticker(_, let line, _), .unreadable(_, let line, _):
            return line
        case .text, .tooLarge: return nil
        }
    }

    /// What went wrong, with the line when there is one.
    public var description: String {
        switch self {
        case .unknownSticker(let name, let line, let known):
            return (line.map { "line \($0): " } ?? "") + "the pack has no sticker named \(name)"
                + (known.isEmpty
                    ? "" : " (it has \(known.prefix(8).joined(separator: ", "))\(known.count > 8 ? ", ..." : ""))")
        case .ambiguousSticker(let name, let line, let references):
            return (line.map { "line \($0): " } ?? "") + "\(references.count) stickers are named \(name): write "
                + references.joined(separator: " or ") + " for the one to show"
        case .unreadable(let name, let line, let error):
            return (line.map { "line \($0): " } ?? "") + "\(name): \(error)"
        case .text(let error): return error.description
        case .tooLarge(let error): return error.description
        }
    }
}

/// Draws a conversation as Messages shows it: bubbles with real text, stickers sent alone on
/// the sender's side, stickers peeled onto messages (scaled and turned), template messages,
/// the date and "Delivered", in light or dark, at any instant of the renderer's one clock.
public final class TranscriptRenderer {
    /// The layout in points.
    public let layout: TranscriptLayout
    /// The options drawn with.
    public let options: TranscriptOptions
    /// The image's width in pixels.
    public let pixelWidth: Int
    /// The image's height in pixels.
    public let pixelHeight: Int
    /// How far the transcript is scrolled up, in points (its end shows at the screen's bottom);
    /// with ``TranscriptOptions/showAll``, minus the room above the top for a peel reaching past it.
    public let scrolled: Double
    /// Stickers that could not be read, by name, with why: each is drawn as a crossed-out
    /// square of the default sticker size where it shows, as the browser's cells are. A
    /// sticker with a frame that failed to decode is drawn as that square, at its own size,
    /// from that frame on (so far as snapshots have been taken).
    public var problems: [(sticker: String, error: PackError)] {
        var named = Set(loadProblems.map(\.sticker))
        let players = stickers.map(\.player) + peels.compactMap(\.player)
        return loadProblems
            + players.compactMap { player in
                guard let failure = player.failure, named.insert(player.name).inserted else { return nil }
                return (player.name, failure)
            }
    }
    private let loadProblems: [(sticker: String, error: PackError)]

    /// Text the fonts cannot draw, by the script line it is on (`nil` when no lines were
    /// given): the characters neither the text font nor the emoji font has, which are drawn
    /// as the font's missing-glyph box.
    public let missingCharacters: [(line: Int?, characters: [Character])]
    /// The script lines of the events whose drawn text holds a right-to-left script and is set
    /// left to right all the same, as FriBidi (``TextLayout/bidiPackage``) is not installed;
    /// one `nil` when some do and no lines were given.
    public let rightToLeftLines: [Int?]

    private let styles: TranscriptStyles
    private let base: RGBAImage
    private let stickers: [(player: StickerPlayer, origin: SIMD2<Int>)]
    /// The peels in the script's order: a player turned about its centre, or (a sticker that
    /// could not be read) its placeholder's rectangle.
    private let peels: [PlacedPeel]

    /// One peel on the screen.
    private enum PlacedPeel {
        case sticker(StickerPlayer, centre: SIMD2<Double>, degrees: Double)
        case placeholder(PixelRect)

        var player: StickerPlayer? {
            if case .sticker(let player, _, _) = self { return player }
            return nil
        }
    }

    /// ``missingCharacters`` of each event whose laid-out text has any, by its script line.
    private static func missingCharacters(_ layout: TranscriptLayout, lines: [Int]) -> [(
        line: Int?, characters: [Character]
    )] {
        var byEvent: [(event: Int, characters: [Character])] = []
        for item in layout.items {
            guard let event = item.event else { continue }
            let missing = item.lines.flatMap(\.missing)
            guard !missing.isEmpty else { continue }
            if byEvent.last?.event != event { byEvent.append((event, [])) }
            for character in missing where !byEvent[byEvent.count - 1].characters.contains(character) {
                byEvent[byEvent.count - 1].characters.append(character)
            }
        }
        return byEvent.map { (event, characters) in (event < lines.count ? lines[event] : nil, characters) }
    }

    /// Reads every sticker the conversation uses from `pack` and every template image from
    /// `folder` (where the script is), lays the conversation out and draws what never changes.
    /// `lines` gives each event's script line, for errors.
    public init(
        _ conversation: Conversation, pack: StickerPack, folder: String = ".", lines: [Int] = [],
        options: TranscriptOptions = TranscriptOptions()
    ) throws(TranscriptError) {
        self.options = options
        let scale = Double(options.scale)
        do { styles = try TranscriptStyles(fonts: options.fonts, scale: scale) } catch { throw .text(error) }
        let (animations, problems) = try Self.loadStickers(
            conversation, pack: pack, lines: lines, limits: options.limits)
        self.loadProblems = problems
        let images = try Self.loadTemplateImages(conversation, folder: folder, lines: lines, limits: options.limits)
        let icon = Self.messagesIcon(conversation, pack: pack, limits: options.limits)
        layout = TranscriptLayout(
            conversation, width: options.view.width, styles: styles,
            stickerPixels: animations.mapValues { ($0.width, $0.height) },
            imagePixels: images.mapValues { ($0.width, $0.height) }, hasIcon: icon != nil)
        missingCharacters = Self.missingCharacters(layout, lines: lines)
        var rightToLeftEvents: [Int] = []
        for item in layout.items where item.lines.contains(where: \.hasUnorderedRightToLeft) {
            if let event = item.event, rightToLeftEvents.last != event { rightToLeftEvents.append(event) }
        }
        let rightToLeft = rightToLeftEvents.map { $0 < lines.count ? lines[$0] : nil }
        rightToLeftLines = rightToLeft.filter { $0 != nil } + (rightToLeft.contains(nil) ? [nil] : [])
        let screenHeight: Double
        if options.showAll {
            // The whole conversation takes in the peels that reach past its top or bottom:
            // scrolled back by what reaches above, as tall as what reaches below.
            let reach = Self.peelReach(conversation, layout: layout, animations: animations)
            let above = max(0, -reach.top)
            scrolled = -above
            screenHeight = above + max(layout.contentHeight, reach.bottom)
        } else {
            screenHeight = options.view.height
            scrolled = max(0, layout.contentHeight - screenHeight)
        }
        (pixelWidth, pixelHeight) = try Self.pixelSize(
            width: options.view.width, height: screenHeight, scale: scale, limits: options.limits)

        let players = PlayerBank(animations: animations, timing: options.timing)
        var canvas = Background.color(
            red: options.appearance.palette.background.x, green: options.appearance.palette.background.y,
            blue: options.appearance.palette.background.z
        ).canvas(width: pixelWidth, height: pixelHeight)
        stickers = Self.drawStill(
            layout, styles: styles, options: options, scrolled: scrolled, screenHeight: screenHeight,
            images: images, icon: icon, players: players, on: &canvas)
        peels = Self.placePeels(
            conversation, layout: layout, scrolled: scrolled, scale: scale, screen: (pixelWidth, pixelHeight),
            animations: animations, players: players)
        base = canvas
    }

    /// Every sticker the conversation sends or peels, read once each from `pack`, and those
    /// that could not be read; a name the pack lacks is an error naming its script line.
    private static func loadStickers(
        _ conversation: Conversation, pack: StickerPack, lines: [Int],
        limits: DecodingLimits
    ) throws(TranscriptError) -> ([String: StickerAnimation], [(sticker: String, error: PackError)]) {
        var animations: [String: StickerAnimation] = [:]
        var problems: [(sticker: String, error: PackError)] = []
        for (index, event) in conversation.events.enumerated() {
            guard let name = event.stickerName, animations[name] == nil,
                !problems.contains(where: { $0.sticker == name })
            else { continue }
            let line = index < lines.count ? lines[index] : nil
            let sticker: Sticker
            switch pack.lookup(name) {
            case .sticker(let found): sticker = pack.stickers[found]
            case .ambiguous(let found):
                throw .ambiguousSticker(name: name, line: line, references: found.map(pack.reference(of:)))
            case .none:
                throw .unknownSticker(name: name, line: line, known: pack.references)
            }
            // A vector sticker (Lottie) is drawn at the largest sticker side, not its document's.
            do {
                animations[name] = try StickerAnimation.load(
                    sticker, limits: limits, vectorSide: StickerSize.large.pixels)
            } catch {
                problems.append((name, error))
            }
        }
        return (animations, problems)
    }

    /// Every template message's image, read once each, relative to `folder` (the script's);
    /// one that cannot be read is an error naming its script line (`lines`).
    private static func loadTemplateImages(
        _ conversation: Conversation, folder: String, lines: [Int],
        limits: DecodingLimits
    ) throws(TranscriptError) -> [String: RGBAImage] {
        var images: [String: RGBAImage] = [:]
        for (index, event) in conversation.events.enumerated() {
            guard case .template(_, let template) = event, let path = template.image, images[path] == nil else {
                continue
            }
            let full = path.hasPrefix("/") ? path : folder + "/" + path
            let line = index < lines.count ? lines[index] : nil
            let bytes: [UInt8]
            do {
                bytes = try BoundedFile.read(full, maxBytes: limits.maxFileBytes)
            } catch .missingFile {
                throw .unreadable(name: path, line: line, error: "no such file (\(full))")
            } catch {
                throw .unreadable(name: path, line: line, error: error.description)
            }
            do {
                images[path] = RGBAImage(try AnimationDecoder(bytes: bytes, limits: limits).frame(at: 0))
            } catch {
                throw .unreadable(name: path, line: line, error: error.description)
            }
        }
        return images
    }

    /// The app's icon for template messages: the catalog's 27 x 20 pt Messages icon at 3x, when
    /// the conversation has a template message and the pack is a catalog that has one.
    private static func messagesIcon(_ conversation: Conversation, pack: StickerPack, limits: DecodingLimits)
        -> RGBAImage?
    {
        let usesTemplates = conversation.events.contains { if case .template = $0 { true } else { false } }
        guard usesTemplates, let catalog = pack.catalogFolder,
            let slot = MessagesIconSet.required.first(where: { $0.size == "27x20" && $0.scale == 3 }),
            let file = MessagesIconSet.file(for: slot, inCatalog: catalog),
            let bytes = try? BoundedFile.read(file.path, maxBytes: limits.maxFileBytes),
            let frame = try? AnimationDecoder(bytes: bytes, limits: limits).frame(at: 0)
        else { return nil }
        return RGBAImage(frame)
    }

    /// The image's size in pixels for `width` x `height` points, checked against the limits
    /// before anything is allocated: a huge view or a very long conversation drawn whole is refused.
    private static func pixelSize(
        width points: Double, height pointHeight: Double, scale: Double,
        limits: DecodingLimits
    ) throws(TranscriptError) -> (Int, Int) {
        let width = (points * scale).rounded()
        let height = (pointHeight * scale).rounded()
        guard width >= 1, height >= 1, width * height <= Double(limits.maxPixels),
            width <= Double(limits.maxSide), height <= Double(limits.maxSide)
        else {
            func whole(_ value: Double) -> Int { value.isFinite ? Int(min(max(value, -1e15), 1e15)) : Int.max }
            throw .tooLarge(
                ImageTooLarge(
                    image: "the transcript", width: whole(width), height: whole(height), limit: limits.maxPixels))
        }
        return (Int(width), Int(height))
    }

    /// One player a sticker and pixel size, shared by every place it shows; a player keeps all
    /// its scaled frames only while they fit the cache budget (else it decodes again).
    private final class PlayerBank {
        private let animations: [String: StickerAnimation]
        private let timing: FrameTimingPolicy
        private let resampler = Resampler(filter: .lanczos3)
        private var players: [String: StickerPlayer] = [:]
        private var cached = 0

        init(animations: [String: StickerAnimation], timing: FrameTimingPolicy) {
            self.animations = animations
            self.timing = timing
        }

        /// Whether sticker `name` was read (it has frames to play).
        func has(_ name: String) -> Bool { animations[name] != nil }

        /// The player of sticker `name` drawn at `width` x `height` pixels.
        func player(_ name: String, width: Int, height: Int) -> StickerPlayer {
            let key = "\(width)x\(height) \(name)"
            if let known = players[key] { return known }
            let animation = animations[name]!  // Safe: the layout places only stickers that were loaded.
            let bytes = animation.frameCount * width * height * 4
            let cacheAll = cached + bytes <= TranscriptRenderer.frameCacheBytes
            if cacheAll { cached += bytes }
            let made = StickerPlayer(
                index: players.count, name: name, animation: animation,
                rect: PixelRect(x: 0, y: 0, width: width, height: height),
                timing: timing, resampler: resampler, cacheAll: cacheAll)
            players[key] = made
            return made
        }
    }

    /// Draws what never changes (labels, bubbles, template messages) on the visible screen and
    /// returns the stickers sent alone, each with its player and place.
    private static func drawStill(
        _ layout: TranscriptLayout, styles: TranscriptStyles, options: TranscriptOptions, scrolled: Double,
        screenHeight: Double, images: [String: RGBAImage], icon: RGBAImage?, players: PlayerBank,
        on canvas: inout RGBAImage
    ) -> [(player: StickerPlayer, origin: SIMD2<Int>)] {
        let scale = Double(options.scale)
        let palette = options.appearance.palette
        var stickers: [(player: StickerPlayer, origin: SIMD2<Int>)] = []
        for item in layout.items {
            let frame = PointRect(
                x: item.frame.x, y: item.frame.y - scrolled, width: item.frame.width, height: item.frame.height)
            guard frame.maxY + MessagesMetrics.tailHang >= 0, frame.y <= screenHeight else { continue }
            switch item.kind {
            case .date(let line):
                TextPainter.draw(
                    line, style: styles.label, x: frame.x, baseline: frame.y + styles.label.ascender,
                    color: palette.secondaryText, on: &canvas)
            case .delivered(let line):
                TextPainter.draw(
                    line, style: styles.labelBold, x: frame.x, baseline: frame.y + styles.labelBold.ascender,
                    color: palette.secondaryText, on: &canvas)
            case .bubble(let lines, let sender, let service, let tail):
                Self.drawBubble(
                    frame: frame, lines: lines, sender: sender, service: service, tail: tail, styles: styles,
                    palette: palette, scale: scale, on: &canvas)
            case .sticker(let name, _):
                let rect = PixelRect(
                    x: Int((frame.x * scale).rounded()), y: Int((frame.y * scale).rounded()),
                    width: Int((frame.width * scale).rounded()), height: Int((frame.height * scale).rounded()))
                guard players.has(name) else {
                    Placeholder.draw(in: &canvas, rect: rect)
                    continue
                }
                stickers.append(
                    (
                        players.player(name, width: max(1, rect.width), height: max(1, rect.height)),
                        SIMD2(rect.x, rect.y)
                    ))
            case .template(let template, _, let parts):
                Self.drawTemplate(
                    parts: parts, image: template.image.flatMap { images[$0] }, icon: icon, frame: frame,
                    styles: styles,
                    palette: palette, scale: scale, on: &canvas)
            }
        }
        return stickers
    }

    /// How far the peels reach up and down, in points from the transcript's top: each one's
    /// turned square's extent about its centre on its message. (0, 0) without peels.
    private static func peelReach(
        _ conversation: Conversation, layout: TranscriptLayout, animations: [String: StickerAnimation]
    ) -> (top: Double, bottom: Double) {
        let messageFrames = layout.messageFrames
        var reach = (top: 0.0, bottom: 0.0)
        for event in conversation.events {
            guard case .peel(let peel) = event, let target = messageFrames[peel.message] else { continue }
            let size = peelPoints(peel, animation: animations[peel.sticker])
            let angle = peel.rotation * .pi / 180
            let halfHeight = (abs(size.width * sin(angle)) + abs(size.height * cos(angle))) / 2
            let centre = target.y + peel.y * target.height
            reach = (min(reach.top, centre - halfHeight), max(reach.bottom, centre + halfHeight))
        }
        return reach
    }

    /// A peel's size in points: its sticker's (a placeholder's when unreadable) times its scale.
    private static func peelPoints(_ peel: Peel, animation: StickerAnimation?) -> (width: Double, height: Double) {
        let size = TranscriptLayout.stickerPoints(
            animation.map { ($0.width, $0.height) }
                ?? (MessagesMetrics.defaultStickerPixels, MessagesMetrics.defaultStickerPixels))
        return (size.width * peel.scale, size.height * peel.scale)
    }

    /// The peels that reach the screen, over everything, at their place on their message; a
    /// peel of a sticker that could not be read is its placeholder, unturned.
    private static func placePeels(
        _ conversation: Conversation, layout: TranscriptLayout, scrolled: Double, scale: Double,
        screen: (width: Int, height: Int), animations: [String: StickerAnimation],
        players: PlayerBank
    ) -> [PlacedPeel] {
        var peels: [PlacedPeel] = []
        let messageFrames = layout.messageFrames
        for event in conversation.events {
            guard case .peel(let peel) = event, let target = messageFrames[peel.message] else { continue }
            let animation = animations[peel.sticker]
            let size = peelPoints(peel, animation: animation)
            let width = max(1, Int((size.width * scale).rounded()))
            let height = max(1, Int((size.height * scale).rounded()))
            let centre = SIMD2(target.x + peel.x * target.width, target.y - scrolled + peel.y * target.height) * scale
            // A peel whose turned square (within its diagonal) misses the screen is not drawn.
            let reach = (Double(width * width + height * height)).squareRoot() / 2
            guard centre.x + reach >= 0, centre.x - reach <= Double(screen.width), centre.y + reach >= 0,
                centre.y - reach <= Double(screen.height)
            else { continue }
            guard animation != nil else {
                peels.append(
                    .placeholder(
                        PixelRect(
                            x: Int((centre.x - Double(width) / 2).rounded()),
                            y: Int((centre.y - Double(height) / 2).rounded()), width: width, height: height)))
                continue
            }
            peels.append(
                .sticker(
                    players.player(peel.sticker, width: width, height: height), centre: centre, degrees: peel.rotation))
        }
        return peels
    }

    /// The transcript at `time` seconds on the shared clock.
    public func snapshot(at time: Double) throws(PackError) -> RGBAImage {
        var canvas = base
        for (player, origin) in stickers {
            canvas.draw(player.image(forFrame: player.clock.frameIndex(at: time)), atX: origin.x, y: origin.y)
        }
        for peel in peels {
            switch peel {
            case .sticker(let player, let centre, let degrees):
                RotatedDrawing.draw(
                    player.image(forFrame: player.clock.frameIndex(at: time)), centre: centre, degrees: degrees,
                    on: &canvas)
            case .placeholder(let rect):
                Placeholder.draw(in: &canvas, rect: rect)
            }
        }
        return canvas
    }

    /// The transcript at `time` seconds as PNG file bytes (RGB: the screen is opaque), its rows
    /// deflated in parallel bands; a row equal to the one above (the space between messages)
    /// is not compressed again.
    public func snapshotPNG(at time: Double) throws(PackError) -> [UInt8] {
        let image = try snapshot(at: time)
        let rowBytes = image.width * 4
        let repeats: [Bool] = image.pixels.withUnsafeBytes { raw in
            (0..<image.height).map { y in
                y > 0 && memcmp(raw.baseAddress! + y * rowBytes, raw.baseAddress! + (y - 1) * rowBytes, rowBytes) == 0
            }
        }
        return PNGEncoder.encodeFast(
            width: image.width, height: image.height, opaque: true, repeatsRowAbove: { repeats[$0] },
            drawRow: { y, target in
                image.pixels.withUnsafeBytes { raw in _ = memcpy(target, raw.baseAddress! + y * rowBytes, rowBytes) }
            })
    }

    /// The longest single loop among the stickers shown, in seconds (0 when none animates).
    public var longestLoop: Double { (stickers.map(\.player) + peels.compactMap(\.player)).longestLoop }

    /// The instants in `0..<duration` at which any sticker shown changes frame, with 0.
    public func changeTimes(duration: Double, maxFrames: Int = BrowserRenderer.maxAnimationFrames) -> [Double] {
        (stickers.map(\.player) + peels.compactMap(\.player)).changeTimes(duration: duration, maxFrames: maxFrames)
    }

    /// The transcript over `duration` seconds as an APNG that loops forever, a frame at every
    /// change, each after the first storing only the rectangle that changed.
    public func apng(duration: Double, progress: ((Int, Int) -> Void)? = nil) throws(PackError) -> [UInt8] {
        let times = changeTimes(duration: duration)
        var writer = APNGWriter(width: pixelWidth, height: pixelHeight, frameCount: times.count, plays: 0)
        var previous: RGBAImage?
        for (index, time) in times.enumerated() {
            let image = try snapshot(at: time)
            let end = index + 1 < times.count ? times[index + 1] : max(duration, time + 0.001)
            let changed =
                previous.map { image.changedRect(from: $0) }
                ?? PixelRect(x: 0, y: 0, width: pixelWidth, height: pixelHeight)
            SnapshotEncoder.appendFrame(image, changed: changed, start: time, end: end, to: &writer)
            previous = image
            progress?(index + 1, times.count)
        }
        return writer.finish()
    }

    /// The baseline of a line of `style` centred in a line box of `lineHeight` points, from its top.
    static func baseline(_ style: TextStyle, lineHeight: Double) -> Double {
        (lineHeight - (style.ascender + style.descender)) / 2 + style.ascender
    }

    /// The most bytes of scaled sticker frames kept in memory (as the browser's default).
    static let frameCacheBytes = 256 << 20

    private static func drawBubble(
        frame: PointRect, lines: [TextLine], sender: Sender, service: MessageService, tail: Bool,
        styles: TranscriptStyles, palette: MessagesPalette, scale: Double, on canvas: inout RGBAImage
    ) {
        typealias M = MessagesMetrics
        let path = BubbleShape.path(
            origin: SIMD2(frame.x, frame.y), width: frame.width, height: frame.height, tail: tail ? sender : nil,
            scale: scale)
        let mask = PathRasterizer.coverage(of: path, width: canvas.width, height: canvas.height)
        let height = Double(canvas.height)
        switch (sender, service) {
        case (.them, _): Painter.fill(mask, color: palette.received, on: &canvas)
        case (.me, .iMessage):
            Painter.fill(mask, on: &canvas) { _, row in MessagesPalette.mix(palette.iMessage, at: Double(row) / height)
            }
        case (.me, .sms):
            Painter.fill(mask, on: &canvas) { _, row in MessagesPalette.mix(palette.sms, at: Double(row) / height) }
        }
        let color = sender == .me ? palette.sentText : palette.receivedText
        for (index, line) in lines.enumerated() {
            let top = frame.y + M.bubblePaddingVertical + Double(index) * M.bodyLineHeight
            // Lines scrolled out of the screen are not drawn.
            guard (top + M.bodyLineHeight) * scale >= 0, top * scale < Double(canvas.height) else { continue }
            // One line is centred (it only differs from the padding in a bubble of the minimum
            // width); wrapped lines start at the padding, or end there in a right-to-left
            // paragraph.
            let x =
                lines.count == 1
                ? frame.x + (frame.width - line.width) / 2
                : line.isRightToLeft
                    ? frame.maxX - M.bubblePaddingHorizontal - line.width : frame.x + M.bubblePaddingHorizontal
            TextPainter.draw(
                line, style: styles.body, x: x,
                baseline: top + baseline(styles.body, lineHeight: M.bodyLineHeight), color: color, on: &canvas)
        }
    }

    private static func drawTemplate(
        parts: TranscriptLayout.TemplateLayout, image: RGBAImage?, icon: RGBAImage?, frame: PointRect,
        styles: TranscriptStyles, palette: MessagesPalette, scale: Double, on canvas: inout RGBAImage
    ) {
        typealias M = MessagesMetrics
        let clip = PathRasterizer.coverage(
            of: BubbleShape.roundedRect(
                origin: SIMD2(frame.x, frame.y), width: frame.width, height: frame.height,
                radius: M.bubbleCornerRadius, scale: scale),
            width: canvas.width, height: canvas.height)
        // The caption bar's colour under everything, then the image over its part.
        Painter.fill(clip, color: palette.captionBar, on: &canvas)
        if let image, parts.image.height > 0 {
            // The source cropped to the box's aspect (the box spans the 6 pt cropped off each
            // side), then only that crop scaled to the box, then the sides cropped.
            let boxWidth = (parts.image.width + 2 * M.templateImageCrop) * scale
            let boxHeight = parts.image.height * scale
            let aspect = boxHeight / boxWidth
            var crop = PixelRect(x: 0, y: 0, width: image.width, height: image.height)
            if Double(image.height) / Double(image.width) > aspect {
                crop.height = max(1, min(image.height, Int((Double(image.width) * aspect).rounded())))
                crop.y = (image.height - crop.height) / 2
            } else {
                crop.width = max(1, min(image.width, Int((Double(image.height) / aspect).rounded())))
                crop.x = (image.width - crop.width) / 2
            }
            let scaled = Resampler(filter: .lanczos3).resize(
                image.cropped(to: crop), width: max(1, Int(boxWidth.rounded())),
                height: max(1, Int(boxHeight.rounded())))
            let width = Int((parts.image.width * scale).rounded())
            let height = Int(boxHeight.rounded())
            let cropX = (scaled.width - width) / 2
            let cropY = (scaled.height - height) / 2
            let left = Int((frame.x * scale).rounded())
            let top = Int((frame.y * scale).rounded())
            Painter.draw(
                scaled, area: PixelRect(x: cropX, y: cropY, width: width, height: height), atX: left, y: top,
                clippedBy: clip, on: &canvas)
        }
        // Titles over the image's bottom left, white.
        let titleLines = parts.titleLines + parts.subtitleLines
        var y = frame.y + parts.image.height - M.captionPadding.y - Double(titleLines.count) * M.imageTitleLineHeight
        for (index, line) in titleLines.enumerated() {
            let style = index < parts.titleLines.count ? styles.imageTitle : styles.caption
            TextPainter.draw(
                line, style: style, x: frame.x + M.captionPadding.x,
                baseline: y + baseline(style, lineHeight: M.imageTitleLineHeight),
                color: SIMD3(255, 255, 255), on: &canvas)
            y += M.imageTitleLineHeight
        }
        // The app's icon at the caption bar's left.
        if let icon, let place = parts.icon {
            let width = max(1, Int((place.width * scale).rounded()))
            let height = max(1, Int((place.height * scale).rounded()))
            canvas.draw(
                Resampler(filter: .lanczos3).resize(icon, width: width, height: height),
                atX: Int(((frame.x + place.x) * scale).rounded()), y: Int(((frame.y + place.y) * scale).rounded()))
        }
        // The caption bar: captions on the left, trailing ones on the right.
        let primary = palette.receivedText
        for (column, trailing) in [(parts.leading, false), (parts.trailing, true)] {
            var top = frame.y + parts.bar.y + M.captionPadding.y
            for (lines, secondary) in column {
                for line in lines {
                    let x = trailing ? frame.maxX - M.captionPadding.x - line.width : frame.x + parts.captionX
                    TextPainter.draw(
                        line, style: styles.caption, x: x,
                        baseline: top + baseline(styles.caption, lineHeight: M.captionLineHeight),
                        color: secondary ? palette.secondaryText : primary, on: &canvas)
                    top += M.captionLineHeight
                }
            }
        }
    }
}
