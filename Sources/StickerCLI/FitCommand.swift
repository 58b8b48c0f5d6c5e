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
            Each sticker is scaled (premultiplied Lanczos) so its longer side is the size's pixel side, padded to a square, its repeated frames merged, and re-encoded exactly as the smallest APNG found (or kept as it was when that is smaller). Only if it is still over --max-bytes, the lossy search looks for the highest PSNR that fits: an inter-frame tolerance, 256 down to 16 colours (--dither to dither them), a lower frame rate (as low as the best quality needs unless --min-fps, never sped up), the softer bicubic filter, JPEG for an opaque still; then, with --allow-smaller-size, a smaller size. A sticker is made when its best file is at or above the quality floor (--min-psnr, 20 dB by default; --min-ssim); one made under 30 dB or SSIM 0.90 gets a warning naming what was given up, an error with --strict. A sticker that cannot be made is an error for it alone, naming the best or smallest file reached and the options that make it, each proven by making it; the others are written. The catalog (with an iMessage app icon set) is written all-or-nothing and then validated.
            """)

    @Argument(
        help: ArgumentHelp(
            "Images, folders of images, .xcstickers catalogs or .stickerpack folders.", valueName: "input"))
    var inputs: [String]

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("The catalog to write (replaced as a whole if it exists).", valueName: "OUT.xcstickers"))
    var output: String?

    @Flag(
        name: .customLong("dry-run"), help: "Fit every sticker and print the report, but write nothing (-o not needed)."
    )
    var dryRun = false

    @Option(
        help:
            "Sticker size: small (300 px), regular (408 px) or large (618 px); default: the pack's grid-size, else regular."
    )
    var size: StickerSize?

    @Option(
        name: .customLong("max-bytes"),
        help: ArgumentHelp(
            "The most bytes a sticker file may have (500,000 is under 500 KB however it is counted).", valueName: "n"))
    var maxBytes = 500_000

    @Flag(
        name: .customLong("allow-smaller-size"),
        help: "Let a sticker that cannot fit otherwise be made for a smaller size class.")
    var allowSmallerSize = false

    @Flag(help: "Exact steps only: never reduce colours, frames or size.")
    var lossless = false

    @Option(help: "The catalog's name in the report (default: the output's file name).")
    var name: String?

    @Option(
        name: .customLong("label"),
        help: ArgumentHelp(
            "A sticker's VoiceOver label, as NAME=TEXT (repeatable); default: the catalog's label, else the name.",
            valueName: "name=text"))
    var labels: [String] = []

    @Option(
        help: ArgumentHelp(
            "Icon artwork for the iMessage app icon set (scaled to cover each size); default: the first sticker.",
            valueName: "image"))
    var icon: String?

    @Option(
        name: .customLong("icon-background"),
        help: ArgumentHelp("The icons' opaque background: a preset name or #RRGGBB.", valueName: "color"))
    var iconBackground = "white"

    @Option(
        help: ArgumentHelp(
            "libdeflate's compression level, 1-12: 12 (the default) gives the smallest files, lower levels finish sooner.",
            valueName: "n"))
    var level: Int32 = 12

    @Option(
        name: .customLong("min-fps"),
        help: ArgumentHelp(
            "The lowest frame rate the lossy search may drop an animation to (frames are dropped, never sped up); default: as low as the best quality needs, down to two frames.",
            valueName: "fps"))
    var minimumFramesPerSecond: Double?

    @Option(
        name: .customLong("min-psnr"),
        help: ArgumentHelp(
            "The quality floor: a sticker whose best file within the budget is under this PSNR against the original is not made (default 20 dB).",
            valueName: "dB"))
    var minimumPSNR: Double = FitOptions.defaultMinimumPSNR

    @Option(
        name: .customLong("min-ssim"),
        help: ArgumentHelp("A second floor on the file's mean SSIM, 0-1 (default: none).", valueName: "ssim"))
    var minimumSSIM: Double = 0

    @Flag(help: "A sticker made with visible loss (under 30 dB or SSIM 0.90) is an error, not a warning: for CI.")
    var strict = false

    @Option(
        name: .customLong("max-duration"),
        help: ArgumentHelp(
            "Keep only the first this many seconds of a longer animation, at its own speed.", valueName: "seconds"))
    var maxDuration: Double?

    @Flag(
        help: "Dither reduced palettes (ordered: still areas stay still): smoother gradients for a lower PSNR and SSIM."
    )
    var dither = false

    @Option(help: "Worker threads (default: every core).")
    var threads: Int?

    @Flag(help: "Print the report as JSON.")
    var json = false

    @OptionGroup var progress: ProgressOptions

    /// The codec's limits.
    @OptionGroup(title: "Limits") var limits: LimitOptions

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
        guard maxBytes > 0 else { throw ValidationError("--max-bytes must be positive.") }
        guard let background = Background(named: iconBackground), background.isOpaque else {
            throw ValidationError("--icon-background must be an opaque colour (a preset such as white, or #RRGGBB).")
        }
        for label in labels where !label.contains("=") {
            throw ValidationError("--label takes NAME=TEXT, not \(label)")
        }
        guard (1...12).contains(level) else { throw ValidationError("--level must be 1-12.") }
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1.") }
        if let minimumFramesPerSecond, !(minimumFramesPerSecond > 0 && minimumFramesPerSecond.isFinite) {
            throw ValidationError("--min-fps must be a positive number of frames per second.")
        }
        guard (0...100).contains(minimumPSNR) else { throw ValidationError("--min-psnr must be 0-100 dB.") }
        guard (0...1).contains(minimumSSIM) else { throw ValidationError("--min-ssim must be 0-1.") }
        if let maxDuration, !(maxDuration > 0 && maxDuration <= 3600) {
            throw ValidationError("--max-duration must be a positive number of seconds, at most 3600.")
        }
    }

    /// Runs the command.
    public func run() throws {
        let start = Date()
        let pack = try Self.loadInputs(inputs)
        // fit keeps every frame in memory, in a few copies (decoded, scaled, reduced): the
        // decoded frames of one sticker are capped at 1 GiB unless --max-decoded says less.
        var codecLimits = limits.limits
        codecLimits.maxTotalDecodedBytes = min(codecLimits.maxTotalDecodedBytes, FitOptions.maxDecodedBytes)
        var options = FitOptions(
            maxBytes: maxBytes, allowSmallerSize: allowSmallerSize, allowLossy: !lossless,
            minimumFramesPerSecond: minimumFramesPerSecond ?? 0, limits: codecLimits)
        options.minimumPSNR = minimumPSNR
        options.minimumSSIM = minimumSSIM
        options.strict = strict
        options.maxDuration = maxDuration
        options.size = size
        options.compressionLevel = level
        options.dither = dither
        if let threads { options.threads = threads }
        let fitter = PackFitter(options: options)
        let size = fitter.size(for: pack)
        let artwork = try icon.map(Self.firstFrame)
        let labelMap = Dictionary(
            labels.map { label -> (String, String) in
                let parts = label.split(separator: "=", maxSplits: 1)
                return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
            }, uniquingKeysWith: { $1 })

        for name in labelMap.keys.sorted() where !pack.stickers.contains(where: { $0.name == name }) {
            warn("--label \(name)=...: no sticker is named \(name)")
        }
        let bar = progress.bar("fitting")
        let fitted = fitter.fit(pack.stickers, size: size, labels: labelMap) { done, total in
            bar.update(done, of: total)
        }
        bar.finish()

        let entries = PackFitter.catalogEntries(fitted)
        var validation: ValidationReport?
        if !entries.isEmpty, !dryRun, let output {
            let background = Background(named: iconBackground)!
            let source: IconSetMaker.Source = try artwork.map { .artwork($0) } ?? .sticker(Self.firstFrame(of: fitted))
            let icons = IconSetMaker.icons(from: source, background: background, threads: options.threads)
            let folder = try OutputFolder(final: output)
            do {
                try CatalogWriter.write(stickers: entries, gridSize: size, icons: icons, to: folder.staging)
                try folder.commitReplacing()
            } catch {
                folder.discard()
                throw CLIError("\(output): cannot be written (\(errorReason(error)))")
            }
            validation = PackValidator(limits: limits.limits).validate(try PackInput.load([output]))
        }
        var report = FitReport(
            catalog: name ?? output.map { URL(fileURLWithPath: $0).lastPathComponent } ?? pack.name, size: size,
            maxBytes: maxBytes,
            stickers: fitted, validation: validation, seconds: Date().timeIntervalSince(start), options: options)
        report.peakResidentBytes = PeakMemory.bytes()
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(report.text)
            if dryRun {
                print("dry run: nothing written")
            } else if entries.isEmpty {
                print("nothing written: no sticker could be fitted")
            } else {
                print("wrote \(output ?? "")")
            }
        }
        if report.failures > 0 || validation?.passed == false || entries.isEmpty { throw ExitCode.failure }
    }

    /// Every sticker of every input: folders and catalogs each as a pack, loose files together.
    static func loadInputs(_ paths: [String]) throws -> StickerPack {
        var stickers: [Sticker] = []
        var gridSize: StickerSize?
        var files: [String] = []
        var warnings: [PackWarning] = []
        for path in paths {
            var isDirectory = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw CLIError("\(path): no such file or folder")
            }
            if isDirectory {
                let pack = try PackInput.load([path])
                stickers += pack.stickers
                warnings += pack.warnings
                gridSize = gridSize ?? pack.declaredGridSize
            } else {
                files.append(path)
            }
        }
        if !files.isEmpty { stickers += try PackInput.load(files).stickers }
        guard !stickers.isEmpty else { throw CLIError("no stickers found in \(paths.joined(separator: ", "))") }
        for warning in warnings { warn(warning.description) }
        return StickerPack(name: "inputs", origin: .files, declaredGridSize: gridSize, stickers: stickers)
    }

    /// The first frame of an image file.
    static func firstFrame(_ path: String) throws -> RGBAImage {
        do {
            let bytes = try BoundedFile.read(path, maxBytes: DecodingLimits.default.maxFileBytes)
            return RGBAImage(try AnimationDecoder(bytes: bytes).frame(at: 0))
        } catch {
            throw CLIError("\(path): \(error)")
        }
    }

    /// The first frame of the first fitted sticker.
    static func firstFrame(of fitted: [FittedSticker]) throws -> RGBAImage {
        guard let first = fitted.first(where: \.succeeded)?.files.first else {
            throw CLIError("no sticker to draw the icons from")
        }
        do {
            return RGBAImage(try AnimationDecoder(bytes: first.bytes).frame(at: 0))
        } catch {
            throw CLIError("the icon's sticker does not decode: \(error)")
        }
    }
}
