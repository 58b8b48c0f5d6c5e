/// What happens to a frame's rectangle after it has been shown, before the next frame is drawn.
///
/// APNG stores these as `dispose_op` 0-2; GIF's disposal methods map onto them (see
/// ``GIFDisposal``).
public enum DisposeOp: String, Sendable, Hashable, CaseIterable {
    /// Leave the canvas as it is (APNG `APNG_DISPOSE_OP_NONE`, GIF 0 and 1).
    case none
    /// Clear the frame's rectangle to transparent black (APNG `BACKGROUND`, GIF 2; browsers
    /// clear to transparent, not to the GIF's background colour).
    case background
    /// Restore the rectangle to what it was before the frame was drawn (APNG `PREVIOUS`,
    /// GIF 3). On the first frame this restores the empty canvas, so it acts as ``background``.
    case previous
}

/// How a frame's pixels are combined with the canvas.
public enum BlendOp: String, Sendable, Hashable, CaseIterable {
    /// Replace the rectangle's pixels, alpha included (APNG `APNG_BLEND_OP_SOURCE`).
    case source
    /// Composite the frame over the canvas in premultiplied space (APNG `OVER`; every GIF
    /// frame, whose transparent index leaves the canvas untouched).
    case over
}

/// A GIF Graphic Control Extension's 3-bit disposal method, with every value named.
public enum GIFDisposal: UInt8, Sendable, Hashable, CaseIterable {
    /// 0: no disposal specified; browsers keep the frame.
    case unspecified = 0
    /// 1: do not dispose.
    case doNotDispose = 1
    /// 2: restore to background (transparent, as browsers do).
    case restoreToBackground = 2
    /// 3: restore to previous.
    case restoreToPrevious = 3
    /// 4: undefined in GIF89a; Chromium and Firefox read it as restore to previous, because
    /// some encoders set the third bit to mean that.
    case reserved4 = 4
    /// 5: undefined; browsers keep the frame.
    case reserved5 = 5
    /// 6: undefined; browsers keep the frame.
    case reserved6 = 6
    /// 7: undefined; browsers keep the frame.
    case reserved7 = 7

    /// The dispose operation browsers apply for this value.
    public var disposeOp: DisposeOp {
        switch self {
        case .restoreToBackground: return .background
        case .restoreToPrevious, .reserved4: return .previous
        case .unspecified, .doNotDispose, .reserved5, .reserved6, .reserved7: return .none
        }
    }
}
