/// Everything stored about one frame except its pixels.
public struct FrameInfo: Sendable, Hashable {
    /// Position in the animation, from 0.
    public var index: Int
    /// The rectangle the frame draws, as stored.
    public var rect: FrameRect
    /// The stored display time.
    public var delay: FrameDelay
    /// What happens to ``rect`` after the frame is shown.
    public var dispose: DisposeOp
    /// How the frame is combined with the canvas.
    public var blend: BlendOp
    /// For GIF frames, the stored disposal method (0-7); `nil` for other formats.
    public var gifDisposal: GIFDisposal?
    /// Whether the GIF frame is interlaced (always `false` for APNG frames, whose interlacing
    /// is the file's).
    public var isInterlaced: Bool

    /// Creates frame metadata.
    public init(
        index: Int, rect: FrameRect, delay: FrameDelay, dispose: DisposeOp, blend: BlendOp,
        gifDisposal: GIFDisposal? = nil, isInterlaced: Bool = false
    ) {
        self.index = index
        self.rect = rect
        self.delay = delay
        self.dispose = dispose
        self.blend = blend
        self.gifDisposal = gifDisposal
        self.isInterlaced = isInterlaced
    }
}
