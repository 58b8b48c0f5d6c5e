import AnimationCodec
import ArgumentParser
import FoundationEssentials
import StickerBench
import StickerFit
import StickerPack
import StickerPixels
import StickerRenderer

/// `stickers fit`: any images (WebP, and Telegram's WebM and Lottie too) to an Xcode sticker catalog that passes every rule.
public struct FitCommand: ParsableCommand {
    /// Command name and help.
    public static let configuration = CommandConfiguration(
        commandName: "fit",
        abstract:
            "Make a sticker catalog that passes every Apple rule from any images (PNG, APNG, GIF, JPEG, WebP, WebM, Lottie .tgs, packs, catalogs).",
        discussion: """
            Each sticker is scaled (premultiplied Lanczos) so its longer side is the size's pixel side, padded to a square, its repeated frames merged, and re-encoded exactly as the smallest APNG found (or kept as it was when that is smaller). Only if it is still over --max-bytes, the lossy search looks for the highest PSNR that fits: an inter-frame tolerance, 256 down to 16 colours (--dither to dither them), a lower frame rate (as low as the best quality needs unless --min-fps, never sped up), the softer bicubic filter, JPEG for an opaque still; then, with --allow-smaller-size, a smaller size. A sticker is made when its best file is at or above the quality floor (--min-psnr, 20 dB by default; --min-ssim); one made under 30 dB or SSIM 0.90, or with a loss those figures do not measure (a clip cut short, a smaller size, parts not drawn, damaged input), gets a warning naming what was given up, an error with --strict. A sticker that cannot be made is an error for it alone, naming the best or smallest file reached and the options that make it, each proven by making it; the others are written, unless the catalog written is itself an input (then nothing is, so no sticker is lost). The catalog (with an iMessage app icon set) is written all-or-nothing and then validated.
            """)

    @Argument(
        help: ArgumentHelp(
            "Images, folders of images, .xcstickers catalogs or .stickerpack folders.", valueName: "input"),
        completion: .file())
    var inputs: [String]

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "The catalog to write (an existing one is replaced as a whole; a folder of other files, or the current folder, is not).",
            valueName: "OUT.xcstickers"),
        completion: .file())
    var output: String?

    @Flag(
        name: .customLong("dry-run"), help: "Fit every sticker and print the report, but write nothing (-o not needed)."
    )
    var dryRun = false

    @Option(help: "The catalog's name in the report (default: the output's file name).")
    var name: String?

    @Flag(help: "Print the report as JSON.")
    var json = false

    /// How every sticker is fitted.
    @OptionGroup var settings: FitSettings

    /// Creates the command (argument parsing fills it in).
    public init() {}

    /// Checks the options before any work.
    public func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("Name at least one image, folder or catalog.") }
        if let output {
            guard output.hasSuffix(".xcstickers") else {
                throw ValidationError("The output must be an .xcstickers folder (-o NAME.xcstickers).")
            }
        } else if !dryRun {
            throw ValidationError("Name the catalog to write (-o NAME.xcstickers), or pass --dry-run.")
        }
    }

    /// Runs the command.
    public func run() throws {
        let start = Date()
        let catalogName = name ?? output.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "inputs"
        var staged: OutputFolder?
        let catalog: FitSettings.FittedCatalog
        do {
            if !dryRun, let output { try Self.checkReplaceable(output) }
            // Staged before any sticker is fitted: an output that cannot be written is named at once.
            staged = dryRun ? nil : try output.map { try OutputFolder(final: $0) }
            // The catalog written into an input folder of images is not read as that folder next time.
            catalog = try settings.fit(inputs, outputs: output.map { [URL(fileURLWithPath: $0)] } ?? [])
        } catch {
            staged?.discard()
            if json { try Self.printStopped(error, catalog: catalogName, settings: settings, start: start) }
            throw error
        }
        var validation: ValidationReport?
        var inputKept: String?
        if catalog.entries.isEmpty { staged?.discard() }
        if !catalog.entries.isEmpty, let folder = staged, let output {
            if let loss = catalog.inputLoss(writing: folder) {
                // Replacing an input with a catalog that lacks some of it would lose that part.
                folder.discard()
                inputKept =
                    "\(output) holds the inputs and \(loss.description), so it is left as it was (write to another catalog \(loss.advice))"
            } else {
                do {
                    try settings.writeCatalog(catalog, to: folder.staging)
                    try folder.commitReplacing()
                } catch {
                    folder.discard()
                    throw CLIError("\(output): cannot be written (\(errorReason(error)))")
                }
                validation = PackValidator(limits: settings.limits.limits).validate(try PackInput.load([output]))
            }
        }
        var report = FitReport(
            catalog: catalogName,
            size: catalog.size, maxBytes: settings.maxBytes, stickers: catalog.fitted, validation: validation,
            seconds: Date().timeIntervalSince(start), options: catalog.options)
        report.peakResidentBytes = PeakMemory.bytes()
        if dryRun {
            report.nothingWritten = "dry run"
        } else if let inputKept {
            report.nothingWritten = inputKept
        } else if catalog.entries.isEmpty {
            report.nothingWritten = "no sticker could be fitted"
        } else {
            report.written = output
        }
        try Self.printReport(report, json: json)
        if !json {
            if let reason = report.nothingWritten {
                TerminalOutput.line(dryRun ? "dry run: nothing written" : "nothing written: " + reason)
            } else {
                TerminalOutput.line("wrote \(output ?? "")")
            }
        }
        if report.failures > 0 || validation?.passed == false || catalog.entries.isEmpty || inputKept != nil {
            throw ExitCode.failure
        }
    }

    /// An existing output folder is replaced as a whole, so only one that is empty or a sticker
    /// catalog (holding a `.stickerpack` or a `Contents.json`) is: a folder of other files that
    /// happens to be named like a catalog would be lost with it. A catalog inside another
    /// catalog is refused (``EnclosingCatalog``).
    static func checkReplaceable(_ output: String) throws {
        if let catalog = EnclosingCatalog.of(URL(fileURLWithPath: output).deletingLastPathComponent()) {
            throw CLIError(
                "\(output): is inside the sticker catalog \(catalog.path), so no catalog is written there (Xcode reads every folder in a catalog as part of it); name a folder beside the catalog"
            )
        }
        try OutputFolder.checkReplaceable(
            output,
            isEarlierOutput: { $0.contains { $0 == "Contents.json" || $0.lowercased().hasSuffix(".stickerpack") } },
            refusal: {
                "exists and is not a sticker catalog (no .stickerpack or Contents.json in it, but \(OutputFolder.listing($0))); it is not replaced: name another output"
            })
    }

    /// `--json`'s report of a run that stopped before fitting any sticker: no stickers, nothing
    /// written, and the error stderr names (so a CI job reading the JSON always has a report).
    static func printStopped(_ error: any Error, catalog: String, settings: FitSettings, start: Date) throws {
        var report = FitReport(
            catalog: catalog, size: settings.size ?? .regular, maxBytes: settings.maxBytes, stickers: [],
            validation: nil, seconds: Date().timeIntervalSince(start), options: settings.options)
        report.error = errorReason(error)
        report.nothingWritten = report.error
        try TerminalOutput.json(report)
    }

    /// The report as text or JSON on stdout.
    static func printReport(_ report: FitReport, json: Bool) throws {
        if json {
            try TerminalOutput.json(report)
        } else {
            TerminalOutput.line(report.text)
        }
    }
}
