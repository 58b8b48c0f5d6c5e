import AnimationCodec
import ArgumentParser
import FoundationEssentials
import StickerPack
import StickerRenderer
import StickerTranscript

extension Appearance: EnumArgument {}

/// `stickers transcript`: a conversation as Messages shows it, with the pack's stickers sent
/// and peeled onto bubbles, in light or dark.
public struct TranscriptCommand: ParsableCommand {
    /// Command name and help.
    public static let configuration = CommandConfiguration(
        commandName: "transcript",
        abstract:
            "Draw a conversation as Messages shows it (bubbles, stickers sent and peeled, template messages) as PNG or APNG.",
        discussion: """
            The input is a conversation script (a .txt file, one event a line: docs/transcript.md) or a pack, for which a default conversation is written: a few bubbles both ways, each sticker sent once, one peeled onto a bubble. One screen of the device is drawn, scrolled to the latest message as Messages is (--all: the whole conversation). Text is Inter (fonts-inter) standing in for SF Pro, emoji Noto Color Emoji (fonts-noto-color-emoji), shaped with HarfBuzz and FreeType. Animated stickers play on one clock; --animate or an .apng output writes an animation. A sticker that cannot be read is drawn as a crossed-out square and named on stderr; the output is written, with exit status 1.
            """)

    @Argument(
        help: ArgumentHelp(
            "A conversation script (.txt), or a pack (folder, .xcstickers, .stickerpack) or image files.",
            valueName: "conversation-or-pack"), completion: .file())
    var inputs: [String]

    @Option(
        name: .shortAndLong, help: ArgumentHelp("Output file: .png or .apng.", valueName: "out"), completion: .file())
    var output: String

    @Option(help: "light or dark.")
    var appearance: Appearance = .light

    @OptionGroup var screen: ScreenOptions

    @Flag(help: "The whole conversation, as tall as it is, instead of one screen scrolled to the latest message.")
    var all = false

    @Option(
        parsing: .unconditional, help: ArgumentHelp("The instant to draw: 1.25s, 1250ms or seconds.", valueName: "time")
    )
    var at: String?

