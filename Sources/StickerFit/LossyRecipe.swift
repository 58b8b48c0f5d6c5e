import StickerPack

/// One combination of the lossy knobs `fit` searches: a softer scaling filter, fewer colours,
/// an inter-frame tolerance, a lower frame rate. Applied to the exact scaled frames (or the
/// frames scaled with the softer filter), in that order.
struct LossyRecipe: Hashable, Sendable {
    /// Whether the frames are scaled with the softer bicubic filter instead of Lanczos 3:
    /// flat art scaled so compresses markedly better for a small loss (measured against the
    /// Lanczos frames like every other knob).
    var softerScaling = false
    /// Palette size; `nil` keeps every colour.
    var colors: Int?
    /// Bits of precision kept in each colour channel when every colour is kept
    /// (``ColorPrecision``); 8 keeps them exact.
    var precision = 8
    /// Inter-frame tolerance (``InterframeTolerance``), 0 for none.
    var tolerance: Int = 0
    /// Keep one frame in every `frameStep` (1: all; 2: every 2nd; 2.5: two of every five),
    /// each shown for the frames it stands for.
    var frameStep: Double = 1

    /// The steps this recipe takes, in the report's words; `framesPerSecond` is the exact
    /// timeline's rate, `dithered` whether palettes are dithered.
    func steps(framesPerSecond: Double, frames: Int, dithered: Bool = false) -> [FitStep] {
        var steps: [FitStep] = []
        if softerScaling {
            steps.append(
                FitStep(
                    .scale, "scaled with the softer bicubic filter instead of Lanczos 3 (fewer bytes)", isLossy: true))
        }
        if let colors {
            steps.append(
                FitStep(
                    .palette,
                    "\(colors) colours with alpha (premultiplied median cut, transparent and opaque kept exact"
                        + (dithered ? ", ordered dithering)" : ")"), isLossy: true))
        }
        if precision < 8 {
            steps.append(
                FitStep(
                    .precision,
                    "\(precision) bits a colour channel, every colour kept (at most \(1 << (7 - precision)) off)",
                    isLossy: true))
        }
        if frameStep > 1 {
            let rate =
                "\(FrameRateFigure.text(framesPerSecond)) -> \(FrameRateFigure.text(framesPerSecond / frameStep)) fps"
            steps.append(
                FitStep(
                    .frameRate,
                    rate + " (\(stepName)), "
                        + "\(frames) -> \(FrameTimeline.keptIndices(count: frames, step: frameStep).count) frames",
                    isLossy: true))
        }
        if tolerance > 0 {
            steps.append(
                FitStep(.tolerance, "a pixel within \(tolerance) of what is shown stays as it is", isLossy: true))
        }
        return steps
    }

    /// `every 2nd frame`, or for a step between whole numbers the frames it keeps: `2 of every
    /// 5 frames` (2.5), `3 of every 4 frames` (4/3).
    private var stepName: String {
        guard
            let kept = (1...8).first(where: { abs(frameStep * Double($0) - (frameStep * Double($0)).rounded()) < 1e-9 })
        else {
            return String(cFormat: "one in every %.2f frames", frameStep)
        }
        let every = Int((frameStep * Double(kept)).rounded())
        if kept == 1 { return "every \(every)\(Self.ordinalSuffix(every)) frame" }
        return "\(kept) of every \(every) frames"
    }

    private static func ordinalSuffix(_ n: Int) -> String {
        if (11...13).contains(n % 100) { return "th" }
        switch n % 10 {
        case 1: return "st"
        case 2: return "nd"
        case 3: return "rd"
        default: return "th"
        }
    }

    /// A short name for the search's summary: `256 colours, tolerance 4, every 2nd frame`.
    var summary: String {
        var parts: [String] = []
        if softerScaling { parts.append("bicubic") }
        parts.append(
            colors.map { "\($0) colours" } ?? (precision < 8 ? "all colours at \(precision) bits" : "all colours"))
        if tolerance > 0 { parts.append("tolerance \(tolerance)") }
        if frameStep > 1 { parts.append(stepName) }
        return parts.joined(separator: ", ")
    }
}
