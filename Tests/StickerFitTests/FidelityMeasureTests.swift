import AnimationCodec
import Foundation
import Testing

@testable import StickerFit

/// A written file measured against the reference it was made from, figures worked out by hand:
/// which of the file's frames shows at each reference frame's start, the squared differences
/// of the channels there, and the PSNR and SSIM over all of them.
@Suite("fit: measuring a written file", .timeLimit(.minutes(1)))
struct FidelityMeasureTests {
    static let side = 16

    /// An opaque frame of one grey.
    static func grey(_ value: UInt8) -> [UInt8] {
        (0..<side * side).flatMap { _ in [value, value, value, 255] }
    }

    @Test("a file of two frames (200 and 100 ms) against a reference of three (100 ms each)")
    func twoFramesAgainstThree() throws {
        // The file shows grey 100 for 0-0.2 s and grey 130 for 0.2-0.3 s; the reference starts
        // its frames at 0, 0.1 and 0.2 s with greys 100, 110 and 120.
        let file = AnimationEncoder.encode(
            frames: [Self.grey(100), Self.grey(130)],
            delays: [FrameDelay(numerator: 200, denominator: 1000), FrameDelay(numerator: 100, denominator: 1000)],
            width: Self.side, height: Self.side, plays: 0, options: .init(compressionLevel: 6)
        ).bytes
        let reference = FrameTimeline(
            frames: [Self.grey(100), Self.grey(110), Self.grey(120)], durations: [0.1, 0.1, 0.1])
        let fidelity = try Fidelity.measure(file, against: reference, limits: .default)
        // Shown: 100 for 100 (no error), 100 for 110 (10 a colour channel), 130 for 120 (10).
        // Squares: 2 frames x 256 pixels x 3 channels x 100; samples: 3 x 256 x 4.
        let mse = Double(2 * 256 * 3 * 100) / Double(3 * 256 * 4)
        #expect(fidelity.maxError == 10)
        #expect(abs(fidelity.psnr! - 10 * log10(255 * 255 / mse)) < 1e-9)
        // SSIM: identical frames give 1; a flat frame against another flat one of a different
        // grey gives (2 mx my + C1) / (mx² + my² + C1) on each colour channel and 1 on alpha.
        func flat(_ x: Double, _ y: Double) -> Double {
            let c1 = StructuralSimilarity.c1
            return (3 * ((2 * x * y + c1) / (x * x + y * y + c1)) + 1) / 4
        }
        let expected = (1 + flat(110, 100) + flat(120, 130)) / 3
        #expect(abs(fidelity.ssim! - expected) < 1e-12)
    }

    @Test("a file the same as the reference is exact")
    func exact() throws {
        let frames = [Self.grey(40), Self.grey(90)]
        let file = AnimationEncoder.encode(
            frames: frames, delays: Array(repeating: FrameDelay(numerator: 1, denominator: 10), count: 2),
            width: Self.side, height: Self.side, plays: 0
        ).bytes
        let reference = FrameTimeline(frames: frames, durations: [0.1, 0.1])
        #expect(try Fidelity.measure(file, against: reference, limits: .default) == .exact)
    }
}