    @Flag(help: "Write an animated APNG (implied by a .apng output).")
    var animate = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Animated output length: 3s, 2500ms (default: the longest sticker loop, whole, so a shorter loop restarts where it stands when the APNG repeats; 1s when nothing moves).",
            valueName: "time")
    )
    var duration: String?

    @Option(help: ArgumentHelp("A font file for all text instead of Inter.", valueName: "path"), completion: .file())
    var font: String?

    @OptionGroup var progress: ProgressOptions

    /// The codec's limits.
    @OptionGroup(title: "Limits") var limits: LimitOptions<WholeFileDecodedHelp>

    /// Creates the command (argument parsing fills it in).
    public init() {}

    private var isAnimated: Bool { animate || output.hasSuffix(".apng") }

    /// Checks the option combinations.
    public func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("Name a conversation script or a pack.") }
        guard output.hasSuffix(".png") || output.hasSuffix(".apng") else {
            throw ValidationError("The output must end in .png or .apng.")
        }
        if let at, DurationParsing.seconds(at) == nil {
            throw ValidationError("--at \(at) is not a time (1.25s, 1250ms).")
        }
        if let duration, !(0.001...3600).contains(DurationParsing.seconds(duration) ?? 0) {
            throw ValidationError("--duration \(duration) is not a time from 1ms to an hour (3s, 2500ms).")
        }
        if animate && !output.hasSuffix(".apng") {
            throw ValidationError("--animate writes an APNG: name the output .apng.")
        }
        if isAnimated && at != nil { throw ValidationError("An animated .apng output takes --duration, not --at.") }
        if duration != nil && !isAnimated { throw ValidationError("--duration applies to an animated .apng output.") }
    }

    /// Runs the command.
    public func run() throws {
        // Its warnings and progress go to readers that may leave before the file is written.
        InterruptCleanup.outliveClosedPipes()
        let (parsed, pack, folder) = try Self.conversation(inputs)
        // The script, the stickers' files and the template messages' images (relative to the
        // script's folder); a pack's folder may take the drawing.
        let script = inputs.filter { path in
            var isDirectory = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory
        }
        let images = parsed.conversation.events.compactMap { event -> URL? in
            guard case .template(_, let template) = event, let image = template.image else { return nil }
            return URL(fileURLWithPath: image.hasPrefix("/") ? image : folder + "/" + image)
        }
        try InputFile.checkOutput(
            output, isNoneOf: script.map { URL(fileURLWithPath: $0) } + pack.stickers.flatMap(\.files) + images)
        var options = TranscriptOptions()
        options.appearance = appearance
        options.view = screen.viewSize
        options.scale = screen.pixelsPerPoint()
        options.showAll = all
        if let font, let what = BoundedFile.notRegularFile(font) {
            // FreeType would wait on a FIFO for ever, or read a device without end.
            throw CLIError("--font \(font): is \(what), not a font file")
        }
        options.fonts = TranscriptFonts(font: font)
        options.limits = limits.limits
        let renderer: TranscriptRenderer
        do {
            renderer = try TranscriptRenderer(
                parsed.conversation, pack: pack, folder: folder, lines: parsed.lines, options: options)
        } catch {
            // A script's line is named with the script, as its parse errors are.
            if error.line != nil, inputs.count == 1, Self.isScript(inputs[0]) {
                throw CLIError("\(inputs[0]): \(error)")
            }
            throw CLIError(error.description)
        }
        let bytes: [UInt8]
        var summary = ""
        let seconds = animationSeconds(duration, longestLoop: renderer.longestLoop)
        let frames =
            isAnimated
            ? try animationFrameCount(seconds: seconds) { renderer.changeTimes(duration: seconds, maxFrames: $0) } : 0
        do {
            if isAnimated {
                let bar = progress.bar("rendering")
                defer { bar.finish() }
                bytes = try renderer.apng(duration: seconds) { bar.update($0, of: $1) }
                summary = ", \(counted(frames, "frame")) over \(seconds) s"
            } else {
                bytes = try renderer.snapshotPNG(at: at.flatMap(DurationParsing.seconds) ?? 0)
            }
            try InterruptCleanup.writeAtomically(bytes, to: output)
        } catch {
            throw CLIError("\(error)")
        }
        let messages = parsed.conversation.messages.count
        TerminalOutput.line(
            "\(output): \(renderer.pixelWidth)x\(renderer.pixelHeight) px, \(messages) message\(messages == 1 ? "" : "s"), \(appearance) on \(options.view) @\(options.scale)x"
                + (renderer.scrolled > 0 ? ", scrolled to the latest" : "") + summary)
        let sent = Set(
            parsed.conversation.events.compactMap { event -> Int? in
                guard let name = event.stickerName, case .sticker(let index) = pack.lookup(name) else { return nil }
                return index
            })
        warnNotTakenByMessages(sent.sorted().map { pack.stickers[$0] }, limits: options.limits)
        let fonts =
            (font == nil ? "Inter" : "the --font file")
            + (options.fonts.emoji == nil
                ? " has no glyph for it (and Noto Color Emoji, fonts-noto-color-emoji, is not installed)"
                : " and Noto Color Emoji have no glyph for it")
        for (line, characters) in renderer.missingCharacters {
            // Code points as Unicode writes them: U+05E9, at least four digits.
            let codes = characters.flatMap(\.unicodeScalars).map { scalar -> String in
                let hex = String(scalar.value, radix: 16, uppercase: true)
                return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            }
            warn(
                (line.map { "line \($0): " } ?? "") + "\(String(characters)) ("
                    + codes.prefix(8).joined(separator: " ") + (codes.count > 8 ? " ..." : "") + ") is drawn as boxes: "
                    + fonts)
        }
        // Without FriBidi, right-to-left text is set left to right, backwards.
        for line in renderer.rightToLeftLines {
            warn(
                (line.map { "line \($0): " } ?? "")
                    + "right-to-left text (Hebrew, Arabic, ...) is drawn left to right, so it reads backwards: its order needs \(TextLayout.bidiPackage) (apt-get install \(TextLayout.bidiPackage))"
            )
        }
        try failForPlaceholders(renderer.problems)
    }

    /// Whether `path` names a conversation script: a `.txt` file, the extension in any case.
    static func isScript(_ path: String) -> Bool { path.lowercased().hasSuffix(".txt") }

    /// The conversation to draw, the pack its stickers come from and the folder its paths are
    /// relative to: a script (naming its pack) or a pack given alone (the default conversation).
    static func conversation(_ inputs: [String]) throws -> (ParsedConversation, StickerPack, String) {
        if inputs.count == 1, isScript(inputs[0]) {
            let path = inputs[0]
            guard FileManager.default.fileExists(atPath: path) else {
                throw CLIError("\(path): no such file or folder")
            }
            let text: String
            do {
                let bytes = try BoundedFile.read(path, maxBytes: 1 << 20)
                guard let decoded = String(validating: bytes, as: UTF8.self) else {
                    throw CLIError("\(path): not UTF-8 text")
                }
                text = decoded
            } catch let error as CLIError {
                throw error
            } catch {
                throw CLIError("\(path): \(error)")
            }
            let parsed: ParsedConversation
            do { parsed = try ConversationScript.parse(text) } catch { throw CLIError("\(path): \(error)") }
            let folder = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
            guard let packPath = parsed.conversation.pack else {
                let usesStickers = parsed.conversation.events.contains {
                    if case .sticker = $0 { true } else if case .peel = $0 { true } else { false }
                }
                if usesStickers {
                    throw CLIError(
                        "\(path): the conversation sends stickers but names no pack (add a line `pack: PATH`)")
                }
                return (parsed, StickerPack(name: "", origin: .files, stickers: []), folder)
            }
            let resolved = packPath.hasPrefix("/") ? packPath : folder + "/" + packPath
            do {
                return (parsed, try PackInput.loadWarning([resolved]), folder)
            } catch {
                throw CLIError("\(path): " + (parsed.packLine.map { "line \($0): " } ?? "") + "\(error)")
            }
        }
        let pack = try PackInput.loadWarning(inputs)
        let conversation = Conversation.default(for: pack)
        return (ParsedConversation(conversation: conversation, lines: []), pack, ".")
    }
}
