import StickerFit

/// How close an output shows to a reference: at each reference frame's start time, the frame
/// the output shows then (its loop repeating) against the reference frame, over every channel
/// of the premultiplied pixels (`stickers fit`'s own measure, ``Fidelity``).
struct ShownFidelity: Sendable, Encodable, Equatable {
    /// The largest difference of one channel, 0-255 (0: exact).
    var maxError: Int
    /// PSNR in dB over all channels and instants; `nil` when exact (infinite).
    var psnr: Double?
    /// Mean SSIM over all channels and instants (``StructuralSimilarity``); `nil` when exact.
    var ssim: Double?

    /// `shown` against `reference`; `nil` when their canvases differ in size.
    static func measure(_ shown: ShownFrames, against reference: ShownFrames) -> ShownFidelity? {
        guard shown.width == reference.width, shown.height == reference.height else { return nil }
        let fidelity = Fidelity.compare(shown.timeline, reference.timeline)
        let ssim =
            fidelity.psnr == nil
            ? nil
            : StructuralSimilarity.compare(
                shown.timeline, reference.timeline, width: reference.width, height: reference.height)
        return ShownFidelity(maxError: fidelity.maxError, psnr: fidelity.psnr, ssim: ssim)
    }
}
