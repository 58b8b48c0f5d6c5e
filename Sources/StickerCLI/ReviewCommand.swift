import AnimationCodec
import ArgumentParser
import FoundationEssentials
import StickerPack
import StickerRenderer
import StickerReview

#if canImport(Glibc)
    import Glibc
#endif

/// `stickers review`: the whole verdict on one or more packs as HTML pages with their images.
public struct ReviewCommand: ParsableCommand {
    /// Command name and help.
    public static let configuration = CommandConfiguration(
        commandName: "review",
        abstract:
            "Write one HTML page per pack: the verdict, the findings, the browser and the conversation in light and dark, and a card per sticker.",
        discussion: """
            Each card shows the sticker animated on every test background (white, black, red, yellow, multicolor, a photo, checker), its frames with their times, its facts, its findings and what `stickers fit` would do (a dry run). One pack writes DIR/index.html and DIR/images/; several write a page per pack and DIR/index.html, a table of every pack, sorted by any column. The pages open from disk or any static host with no network and no script needed. The folder is written all-or-nothing. Exit status 1 when any pack breaks one of Apple's rules (the pages are still written).
            """)

    @Argument(
        help: ArgumentHelp(
            "Packs: folders of images, .xcstickers catalogs or .stickerpack folders.", valueName: "pack"),
        completion: .file())
    var inputs: [String]

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "The folder to write (replaced as a whole if it holds an earlier review).", valueName: "DIR"),
        completion: .file())
    var output: String

    @Flag(name: .customLong("single-file"), help: "Inline every image, so each page is one self-contained HTML file.")
    var singleFile = false

    @Flag(help: "Print the packs' summary as JSON instead of text.")
    var json = false

    @OptionGroup var screen: ScreenOptions

    @Option(
        help: ArgumentHelp("A photo to try the stickers on (default: a built-in synthetic scene).", valueName: "image"),
        completion: .file())
    var photo: String?

    @Option(
        name: .customLong("max-bytes"), parsing: .unconditional,
        help: ArgumentHelp(
            "The budget of the fit dry run, bytes a sticker, as fit's --max-bytes takes it (default \(ReviewOptions().maxBytes)).",
            valueName: "n"))
    var budget: DecimalByteCount?

    /// `--max-bytes`, in bytes.
    var maxBytes: Int? { budget?.value }

    @Option(
        name: .customLong("fit-level"),
        help: ArgumentHelp(
            "libdeflate's level for the fit dry run, 1-12 (default 12, as fit writes; lower levels finish sooner, and their figures are not the file fit makes).",
            valueName: "n"))
    var fitLevel: Int32?

    @Flag(name: .customLong("no-fit"), help: "Leave out the fit dry run.")
    var noFit = false

    @Option(help: "Worker threads (default: every core); the packs' jobs share them.")
    var threads: Int?

    @OptionGroup var progress: ProgressOptions

    /// The codec's limits.
    @OptionGroup(title: "Limits") var limits: LimitOptions<FitDecodedHelp>

    /// Creates the command (argument parsing fills it in).
    public init() {}

    /// Checks the options before any work.
    public func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("Name at least one pack.") }
        guard !output.isEmpty else { throw ValidationError(OutputFolder.emptyPathMessage) }
        if let maxBytes { try FitSettings.checkBudget(maxBytes) }
        if let fitLevel, !(1...12).contains(fitLevel) { throw ValidationError("--fit-level must be 1-12.") }
        try OptionBounds.check(threads, in: OptionBounds.threads, "--threads")
        let fitOptions = [maxBytes.map { _ in "--max-bytes" }, fitLevel.map { _ in "--fit-level" }].compactMap { $0 }
        if noFit, !fitOptions.isEmpty {
            throw ValidationError(
                "\(fitOptions.joined(separator: " and ")) \(fitOptions.count == 1 ? "applies" : "apply") to the fit dry run, which --no-fit leaves out."
            )
        }
    }

    /// Runs the command.
    public func run() throws {
        LargeImageHeap.prepare()
        // A pack that cannot be read is reviewed as its one error, so the others' pages are
        // still written; a path that does not exist at all is a mistake in the command line.
        let packs = try inputs.map { path -> (pack: StickerPack, error: String?) in
            do {
                // The review written into a pack's folder is not read as part of the pack.
                return (try PackInput.load([path], outputs: [URL(fileURLWithPath: output)]), nil)
            } catch  where FileManager.default.fileExists(atPath: path) {
                return (StickerPack(name: PackLoader.packName(for: path), origin: .folder, stickers: []), "\(error)")
            }
        }
        var options = ReviewOptions()
        options.view = screen.viewSize
        options.scale = screen.pixelsPerPoint(default: 2)
        if let maxBytes { options.maxBytes = maxBytes }
        if let fitLevel { options.fitLevel = fitLevel }
        options.dryRunFit = !noFit
        options.singleFile = singleFile
        options.limits = limits.limits
        if let threads { options.threads = threads }
        if let photo { options.photo = try InputFile.firstFrame(photo, limits: limits.limits) }

        let folder = try Self.outputFolder(output)
        let summaries: [PackSummary]
        do {
            let folders = ReviewWriter.packFolders(packs.map(\.pack.name), in: folder.staging)
            let targets = zip(packs, zip(inputs, folders)).map {
                ReviewTarget(pack: $0.pack, path: $1.0, folder: $1.1, loadError: $0.error)
            }
            let bar = progress.bar("reviewing")
            let reviews = try PackReviewer(options: options).review(targets) { done, total in
                bar.update(done, of: total)
            }
            bar.finish()
            summaries = try ReviewWriter.write(reviews, folders: folders, in: folder.staging, singleFile: singleFile)
            try folder.commitReplacing()
        } catch let error as ReviewError {
            folder.discard()
            throw CLIError(error.description)
        } catch {
            folder.discard()
            throw CLIError("\(output): cannot be written (\(errorReason(error)))")
        }
        let page = folder.final.appendingPathComponent("index.html").path
        if json {
            try TerminalOutput.json(ReviewSummary(folder: folder.final.path, page: page, packs: summaries))
        } else {
            for summary in summaries {
                let verdict = summary.passed ? "passes" : "FAILS"
                TerminalOutput.line(
                    "\(TerminalText.oneLine(summary.pack)): \(verdict), \(counted(summary.errors, "error")), \(counted(summary.warnings, "warning")), \(counted(summary.stickers, "sticker")), \(summary.totalBytes) bytes"
                        + (summaries.count > 1 ? " (\(summary.page))" : ""))
            }
            TerminalOutput.line("wrote \(page)")
        }
        if summaries.contains(where: { !$0.passed }) { throw ExitCode.failure }
    }

    /// What `--json` prints.
    struct ReviewSummary: Encodable {
        var folder: String
        var page: String
        var packs: [PackSummary]
    }

    /// The staging folder for `path`, refusing a folder that holds something other than an
    /// earlier review (replacing it as a whole must never remove a user's files), and the
    /// current folder or one holding it (replacing it would pull the folder from under the shell).
    static func outputFolder(_ path: String) throws -> OutputFolder {
        try OutputFolder.checkReplaceable(
            path, isIgnored: ReviewWriter.isDesktopFile,
            isEarlierOutput: { _ in ReviewWriter.isEarlierReview(URL(fileURLWithPath: path)) },
            refusal: { _ in
                "holds files other than an earlier review's\(ReviewWriter.notAnEarlierReview(URL(fileURLWithPath: path)).map { " (\($0))" } ?? ""), so it is not replaced; name a new or empty folder"
            })
        return try OutputFolder(final: path)
    }
}
