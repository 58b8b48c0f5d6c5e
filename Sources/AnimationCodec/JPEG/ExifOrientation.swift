/// The EXIF orientation of a JPEG (TIFF tag 0x0112 in its APP1 `Exif` segment): how the stored
/// pixels are turned to be shown upright. Browsers apply it (CSS `image-orientation:
/// from-image`, the default), as the photo apps that write it do.
enum ExifOrientation: Int, Sendable {
    /// Stored upright.
    case upright = 1
    /// Mirrored left to right.
    case mirrored = 2
    /// Turned half a turn.
    case upsideDown = 3
    /// Mirrored top to bottom.
    case flipped = 4
    /// Mirrored across the top-left to bottom-right diagonal.
    case transposed = 5
    /// Stored a quarter turn anticlockwise: shown turned a quarter turn clockwise.
    case turnedClockwise = 6
    /// Mirrored across the top-right to bottom-left diagonal.
    case transversed = 7
    /// Stored a quarter turn clockwise: shown turned a quarter turn anticlockwise.
    case turnedAnticlockwise = 8

    /// Whether the shown image is the stored one's width and height swapped.
    var swapsSides: Bool { rawValue >= 5 }

    /// The orientation the first APP1 `Exif` segment of `jpeg` gives, read from the markers
    /// before the image data; upright when there is none, or when the segment, its TIFF header,
    /// the first IFD or the tag's entry is malformed or out of range (browsers then show the
    /// image as stored).
    static func of(jpeg bytes: [UInt8]) -> ExifOrientation {
        var offset = 2
        // Segments: FF, a marker, a big-endian length counting itself, the payload.
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            // Start of scan, or a marker without a length: no metadata follows.
            if marker == 0xDA || marker == 0xD9 || (0xD0...0xD7).contains(marker) { break }
            if marker == 0xFF {  // fill byte
                offset += 1
                continue
            }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let payload = offset + 4
            let end = offset + 2 + length
            guard length >= 2, end <= bytes.count else { break }
            if marker == 0xE1, end - payload >= 6, Array(bytes[payload..<(payload + 6)]) == Self.exifSignature {
                return fromTIFF(bytes, start: payload + 6, end: end) ?? .upright
            }
            offset = end
        }
        return .upright
    }

    /// `Exif\0\0`.
    private static let exifSignature: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]

    /// The orientation tag of the first IFD of the TIFF structure in `bytes[start..<end]`.
    private static func fromTIFF(_ bytes: [UInt8], start: Int, end: Int) -> ExifOrientation? {
        guard end - start >= 8 else { return nil }
        let littleEndian: Bool
        switch (bytes[start], bytes[start + 1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        func read(_ at: Int, _ count: Int) -> Int? {
            guard at >= start, at + count <= end else { return nil }
            var value = 0
            for index in 0..<count {
                let byte = Int(bytes[at + (littleEndian ? count - 1 - index : index)])
                value = value << 8 | byte
            }
            return value
        }
        guard read(start + 2, 2) == 42, let first = read(start + 4, 4), let entries = read(start + first, 2)
        else { return nil }
        for entry in 0..<entries {
            let at = start + first + 2 + 12 * entry
            guard let tag = read(at, 2) else { return nil }
            guard tag == 0x0112 else { continue }
            // Type SHORT (3), one value, held in the first two bytes of the value field.
            guard read(at + 2, 2) == 3, read(at + 4, 4) == 1, let value = read(at + 8, 2) else { return nil }
            return ExifOrientation(rawValue: value)
        }
        return nil
    }

    /// `pixels` (RGBA8, `width` x `height`, as stored) turned to be shown: the shown pixels and
    /// their width and height.
    func apply(to pixels: [UInt8], width: Int, height: Int) -> (pixels: [UInt8], width: Int, height: Int) {
        guard self != .upright else { return (pixels, width, height) }
        let (shownWidth, shownHeight) = swapsSides ? (height, width) : (width, height)
        var shown = [UInt8](repeating: 0, count: pixels.count)
        // Where each shown pixel (x, y) is stored.
        func stored(_ x: Int, _ y: Int) -> (Int, Int) {
            switch self {
            case .upright: return (x, y)
            case .mirrored: return (width - 1 - x, y)
            case .upsideDown: return (width - 1 - x, height - 1 - y)
            case .flipped: return (x, height - 1 - y)
            case .transposed: return (y, x)
            case .turnedClockwise: return (y, height - 1 - x)
            case .transversed: return (width - 1 - y, height - 1 - x)
            case .turnedAnticlockwise: return (width - 1 - y, x)
            }
        }
        for y in 0..<shownHeight {
            for x in 0..<shownWidth {
                let (sx, sy) = stored(x, y)
                let from = (sy * width + sx) * 4
                let to = (y * shownWidth + x) * 4
                shown[to] = pixels[from]
                shown[to + 1] = pixels[from + 1]
                shown[to + 2] = pixels[from + 2]
                shown[to + 3] = pixels[from + 3]
            }
        }
        return (shown, shownWidth, shownHeight)
    }
}
