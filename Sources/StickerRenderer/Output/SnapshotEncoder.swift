import AnimationCodec
import StickerPixels

/// Turns rendered images into file bytes.
public enum SnapshotEncoder {
    /// The file kinds the renderer writes, chosen from the output's extension.
    public enum Kind: String, Sendable, CaseIterable {
        /// PNG, with alpha when the background is transparent.
        case png
        /// Binary PPM (P6); a transparent background becomes black.
        case ppm
        /// An animated PNG of the browser.
        case apng

        /// The kind for `path`'s extension (`.png`, `.ppm`, `.apng`), if any.
        public init?(path: String) {
            guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
            self.init(rawValue: path[path.index(after: dot)...].lowercased())
        }
    }

    /// `image` as a PNG: RGB when every pixel is opaque, else straight-alpha RGBA; fast
    /// compression, since snapshots are large and mostly flat.
    public static func png(_ image: RGBAImage) -> [UInt8] {
        PNGEncoder.encode(premultiplied: image.pixels, width: image.width, height: image.height, options: .fast)
    }

    /// `image` as P6: premultiplied colour is the image over black, so an opaque image is
    /// written as it is and a transparent one comes out over black.
    public static func ppm(_ image: RGBAImage) -> [UInt8] {
        PPMEncoder.encodeOverBlack(premultiplied: image.pixels, width: image.width, height: image.height)
    }

    /// Renders `renderer`'s browser over `duration` seconds into an APNG that loops forever,
    /// with a frame wherever any sticker changes; each frame after the first stores only the
    /// rectangle that changed. `progress` is told (frames done, frames in all).
    public static func apng(
        _ renderer: BrowserRenderer, duration: Double,
        progress: ((Int, Int) -> Void)? = nil
    ) throws -> [UInt8] {
        let count = renderer.changeTimes(duration: duration).count
        var writer = APNGWriter(
            width: renderer.layout.pixelWidth, height: renderer.layout.pixelHeight,
            frameCount: count, plays: 0)
        var done = 0
        try renderer.animate(duration: duration) { image, changed, start, length in
            appendFrame(image, changed: changed, start: start, end: start + length, to: &writer)
            done += 1
            progress?(done, count)
        }
        return writer.finish()
    }

    /// Appends the rectangle `changed` of `image`, shown from `start` to `end` seconds, to an
    /// animation (a 1-pixel frame when nothing changed), with ``delay(from:to:)``.
    public static func appendFrame(
        _ image: RGBAImage, changed: PixelRect, start: Double, end: Double, to writer: inout APNGWriter
    ) {
        let area = changed.isEmpty ? PixelRect(x: 0, y: 0, width: 1, height: 1) : changed
        writer.append(
            premultiplied: image.cropped(to: area).pixels, x: area.x, y: area.y,
            width: area.width, height: area.height, delay: delay(from: start, to: end))
    }

    /// The delay stored for a frame shown from `start` to `end` seconds: exact when it can be
    /// (``FrameDelay/exact(seconds:)``), else whole milliseconds between the rounded start and
    /// end, so the rounding never accumulates from frame to frame (as Doubles first, so a time
    /// past Int's range is clamped, not trapped on).
    static func delay(from start: Double, to end: Double) -> FrameDelay {
        if let exact = FrameDelay.exact(seconds: end - start) { return exact }
        let startMs = min((start * 1000).rounded(), 1e15)
        let endMs = min((end * 1000).rounded(), 1e15)
        return FrameDelay(seconds: max(0, endMs - startMs) / 1000)
    }
}
