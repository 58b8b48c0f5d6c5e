import Foundation
import TestSupport
import Testing

/// Pillow, through python3, as the independent decoder of what `fit` writes.
enum Pillow {
    /// What Pillow shows of one file.
    struct Decoded {
        var width: Int
        var height: Int
        /// Every frame as premultiplied RGBA8 (Pillow's straight RGBA premultiplied here,
        /// rounding half away from zero).
        var frames: [[UInt8]]
        /// Each frame's duration in milliseconds as Pillow reads it.
        var durationsMs: [Double]
    }

    /// One file's facts: size, frames, and the lowest alpha of any pixel of any frame.
    struct Facts: Decodable {
        var width: Int
        var height: Int
        var frames: Int
        var minAlpha: Int
        /// Whether the file stores alpha at all (an alpha band or a transparency entry).
        var hasAlpha: Bool
    }

    /// Every frame of `url` (Tests/Scripts/reference_frames.py).
    static func decode(_ url: URL) throws -> Decoded {
        let out = try FitFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let script = FitFixtures.scripts.appendingPathComponent("reference_frames.py")
        try #require(
            try TestProcess.run(["python3", script.path, "pillow", url.path, out.path]) == 0,
            "Pillow cannot read \(url.lastPathComponent)")
        struct Meta: Decodable { var width: Int, height: Int, frames: Int, durationsMs: [Double] }
        let meta = try JSONDecoder().decode(Meta.self, from: Data(contentsOf: out.appendingPathComponent("meta.json")))
        let frames = try (0..<meta.frames).map { index -> [UInt8] in
            var pixels = try FitFixtures.bytes(out.appendingPathComponent(String(format: "frame-%04d.rgba", index)))
            for p in stride(from: 0, to: pixels.count, by: 4) {
                let alpha = Double(pixels[p + 3])
                for c in 0..<3 {
                    pixels[p + c] = UInt8((Double(pixels[p + c]) * alpha / 255).rounded(.toNearestOrAwayFromZero))
                }
            }
            return pixels
        }
        return Decoded(width: meta.width, height: meta.height, frames: frames, durationsMs: meta.durationsMs)
    }

    /// The facts of each of `urls`, in order (Tests/Scripts/pillow_fixtures.py describe).
    static func facts(_ urls: [URL]) throws -> [Facts] {
        let out = try FitFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let report = out.appendingPathComponent("facts.json")
        let script = FitFixtures.scripts.appendingPathComponent("pillow_fixtures.py")
        try #require(try TestProcess.run(["python3", script.path, "describe", report.path] + urls.map(\.path)) == 0)
        return try JSONDecoder().decode([Facts].self, from: Data(contentsOf: report))
    }
}

/// How far one set of premultiplied frames is from another.
struct PixelDifference {
    /// The largest difference of one channel.
    var maxError = 0
    /// PSNR in dB over every channel of every pixel (alpha included); infinite when equal.
    var psnr = Double.infinity

    init(_ a: [UInt8], _ b: [UInt8]) {
        precondition(a.count == b.count)
        var squares = 0.0
        for i in a.indices {
            let d = Int(a[i]) - Int(b[i])
            maxError = max(maxError, abs(d))
            squares += Double(d * d)
        }
        if squares > 0 { psnr = 10 * log10(255 * 255 / (squares / Double(a.count))) }
    }
}
