import AnimationCodec
import Foundation
import TestSupport

/// Locations of the shared conformance suites and the repo's corpus, found from this file's
/// path so tests run from any working directory.
enum Fixtures {
    static let repoRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let conformance = ConformanceSuites.root
    static let samplePack = repoRoot.appendingPathComponent("corpus/sample-pack")

    static func url(_ suite: String, _ path: String) -> URL {
        conformance.appendingPathComponent(suite).appendingPathComponent(path)
    }

    static func bytes(_ suite: String, _ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url(suite, path)))
    }

    /// File names in a suite folder with the given extension, sorted.
    static func files(_ suite: String, _ folder: String = "", ext: String) -> [String] {
        let dir = url(suite, folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { $0.hasSuffix("." + ext) }.sorted()
    }

    static func decodeAll(_ bytes: [UInt8], threads: Int = 1) throws -> (AnimationInfo, [Frame]) {
        let decoder = try AnimationDecoder(bytes: bytes)
        return (decoder.info, try decoder.decodeAllFrames(threads: threads))
    }
}

/// Test-side arithmetic, written independently of the codec from the definitions.
enum Reference {
    /// round(c * a / 255) in floating point.
    static func premultiply(_ c: Int, _ a: Int) -> UInt8 {
        UInt8((Double(c) * Double(a) / 255).rounded(.toNearestOrAwayFromZero))
    }

    /// Straight RGBA8 to premultiplied, per pixel.
    static func premultiplied(straight rgba: [UInt8]) -> [UInt8] {
        var out = rgba
        for p in stride(from: 0, to: rgba.count, by: 4) {
            let a = Int(rgba[p + 3])
            for c in 0..<3 { out[p + c] = premultiply(Int(rgba[p + c]), a) }
        }
        return out
    }

    /// The standard CRC-32 (ISO-HDLC), bit by bit.
    static func crc32<Bytes: Sequence>(_ bytes: Bytes) -> UInt32 where Bytes.Element == UInt8 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }

    /// Pixels where two premultiplied buffers differ by more than `tolerance` in a channel.
    static func mismatches(_ a: [UInt8], _ b: [UInt8], tolerance: Int = 0) -> Int {
        guard a.count == b.count else { return max(a.count, b.count) / 4 }
        var count = 0
        for p in stride(from: 0, to: a.count, by: 4) {
            for c in 0..<4 where abs(Int(a[p + c]) - Int(b[p + c])) > tolerance {
                count += 1
                break
            }
        }
        return count
    }
}
