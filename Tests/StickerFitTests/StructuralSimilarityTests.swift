import Foundation
import StickerPack
import TestSupport
import Testing

@testable import StickerFit

/// SSIM against the formula worked by hand and against a numpy computation of the same
/// definition (uniform 8x8 windows stepped by 4, every premultiplied channel, Wang et al.'s
/// constants), written separately in the test.
@Suite("SSIM, the perceptual figure", .timeLimit(.minutes(3)))
struct StructuralSimilarityTests {
    @Test("identical images: 1; two flat greys: (2ab + C1) / (a² + b² + C1) on R, G, B, 1 on the alpha both share")
    func byHand() {
        let a: [UInt8] = (0..<(8 * 8 * 4)).map { $0 % 4 == 3 ? 255 : 100 }
        let b: [UInt8] = (0..<(8 * 8 * 4)).map { $0 % 4 == 3 ? 255 : 110 }
        #expect(StructuralSimilarity.mean(a, a, width: 8, height: 8) == 1)
        let c1 = 2.55 * 2.55
        let grey = (2 * 100 * 110 + c1) / (100 * 100 + 110 * 110 + c1)
        #expect(abs(StructuralSimilarity.mean(a, b, width: 8, height: 8) - (3 * grey + 1) / 4) < 1e-12)
    }

    @Test("random 37 x 29 images: what numpy computes from the definition")
    func againstNumpy() throws {
        var random = SplitMix(seed: 11)
        let width = 37
        let height = 29
        let a = (0..<(width * height * 4)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        // b: a with noise, so the two are alike but not equal.
        let b = a.map { UInt8(clamping: Int($0) + Int(random.next() % 41) - 20) }
        let expected = try NumpySSIM.mean([(a, b)], width: width, height: height)
        let ours = StructuralSimilarity.mean(a, b, width: width, height: height)
        #expect(abs(ours - expected) < 1e-9, "ours \(ours), numpy \(expected)")
        #expect(ours < 1)
    }

    @Test("more noise, lower SSIM; an animation's figure is the mean over its reference's instants")
    func orderAndInstants() {
        var random = SplitMix(seed: 3)
        let base = (0..<(16 * 16 * 4)).map { _ in UInt8(truncatingIfNeeded: random.next() % 200 + 20) }
        let light = base.map { $0 &+ UInt8(random.next() % 5) }
        let heavy = base.map { $0 &+ UInt8(random.next() % 21) }
        let lightSSIM = StructuralSimilarity.mean(base, light, width: 16, height: 16)
        let heavySSIM = StructuralSimilarity.mean(base, heavy, width: 16, height: 16)
        #expect(1 > lightSSIM && lightSSIM > heavySSIM)
        // Reference: base for 0.1 s, then base for 0.3 s; shown: light for 0.1 s, heavy after.
        let reference = FrameTimeline(frames: [base, base], durations: [0.1, 0.3])
        let shown = FrameTimeline(frames: [light, heavy], durations: [0.1, 0.3])
        let animated = StructuralSimilarity.compare(shown, reference, width: 16, height: 16)
        #expect(abs(animated - (lightSSIM + heavySSIM) / 2) < 1e-12)
    }
}
