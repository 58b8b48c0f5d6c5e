extension Resampler {
    /// `image` scaled to cover `width` x `height` (its aspect kept, the shorter side filling)
    /// and cropped to it, centred: a background or an app icon's artwork.
    ///
    /// Where the scaled image would be far larger than the target (a long thin image: a
    /// 1 x 4,096 strip covering a 1,024 px square scales to 1,024 x 4,194,304), only the part
    /// of the source the target shows, with the filter's reach around it, is scaled, at the
    /// same scale, so the work and memory follow the target, not the source's shape.
    public func cover(_ image: RGBAImage, width: Int, height: Int) -> RGBAImage {
        guard width > 0, height > 0, image.width > 0, image.height > 0 else {
            return RGBAImage(width: max(0, width), height: max(0, height))
        }
        let scale = max(Double(width) / Double(image.width), Double(height) / Double(image.height))
        let scaledWidth = max(width, Int((Double(image.width) * scale).rounded()))
        let scaledHeight = max(height, Int((Double(image.height) * scale).rounded()))
        guard Double(scaledWidth) * Double(scaledHeight) > 4 * Double(width) * Double(height) else {
            return resize(image, width: scaledWidth, height: scaledHeight).cropped(
                to: PixelRect(
                    x: (scaledWidth - width) / 2, y: (scaledHeight - height) / 2, width: width, height: height))
        }
        let columns = Self.shownSpan(source: image.width, scaled: scaledWidth, target: width, filter)
        let rows = Self.shownSpan(source: image.height, scaled: scaledHeight, target: height, filter)
        let shown = image.cropped(
            to: PixelRect(x: columns.start, y: rows.start, width: columns.count, height: rows.count))
        return resize(shown, width: columns.scaledCount, height: rows.scaledCount).cropped(
            to: PixelRect(x: columns.offset, y: rows.offset, width: width, height: height))
    }

    /// Along one axis of a cover: the source pixels the centred `target` window of the image
    /// scaled from `source` to `scaled` pixels shows, widened by the filter's reach (so every
    /// pixel of the window is made from the source pixels the whole scaled image would make it
    /// from) and rounded out to whole pixels; their size scaled at the same ratio (rounded to a
    /// whole pixel); and where the window starts in them (to the nearest pixel: where the crop's
    /// start does not scale to a whole pixel, the picture lands within half a pixel of where
    /// the whole image scaled puts it).
    private static func shownSpan(
        source: Int, scaled: Int, target: Int, _ filter: Filter
    ) -> (start: Int, count: Int, scaledCount: Int, offset: Int) {
        let scale = Double(scaled) / Double(source)
        let windowStart = (scaled - target) / 2
        let reach = filter.support * max(1, 1 / scale) + 1
        let first = max(0, Int((Double(windowStart) / scale - reach).rounded(.down)))
        let end = min(source, Int((Double(windowStart + target) / scale + reach).rounded(.up)))
        let count = max(1, end - first)
        let scaledCount = max(target, Int((Double(count) * scale).rounded()))
        let offset = min(max(0, windowStart - Int((Double(first) * scale).rounded())), scaledCount - target)
        return (first, count, scaledCount, offset)
    }
}
