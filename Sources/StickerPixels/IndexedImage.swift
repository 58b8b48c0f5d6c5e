#if canImport(Glibc)
    import Glibc
#endif

/// A picture of at most 256 colours, one palette index a pixel, for the formats that take a
/// palette (GIF, sixel): every visible pixel made opaque over a backdrop colour (what a
/// terminal shows behind a translucent pixel), fully transparent ones kept apart.
package struct IndexedImage: Sendable, Hashable {
    /// Pixels across.
    package var width: Int
    /// Pixels down.
    package var height: Int
    /// One palette index a pixel, top row first.
    package var indexes: [UInt8]
    /// The opaque colours, three bytes (RGB) an entry.
    package var palette: [UInt8]
    /// The index of the fully transparent pixels, when there are any (the last entry).
    package var transparentIndex: UInt8?

    /// How many colours a picture of more than 256 is given.
    package enum Palette: Sendable, Hashable {
        /// As many as the format takes: 256 (255 and the transparent entry).
        case most
        /// The fewest of 32, 64, 128 and 256 whose picture is at least `psnr` dB from the
        /// original over its visible pixels (256 when none is): fewer colours, fewer bytes where
        /// a format's size grows with them (a sixel band is sent once per colour in it).
        case fewest(psnr: Double)
    }

    /// `image` (premultiplied) over `backdrop`, reduced by the quantizer (cells of 6 bits a
    /// channel: the picture is opaque now, so one table, and gradients keep their steps) to at
    /// most 256 entries, 255 colours and the transparent entry when some pixel is fully
    /// transparent; how many as `palette` says. A picture of at most that many colours keeps
    /// them exactly.
    package init(
        _ image: RGBAImage, over backdrop: (red: UInt8, green: UInt8, blue: UInt8), palette choice: Palette = .most
    ) {
        width = image.width
        height = image.height
        var flat = image.pixels
        var hasTransparency = false
        flat.withUnsafeMutableBytes { raw in
            let pixels = raw.bindMemory(to: UInt32.self)
            let back = (UInt32(backdrop.red), UInt32(backdrop.green), UInt32(backdrop.blue))
            for i in pixels.indices {
                let value = pixels[i]
                let alpha = value >> 24
                if alpha == 0 {
                    pixels[i] = 0
                    hasTransparency = true
                } else if alpha < 255 {
                    // Premultiplied OVER: colour + backdrop x (1 - alpha), rounded.
                    let rest = 255 - alpha
                    let r = (value & 0xFF) + (back.0 * rest + 127) / 255
                    let g = (value >> 8 & 0xFF) + (back.1 * rest + 127) / 255
                    let b = (value >> 16 & 0xFF) + (back.2 * rest + 127) / 255
                    pixels[i] = 0xFF00_0000 | min(b, 255) << 16 | min(g, 255) << 8 | min(r, 255)
                }
            }
        }
        let limit = hasTransparency ? 255 : 256
        let reduced =
            Self.hasAtMost(limit, coloursIn: flat) ? flat : Self.reduce(flat, width: width, limit: limit, choice)
        var indexes = [UInt8](repeating: 0, count: width * height)
        var palette: [UInt8] = []
        var slots: [UInt32: UInt8] = [:]
        reduced.withUnsafeBytes { raw in
            let pixels = raw.bindMemory(to: UInt32.self)
            for i in pixels.indices where pixels[i] >> 24 != 0 {
                let value = pixels[i]
                if let slot = slots[value] {
                    indexes[i] = slot
                } else {
                    let slot = UInt8(slots.count)
                    slots[value] = slot
                    palette += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF)]
                    indexes[i] = slot
                }
            }
        }
        if hasTransparency {
            let slot = UInt8(slots.count)
            palette += [backdrop.red, backdrop.green, backdrop.blue]
            for i in indexes.indices where flat[4 * i + 3] == 0 { indexes[i] = slot }
            transparentIndex = slot
        }
        if palette.isEmpty { palette = [0, 0, 0] }
        self.indexes = indexes
        self.palette = palette
    }

    /// `flat` (opaque or fully transparent pixels) through the quantizer: `limit` colours, or
    /// the fewest candidates that reach the PSNR asked for.
    private static func reduce(_ flat: [UInt8], width: Int, limit: Int, _ choice: Palette) -> [UInt8] {
        let histogram = PaletteQuantizer.histogram(of: [flat], cellBits: 6)
        var counts = [limit]
        if case .fewest = choice { counts = [32, 64, 128].filter { $0 < limit } + [limit] }
        var reduced = flat
        for count in counts {
            let quantizer = PaletteQuantizer(maxColors: count, cellBits: 6)
            reduced = quantizer.remap([flat], width: width, palette: quantizer.palette(histogram))[0]
            if case .fewest(let target) = choice, psnr(reduced, flat) >= target { break }
        }
        return reduced
    }

    /// The PSNR of `reduced` against `original` (RGBA8 of one size) over the visible pixels'
    /// colour channels, in dB; infinity when they are equal.
    static func psnr(_ reduced: [UInt8], _ original: [UInt8]) -> Double {
        var squares = 0
        var samples = 0
        reduced.withUnsafeBytes { a in
            original.withUnsafeBytes { b in
                for i in stride(from: 0, to: min(a.count, b.count), by: 4) where b[i + 3] != 0 {
                    for channel in 0..<3 {
                        let d = Int(a[i + channel]) - Int(b[i + channel])
                        squares += d * d
                    }
                    samples += 3
                }
            }
        }
        guard squares > 0, samples > 0 else { return .infinity }
        return 10 * log10(255 * 255 * Double(samples) / Double(squares))
    }

    /// Whether the visible pixels of `pixels` (RGBA8) take at most `limit` colours.
    static func hasAtMost(_ limit: Int, coloursIn pixels: [UInt8]) -> Bool {
        var seen = Set<UInt32>(minimumCapacity: limit + 1)
        return pixels.withUnsafeBytes { raw in
            var last: UInt32 = 0
            for value in raw.bindMemory(to: UInt32.self) where value >> 24 != 0 && value != last {
                last = value
                seen.insert(value)
                if seen.count > limit { return false }
            }
            return true
        }
    }
}
