/// Something wrong with a file that the decoder worked around, as browsers do.
public struct CodecWarning: Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem it was.
    public enum Kind: String, Sendable, Hashable {
        /// The APNG animation is broken; only the default image is shown (APNG spec, section 5).
        case animationIgnored
        /// The file ends early; the frames decoded so far are returned.
        case truncated
        /// A frame had less pixel data than its size needs; the rest stays transparent.
        case missingPixelData
        /// A frame's LZW data holds an invalid code; the pixels before it are kept.
        case invalidLZWCode
        /// An ancillary chunk had a bad CRC and was skipped.
        case ancillaryChunkSkipped
        /// A frame has no colour table; it draws nothing.
        case missingColorTable
        /// The logical screen had a zero side, so the canvas was sized to the first frame.
        case canvasSizedFromFrame
        /// The file holds content the renderer does not draw (a Lottie text layer or expression,
        /// which rlottie leaves out): every frame lacks it.
        case notDrawn
        /// The file carries sound (a WebM's audio track), which a sticker cannot play: the
        /// frames are whole, and the sound is left out.
        case soundLeftOut
        /// Another recoverable irregularity.
        case other
    }

    /// The kind of problem.
    public var kind: Kind
    /// A one-line explanation.
    public var message: String

    /// Creates a warning.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
