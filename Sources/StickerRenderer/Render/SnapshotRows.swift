import AnimationCodec
import StickerPixels

#if canImport(Glibc)
    import Glibc
#endif

/// A snapshot drawn one row at a time: the background row, then each sticker's row OVER it.
/// Both snapshots are drawn from it: the PNG path composes rows straight into the encoder (so a
/// 12 MB 3x canvas is never filled, scanned and thrown away), the canvas path row after row.
struct SnapshotRows: Sendable {
    /// One sticker's scaled frame and where it lands, clipped to the canvas.
    struct Placement: Sendable {
        let image: RGBAImage
        /// The visible part, in canvas coordinates.
        let area: PixelRect
        /// The image's top-left corner on the canvas.
        let x: Int, y: Int
    }

    let width: Int
    let height: Int
    /// One background row to copy, when the background is the same on every row; else nil.
    private let flatRow: [UInt8]?
    /// The whole background (with placeholders), when rows differ.
    private let base: RGBAImage?
    private let placements: [Placement]

    /// Rows of a `width` x `height` canvas: `background` (a flat colour or transparency needs
    /// one row; anything else, or `baseImage` when given, is kept whole) under `stickers`,
    /// drawn in order at their origins.
    init(
        width: Int, height: Int, background: Background, baseImage: RGBAImage?, stickers: [(RGBAImage, x: Int, y: Int)]
    ) {
        self.width = width
        self.height = height
        switch (background, baseImage) {
        case (.transparent, nil), (.color, nil):
            flatRow = background.canvas(width: width, height: 1).pixels
            base = nil
        default:
            flatRow = nil
            base = baseImage ?? background.canvas(width: width, height: height)
        }
        placements = stickers.compactMap { image, x, y in
            let area = PixelRect(x: x, y: y, width: image.width, height: image.height).clipped(
                toWidth: width, height: height)
            return area.isEmpty ? nil : Placement(image: image, area: area, x: x, y: y)
        }
    }

    /// Whether row `y` (> 0) is certainly equal to row `y - 1` without drawing either: both are
    /// plain rows of a flat background (no sticker reaches them). `false` when unsure.
    func repeatsRowAbove(_ y: Int) -> Bool {
        guard flatRow != nil, y > 0 else { return false }
        return !placements.contains { $0.area.y <= y && $0.area.y - 1 + $0.area.height >= y - 1 }
    }

    /// Writes row `y` (`width * 4` premultiplied bytes) at `target`.
    func draw(row y: Int, into target: UnsafeMutablePointer<UInt8>) {
        let rowBytes = width * 4
        if let flatRow {
            flatRow.withUnsafeBufferPointer { _ = memcpy(target, $0.baseAddress!, rowBytes) }
        } else if let base {
            base.pixels.withUnsafeBufferPointer { _ = memcpy(target, $0.baseAddress! + y * rowBytes, rowBytes) }
        }
        for placement in placements where placement.area.y <= y && y < placement.area.y + placement.area.height {
            let area = placement.area
            let from = ((y - placement.y) * placement.image.width + (area.x - placement.x)) * 4
            placement.image.pixels.withUnsafeBytes { source in
                // Safe: `area` is clipped to both the canvas row and the image.
                BlendKernels.overSIMD(source.baseAddress! + from, onto: target + area.x * 4, count: area.width)
            }
        }
    }
}
