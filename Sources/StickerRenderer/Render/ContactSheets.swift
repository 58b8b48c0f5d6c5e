import AnimationCodec
import StickerPack
import StickerPixels

/// Review sheets: a pack on every background side by side, and one sticker's frames as a
/// filmstrip with their times.
public enum ContactSheets {
    /// Each sticker (a row) on each background (a column), at `time` seconds, in cells of the
    /// pack's size at `scale`. Unreadable stickers show the placeholder (`problems`); those
    /// read from a file with something wrong that reading worked around are named in
    /// `repairs`. Throws ``ImageTooLarge`` when the sheet would have more pixels than `limits`
    /// allow.
    public static func backgrounds(
        _ pack: StickerPack, backgrounds: [Background], size: StickerSize? = nil,
        scale: Int = 3, time: Double = 0, timing: FrameTimingPolicy = .apple,
        limits: DecodingLimits = .default
    ) throws(ImageTooLarge) -> (
        image: RGBAImage, problems: [(sticker: String, error: PackError)],
        repairs: [(sticker: String, warnings: [CodecWarning])]
    ) {
        let size = size ?? BrowserRenderer.packSize(pack, limits: limits)
        let cell = size.points * scale
        let pad = 8 * scale
        let tile = cell + 2 * pad
        try ImageTooLarge.check(
            "the sheet", width: tile * backgrounds.count, height: tile * pack.stickers.count, limit: limits.maxPixels)
        var sheet = RGBAImage(width: max(1, tile * backgrounds.count), height: max(1, tile * pack.stickers.count))
        for (column, background) in backgrounds.enumerated() {
            sheet.draw(background.canvas(width: tile, height: sheet.height), atX: column * tile, y: 0)
        }
        var problems: [(String, PackError)] = []
        var repairs: [(String, [CodecWarning])] = []
        for (row, sticker) in pack.stickers.enumerated() {
            let image: RGBAImage
            let fitted: PixelRect
            do {
                // A vector sticker is drawn at the cell's size.
                let animation = try StickerAnimation.load(sticker, limits: limits, vectorSide: cell)
                let warnings = animation.fileWarnings
                if !warnings.isEmpty { repairs.append((sticker.name, warnings)) }
                let clock = StickerClock(
                    delays: animation.delays, plays: animation.plays, policy: timing, format: animation.format)
                let frame = try animation.frame(at: clock.frameIndex(at: time))
                fitted = fit(width: animation.width, height: animation.height, into: cell)
                image = Resampler().resize(RGBAImage(frame), width: fitted.width, height: fitted.height)
            } catch {
                problems.append((sticker.name, error))
                for column in backgrounds.indices {
                    Placeholder.draw(
                        in: &sheet,
                        rect: PixelRect(x: column * tile + pad, y: row * tile + pad, width: cell, height: cell))
                }
                continue
            }
            for column in backgrounds.indices {
                sheet.draw(image, atX: column * tile + pad + fitted.x, y: row * tile + pad + fitted.y)
            }
        }
        return (sheet, problems, repairs)
    }

    /// One frame of a filmstrip: where it starts and how long it shows.
    public struct FilmstripFrame: Sendable, Hashable {
        /// The frame's index.
        public var index: Int
        /// When it starts in the first loop, seconds (after the timing policy).
        public var start: Double
        /// How long it shows, seconds (after the timing policy).
        public var duration: Double
    }

    /// Every frame of `animation` in a grid of `columns`, each over a checkerboard in a
    /// `cell`-pixel square with its start time written under it. Throws ``ImageTooLarge`` when
    /// the filmstrip would have more than `maxPixels` pixels, else what decoding throws
    /// (``PackError``). A vector sticker (Lottie) is drawn at the cell's size.
    public static func filmstrip(
        _ animation: StickerAnimation, columns: Int = 8, cell: Int = 204,
        timing: FrameTimingPolicy = .apple, maxPixels: Int = DecodingLimits.default.maxPixels
    ) throws -> (image: RGBAImage, frames: [FilmstripFrame]) {
        let animation = try animation.drawingVectors(atSide: cell)
        let columns = max(1, min(columns, animation.frameCount))
        let rows = (animation.frameCount + columns - 1) / columns
        let label = TinyFont.lineHeight(scale: 2) + 6
        let pad = 6
        let tileWidth = cell + 2 * pad
        let tileHeight = cell + 2 * pad + label
        try ImageTooLarge.check(
            "the filmstrip", width: tileWidth * columns, height: tileHeight * rows, limit: maxPixels)
        var sheet = Background.color(red: 255, green: 255, blue: 255).canvas(
            width: tileWidth * columns, height: tileHeight * rows)
        let clock = StickerClock(
            delays: animation.delays, plays: animation.plays, policy: timing, format: animation.format)
        let fitted = fit(width: animation.width, height: animation.height, into: cell)
        let checker = Background.checker(cell: 8).canvas(width: cell, height: cell)
        var frames: [FilmstripFrame] = []
        var iterator = animation.makeFrameIterator()
        while let frame = try iterator.next() {
            let index = frames.count
            let x = (index % columns) * tileWidth + pad
            let y = (index / columns) * tileHeight + pad
            sheet.draw(checker, atX: x, y: y)
            sheet.draw(
                Resampler().resize(RGBAImage(frame), width: fitted.width, height: fitted.height), atX: x + fitted.x,
                y: y + fitted.y)
            let start = clock.starts[index]
            let duration = clock.durations[index]
            TinyFont.draw("#\(index) \(milliseconds(start))ms", in: &sheet, x: x, y: y + cell + 4, scale: 2)
            frames.append(FilmstripFrame(index: index, start: start, duration: duration))
        }
        return (sheet, frames)
    }

    /// An aspect-fit rectangle for a `width` x `height` image centred in a `side` square.
    public static func fit(width: Int, height: Int, into side: Int) -> PixelRect {
        let factor = Double(side) / Double(max(width, height))
        let w = max(1, Int((Double(width) * factor).rounded()))
        let h = max(1, Int((Double(height) * factor).rounded()))
        return PixelRect(x: (side - w) / 2, y: (side - h) / 2, width: w, height: h)
    }

    private static func milliseconds(_ seconds: Double) -> String { String(Int((seconds * 1000).rounded())) }
}
