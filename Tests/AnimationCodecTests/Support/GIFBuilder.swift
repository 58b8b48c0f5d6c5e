/// Builds small GIF89a files byte by byte from the specification, for tests: a logical screen
/// with a global colour table and one image, its pixels LZW-coded by ``TestLZWEncoder`` at any
/// minimum code size (the byte stored in the file is the one given, valid or not), or several
/// full-screen images with their graphic control extensions.
struct GIFBuilder {
    var width: Int
    var height: Int
    /// RGB entries of the global colour table (padded to a power of two, at least 2).
    var palette: [(UInt8, UInt8, UInt8)]

    /// The file: header, screen, table, one image of `indexes` (row-major, width x height)
    /// coded with `minimumCodeSize`, trailer.
    func file(indexes: [UInt8], minimumCodeSize: Int) -> [UInt8] {
        screen()
            + imageBlock(
                rect: (0, 0, width, height), interlaced: false, minimumCodeSize: minimumCodeSize,
                coded: TestLZWEncoder(minimumCodeSize: min(minimumCodeSize, 11)).encode(indexes)) + [0x3B]
    }

    private static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }

    /// Signature, logical screen (global table, background 0, no aspect) and the table.
    private func screen() -> [UInt8] {
        var tableBits = 1
        while (1 << tableBits) < palette.count { tableBits += 1 }
        var bytes = Array("GIF89a".utf8) + Self.le16(width) + Self.le16(height) + [0x80 | UInt8(tableBits - 1), 0, 0]
        for entry in 0..<(1 << tableBits) {
            let (r, g, b) = entry < palette.count ? palette[entry] : (0, 0, 0)
            bytes += [r, g, b]
        }
        return bytes
    }

    /// An image descriptor for `rect` (x, y, width, height; no local table), the code size
    /// byte and `coded` in sub-blocks of at most 255 bytes, then the block terminator.
    private func imageBlock(
        rect: (x: Int, y: Int, width: Int, height: Int), interlaced: Bool, minimumCodeSize: Int, coded data: [UInt8]
    ) -> [UInt8] {
        var bytes: [UInt8] =
            [0x2C] + Self.le16(rect.x) + Self.le16(rect.y) + Self.le16(rect.width) + Self.le16(rect.height)
        bytes += [interlaced ? 0x40 : 0, UInt8(minimumCodeSize)]
        var offset = 0
        while offset < data.count {
            let count = min(255, data.count - offset)
            bytes.append(UInt8(count))
            bytes += data[offset..<offset + count]
            offset += count
        }
        return bytes + [0]
    }

    /// One image of an animation: full-screen, or at `rect`.
    struct Image {
        /// Palette indexes in display order (row-major), as many as the image's pixels.
        var indexes: [UInt8]
        /// How many pixels the stream codes, in stored order (pass by pass when interlaced);
        /// fewer than all makes a stream that ends early (its end code comes first).
        var keptPixels: Int?
        /// GIF disposal method (0-3).
        var disposal: UInt8 = 2
        var transparentIndex: UInt8?
        var interlaced = false
        /// The code size byte stored; an invalid one (over 11) makes the frame undecodable.
        var minimumCodeSize = 2
        /// Where the image lies on the screen (x, y, width, height); nil: the whole screen.
        var rect: (x: Int, y: Int, width: Int, height: Int)? = nil
    }

    /// An animation of `images`, each with a graphic control extension (10 ms).
    func animation(_ images: [Image]) -> [UInt8] {
        var bytes = screen()
        for image in images {
            let rect = image.rect ?? (0, 0, width, height)
            bytes += [
                0x21, 0xF9, 4, image.disposal << 2 | (image.transparentIndex == nil ? 0 : 1), 1, 0,
                image.transparentIndex ?? 0, 0
            ]
            // Stored order: interlaced images store rows pass by pass.
            var stored = image.indexes
            if image.interlaced {
                stored = []
                for (start, step) in [(0, 8), (4, 8), (2, 4), (1, 2)] {
                    for y in stride(from: start, to: rect.height, by: step) {
                        stored += image.indexes[(y * rect.width)..<((y + 1) * rect.width)]
                    }
                }
            }
            stored = Array(stored.prefix(image.keptPixels ?? stored.count))
            let coded = TestLZWEncoder(minimumCodeSize: min(max(image.minimumCodeSize, 2), 11)).encode(stored)
            bytes += imageBlock(
                rect: rect, interlaced: image.interlaced, minimumCodeSize: image.minimumCodeSize, coded: coded)
        }
        return bytes + [0x3B]
    }
}
