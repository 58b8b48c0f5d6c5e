import AnimationCodec
import Foundation
import StickerFit
import StickerPack
import TestSupport
import Testing

/// Inputs for the fit tests, made by the tests: pixels drawn here, written by the package's
/// plain PNG / APNG writer (`PNGEncoder`, not the `AnimationEncoder` that `fit` uses) or by
/// Pillow for JPEG and WebP.
enum FitFixtures {
    static let repoRoot = ConformanceSuites.repoRoot
    static let scripts = repoRoot.appendingPathComponent("Tests/Scripts")

    /// Options that keep the tests quick: libdeflate level 6 is the encoder's search level,
    /// so the planned frames are written as already compressed (no second, stronger pass).
    static func quickOptions(size: StickerSize? = nil, maxBytes: Int = 500_000) -> FitOptions {
        FitOptions(size: size, maxBytes: maxBytes, compressionLevel: 6, threads: 2)
    }

    /// A fresh folder, removed by the caller.
    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sticker-fit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A sticker of one file, named after it.
    static func sticker(_ url: URL) -> Sticker {
        Sticker(name: url.deletingPathExtension().lastPathComponent, source: .file(url))
    }

    /// Writes premultiplied pixels as a PNG.
    @discardableResult
    static func writePNG(_ pixels: [UInt8], width: Int, height: Int, to url: URL) throws -> URL {
        try Data(PNGEncoder.encode(premultiplied: pixels, width: width, height: height)).write(to: url)
        return url
    }

    /// Writes whole-canvas frames as an APNG, each shown for `milliseconds[i]` (stored as
    /// that many thousandths of a second), looping forever.
    @discardableResult
    static func writeAPNG(_ frames: [[UInt8]], milliseconds: [Int], width: Int, height: Int, to url: URL) throws -> URL
    {
        let animation = zip(frames, milliseconds).map {
            PNGEncoder.AnimationFrame(pixels: $0, delay: FrameDelay(numerator: $1, denominator: 1000))
        }
        try Data(PNGEncoder.encodeAnimation(animation, width: width, height: height, plays: 0)).write(to: url)
        return url
    }

    /// Writes opaque pixels (premultiplied RGBA, alpha 255) with Pillow as `format` (`JPEG`
    /// or `WEBP`, lossy) at `quality`.
    @discardableResult
    static func writeWithPillow(_ opaque: [UInt8], width: Int, height: Int, format: String, quality: Int, to url: URL)
        throws -> URL
    {
        let raw = url.appendingPathExtension("rgb")
        defer { try? FileManager.default.removeItem(at: raw) }
        var rgb = [UInt8](); rgb.reserveCapacity(width * height * 3)
        for p in stride(from: 0, to: opaque.count, by: 4) { rgb += opaque[p..<p + 3] }
        try Data(rgb).write(to: raw)
        let status = try TestProcess.run([
            "python3", scripts.appendingPathComponent("pillow_fixtures.py").path, "encode", format,
            "\(quality)", "\(width)", "\(height)", raw.path, url.path
        ])
        try #require(status == 0, "Pillow could not write \(url.lastPathComponent)")
        return url
    }

    /// An opaque photo-like image: a colour gradient with Gaussian-ish noise (the sum of four
    /// uniform draws), from a fixed seed. Noise keeps a palette or exact PNG large while JPEG
    /// stays small.
    static func noisyPhoto(width: Int, height: Int, amplitude: Int, seed: UInt64) -> [UInt8] {
        var random = SplitMix(seed: seed)
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let base = [
                    x * 255 / max(1, width - 1), y * 255 / max(1, height - 1),
                    (x + y) * 255 / max(1, width + height - 2)
                ]
                for c in 0..<3 {
                    let noise =
                        (0..<4).reduce(0) { total, _ in total + Int(random.next() % UInt64(amplitude + 1)) } - 2
                        * amplitude
                    pixels[(y * width + x) * 4 + c] = UInt8(clamping: base[c] + noise)
                }
            }
        }
        return pixels
    }

    /// An opaque image of one colour.
    static func solid(width: Int, height: Int, _ r: UInt8, _ g: UInt8, _ b: UInt8) -> [UInt8] {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for p in stride(from: 0, to: pixels.count, by: 4) { (pixels[p], pixels[p + 1], pixels[p + 2]) = (r, g, b) }
        return pixels
    }

    /// Artwork with soft, see-through edges whose premultiplied values are exact: alpha is a
    /// multiple of 51 and each straight colour a multiple of 5, so `colour * alpha / 255` is a
    /// whole number and every decoder and premultiplication rule agrees on the pixels. A
    /// 2-pixel opaque frame marks the image's edges; inside, an ellipse of falling alpha over
    /// fine stripes (1-pixel green columns, which a filter that is not widened when shrinking
    /// aliases).
    static func softArtwork(width: Int, height: Int) -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let border = x < 2 || y < 2 || x >= width - 2 || y >= height - 2
                let dx = (Double(x) + 0.5) / Double(width) - 0.5
                let dy = (Double(y) + 0.5) / Double(height) - 0.5
                let distance = (dx * dx + dy * dy).squareRoot() * 2
                let level = border ? 5 : max(0, min(5, Int((1.1 - distance) * 6)))
                let straight =
                    border ? [200, 40, 90] : [5 * ((x * 7 + y * 3) % 52), x % 2 == 0 ? 250 : 0, 5 * ((x * y) % 52)]
                let o = (y * width + x) * 4
                for c in 0..<3 { pixels[o + c] = UInt8(straight[c] * level / 5) }
                pixels[o + 3] = UInt8(51 * level)
            }
        }
        return pixels
    }

    /// Writes `bytes` to `url`; `url`.
    @discardableResult
    static func write(_ bytes: [UInt8], to url: URL) throws -> URL {
        try Data(bytes).write(to: url)
        return url
    }

    /// The bytes of the file at `url`.
    static func bytes(_ url: URL) throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }

    /// The size in bytes of the file at `url`.
    static func fileSize(_ url: URL) throws -> Int { try bytes(url).count }
}
