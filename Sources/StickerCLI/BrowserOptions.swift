import AnimationCodec
import ArgumentParser
import FoundationEssentials
import StickerPack
import StickerPixels
import StickerRenderer

extension BrowserStyle: EnumArgument {}
extension StickerSize: EnumArgument {}
extension DevicePreset: EnumArgument {}
extension FrameTimingPolicy: EnumArgument {}
extension Resampler.Filter: EnumArgument {}

/// The screen a command draws: a device preset or any view size, and the pixels a point.
struct ScreenOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Device preset: \(DevicePreset.allCases.map(\.rawValue).joined(separator: ", ")) (default: \(DevicePreset.default.rawValue)).",
            valueName: "name"))
    var device: DevicePreset?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Any Messages view size in portrait points, instead of --device.", valueName: "WxH"))
    var view: String?

    @Option(help: "Output pixels per point: 1, 2 or 3 (default: 3; review: 2).")
    var scale: Int?

    func validate() throws {
        if let scale, !(1...3).contains(scale) { throw ValidationError("--scale must be 1, 2 or 3.") }
        if let view, ViewSize(parsing: view) == nil {
            throw ValidationError(
                "--view must be WxH in points, each side from \(Int(ViewSize.sides.lowerBound)) to \(Int(ViewSize.sides.upperBound)), for example 390x844."
            )
        }
        if device != nil && view != nil { throw ValidationError("Give --device or --view, not both.") }
    }

    /// `--scale`, else `fallback`.
    func pixelsPerPoint(default fallback: Int = 3) -> Int { scale ?? fallback }

    /// `--view`, else the device's view.
    var viewSize: ViewSize { view.flatMap(ViewSize.init(parsing:)) ?? (device ?? .default).viewSize }
}

/// The options shared by every command that draws the sticker browser.
struct BrowserOptions: ParsableArguments {
    @Option(help: "Presentation style: compact (a strip at the bottom) or expanded (the whole view).")
    var style: BrowserStyle = .compact

    @Option(
        help:
            "Sticker size: small, regular or large (default: the pack's grid-size; for images not in a catalog, their common side, else regular)."
    )
    var size: StickerSize?

    @OptionGroup var screen: ScreenOptions

    @Option(
        help: ArgumentHelp(
            "white, black, red, yellow, multicolor, light, dark, checker, transparent, #RRGGBB, or an image file (default: light; preview: the terminal's own).",
            valueName: "background"))
    var background: String?

    @Option(
        name: .customLong("compact-height"),
        help: ArgumentHelp(
            "Compact strip height: a fraction (0.25, 25%), points (200pt, or a bare number over 1) or keyboard.",
            valueName: "height"))
    var compactHeight = "0.25"

    @Flag(name: .customLong("all"), help: "Expanded style: grow the canvas downward until every sticker shows.")
    var showAll = false

    @Option(help: "How stored delays become display times: raw, browser or apple (Messages plays through ImageIO).")
    var timing: FrameTimingPolicy = .apple

    @Option(
        help:
            "Downscaling filter: lanczos3, bicubic, triangle or box (default: lanczos3; preview: box, the mean of the pixels a cell covers)."
    )
    var filter: Resampler.Filter?

    /// The codec's limits.
    @OptionGroup(title: "Limits") var limits: LimitOptions<WholeFileDecodedHelp>

    func validate() throws {
        if CompactHeight(parsing: compactHeight) == nil {
            throw ValidationError(
                "--compact-height must be a fraction (0.25 or 25%), points (200pt, or a bare number over 1) or keyboard."
            )
        }
        if showAll && style != .expanded {
            throw ValidationError("--all grows the expanded style's canvas; add --style expanded.")
        }
        if let background, let problem = Self.backgroundProblem(background) { throw ValidationError(problem) }
    }

    /// The filter `preview` scales with: `--filter`, else a box (the mean of the pixels a cell covers).
    var previewFilter: Resampler.Filter { filter ?? .box }

    /// The renderer's options; `defaultBackground` applies when `--background` is not given.
    func renderOptions(defaultBackground: String = "light") throws -> RenderOptions {
        var options = RenderOptions()
        options.view = screen.viewSize
        options.style = style
        options.size = size
        options.scale = screen.pixelsPerPoint()
        options.background = try Self.background(background ?? defaultBackground, limits: limits.limits)
        options.limits = limits.limits
        options.compactHeight = CompactHeight(parsing: compactHeight) ?? .default
        options.showAll = showAll
        options.timing = timing
        options.filter = filter ?? .lanczos3
        return options
    }

    /// Why `text` names no background (no colour name, no #RRGGBB, no file), for a usage
    /// error before any work; nil when it may be one.
    static func backgroundProblem(_ text: String) -> String? {
        guard Background(named: text) == nil, !FileManager.default.fileExists(atPath: text) else { return nil }
        // A path (a slash or a file extension) names a file that is not there.
        if text.contains("/") || (text.contains(".") && !text.hasPrefix("#")) {
            return "--background \(text): no such file (a background is a colour name, #RRGGBB or an image file)"
        }
        return "--background \(text): not a colour name, #RRGGBB or an image file"
    }

    /// A background by name, hex, or image file.
    static func background(_ text: String, limits: DecodingLimits) throws -> Background {
        if let named = Background(named: text) { return named }
        if let problem = backgroundProblem(text) { throw CLIError(problem) }
        return .image(
            try InputFile.firstFrame(text, limits: limits), name: URL(fileURLWithPath: text).lastPathComponent)
    }
}

/// Names each sticker a drawing shows as a placeholder, then fails the command (exit 1) when
/// there is one: the drawing is written, but it is not the whole pack.
func failForPlaceholders(_ problems: [(sticker: String, error: PackError)]) throws {
    for problem in problems { warn("\(problem.sticker): \(problem.error)") }
    if !problems.isEmpty { throw ExitCode.failure }
}

/// Names each of `stickers` that Messages would not take as it is, and why: a drawing shows
/// any sticker the codec reads (WebP, WebM, Lottie, any size), so it must not pass for a check.
func warnNotTakenByMessages(_ stickers: [Sticker], limits: DecodingLimits) {
    for sticker in stickers {
        let reasons = MessagesAcceptance.refusals(sticker, limits: limits)
        guard !reasons.isEmpty else { continue }
        warn(
            "\(sticker.name): drawn, but Messages does not take it as it is (\(reasons.joined(separator: "; "))); `stickers fit` makes it a sticker"
        )
    }
}

/// Reports a sticker drawn from a file with something wrong that reading worked around, each
/// thing once: the drawing shows what a browser shows of it, which may not be the art meant.
func warnRepaired(_ sticker: String, _ warnings: [CodecWarning]) {
    var said = Set<String>()
    for warning in warnings where said.insert(warning.message).inserted { warn("\(sticker): \(warning.message)") }
}
