import AnimationCodec

/// An image a command would draw with more pixels than the limits allow (a filmstrip of
/// thousands of frames, a sheet of thousands of stickers, a browser with every sticker shown):
/// refused before its memory is taken.
public struct ImageTooLarge: Error, Sendable, Equatable, CustomStringConvertible {
    /// What would be drawn: "the filmstrip", "the sheet", "the browser".
    public var image: String
    /// Its width in pixels.
    public var width: Int
    /// Its height in pixels.
    public var height: Int
    /// The most pixels allowed (``DecodingLimits/maxPixels``).
    public var limit: Int

    /// An error for `image` of `width` x `height` pixels, over `limit`.
    public init(image: String, width: Int, height: Int, limit: Int) {
        self.image = image
        self.width = width
        self.height = height
        self.limit = limit
    }

    /// `the filmstrip would be 1048x41600000 px, over the limit of 67108864 pixels (--max-pixels)`.
    public var description: String {
        "\(image) would be \(width)x\(height) px, over the limit of \(limit) pixels (--max-pixels)"
    }

    /// Throws when `width` x `height` (products that overflow included) is over `limit`.
    public static func check(_ image: String, width: Int, height: Int, limit: Int) throws(ImageTooLarge) {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || pixels > limit { throw ImageTooLarge(image: image, width: width, height: height, limit: limit) }
    }
}
