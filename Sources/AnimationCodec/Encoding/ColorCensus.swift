/// The colours of an animation's pixels, counted as far as choosing a PNG colour model needs:
/// up to 256 distinct colours (a palette), whether every pixel is opaque (RGB), whether every
/// pixel is opaque or fully transparent and which opaque colours occur (RGB with a colour key).
struct ColorCensus {
    /// The distinct colours while there are at most 256.
    private var seen = ColorIndexTable()
    private var opaque = true
    private var paletteFits = true
    private var binaryAlpha = true
    /// One bit for each of the 2^24 opaque colours, set where it occurs.
    private var used = [UInt64](repeating: 0, count: 1 << 18)

    /// Whether some model other than RGBA is still possible (otherwise nothing more need be read).
    var anyModelLeft: Bool { paletteFits || opaque || binaryAlpha }

    /// The smallest model for the pixels counted, of `frameCount` frames: an animation's
    /// palette gets a fully transparent entry when there is room (for OVER frames to leave
    /// pixels as they are), a still's only when a pixel is transparent, so an opaque still has
    /// no alpha at all (the App Store refuses an icon with an alpha channel).
    func model(frameCount: Int) -> PNGColorModel {
        if paletteFits { return .palette(PNGPalette(colors: seen.colors, addingTransparent: frameCount > 1)) }
        if opaque { return .rgb }
        if binaryAlpha, let word = used.firstIndex(where: { $0 != .max }) {
            return .rgbKeyed(key: UInt32(word << 6 + (~used[word]).trailingZeroBitCount))
        }
        return .rgba
    }

    /// Counts the next frame of an animation (packed RGBA8): every pixel when it is the first
    /// (`previous` is `nil`), else the pixels that differ from the frame before.
    mutating func count(_ frame: [UInt8], after previous: [UInt8]?) {
        frame.withUnsafeBytes { raw in
            if let previous {
                previous.withUnsafeBytes { before in count(raw, changedFrom: before) }
            } else {
                count(raw)
            }
        }
    }

    /// Counts every pixel of `frame` (packed RGBA8, four bytes a pixel).
    mutating func count(_ frame: UnsafeRawBufferPointer) {
        let pixels = frame.count / 4
        guard pixels > 0 else { return }
        let base = frame.baseAddress!
        // Runs of one colour are common: a pixel equal to the last one counted is skipped, two
        // at a time where both are.
        var last = base.loadUnaligned(as: UInt32.self)
        note(last)
        var i = 1
        while i < pixels {
            if i + 2 <= pixels {
                let pair = base.loadUnaligned(fromByteOffset: i &* 4, as: UInt64.self)
                if pair == UInt64(last) | UInt64(last) << 32 {
                    i &+= 2
                    continue
                }
            }
            let pixel = base.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self)
            if pixel != last {
                note(pixel)
                last = pixel
            }
            i &+= 1
        }
    }

    /// Counts the pixels of `frame` that differ from `before` (a frame of the same size), and
    /// among them only the first of a run of one colour.
    mutating func count(_ frame: UnsafeRawBufferPointer, changedFrom before: UnsafeRawBufferPointer) {
        let pixels = min(frame.count, before.count) / 4
        guard pixels > 0 else { return }
        let new = frame.baseAddress!
        let old = before.baseAddress!
        var last: UInt32?
        var i = 0
        while i < pixels {
            // Where the frame repeats the one before, four pixels at a time (two 64-bit
            // differences, or-ed).
            if i + 4 <= pixels {
                let offset = i &* 4
                let low =
                    new.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    ^ old.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                let high =
                    new.loadUnaligned(fromByteOffset: offset &+ 8, as: UInt64.self)
                    ^ old.loadUnaligned(fromByteOffset: offset &+ 8, as: UInt64.self)
                if low | high == 0 {
                    i &+= 4
                    continue
                }
            }
            let pixel = new.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self)
            if pixel != old.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self) && pixel != last {
                note(pixel)
                last = pixel
            }
            i &+= 1
        }
    }

    /// Counts one pixel. While the colours fit a palette, only a colour not seen before is
    /// looked at further (the distinct colours tell what every pixel would); once they do not,
    /// the colours seen are marked as used and every pixel after them is.
    @inline(__always)
    private mutating func note(_ pixel: UInt32) {
        guard paletteFits else { return mark(pixel) }
        let known = seen.colors.count
        if !seen.insert(pixel) {
            paletteFits = false
            for colour in seen.colors { mark(colour) }
            mark(pixel)
        } else if seen.colors.count > known {
            mark(pixel)
        }
    }

    /// Notes `pixel`'s alpha and, when opaque, its colour as used.
    @inline(__always)
    private mutating func mark(_ pixel: UInt32) {
        let alpha = pixel >> 24
        if alpha == 0xFF {
            let rgb = Int(pixel & 0xFF_FFFF)
            used[rgb >> 6] |= 1 << UInt64(rgb & 63)
        } else {
            opaque = false
            if alpha != 0 { binaryAlpha = false }
        }
    }
}
