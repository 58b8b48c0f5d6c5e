import AnimationCodec

/// Filling coverage masks with a colour.
public enum Painter {
    /// `color` (opaque sRGB) over the canvas wherever `mask` covers it.
    public static func fill(_ mask: CoverageMask, color: SIMD3<UInt8>, on canvas: inout RGBAImage) {
        fill(mask, on: &canvas) { _, _ in color }
    }

    /// Each covered pixel filled with `color(column, row)` (opaque sRGB), over what is there:
    /// the colour as a premultiplied pixel of alpha `coverage`, drawn by ``BlendKernels``' OVER.
    public static func fill(_ mask: CoverageMask, on canvas: inout RGBAImage, color: (Int, Int) -> SIMD3<UInt8>) {
        guard mask.width > 0 else { return }
        let width = canvas.width
        let height = canvas.height
        canvas.pixels.withUnsafeMutableBufferPointer { pixels in
            for row in 0..<mask.height {
                for column in 0..<mask.width {
                    let cover = mask.coverage[row * mask.width + column]
                    guard cover > 0 else { continue }
                    let cx = mask.x + column
                    let cy = mask.y + row
                    // A mask reaching past the canvas (or made for another) draws only what is on it.
                    guard cx >= 0, cx < width, cy >= 0, cy < height else { continue }
                    let fill = color(cx, cy)
                    let source = BlendKernels.scaled(SIMD4(fill.x, fill.y, fill.z, 255), by: cover)
                    blend(source, into: pixels, at: (cy * width + cx) * 4)
                }
            }
        }
    }

    /// The `area` of `image` (premultiplied) drawn with its top left at (`x`, `y`) on the
    /// canvas, each pixel scaled by `mask`'s coverage there and drawn by ``BlendKernels``' OVER:
    /// a picture clipped to a shape with soft edges. Pixels off the canvas or the image are skipped.
    public static func draw(
        _ image: RGBAImage, area: PixelRect, atX x: Int, y: Int, clippedBy mask: CoverageMask,
        on canvas: inout RGBAImage
    ) {
        let width = canvas.width
        let height = canvas.height
        image.pixels.withUnsafeBufferPointer { source in
            canvas.pixels.withUnsafeMutableBufferPointer { pixels in
                for row in 0..<area.height {
                    let cy = y + row
                    let sy = area.y + row
                    guard cy >= 0, cy < height, sy >= 0, sy < image.height else { continue }
                    for column in 0..<area.width {
                        let cx = x + column
                        let sx = area.x + column
                        guard cx >= 0, cx < width, sx >= 0, sx < image.width else { continue }
                        let cover = mask.value(column: cx, row: cy)
                        guard cover > 0 else { continue }
                        let s = (sy * image.width + sx) * 4
                        let pixel = SIMD4(source[s], source[s + 1], source[s + 2], source[s + 3])
                        blend(BlendKernels.scaled(pixel, by: cover), into: pixels, at: (cy * width + cx) * 4)
                    }
                }
            }
        }
    }

    /// `source` OVER the pixel at byte `offset` of `pixels`.
    @inline(__always)
    static func blend(_ source: SIMD4<UInt8>, into pixels: UnsafeMutableBufferPointer<UInt8>, at offset: Int) {
        let destination = SIMD4(pixels[offset], pixels[offset + 1], pixels[offset + 2], pixels[offset + 3])
        let result = BlendKernels.over(source, onto: destination)
        pixels[offset] = result[0]; pixels[offset + 1] = result[1]; pixels[offset + 2] = result[2];
        pixels[offset + 3] = result[3]
    }
}
