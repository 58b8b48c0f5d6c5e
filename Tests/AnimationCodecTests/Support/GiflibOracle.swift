import CGIF
import Foundation

/// giflib (Debian's libgif) as an independent GIF parser and LZW decoder: `DGifOpen` over
/// the bytes in memory, then `DGifSlurp`. It returns each image's de-interlaced palette
/// indexes, its colour table and its Graphic Control Extension, but composites nothing:
/// ``GIF89aCompositor`` draws the canvases. Used only by tests.
enum GiflibOracle {
    /// A Graphic Control Extension's fields that decide pixels.
    struct GraphicControl: Equatable {
        /// The disposal method, 0-7 (bits 2-4 of the packed byte).
        var disposal: Int
        /// The transparent colour index, when the transparency flag is set.
        var transparentIndex: Int?
    }

    /// One image as giflib read it.
    struct Image {
        var left, top, width, height: Int
        /// `width * height` palette indexes in display order (giflib de-interlaces).
        var indexes: [UInt8]
        /// RGB triples of the local colour table, else the global one; `nil` when neither exists.
        var palette: [UInt8]?
        var control: GraphicControl?
    }

    /// What `DGifSlurp` made of a file.
    struct Slurp {
        var screenWidth, screenHeight: Int
        /// Every image when the slurp succeeded; after a failure, only the images that are
        /// certainly complete: all giflib started when the error is an unknown block
        /// introducer (giflib raises it only between blocks), else all but the last one.
        var images: [Image]
        /// giflib's error text, `nil` when the slurp succeeded.
        var error: String?
    }

    /// giflib reads through a callback; this is the position in the bytes it reads.
    private final class Source {
        let bytes: [UInt8]
        var offset = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }
    }

    /// Reads `bytes` with `DGifOpen` + `DGifSlurp`. `nil` only when giflib cannot even read
    /// the header and logical screen.
    static func slurp(_ bytes: [UInt8]) -> Slurp? {
        let source = Source(bytes)
        let read: InputFunc = { file, buffer, count in
            guard let file, let buffer, count > 0 else { return 0 }
            let source = Unmanaged<Source>.fromOpaque(file.pointee.UserData).takeUnretainedValue()
            let n = min(Int(count), source.bytes.count - source.offset)
            source.bytes.withUnsafeBufferPointer { all in
                buffer.update(from: all.baseAddress! + source.offset, count: n)
            }
            source.offset += n
            return Int32(n)
        }
        return withExtendedLifetime(source) {
            var openError: Int32 = 0
            guard let gif = DGifOpen(Unmanaged.passUnretained(source).toOpaque(), read, &openError) else { return nil }
            defer {
                var closeError: Int32 = 0
                DGifCloseFile(gif, &closeError)
            }
            let ok = DGifSlurp(gif) == GIF_OK
            let file = gif.pointee
            let started = Int(file.ImageCount)
            let complete = ok || file.Error == D_GIF_ERR_WRONG_RECORD ? started : max(0, started - 1)
            let images = (0..<complete).map { image(file.SavedImages[$0], global: file.SColorMap) }
            // A zero-sized or oversized image fails the slurp without an error code.
            let error =
                ok
                ? nil
                : GifErrorString(file.Error).map { String(cString: $0) } ?? "DGifSlurp failed without an error code"
            return Slurp(screenWidth: Int(file.SWidth), screenHeight: Int(file.SHeight), images: images, error: error)
        }
    }

    private static func image(_ saved: SavedImage, global: UnsafeMutablePointer<ColorMapObject>?) -> Image {
        let desc = saved.ImageDesc
        let width = Int(desc.Width)
        let height = Int(desc.Height)
        let indexes = Array(UnsafeBufferPointer(start: saved.RasterBits, count: width * height))
        let palette = (desc.ColorMap ?? global).map { map in
            UnsafeBufferPointer(start: map.pointee.Colors, count: Int(map.pointee.ColorCount)).flatMap {
                [$0.Red, $0.Green, $0.Blue]
            }
        }
        // The last Graphic Control Extension before the image applies (docs/formats.md: of several
        // GCEs the last wins; giflib's own DGifSavedExtensionToGCB takes the first), read from
        // its first sub-block as GIF89a section 23 lays it out.
        var control: GraphicControl?
        for block in UnsafeBufferPointer(start: saved.ExtensionBlocks, count: Int(saved.ExtensionBlockCount))
        where block.Function == GRAPHICS_EXT_FUNC_CODE && block.ByteCount >= 4 {
            let packed = Int(block.Bytes[0])
            control = GraphicControl(
                disposal: (packed >> 2) & 7, transparentIndex: packed & 1 != 0 ? Int(block.Bytes[3]) : nil)
        }
        return Image(
            left: Int(desc.Left), top: Int(desc.Top), width: width, height: height,
            indexes: indexes, palette: palette, control: control)
    }
}

/// Draws GIF images onto the logical screen as GIF89a describes and browsers show it, one
/// canvas per image, premultiplied RGBA8, pixel by pixel. From the spec: an image draws the
/// palette colour of each index, opaque, except the transparent index (only when the GCE's
/// flag is set); after its canvas is shown, an image's disposal applies (1 keeps the canvas,
/// 3 restores it to what it was before the image). Where the spec leaves room, the documented
/// policies (docs/formats.md), each a browser's choice:
/// - pixels outside the logical screen are clipped (gdk-pixbuf, peterdn's suite);
/// - the canvas starts transparent, and disposal 2 clears the rectangle to transparent, not
///   to the background colour;
/// - disposal 4 restores like 3 (Chromium, Firefox); 0 and 5-7 keep the canvas;
/// - an index past the colour table, and every index of an image without a colour table,
///   draws nothing (Chromium).
struct GIF89aCompositor {
    let width, height: Int
    private var canvas: [UInt8]
    /// The last image drawn and, for a restoring disposal, the canvas from before it.
    private var shown: (image: GiflibOracle.Image, before: [UInt8]?)?

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        canvas = [UInt8](repeating: 0, count: width * height * 4)
    }

    /// Every canvas of `images`, in order.
    static func render(_ images: [GiflibOracle.Image], width: Int, height: Int) -> [[UInt8]] {
        var compositor = GIF89aCompositor(width: width, height: height)
        return images.map { compositor.draw($0) }
    }

    /// Disposes of the image shown last, draws `image` and returns the canvas shown.
    mutating func draw(_ image: GiflibOracle.Image) -> [UInt8] {
        if let (last, before) = shown {
            if let before {
                canvas = before
            } else if last.control?.disposal == 2 {
                for y in last.top..<max(last.top, min(height, last.top + last.height)) {
                    for x in last.left..<max(last.left, min(width, last.left + last.width)) {
                        let o = (y * width + x) * 4
                        canvas.replaceSubrange(o..<(o + 4), with: [0, 0, 0, 0])
                    }
                }
            }
        }
        let restores = image.control?.disposal == 3 || image.control?.disposal == 4
        shown = (image, restores ? canvas : nil)
        let colours = image.palette ?? []
        for y in 0..<image.height where image.top + y < height {
            for x in 0..<image.width where image.left + x < width {
                let index = Int(image.indexes[y * image.width + x])
                guard index != image.control?.transparentIndex, 3 * index + 2 < colours.count else { continue }
                let o = ((image.top + y) * width + image.left + x) * 4
                canvas[o] = colours[3 * index]
                canvas[o + 1] = colours[3 * index + 1]
                canvas[o + 2] = colours[3 * index + 2]
                canvas[o + 3] = 255
            }
        }
        return canvas
    }
}
