import AnimationCodec
import ArgumentParser
import FoundationEssentials
import StickerBench
import StickerFit
import StickerPack
import StickerPixels

/// The options of how stickers are fitted, shared by `fit` and `xcode`, and the job they
/// describe: every sticker of the inputs fitted, and the catalog's icons drawn.
struct FitSettings: ParsableArguments {
    @Option(
        help:
            "Sticker size: small (300 px), regular (408 px) or large (618 px); default: the pack's grid-size; for images not in a catalog, their common side (all 300, 408 or 618 px square), else regular."
    )
    var size: StickerSize?

    @Option(
        name: .customLong("max-bytes"), parsing: .unconditional,
        help: ArgumentHelp(
            "The most bytes a sticker file may have, as 450000, 450K or 450KB (K, KB, M and MB count in thousands, as Apple's 500 KB does; KiB and MiB in 1024s). The default, 499,999, is under 500 KB however it is counted; validate warns from 500,000 and refuses 512,000 or more.",
            valueName: "n"))
    var budget = DecimalByteCount(FitOptions.defaultMaxBytes)

    /// The most bytes a sticker file may have.
    var maxBytes: Int { budget.value }

    @Flag(
        name: .customLong("allow-smaller-size"),
        help: "Let a sticker that cannot fit otherwise be made for a smaller size class.")
    var allowSmallerSize = false

    @Flag(help: "Exact steps only: never reduce colours, frames or size (so not with --max-duration or --max-fps).")
    var lossless = false

    @Option(
        name: .customLong("label"),
        help: ArgumentHelp(
            "A sticker's VoiceOver label, as NAME=TEXT, at most 150 characters; default: the catalog's label, else one made from the file's name (01-bouncing-blob reads \"Bouncing blob\"), shortened to 150.",
            valueName: "name=text"))
    var labels: [String] = []

    @Option(
        help: ArgumentHelp(
            "Icon artwork for the iMessage app icon set (scaled to cover each size); default: the input catalog's own icon set when it is complete and no --icon-background is given, else the first sticker that shows anything, at its first frame that shows most of it.",
            valueName: "image"), completion: .file())
    var icon: String?

