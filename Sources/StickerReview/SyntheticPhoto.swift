import AnimationCodec
import StickerPixels
import StickerRenderer

#if canImport(Glibc)
    import Glibc
#endif

/// The photo stickers are tried on when the user gives none: an outdoor scene drawn from
/// formulas (a sky that darkens upward, a low sun, two ranges of hills, grain), busy and
/// varied like a snapshot, with no file fetched or shipped.
enum SyntheticPhoto {
    /// The scene at `side` x `side` pixels, opaque.
    static func image(side: Int = 480) -> RGBAImage {
        var pixels = [UInt8](repeating: 255, count: side * side * 4)
        let scale = Double(side)
        let sun = (x: 0.72 * scale, y: 0.38 * scale, radius: 0.09 * scale)
        for y in 0..<side {
            let v = Double(y) / scale
            for x in 0..<side {
                let u = Double(x) / scale
                // Sky: deep blue at the top to warm haze at the horizon.
                var color = mix((40, 90, 170), (250, 190, 140), v / 0.62)
                let dx = Double(x) - sun.x
                let dy = Double(y) - sun.y
                let distance = (dx * dx + dy * dy).squareRoot()
                if distance < sun.radius * 3 {
                    let glow = max(0, 1 - distance / (sun.radius * 3))
                    color = mix(color, (255, 240, 200), distance < sun.radius ? 1 : glow * glow)
                }
                let far = 0.58 + 0.05 * sin(u * 9.0 + 1.3) + 0.02 * sin(u * 23.0)
                let near = 0.70 + 0.07 * sin(u * 5.0 + 0.4) + 0.015 * sin(u * 41.0)
                if v > far { color = mix((70, 95, 120), (40, 60, 70), (v - far) * 4) }
                if v > near { color = mix((60, 120, 50), (20, 60, 25), (v - near) * 3) }
                // Grain, as in any photo: a fixed hash of the position, ±12 levels.
                let grain = Double(hash(x, y) % 25) - 12
                let o = (y * side + x) * 4
                pixels[o] = clamp(Double(color.0) + grain)
                pixels[o + 1] = clamp(Double(color.1) + grain)
                pixels[o + 2] = clamp(Double(color.2) + grain)
            }
        }
        return RGBAImage(width: side, height: side, pixels: pixels)
    }

    /// The scene as a JPEG (a photo's own format: a tenth of a PNG's bytes).
    static func jpeg(side: Int = 480) -> [UInt8] {
        let image = image(side: side)
        return JPEGEncoder.encode(opaque: image.pixels, width: side, height: side, quality: 85)
            ?? SnapshotEncoder.png(image)
    }

    private static func mix(_ a: (Int, Int, Int), _ b: (Int, Int, Int), _ t: Double) -> (Int, Int, Int) {
        let t = min(1, max(0, t))
        func lerp(_ p: Int, _ q: Int) -> Int { Int((Double(p) + (Double(q) - Double(p)) * t).rounded()) }
        return (lerp(a.0, b.0), lerp(a.1, b.1), lerp(a.2, b.2))
    }

    private static func clamp(_ value: Double) -> UInt8 { UInt8(min(255, max(0, value.rounded()))) }

    private static func hash(_ x: Int, _ y: Int) -> UInt64 {
        var z =
            UInt64(truncatingIfNeeded: x) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: y)
            &* 0xC2B2_AE3D_27D4_EB4F
        z = (z ^ (z >> 31)) &* 0xBF58_476D_1CE4_E5B9
        return z ^ (z >> 29)
    }
}
