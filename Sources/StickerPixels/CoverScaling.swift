extension Resampler {
    /// `image` scaled to cover `width` x `height` (its aspect kept, the shorter side filling)
    /// and cropped to it, centred: a background or an app icon's artwork.
    ///
    /// Where the scaled image would be far larger than the target (a long thin image: a
    /// 1 x 4,096 strip covering a 1,024 px square scales to 1,024 x 4,194,304), only the part
    /// of the source the target shows is scaled, so the work and memory follow the target,
    /// not the source's shape.
    public func cover(_ image: RGBAImage, width: Int, height: Int) -> RGBAImage {
        guard width > 0, height > 0, image.width > 0, image.height > 0 else {
            return RGBAImage(width: max(0, width), height: max(0, height))
        }
        let scale = max(Double(width) / Double(image.width), Double(height) / Double(image.height))
        let scaledWidth = max(Double(width), (Double(image.width) * scale).rounded())
        let scaledHeight = max(Double(height), (Double(image.height) * scale).rounded())
        if scaledWidth * scaledHeight <= 4 * Double(width) * Double(height) {
            let (w, h) = (Int(scaledWidth), Int(scaledHeight))
            return resize(image, width: w, height: h).cropped(
                to: PixelRect(x: (w - width) / 2, y: (h - height) / 2, width: width, height: height))
        }
        let shownWidth = min(image.width, max(1, Int((Double(width) / scale).rounded(.up))))
        let shownHeight = min(image.height, max(1, Int((Double(height) / scale).rounded(.up))))
        let shown = image.cropped(
            to: PixelRect(
                x: (image.width - shownWidth) / 2, y: (image.height - shownHeight) / 2, width: shownWidth,
                height: shownHeight))
        return resize(shown, width: width, height: height)
    }
}
