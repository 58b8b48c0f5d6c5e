import AnimationCodec
import FoundationEssentials
import StickerPack

/// What `stickers fit` did, per sticker, and what `validate` then said of the catalog.
public struct FitReport: Sendable, Codable {
    /// One sticker's line of the report.
    public struct Entry: Sendable, Codable {
        /// The sticker's name in the catalog.
        public var name: String
        /// Whether it was fitted and written.
        public var fitted: Bool
        /// Why not, when it was not.
        public var failure: String?
        /// The size class its file is made for.
        public var size: String
        /// Steps taken, in order.
        public var steps: [FitStep]
        /// Whether any step was lossy.
        public var lossy: Bool
        /// Input bytes.
        public var bytesBefore: Int
        /// Output bytes (for a failure, the smallest reached).
        public var bytesAfter: Int
        /// Input frames.
        public var framesBefore: Int
        /// Output frames.
        public var framesAfter: Int
        /// Input frames per second over the loop (0 for a still).
        public var fpsBefore: Double
        /// Output frames per second over the loop (0 for a still).
        public var fpsAfter: Double
        /// Largest channel error against the scaled original (0-255, premultiplied).
        public var maxError: Int
        /// PSNR in dB; `nil` when exact.
        public var psnr: Double?
        /// Mean SSIM (``StructuralSimilarity``), 0-1; `nil` when exact.
        public var ssim: Double?
        /// Seconds spent.
        public var seconds: Double
        /// The files written, relative to the sticker's folder.
        public var files: [String]
        /// What lossy steps gave up, in a few words each (empty when exact or not made).
        public var givenUp: [String]
        /// The warning when the sticker was made under the line where loss is visible
        /// (``FitLoss/warningPSNR``, ``FitLoss/warningSSIM``), or with a loss the figures do not
        /// measure (``FitLoss/unmeasured``): what was given up and by how much.
        public var warning: String?
        /// What the decoder had to work around in the input (data ending early, corrupt data);
        /// empty for a whole file.
        public var inputDamage: [String]
        /// What the input holds that the renderer does not draw (a Lottie text layer, an
        /// expression); empty when everything is drawn.
        public var notDrawn: [String]
        /// The input's sound, left out (stickers play without sound); `nil` when it has none.
        public var soundLeftOut: String?
        /// How many times the input was scaled up, when more than twice (it looks soft).
        public var upscale: Double?

        /// Every warning about the sticker made, as the report words them: those its figures do
        /// not show (``unmeasuredWarnings``), then the loss (``warning``).
        public var warnings: [String] { unmeasuredWarnings + (warning.map { [$0] } ?? []) }

        /// The warnings about what the sticker's figures do not show: scaled up, damaged input,
        /// parts not drawn, sound left out.
        public var unmeasuredWarnings: [String] {
            var warnings: [String] = []
            if let upscale {
                warnings.append(
                    "the input was scaled up \(String(cFormat: "%.1f", upscale))x, so it looks soft; "
                        + "artwork at least as large as the sticker (\(StickerSize(rawValue: size)?.pixels ?? 0) px) keeps it sharp"
                )
            }
            if !inputDamage.isEmpty {
                warnings.append(
                    "the input is damaged, so it was made from what decodes, as browsers show it: "
                        + firstFew(inputDamage))
            }
            warnings += notDrawn.map { "the sticker lacks part of its input: \($0)" }
            if let soundLeftOut { warnings.append(soundLeftOut) }
            return warnings
        }

        /// The entry for `sticker`.
        public init(_ sticker: FittedSticker) {
            name = sticker.name
            fitted = sticker.succeeded
            failure = sticker.failure
            size = sticker.sizeClass.rawValue
            steps = sticker.steps
            lossy = sticker.isLossy
            bytesBefore = sticker.bytesBefore
            bytesAfter = sticker.bytesAfter
            framesBefore = sticker.framesBefore
            framesAfter = sticker.framesAfter
            fpsBefore = FrameRateFigure.hundredths(sticker.framesPerSecondBefore)
            fpsAfter = FrameRateFigure.hundredths(sticker.framesPerSecond)
            maxError = sticker.fidelity.maxError
            psnr = sticker.fidelity.psnr
            ssim = sticker.fidelity.ssim.map { ($0 * 10_000).rounded() / 10_000 }
            seconds = sticker.seconds
            files = sticker.files.map(\.name)
            let loss = sticker.loss
            givenUp = loss?.givenUp ?? []
            warning = loss.flatMap { $0.isVisible ? $0.warning : nil }
            inputDamage = sticker.inputDamage
            notDrawn = sticker.notDrawn
            soundLeftOut = sticker.soundLeftOut
            upscale = sticker.upscale
        }
    }

