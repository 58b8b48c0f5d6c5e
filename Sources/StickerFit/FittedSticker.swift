import StickerPack

/// One sticker after `fit`: what to write and how it got there.
public struct FittedSticker: Sendable {
    /// What the sticker's catalog folder holds.
    public enum Output: Sendable {
        /// One image file: its name (with extension) and bytes.
        case file(name: String, bytes: [UInt8])
        /// A sticker sequence's frame files and timing.
        case sequence(frames: [(name: String, bytes: [UInt8])], sequence: StickerSequence)
    }

    /// The sticker's name (its folder name in the catalog).
    public var name: String
    /// The VoiceOver description written to the catalog.
    public var accessibilityLabel: String
    /// The fitted file(s); `nil` when the sticker could not be fitted.
    public var output: Output?
    /// Why the sticker could not be fitted (the smallest size reached, or the input's error).
    public var failure: String?
    /// What was done, in order.
    public var steps: [FitStep] = []
    /// The input's size in bytes (all frames of a sequence).
    public var bytesBefore = 0
    /// The output's size in bytes (for a failure, the smallest reached).
    public var bytesAfter = 0
    /// Frames in the input.
    public var framesBefore = 0
    /// Frames in the output.
    public var framesAfter = 0
    /// The input's frames per second over its loop (0 for a still).
    public var framesPerSecondBefore = 0.0
    /// The output's frames per second over its loop (0 for a still).
    public var framesPerSecond = 0.0
    /// The size class the output is made for.
    public var sizeClass: StickerSize
    /// The output against the scaled original.
    public var fidelity = Fidelity.exact
    /// Wall-clock seconds spent on this sticker.
    public var seconds = 0.0
    /// What the decoder had to work around in the input (data ending early, corrupt data):
    /// the sticker is made from what decodes, as browsers show it. Empty for a whole file.
    public var inputDamage: [String] = []
    /// What the input holds that the renderer does not draw (a Lottie text layer, an
    /// expression): the sticker lacks it in every frame. Empty when everything is drawn.
    public var notDrawn: [String] = []
    /// The input's sound, left out (a WebM's audio track: stickers play without sound), or
    /// `nil` when it has none. Not a loss of the picture, so not in ``loss``.
    public var soundLeftOut: String?
    /// How many times the input's longer side was scaled up to the size's side, when more than
    /// twice (a raster input drawn that large looks soft); `nil` otherwise.
    public var upscale: Double?
    /// The loss an earlier fit recorded for the input (a catalog `stickers fit` wrote): the
    /// input is already that far from its original, so the record is carried on.
    public var earlierLoss: FitLoss?

    /// Whether the sticker was fitted.
    public var succeeded: Bool { output != nil }
    /// Whether any lossy step was taken.
    public var isLossy: Bool { steps.contains { $0.isLossy } }

    /// What was given up and the quality kept, for a sticker made with lossy steps or from an
    /// input it could not wholly draw; `nil` for an exact one or one not made. The end of a
    /// clip cut short, a size class given up, parts not drawn and damaged input are
    /// ``FitLoss/unmeasured``: the PSNR and SSIM compare the file with what was kept.
    ///
    /// An input with an earlier fit's record (``earlierLoss``) keeps it: made exactly, the
    /// sticker carries that record as it is (its figures still compare the file with the
    /// original); made with loss again, the figures are this fit's, against the input, and the
    /// earlier record is named among what they do not measure when it was visible, else among
    /// what was given up.
    public var loss: FitLoss? {
        guard succeeded else { return nil }
        let exact = !isLossy && notDrawn.isEmpty && inputDamage.isEmpty
        if exact { return earlierLoss }
        var unmeasured =
            steps.filter { $0.kind == .maxDuration || $0.kind == .smallerSize }.compactMap(\.givenUp)
            + notDrawn.map { "not drawn: " + $0 } + inputDamage.map { "damaged input: " + $0 }
        var givenUp = steps.compactMap(\.givenUp)
        if let earlierLoss {
            let earlier = "an earlier fit: " + earlierLoss.description
            givenUp.append(earlier)
            if earlierLoss.isVisible { unmeasured.append(earlier) }
        }
        return FitLoss(psnr: fidelity.psnr, ssim: fidelity.ssim, givenUp: givenUp, unmeasured: unmeasured)
    }

    /// Every file the output holds, with its name.
    public var files: [(name: String, bytes: [UInt8])] {
        switch output {
        case .file(let name, let bytes): return [(name, bytes)]
        case .sequence(let frames, _): return frames
        case nil: return []
        }
    }
}
