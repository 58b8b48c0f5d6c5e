import StickerFit
import StickerPack
import StickerRenderer

/// An image the page shows: a file in the page's `images/` folder and its pixel size.
public struct ReviewImage: Sendable, Hashable {
    /// The file name inside `images/`.
    public var file: String
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Whether it is an animation (an APNG).
    public var isAnimated: Bool
    /// For an animation, a PNG of one moment of it inside `images/`, shown instead when the
    /// reader asks for less motion (the system's setting, or the page's "Stop animations").
    public var still: String?
}

/// A drawing the page shows (the browser in one style and appearance, or the conversation),
/// or why it could not be drawn.
public struct ReviewShot: Sendable {
    /// What it shows, for headings and alt text: "compact, light".
    public var title: String
    /// The image, when it was drawn.
    public var image: ReviewImage?
    /// Why not, when it was not; or the stickers drawn as placeholders.
    public var problem: String?
}

extension PackReview {
    /// Whether the page shows an animation (a sticker's preview, the browser or the conversation).
    var hasAnimation: Bool {
        (browser + transcript).contains { $0.image?.isAnimated == true }
            || cards.contains { $0.preview?.isAnimated == true }
    }
}

/// Everything the page shows of one sticker.
public struct StickerCard: Sendable {
    /// The sticker's name.
    public var name: String
    /// What VoiceOver says of it: its accessibility label, else its name (in a catalog) or the
    /// label `stickers fit` makes from its file's name (in a folder).
    public var label: String
    /// Where ``label`` comes from when the sticker has no label of its own.
    public var labelSource: String?

    /// The card of `sticker` in `pack`, with its label, before anything is drawn.
    public init(_ sticker: Sticker, in pack: StickerPack) {
        name = sticker.name
        if sticker.accessibilityLabel != nil {
            label = sticker.localizedDescription
        } else if pack.origin == .catalog {
            (label, labelSource) = (sticker.name, "its name: the catalog gives no label")
        } else {
            (label, labelSource) = (sticker.spokenLabel, "made from its file's name; `stickers fit --label` sets one")
        }
    }
    /// The animated preview (transparent: the page puts it on every background).
    public var preview: ReviewImage?
    /// Every frame with its start time.
    public var filmstrip: ReviewImage?
    /// The frames' start times and durations, seconds.
    public var frames: [ContactSheets.FilmstripFrame] = []
    /// Why the sticker could not be drawn, when it could not.
    public var problem: String?
    /// What `stickers fit` would do with it; `nil` when the dry run was not asked for.
    public var fit: FitReport.Entry?
}

/// One pack's review: the validator's report, the drawings and a card per sticker.
public struct PackReview: Sendable {
    /// The pack's name.
    public var name: String
    /// The path it was read from, as given.
    public var path: String
    /// The pack's folder, links resolved (a file's folder for one file): the page names the
    /// files under it by their path from it, so a page shared does not show where it was made.
    public var folder: String?
    /// Apple's rules and the lints.
    public var report: ValidationReport
    /// The browser: compact and expanded, light and dark.
    public var browser: [ReviewShot]
    /// The pack's default conversation, light and dark.
    public var transcript: [ReviewShot]
    /// The stickers, in browser order.
    public var cards: [StickerCard]
    /// The byte budget and compression level of the `fit` dry run (each card's ``StickerCard/fit``
    /// when it ran).
    public var fitBudget: (maxBytes: Int, level: Int32)

    /// The path as a page shows it: as given when it is relative (`packs/one`), else only the
    /// last name in it, so a page shared does not show where it was made.
    public var shownPath: String { Self.shown(path, name: name) }

    /// `path` as a page shows it (``shownPath``); `name` for the root folder.
    static func shown(_ path: String, name: String) -> String {
        guard path.hasPrefix("/") else { return path }
        return path.split(separator: "/").last.map(String.init) ?? name
    }

    /// The review with every path under ``folder`` in its messages (findings, why a sticker or
    /// drawing could not be made, why a sticker cannot fit) shown from the folder, and the
    /// folder itself, where a message starts with it (the pack cannot be read), as ``shownPath``.
    func pathsFromFolder() -> PackReview {
        // The root folder aside: every absolute path is under it, and shown whole.
        guard let folder, folder != "/" else { return self }
        let prefix = folder + "/"
        let shownFolder = shownPath
        func shown(_ text: String) -> String {
            let fromFolder = text.replacing(prefix, with: "")
            guard fromFolder.hasPrefix(folder + ":") else { return fromFolder }
            return shownFolder + fromFolder.dropFirst(folder.count)
        }
        var review = self
        review.report.stickers = report.stickers.map { sticker in
            var sticker = sticker
            sticker.files = sticker.files.map(shown)
            return sticker
        }
        review.report.findings = report.findings.map { finding in
            var finding = finding
            finding.message = shown(finding.message)
            return finding
        }
        review.cards = cards.map { card in
            var card = card
            card.problem = card.problem.map(shown)
            if var fit = card.fit {
                fit.failure = fit.failure.map(shown)
                fit.warning = fit.warning.map(shown)
                card.fit = fit
            }
            return card
        }
        review.browser = browser.map { shot in
            var shot = shot
            shot.problem = shot.problem.map(shown)
            return shot
        }
        review.transcript = transcript.map { shot in
            var shot = shot
            shot.problem = shot.problem.map(shown)
            return shot
        }
        return review
    }

    /// The pack's line of the index and of `--json`.
    public var summary: PackSummary {
        var counts: [String: (errors: Int, warnings: Int)] = [:]
        for finding in report.findings {
            guard let sticker = finding.sticker else { continue }
            let count = counts[sticker] ?? (0, 0)
            counts[sticker] =
                finding.severity == .error ? (count.errors + 1, count.warnings) : (count.errors, count.warnings + 1)
        }
        func rank(_ sticker: StickerSummary) -> (Int, Int, Int) {
            let count = counts[sticker.name] ?? (0, 0)
            return (count.errors, count.warnings, sticker.fileBytes)
        }
        let worst = report.stickers.max { rank($0) < rank($1) }
        return PackSummary(
            pack: name, path: path, page: "", stickers: report.stickers.count, errors: report.errorCount,
            warnings: report.warningCount, totalBytes: report.stickers.reduce(0) { $0 + $1.fileBytes },
            worstSticker: worst?.name, passed: report.passed)
    }
}

/// One pack's line in the index page and in `stickers review --json`.
public struct PackSummary: Sendable, Hashable, Codable {
    /// The pack's name.
    public var pack: String
    /// The path it was read from.
    public var path: String
    /// Its page, relative to the output folder.
    public var page: String
    /// How many stickers it has.
    public var stickers: Int
    /// Errors: Apple's rules broken.
    public var errors: Int
    /// Warnings: lints.
    public var warnings: Int
    /// The stickers' files, in bytes.
    public var totalBytes: Int
    /// The sticker with the most errors, then warnings, then bytes.
    public var worstSticker: String?
    /// Whether the pack has no error.
    public var passed: Bool
}
