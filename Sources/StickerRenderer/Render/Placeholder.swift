import StickerPixels

/// The mark drawn in a cell whose sticker could not be read: a grey square with a red cross.
public enum Placeholder {
    /// The mark alone, filling a `width` x `height` picture.
    public static func image(width: Int, height: Int) -> RGBAImage {
        var mark = RGBAImage(width: width, height: height)
        draw(in: &mark, rect: PixelRect(x: 0, y: 0, width: width, height: height))
        return mark
    }

    /// Draws the mark over `rect` of `canvas` (the part inside the canvas).
    public static func draw(in canvas: inout RGBAImage, rect: PixelRect) {
        let area = rect.clipped(toWidth: canvas.width, height: canvas.height)
        guard !area.isEmpty else { return }
        let thickness = max(1, rect.width / 40)
        for y in area.y..<(area.y + area.height) {
            for x in area.x..<(area.x + area.width) {
                let u = x - rect.x
                let v = y - rect.y
                let onCross = abs(u - v) < thickness || abs(u + v - rect.width + 1) < thickness
                let onBorder =
                    u < thickness || v < thickness || u >= rect.width - thickness || v >= rect.height - thickness
                let color: (UInt8, UInt8, UInt8) = onCross || onBorder ? (255, 59, 48) : (200, 200, 200)
                let o = (y * canvas.width + x) * 4
                canvas.pixels[o] = color.0; canvas.pixels[o + 1] = color.1; canvas.pixels[o + 2] = color.2;
                canvas.pixels[o + 3] = 255
            }
        }
    }
}
