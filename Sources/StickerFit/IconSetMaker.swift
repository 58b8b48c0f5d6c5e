import AnimationCodec
import StickerPack
import StickerPixels

/// Draws every icon of the iMessage app icon set (``MessagesIconSet/required``), opaque on a
/// background, from artwork or from a sticker.
public enum IconSetMaker {
    /// What the icons are drawn from.
    public enum Source: Sendable {
        /// Icon artwork: scaled to cover each icon (cropped at the sides, never stretched).
        case artwork(RGBAImage)
        /// A sticker: its visible part (transparent margins cropped) scaled to fit inside each
        /// icon with a margin, so all of it shows.
        case sticker(RGBAImage)
    }

    /// How much of an icon's shorter side a sticker fills.
    static let stickerFill = 0.8

    /// Every icon of the set, as PNGs of the exact pixel sizes, on `background` (opaque, since
    /// the App Store refuses a transparent marketing icon).
    /// - Precondition: `background.isOpaque`.
    public static func icons(from source: Source, background: Background, threads: Int = 1) -> [CatalogWriter.Icon] {
        precondition(background.isOpaque, "icons need an opaque background")
        return ParallelWork.map(MessagesIconSet.required, threads: threads) { slot in
            let pixels = draw(source, width: slot.pixelWidth, height: slot.pixelHeight, background: background)
            let png = AnimationEncoder.encode(
                frames: [pixels.pixels], delays: [FrameDelay(numerator: 0, denominator: 1)],
                width: slot.pixelWidth, height: slot.pixelHeight, plays: 1,
                options: .init(compressionLevel: 9, threads: 1)
            ).bytes
            return CatalogWriter.Icon(slot: slot, png: png)
        }
    }

    /// One icon's pixels.
    static func draw(_ source: Source, width: Int, height: Int, background: Background) -> RGBAImage {
        var canvas = background.canvas(width: width, height: height)
        let image: RGBAImage
        let cover: Bool
        switch source {
        case .artwork(let art): (image, cover) = (art, true)
        case .sticker(let art):
            let visible = art.changedRect(from: RGBAImage(width: art.width, height: art.height))
            (image, cover) = (visible.isEmpty ? art : art.cropped(to: visible), false)
        }
        guard image.width > 0 && image.height > 0 else { return canvas }
        if cover {
            canvas.draw(Resampler(filter: .lanczos3).cover(image, width: width, height: height), atX: 0, y: 0)
            return canvas
        }
        let scaleX = Double(width) / Double(image.width)
        let scaleY = Double(height) / Double(image.height)
        let scale = min(scaleX, scaleY) * stickerFill
        let drawnWidth = max(1, Int((Double(image.width) * scale).rounded()))
        let drawnHeight = max(1, Int((Double(image.height) * scale).rounded()))
        let resized = Resampler(filter: .lanczos3).resize(image, width: drawnWidth, height: drawnHeight)
        canvas.draw(resized, atX: (width - drawnWidth) / 2, y: (height - drawnHeight) / 2)
        return canvas
    }
}
