/// What `stickers fit` gave up to bring a sticker under the budget, as it records it in the
/// catalog (the sticker's `Contents.json`, under `info`) so `validate` and `review` can say so
/// later: the quality of the file against the scaled original and each thing given up.
public struct FitLoss: Sendable, Hashable, Codable {
    /// PSNR of the file against the scaled original, at every frame's start time, in dB.
    public var psnr: Double?
    /// Mean SSIM of the same comparison, 0-1.
    public var ssim: Double?
    /// What was given up and by how much, one entry a kind: `frame rate 30.0 -> 7.5 fps`,
    /// `256 colours`, `size regular -> small (300 px)`, `first 3.00 s of 12.00 s`.
    public var givenUp: [String]
    /// What is lost that the PSNR and SSIM do not measure, since they compare the file with
    /// what was kept: the end of a clip cut short, the size class given up, parts of the input
    /// not drawn, damaged input. Any of it makes the loss visible.
    public var unmeasured: [String]

    /// Creates a record.
    public init(psnr: Double?, ssim: Double?, givenUp: [String], unmeasured: [String] = []) {
        self.psnr = psnr
        self.ssim = ssim
        self.givenUp = givenUp
        self.unmeasured = unmeasured
    }

    /// The line under which a sticker's loss is visible, so never silent: 30 dB PSNR (an error
    /// of about 3% of full scale at each instant, where banding, blur and dropped motion start
    /// to show side by side with the original) ...
    public static let warningPSNR = 30.0
    /// ... or a mean SSIM of 0.90 (a tenth of the local structure lost).
    public static let warningSSIM = 0.90

    /// Whether the loss is under the warning line (PSNR under 30 dB or SSIM under 0.90), or
    /// holds something the figures do not measure (``unmeasured``).
    public var isVisible: Bool { isUnderWarningLine || !unmeasured.isEmpty }

    /// Whether the PSNR is under 30 dB or the SSIM under 0.90.
    public var isUnderWarningLine: Bool {
        (psnr.map { $0 < Self.warningPSNR } ?? false) || (ssim.map { $0 < Self.warningSSIM } ?? false)
    }

    /// What was given up that the figures measure (``givenUp`` but ``unmeasured``).
    private var measured: [String] { givenUp.filter { !unmeasured.contains($0) } }

    /// `24.1 dB, SSIM 0.812: frame rate 30.0 -> 7.5 fps; 128 colours`: the figures and what
    /// they measure; `exact` without figures.
    private var figures: String {
        let quality = [psnr.map { String(cFormat: "%.1f dB", $0) }, ssim.map { String(cFormat: "SSIM %.3f", $0) }]
            .compactMap { $0 }
        return (quality.isEmpty ? "exact" : quality.joined(separator: ", "))
            + (measured.isEmpty ? "" : ": " + measured.joined(separator: "; "))
    }

    /// `24.1 dB, SSIM 0.812: frame rate 30.0 -> 7.5 fps; 128 colours`, then what the figures
    /// do not measure: `exact; not in these figures: the first 3.00 s of 12.00 s`.
    public var description: String {
        figures + (unmeasured.isEmpty ? "" : "; not in these figures: " + unmeasured.joined(separator: "; "))
    }

    /// The warning's text: `made with visible loss (under 30 dB or SSIM 0.90): 24.1 dB, ...`.
    /// With only ``unmeasured`` loss, that loss, then what was kept: `made with loss the figures
    /// do not measure: the first 3.00 s of 12.00 s (what was kept is exact)`.
    public var warning: String {
        guard !isUnderWarningLine else {
            return String(
                cFormat: "made with visible loss (under %.0f dB or SSIM %.2f): ", Self.warningPSNR, Self.warningSSIM)
                + description
        }
        return "made with loss the figures do not measure: " + unmeasured.joined(separator: "; ")
            + (psnr == nil && ssim == nil ? " (what was kept is exact)" : " (what was kept: " + figures + ")")
    }

    /// The key `fit` writes the record under in a sticker's `Contents.json` `info` object.
    public static let contentsKey = "stickerkit-fit"

    /// The record as a `Contents.json` value.
    public var contentsValue: [String: Any] {
        var value: [String: Any] = ["given-up": givenUp]
        // As measured, not rounded: a rounded figure can print otherwise than fit's report
        // did (25.2549 dB kept as 25.25 prints 25.2) or cross the warning's line (29.99996 as 30).
        if let psnr { value["psnr"] = psnr }
        if let ssim { value["ssim"] = ssim }
        if !unmeasured.isEmpty { value["unmeasured"] = unmeasured }
        return value
    }

    /// Reads a record written by ``contentsValue``; `nil` when `value` is not one.
    public init?(contentsValue value: Any) {
        guard let object = value as? [String: Any], let givenUp = object["given-up"] as? [Any] else { return nil }
        let strings = givenUp.compactMap { $0 as? String }
        guard strings.count == givenUp.count else { return nil }
        func number(_ key: String) -> Double? { (object[key] as? Double).flatMap { $0.isFinite ? $0 : nil } }
        let unmeasured = (object["unmeasured"] as? [Any] ?? []).compactMap { $0 as? String }
        self.init(psnr: number("psnr"), ssim: number("ssim"), givenUp: strings, unmeasured: unmeasured)
    }
}
