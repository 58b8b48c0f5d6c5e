import StickerPixels

/// Sixel images, as xterm (`-ti vt340`), foot, WezTerm, mlterm, Konsole and Windows Terminal
/// read them: a DCS with `P2 = 1` (pixels left unpainted keep the terminal's background, so
/// transparent pixels show through), raster attributes for square pixels and the size, the
/// palette as RGB percentages, then six-row bands, one colour at a time, runs as `!count`.
package enum SixelEncoder {
    /// The palette a picture of many colours is given: the fewest colours (32, 64, 128, 256)
    /// within 45 dB of it, where a step between neighbouring colours is below what the eye
    /// tells apart, since every colour in a band costs a pass over it.
    package static let palette = IndexedImage.Palette.fewest(psnr: 45)

    /// The whole image as one escape sequence.
    package static func encode(_ image: IndexedImage) -> String {
        var out: [UInt8] = Array("\u{1B}P0;1;0q\"1;1;\(image.width);\(image.height)".utf8)
        let entries = image.palette.count / 3
        for entry in 0..<entries where UInt8(entry) != image.transparentIndex {
            func percent(_ value: UInt8) -> Int { (Int(value) * 100 + 127) / 255 }
            let (r, g, b) = (image.palette[3 * entry], image.palette[3 * entry + 1], image.palette[3 * entry + 2])
            out += Array("#\(entry);2;\(percent(r));\(percent(g));\(percent(b))".utf8)
        }
        let width = image.width
        // Per band: each colour's six bits at each column, and which colours occur, in order.
        var bits = [UInt8](repeating: 0, count: 256 * width)
        var seen = [Bool](repeating: false, count: 256)
        var order: [Int] = []
        var top = 0
        while top < image.height {
            order.removeAll(keepingCapacity: true)
            for row in 0..<min(6, image.height - top) {
                let start = (top + row) * width
                for x in 0..<width {
                    let index = image.indexes[start + x]
                    if index == image.transparentIndex { continue }
                    let colour = Int(index)
                    if !seen[colour] {
                        seen[colour] = true
                        order.append(colour)
                    }
                    bits[colour * width + x] |= 1 << row
                }
            }
            for (position, colour) in order.enumerated() {
                if position > 0 { out.append(UInt8(ascii: "$")) }
                out += Array("#\(colour)".utf8)
                let row = colour * width
                // Trailing empty columns need not be sent.
                var end = width
                while end > 0 && bits[row + end - 1] == 0 { end -= 1 }
                var x = 0
                while x < end {
                    let value = bits[row + x]
                    var run = 1
                    while x + run < end && bits[row + x + run] == value { run += 1 }
                    let character = 63 + value
                    if run > 3 {
                        out += Array("!\(run)".utf8)
                        out.append(character)
                    } else {
                        out += [UInt8](repeating: character, count: run)
                    }
                    x += run
                }
                for column in 0..<width { bits[row + column] = 0 }
                seen[colour] = false
            }
            top += 6
            if top < image.height { out.append(UInt8(ascii: "-")) }
        }
        out += [0x1B, UInt8(ascii: "\\")]
        return String(decoding: out, as: UTF8.self)
    }
}