    /// The catalog written (or that would have been).
    public var catalog: String
    /// The size class asked for.
    public var size: String
    /// The byte budget per file.
    public var maxBytes: Int
    /// The quality floor in force: no lossy file under this PSNR (dB) was made.
    public var minPSNR: Double?
    /// The SSIM floor in force (0: none).
    public var minSSIM: Double?
    /// One entry per input sticker.
    public var stickers: [Entry]
    /// `validate` on the written catalog; `nil` when nothing was written.
    public var validation: ValidationReport?
    /// The catalog (or project) written; `nil` when nothing was.
    public var written: String?
    /// Why nothing was written, when nothing was: a dry run, no sticker fitted, or an output
    /// that holds the inputs while some stickers failed (it is left as it was).
    public var nothingWritten: String?
    /// Why the run stopped before fitting any sticker (an input that is no image or pack, an
    /// output that cannot be written), as stderr words it; `nil` when it fitted.
    public var error: String?
    /// Seconds for the whole run.
    public var seconds: Double
    /// The process's peak resident memory in bytes when the report was made (Linux's VmHWM),
    /// when the caller measured it: what fitting took, every sticker and copy included.
    public var peakResidentBytes: Int?

    /// Creates a report.
    public init(
        catalog: String, size: StickerSize, maxBytes: Int, stickers: [FittedSticker], validation: ValidationReport?,
        seconds: Double,
        options: FitOptions? = nil
    ) {
        self.catalog = catalog
        self.size = size.rawValue
        self.maxBytes = maxBytes
        minPSNR = options?.psnrFloor
        minSSIM = options?.ssimFloor
        self.stickers = stickers.map(Entry.init)
        self.validation = validation
        self.seconds = seconds
    }

    /// Stickers that could not be fitted.
    public var failures: Int { stickers.filter { !$0.fitted }.count }
    /// Stickers made with a warning for their loss.
    public var lossWarnings: Int { stickers.filter { $0.warning != nil }.count }

    /// The report for a terminal.
    public var text: String {
        var lines = ["fit \(catalog): \(counted(stickers.count, "sticker")), \(size), at most \(maxBytes) bytes a file"]
        for entry in stickers {
            let psnr =
                entry.psnr.map {
                    String(cFormat: "%.1f dB", $0) + (entry.ssim.map { String(cFormat: ", SSIM %.4f", $0) } ?? "")
                } ?? "exact"
            let head = entry.fitted ? "ok  " : "FAIL"
            let changed = FrameRateFigure.text(entry.fpsAfter) != FrameRateFigure.text(entry.fpsBefore)
            let rate =
                entry.fpsAfter > 0
                ? " at \(FrameRateFigure.text(entry.fpsBefore))"
                    + (changed ? " -> \(FrameRateFigure.text(entry.fpsAfter))" : "") + " fps" : ""
            if !entry.fitted && entry.bytesAfter == 0 && entry.framesAfter == 0 {
                // Nothing was made (the input did not read): no figures to give.
                lines.append(
                    "  \(head) \(TerminalText.oneLine(entry.name)): \(String(cFormat: "%.2f", entry.seconds)) s")
            } else {
                lines.append(
                    "  \(head) \(TerminalText.oneLine(entry.name)): \(entry.bytesBefore) -> \(entry.bytesAfter) bytes, \(entry.framesBefore) -> \(counted(entry.framesAfter, "frame"))\(rate), "
                        + "max error \(entry.maxError), \(psnr), \(String(cFormat: "%.2f", entry.seconds)) s")
            }
            // Each step, warning and finding one line: a name it quotes cannot start a line of its own.
            for step in entry.steps { lines.append("         " + TerminalText.oneLine("\(step)")) }
            for warning in entry.warnings { lines.append("         warning: " + TerminalText.oneLine(warning)) }
            if let failure = entry.failure { lines.append("         error: " + TerminalText.oneLine(failure)) }
        }
        if let validation {
            lines.append(
                "validate: " + (validation.passed ? "passed" : "FAILED")
                    + ", \(counted(validation.errorCount, "error")), \(counted(validation.warningCount, "warning"))")
            for finding in validation.findings { lines.append("  " + TerminalText.oneLine("\(finding)")) }
        }
        lines.append(
            String(cFormat: "%ld of %ld fitted in %.2f s", stickers.count - failures, stickers.count, seconds)
                + (lossWarnings > 0
                    ? ", \(lossWarnings) with loss warnings (above; --strict makes them errors)" : ""))
        return lines.joined(separator: "\n")
    }
}
