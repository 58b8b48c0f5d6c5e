import AnimationCodec

/// A rectangle in output pixels: the codec's rectangle type. Origins may be negative or past
/// the canvas; drawing clips.
public typealias PixelRect = FrameRect
