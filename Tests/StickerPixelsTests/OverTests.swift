import AnimationCodec
import Testing

@testable import StickerPixels

/// One OVER: every drawing path that blends a pixel at a time (the painter's masks, a picture
/// clipped to a shape, the rotated peel) gives the bytes of `BlendKernels.overScalar`, the
/// reference kernel of the compositor, on the same source and destination.
@Suite("One OVER: each drawing path gives the compositor's bytes")
struct OverTests {
    /// 256 destination pixels, premultiplied (no channel above its alpha), of every alpha.
    static let destination: [UInt8] = (0..<256).flatMap { i -> [UInt8] in
        let a = UInt8(255 - i)
        return [UInt8(Int(a) * 3 / 4), UInt8(Int(a) / 3), a, a]
    }

    /// `source` (premultiplied rows) OVER `destination` by the reference kernel.
    static func reference(_ source: [UInt8], onto destination: [UInt8]) -> [UInt8] {
        var out = destination
        source.withUnsafeBytes { s in
            out.withUnsafeMutableBytes { d in
                BlendKernels.overScalar(s.baseAddress!, onto: d.baseAddress!, count: source.count / 4)
            }
        }
        return out
    }

    /// A mask one row high with coverage 0, 1, ..., 255 along it.
    static let ramp = CoverageMask(x: 0, y: 0, width: 256, height: 1, coverage: (0..<256).map { UInt8($0) })

    @Test("Painter.fill: an opaque colour under coverage c is the premultiplied pixel of alpha c, OVER")
    func fill() {
        var canvas = RGBAImage(width: 256, height: 1, pixels: Self.destination)
        Painter.fill(Self.ramp, color: SIMD3(200, 100, 37), on: &canvas)
        // round(200 c / 255) and so on, computed here from the definition.
        let source = (0..<256).flatMap { c -> [UInt8] in
            [200, 100, 37, 255].map { UInt8((Double($0) * Double(c) / 255).rounded(.toNearestOrAwayFromZero)) }
        }
        #expect(canvas.pixels == Self.reference(source, onto: Self.destination))
    }

    @Test("Painter.draw clipped by a mask: each premultiplied pixel scaled by its coverage, OVER")
    func clippedPicture() {
        // A picture of every alpha, premultiplied, drawn from its column 0 at (0, 0).
        let picture = (0..<256).flatMap { i -> [UInt8] in
            let a = UInt8(i); return [a, UInt8(Int(a) / 2), 0, a]
        }
        var canvas = RGBAImage(width: 256, height: 1, pixels: Self.destination)
        let mask = CoverageMask(x: 0, y: 0, width: 256, height: 1, coverage: (0..<256).map { UInt8(255 - $0) })
        Painter.draw(
            RGBAImage(width: 256, height: 1, pixels: picture), area: PixelRect(x: 0, y: 0, width: 256, height: 1),
            atX: 0, y: 0, clippedBy: mask, on: &canvas)
        let source = (0..<256).flatMap { i -> [UInt8] in
            let cover = Double(255 - i)
            return picture[(i * 4)..<(i * 4 + 4)].map {
                UInt8((Double($0) * cover / 255).rounded(.toNearestOrAwayFromZero))
            }
        }
        #expect(canvas.pixels == Self.reference(source, onto: Self.destination))
    }

    @Test("RotatedDrawing at 0 degrees on pixel centres: the picture itself, OVER")
    func rotatedPeel() {
        // 16 x 16 pixels of varied alpha, centred at (8, 8) of a 16 x 16 canvas: every sample
        // falls on a pixel centre, so the source is the picture's own pixels.
        let picture = (0..<256).flatMap { i -> [UInt8] in
            let a = UInt8((i * 37) % 256); return [UInt8(Int(a) * 2 / 3), a / 5, a, a]
        }
        var canvas = RGBAImage(width: 16, height: 16, pixels: Self.destination)
        RotatedDrawing.draw(
            RGBAImage(width: 16, height: 16, pixels: picture), centre: SIMD2(8, 8), degrees: 0, on: &canvas)
        #expect(canvas.pixels == Self.reference(picture, onto: Self.destination))
    }
}
