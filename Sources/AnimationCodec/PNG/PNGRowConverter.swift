/// Turns unfiltered PNG rows of any colour type and bit depth into premultiplied RGBA8.
///
/// Samples of 16 bits are reduced to 8 with rounding before premultiplication; tRNS colour
/// keys are compared at the stored depth, as the spec asks.
struct PNGRowConverter: Sendable {
    private let header: PNGHeader
    /// Premultiplied RGBA for each possible sample value of indexed and low-depth grey images.
    private let lookup: [UInt32]
    /// The tRNS colour key at the stored depth: grey in [0], or RGB.
    private let colorKey: [UInt16]?

    init(header: PNGHeader, palette: [UInt8], transparency: [UInt8]?) {
        self.header = header
        var lookup = [UInt32](repeating: 0xFF00_0000, count: 256)  // opaque black past the palette
        var colorKey: [UInt16]?
        switch header.colorType {
        case .indexed:
            for entry in 0..<(palette.count / 3) {
                let alpha = transparency.flatMap { entry < $0.count ? $0[entry] : nil } ?? 255
                lookup[entry] = Premultiplication.packPremultiplied(
                    r: palette[3 * entry], g: palette[3 * entry + 1], b: palette[3 * entry + 2], a: alpha)
            }
        case .grayscale:
            if let t = transparency, t.count >= 2 { colorKey = [UInt16(t[0]) << 8 | UInt16(t[1])] }
            if header.bitDepth <= 8 {
                let levels = 1 << header.bitDepth
                let scale = 255 / (levels - 1)
                for sample in 0..<levels {
                    let alpha: UInt8 = colorKey?[0] == UInt16(sample) ? 0 : 255
                    let grey = UInt8(sample * scale)
                    lookup[sample] = Premultiplication.packPremultiplied(r: grey, g: grey, b: grey, a: alpha)
                }
            }
        case .rgb:
            if let t = transparency, t.count >= 6 {
                colorKey = (0..<3).map { UInt16(t[2 * $0]) << 8 | UInt16(t[2 * $0 + 1]) }
            }
        case .grayscaleAlpha, .rgba:
            break
        }
        self.lookup = lookup
        self.colorKey = colorKey
    }

    /// Converts `width` pixels of the unfiltered row at `source` into packed premultiplied
    /// pixels at `destination`, every `step` pixels apart.
    func convert(_ source: UnsafePointer<UInt8>, width: Int, into destination: UnsafeMutablePointer<UInt32>, step: Int)
    {
        // Safe: `source` holds rowBytes(width) bytes and `destination` (width - 1) * step + 1
        // pixels; the caller (PNGImageDecoder) sizes both from the validated header.
        switch (header.colorType, header.bitDepth) {
        case (.indexed, _), (.grayscale, 1), (.grayscale, 2), (.grayscale, 4), (.grayscale, 8):
            convertThroughLookup(source, width: width, into: destination, step: step)
        case (.grayscale, _):
            let key = colorKey?[0]
            for x in 0..<width {
                let raw = UInt16(source[2 &* x]) << 8 | UInt16(source[2 &* x &+ 1])
                let grey = Premultiplication.reduce16(raw)
                destination[x &* step] = raw == key ? 0 : packOpaque(grey, grey, grey)
            }
        case (.rgb, 8):
            let key = colorKey
            for x in 0..<width {
                let r = source[3 &* x]
                let g = source[3 &* x &+ 1]
                let b = source[3 &* x &+ 2]
                let isKey = key.map { $0[0] == UInt16(r) && $0[1] == UInt16(g) && $0[2] == UInt16(b) } ?? false
                destination[x &* step] = isKey ? 0 : packOpaque(r, g, b)
            }
        case (.rgb, _):
            let key = colorKey
            for x in 0..<width {
                let o = 6 &* x
                let r = UInt16(source[o]) << 8 | UInt16(source[o &+ 1])
                let g = UInt16(source[o &+ 2]) << 8 | UInt16(source[o &+ 3])
                let b = UInt16(source[o &+ 4]) << 8 | UInt16(source[o &+ 5])
                let isKey = key.map { $0[0] == r && $0[1] == g && $0[2] == b } ?? false
                destination[x &* step] =
                    isKey
                    ? 0
                    : packOpaque(
                        Premultiplication.reduce16(r),
                        Premultiplication.reduce16(g),
                        Premultiplication.reduce16(b))
            }
        case (.grayscaleAlpha, 8):
            for x in 0..<width {
                let grey = source[2 &* x]
                destination[x &* step] = Premultiplication.packPremultiplied(
                    r: grey, g: grey, b: grey, a: source[2 &* x &+ 1])
            }
        case (.grayscaleAlpha, _):
            for x in 0..<width {
                let grey = Premultiplication.reduce16(UInt16(source[4 &* x]) << 8 | UInt16(source[4 &* x &+ 1]))
                let alpha = Premultiplication.reduce16(UInt16(source[4 &* x &+ 2]) << 8 | UInt16(source[4 &* x &+ 3]))
                destination[x &* step] = Premultiplication.packPremultiplied(r: grey, g: grey, b: grey, a: alpha)
            }
        case (.rgba, 8):
            let raw = UnsafeRawPointer(source)
            if step == 1 {
                Premultiplication.premultiplyRow(raw, into: UnsafeMutableRawPointer(destination), count: width)
            } else {
                for x in 0..<width {
                    destination[x &* step] = Premultiplication.premultiplyPacked(
                        UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 &* x, as: UInt32.self)))
                }
            }
        case (.rgba, _):
            for x in 0..<width {
                let o = 8 &* x
                @inline(__always) func channel(_ c: Int) -> UInt8 {
                    Premultiplication.reduce16(UInt16(source[o &+ 2 &* c]) << 8 | UInt16(source[o &+ 2 &* c &+ 1]))
                }
                destination[x &* step] = Premultiplication.packPremultiplied(
                    r: channel(0), g: channel(1), b: channel(2), a: channel(3))
            }
        }
    }

    @inline(__always)
    private func packOpaque(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt32 {
        UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | 0xFF00_0000
    }

    /// Indexed and grey images of 8 bits or fewer: unpack each sample, look it up.
    private func convertThroughLookup(
        _ source: UnsafePointer<UInt8>, width: Int,
        into destination: UnsafeMutablePointer<UInt32>, step: Int
    ) {
        lookup.withUnsafeBufferPointer { table in
            let depth = header.bitDepth
            if depth == 8 {
                for x in 0..<width { destination[x &* step] = table[Int(source[x])] }
                return
            }
            // Samples are packed most significant bits first.
            let perByte = 8 / depth
            let mask = UInt8((1 << depth) - 1)
            for x in 0..<width {
                let byte = source[x / perByte]
                let shift = UInt8(8 - depth * (x % perByte + 1))
                destination[x &* step] = table[Int((byte >> shift) & mask)]
            }
        }
    }
}
