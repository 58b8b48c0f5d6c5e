import StickerPixels

/// A 3 x 5 pixel font for digits and a few signs: enough to label frames with their times.
enum TinyFont {
    private static let glyphs: [Character: [UInt8]] = [
        // Each row is 3 bits, most significant bit on the left.
        "0": [7, 5, 5, 5, 7], "1": [2, 6, 2, 2, 7], "2": [7, 1, 7, 4, 7], "3": [7, 1, 7, 1, 7],
        "4": [5, 5, 7, 1, 1], "5": [7, 4, 7, 1, 7], "6": [7, 4, 7, 5, 7], "7": [7, 1, 1, 1, 1],
        "8": [7, 5, 7, 5, 7], "9": [7, 5, 7, 1, 7], ".": [0, 0, 0, 0, 2], "#": [5, 7, 5, 7, 5],
        "m": [0, 0, 7, 7, 5], "s": [0, 3, 6, 1, 6], " ": [0, 0, 0, 0, 0], "-": [0, 0, 7, 0, 0]
    ]

    /// The height of a line of text at `scale`.
    static func lineHeight(scale: Int) -> Int { 5 * scale }

    /// Draws `text` in dark grey with its top-left corner at (`x`, `y`), clipped.
    static func draw(_ text: String, in image: inout RGBAImage, x: Int, y: Int, scale: Int) {
        var penX = x
        for character in text {
            let rows = glyphs[character] ?? glyphs["-"]!
            for (row, bits) in rows.enumerated() {
                for column in 0..<3 where bits & (4 >> column) != 0 {
                    for dy in 0..<scale {
                        for dx in 0..<scale {
                            let px = penX + column * scale + dx
                            let py = y + row * scale + dy
                            guard px >= 0, py >= 0, px < image.width, py < image.height else { continue }
                            let o = (py * image.width + px) * 4
                            image.pixels[o] = 40; image.pixels[o + 1] = 40; image.pixels[o + 2] = 40;
                            image.pixels[o + 3] = 255
                        }
                    }
                }
            }
            penX += 4 * scale
        }
    }
}