    @Option(
        name: .customLong("icon-background"),
        help: ArgumentHelp(
            "The icons' opaque background: a preset name or #RRGGBB (default: white).", valueName: "color"))
    var iconBackground: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "libdeflate's compression level, 1-12: 12 (the default) compresses hardest, lower levels finish sooner.",
            valueName: "n"))
    var level: Int32 = 12

    @Option(
        name: .customLong("min-fps"), parsing: .unconditional,
        help: ArgumentHelp(
            "The lowest frame rate the lossy search may drop an animation to (frames are dropped, never sped up); default: as low as the best quality needs, down to two frames.",
            valueName: "fps"))
    var minimumFramesPerSecondNumber: DecimalNumber?

    /// `--min-fps`.
    var minimumFramesPerSecond: Double? { minimumFramesPerSecondNumber?.value }

    @Option(
        name: .customLong("min-psnr"), parsing: .unconditional,
        help: ArgumentHelp(
            "The quality floor: a sticker whose best file within the budget is under this PSNR against the original is not made.",
            valueName: "dB"))
    var minimumPSNRNumber = DecimalNumber(FitOptions.defaultMinimumPSNR)

    /// `--min-psnr`.
    var minimumPSNR: Double { minimumPSNRNumber.value }

    @Option(
        name: .customLong("min-ssim"), parsing: .unconditional,
        help: ArgumentHelp("A second floor on the file's mean SSIM, 0-1 (0: none).", valueName: "ssim"))
    var minimumSSIMNumber = DecimalNumber(0)

    /// `--min-ssim`.
    var minimumSSIM: Double { minimumSSIMNumber.value }

    @Flag(
        help:
            "A sticker made with visible loss (under 30 dB or SSIM 0.90, or a loss those figures do not measure: a clip cut short, a smaller size, parts not drawn, damaged input) is an error, not a warning: for CI."
    )
    var strict = false

    @Option(
        name: .customLong("max-duration"), parsing: .unconditional,
        help: ArgumentHelp(
            "Keep only the first this long of a longer animation, at its own speed: 2.5s, 2500ms or seconds.",
            valueName: "time"))
    var maxDurationTime: TimeArgument?

    /// `--max-duration` in seconds.
    var maxDuration: Double? { maxDurationTime?.seconds }

    @Option(
        name: .customLong("max-fps"), parsing: .unconditional,
        help: ArgumentHelp(
            "The highest frame rate to make (at most 1000): an animation faster once repeats merge keeps every (rate/N)th frame, each shown for the frames it stands for (the loop keeps its length); default: the input's own.",
            valueName: "fps"))
    var maximumFramesPerSecondNumber: DecimalNumber?

    /// `--max-fps`.
    var maximumFramesPerSecond: Double? { maximumFramesPerSecondNumber?.value }

    @Flag(
        help: "Dither reduced palettes (ordered: still areas stay still): smoother gradients for a lower PSNR and SSIM."
    )
    var dither = false

    @Option(parsing: .unconditional, help: "Worker threads (default: every core).")
    var threads: Int?

    @OptionGroup var progress: ProgressOptions

    /// The codec's limits.
    @OptionGroup(title: "Limits") var limits: LimitOptions<FitDecodedHelp>

    /// Refuses a `--max-bytes` that is not positive, or that makes files validate refuses
    /// (512,000 bytes or more: over 500 KB however it is counted).
    static func checkBudget(_ maxBytes: Int) throws {
        guard maxBytes > 0 else { throw ValidationError("--max-bytes must be positive.") }
        let refused = ValidationThresholds.default.fileBytesError
        guard maxBytes < refused else {
            throw ValidationError(
                "--max-bytes \(maxBytes) is more than Messages takes: a sticker file must be under 500 KB, and validate refuses one of \(String(groupingThousands: refused)) bytes or more."
            )
        }
    }

    /// Checks the options before any work.
    func validate() throws {
        try Self.checkBudget(maxBytes)
        guard let background = Background(named: iconBackground ?? "white"), background.isOpaque else {
            throw ValidationError("--icon-background must be an opaque colour (a preset such as white, or #RRGGBB).")
        }
        let limit = ValidationThresholds.default.maxDescriptionLength
        for label in labels {
            guard let (name, text) = Self.split(label: label) else {
                throw ValidationError("--label takes NAME=TEXT, not \(label)")
            }
            guard !name.isEmpty else {
                throw ValidationError("--label \(label): no sticker name before the \"=\" (--label NAME=TEXT)")
            }
            // Spaces and characters that show nothing (a zero-width space) leave VoiceOver silent.
            guard
                !text.unicodeScalars.allSatisfy({
                    $0.properties.isWhitespace || $0.properties.isDefaultIgnorableCodePoint
                })
            else {
                throw ValidationError(
                    "--label \(label): an empty label leaves VoiceOver nothing to read; leave --label out to use the sticker's name"
                )
            }
            guard text.utf16.count <= limit else {
                throw ValidationError(
                    "--label \(name)=...: the label is \(text.utf16.count) characters; Messages allows \(limit)")
            }
        }
        if lossless, maxDuration != nil {
            throw ValidationError(
                "--lossless keeps every frame; --max-duration drops the rest of the clip: choose one.")
        }
        guard (1...12).contains(level) else { throw ValidationError("--level must be 1-12.") }
        try OptionBounds.check(threads, in: OptionBounds.threads, "--threads")
        if let minimumFramesPerSecond, !(minimumFramesPerSecond > 0 && minimumFramesPerSecond.isFinite) {
            throw ValidationError("--min-fps must be a positive number of frames per second.")
        }
        guard (0...100).contains(minimumPSNR) else { throw ValidationError("--min-psnr must be 0-100 dB.") }
        guard (0...1).contains(minimumSSIM) else { throw ValidationError("--min-ssim must be 0-1.") }
        if let maximumFramesPerSecond {
            guard maximumFramesPerSecond > 0, maximumFramesPerSecond <= 1000 else {
                throw ValidationError("--max-fps must be a positive number of frames per second, at most 1000.")
            }
            if lossless {
                throw ValidationError("--lossless keeps every frame; --max-fps drops some: choose one.")
            }
            if let minimumFramesPerSecond, minimumFramesPerSecond > maximumFramesPerSecond {
                throw ValidationError(
                    "--min-fps \(minimumFramesPerSecond) is above --max-fps \(maximumFramesPerSecond).")
            }
        }
        try OptionBounds.check(
            maxDuration.map { $0.isNaN ? 0 : $0 }, in: OptionBounds.maxDuration, "--max-duration", unit: " seconds")
    }

    /// The fitting options given on the command line with values other than their defaults, by
    /// their names: `xcode --no-fit` copies a catalog as it is, so any of them is a mistake.
    var fittingOptionsGiven: [String] {
        let given: [(String, Bool)] = [
            ("--size", size != nil), ("--max-bytes", maxBytes != FitOptions.defaultMaxBytes),
            ("--allow-smaller-size", allowSmallerSize), ("--lossless", lossless), ("--label", !labels.isEmpty),
            ("--icon", icon != nil), ("--icon-background", iconBackground != nil), ("--level", level != 12),
            ("--min-fps", minimumFramesPerSecond != nil), ("--min-psnr", minimumPSNR != FitOptions.defaultMinimumPSNR),
            ("--min-ssim", minimumSSIM != 0), ("--strict", strict), ("--max-duration", maxDuration != nil),
            ("--max-fps", maximumFramesPerSecond != nil),
            ("--dither", dither)
        ]
        return given.filter(\.1).map(\.0)
    }

    /// The fitter's options from the command line.
    var options: FitOptions {
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
        options.maximumFramesPerSecond = maximumFramesPerSecond
        options.size = size
        options.compressionLevel = level
        options.dither = dither
        if let threads { options.threads = threads }
        return options
    }

    /// `stickers` with the VoiceOver labels the catalogs or projects among `outputs` give
    /// stickers of their names (letter case aside), where they have none of their own: read
    /// from the images again, the stickers keep the labels the catalog written before holds
    /// (given by `--label` then, or in Xcode since). `--label` still overrides them.
    static func keepingLabels(_ stickers: [Sticker], of outputs: [URL]) -> [Sticker] {
        var labels: [String: String] = [:]
        for output in outputs where PackLoader.isCatalogOrProject(output) {
            guard FileManager.default.fileExists(atPath: output.path),
                let earlier = try? PackLoader.load(path: output.path)
            else { continue }
            for sticker in earlier.stickers {
                if let label = sticker.accessibilityLabel { labels[sticker.name.lowercased()] = label }
            }
        }
        guard !labels.isEmpty else { return stickers }
        return stickers.map { sticker in
            var sticker = sticker
            if sticker.accessibilityLabel == nil { sticker.accessibilityLabel = labels[sticker.name.lowercased()] }
            return sticker
        }
    }

    /// A `--label` value split at its first "=": the sticker's name and the label (which may
    /// hold "=" itself); `nil` without one.
    static func split(label: String) -> (name: String, text: String)? {
        guard let equals = label.firstIndex(of: "=") else { return nil }
        return (String(label[..<equals]), String(label[label.index(after: equals)...]))
    }

    /// Fits every sticker of `inputs` (with a progress bar); `outputs` are what the command
    /// writes, never read as an input folder's pack while it holds images besides them.
    func fit(_ inputs: [String], outputs: [URL] = []) throws -> FittedCatalog {
        var pack = try Self.loadInputs(inputs, outputs: outputs)
        pack.stickers = Self.keepingLabels(pack.stickers, of: outputs)
        let options = self.options
        let fitter = PackFitter(options: options)
        let size = fitter.size(for: pack)
        let artwork = try icon.map { try Self.firstFrame($0, limits: limits.limits) }
        let labelMap = Dictionary(labels.compactMap(Self.split(label:)), uniquingKeysWith: { $1 })
        for name in labelMap.keys.sorted() where !pack.stickers.contains(where: { $0.name == name }) {
            // A file name given for its sticker's name, or another letter case: say which was meant.
            let stem = URL(fileURLWithPath: name).deletingPathExtension().lastPathComponent
            let meant = pack.stickers.first {
                $0.name.lowercased() == stem.lowercased() || $0.name.lowercased() == name.lowercased()
            }
            warn(
                "--label \(name)=...: no sticker is named \(name)" + (meant.map { "; did you mean \($0.name)?" } ?? ""))
        }
        let bar = progress.bar("fitting")
        let fitted = fitter.fit(pack.stickers, size: size, labels: labelMap) { done, total, finished in
            bar.update(done, of: total, note: Self.progressNote(finished))
        }
        bar.finish()
        return FittedCatalog(
            options: options, size: size, fitted: fitted, entries: PackFitter.catalogEntries(fitted), artwork: artwork,
            sourceCatalog: pack.catalogFolder, sourceFiles: pack.stickers.flatMap(\.files).map(\.path))
    }

    /// What a progress line says of a sticker as it finishes (stickers finish out of order):
    /// `01-blob made (2.24 s)`, `trunc cannot be made (0.10 s)`.
    static func progressNote(_ finished: FittedSticker) -> String {
        "\(finished.name) \(finished.succeeded ? "made" : "cannot be made") (\(String(cFormat: "%.2f", finished.seconds)) s)"
    }

    /// Writes the catalog of `catalog`'s made stickers, with its icon set, into `folder`.
    func writeCatalog(_ catalog: FittedCatalog, to folder: URL) throws {
        let icons: [CatalogWriter.Icon]
        // An input catalog's own icons are kept unless new ones are asked for.
        if catalog.artwork == nil, iconBackground == nil, let kept = Self.completeIconSet(of: catalog.sourceCatalog) {
            icons = kept
        } else {
            let background = Background(named: iconBackground ?? "white")!
            let source: IconSetMaker.Source =
                try catalog.artwork.map { .artwork($0) } ?? .sticker(Self.iconFrame(of: catalog.fitted))
            icons = IconSetMaker.icons(from: source, background: background, threads: catalog.options.threads)
        }
        try CatalogWriter.write(stickers: catalog.entries, gridSize: catalog.size, icons: icons, to: folder)
    }

    /// The icons of `catalog`'s icon set, byte for byte, when it has every slot Apple lists with
    /// nothing wrong (``MessagesIconSet/problems(inCatalog:limits:)``); else `nil`.
    static func completeIconSet(of catalog: URL?) -> [CatalogWriter.Icon]? {
        guard let catalog, MessagesIconSet.problems(inCatalog: catalog).isEmpty else { return nil }
        var icons: [CatalogWriter.Icon] = []
        for slot in MessagesIconSet.required {
            guard let file = MessagesIconSet.file(for: slot, inCatalog: catalog),
                let png = try? BoundedFile.read(file.path, maxBytes: DecodingLimits.default.maxFileBytes)
            else { return nil }
            icons.append(CatalogWriter.Icon(slot: slot, png: png))
        }
        return icons
    }

    /// Every sticker of every input: folders and catalogs each as a pack, loose files together;
    /// `outputs` are left out of a folder of images that holds them.
    static func loadInputs(_ paths: [String], outputs: [URL] = []) throws -> StickerPack {
        var stickers: [Sticker] = []
        var gridSize: StickerSize?
        var files: [String] = []
        var warnings: [PackWarning] = []
        var catalogFolder: URL?
        for path in paths {
            var isDirectory = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw CLIError("\(path): no such file or folder")
            }
            if isDirectory {
                let pack = try PackInput.load([path], outputs: outputs)
                catalogFolder = pack.catalogFolder
                stickers += pack.stickers
                warnings += pack.warnings
                // A catalog that names no grid-size is regular, as validate and Messages take it.
                gridSize = gridSize ?? pack.declaredGridSize ?? (pack.origin == .catalog ? .regular : nil)
            } else {
                files.append(path)
            }
        }
        if !files.isEmpty { stickers += try PackInput.load(files).stickers }
        guard !stickers.isEmpty else { throw CLIError("no stickers found in \(paths.joined(separator: ", "))") }
        for warning in warnings { warn(warning.description) }
        return StickerPack(
            name: "inputs", origin: .files, declaredGridSize: gridSize, stickers: stickers,
            catalogFolder: paths.count == 1 ? catalogFolder : nil)
    }

    /// The first frame of the `--icon` image file, read within `limits` (the command's).
    static func firstFrame(_ path: String, limits: DecodingLimits) throws -> RGBAImage {
        let bytes: [UInt8]
        do {
            bytes = try BoundedFile.read(path, maxBytes: limits.maxFileBytes)
        } catch .missingFile {
            throw CLIError("--icon \(path): no such file")
        } catch .unreadable {
            throw CLIError("--icon \(path): cannot be read as a file")
        } catch {
            throw CLIError("--icon \(error)")
        }
        let image: RGBAImage
        do {
            image = RGBAImage(try AnimationDecoder(bytes: bytes, limits: limits).frame(at: 0))
        } catch {
            throw CLIError("--icon \(path): \(error)")
        }
        // Every alpha byte 0: the icons would be the background alone.
        guard stride(from: 3, to: image.pixels.count, by: 4).contains(where: { image.pixels[$0] != 0 }) else {
            throw CLIError(
                "--icon \(path): every pixel is transparent, so every icon would be the background alone; give an image with something drawn"
            )
        }
        return image
    }

    /// The frame the icons are drawn from (``IconFrame/choose(from:)``).
    static func iconFrame(of fitted: [FittedSticker]) throws -> RGBAImage {
        let frame: RGBAImage?
        do {
            frame = try IconFrame.choose(from: fitted)
        } catch {
            throw CLIError("the icon's sticker does not decode: \(error)")
        }
        guard let frame else {
            throw CLIError("no sticker to draw the icons from")
        }
        return frame
    }
}
