import AnimationCodec
import Foundation
import TestSupport
import Testing

@testable import StickerFit

/// The pieces that make the lossy search cheap: the interpolating search for the mildest
/// setting that fits, the tolerance held over a short window, the blocked sum of squared
/// differences and the estimate made from a sample of frame pairs. Each against a plain
/// computation of the same thing.
@Suite("fit: the search's sampling and interpolation", .timeLimit(.minutes(2)))
struct SearchSamplingTests {
    /// Values falling as the index grows: `shape` 0 falls evenly in its logarithm, 1 in steps
    /// with plateaus, 2 steeply first and then barely.
    static func falling(count: Int, shape: Int, random: inout SplitMix) -> [Double] {
        var values: [Double] = []
        var current = 2_000_000.0
        for index in 0..<count {
            values.append(current)
            switch shape {
            case 0: current *= 0.95 + Double(random.next() % 20) / 1000
            case 1: if index % 5 == 4 { current *= 0.8 }
            default: current *= index < count / 4 ? 0.6 : 0.995
            }
        }
        return values
    }

    @Test("the interpolating search finds the first index at most the limit, as a scan does, in few values")
    func interpolatingSearch() {
        var random = SplitMix(seed: 11)
        var total = 0
        for count in [2, 3, 17, 48, 49] {
            for shape in 0..<3 {
                let values = Self.falling(count: count, shape: shape, random: &random)
                for _ in 0..<20 {
                    let limit = values[values.count - 1] * (1 + Double(random.next() % 1000) / 100)
                    var asked: [Int] = []
                    let found = QualitySearch.firstFitting(limit: limit, from: 0, fitting: count - 1) {
                        asked.append($0)
                        return values[$0]
                    }
                    let expected = values.firstIndex { $0 <= limit }!
                    #expect(found == expected, "count \(count), shape \(shape), limit \(limit)")
                    // Never more than a halving every second value, plus the known end.
                    let halvings = Int(ceil(log2(Double(count))))
                    #expect(asked.count <= 2 * halvings + 1, "count \(count), shape \(shape): \(asked)")
                    if shape == 0 && count == 48 {
                        // Bisection over 48 settings asks for 6 values besides the known end.
                        #expect(asked.count <= 5, "\(asked)")
                        total += asked.count
                    }
                }
            }
        }
        // On average well under bisection's 7.
        #expect(total <= 20 * 4)
    }

    @Test("the search starts where it is told: no index under the lowest is asked for or returned")
    func searchFromLowest() {
        let values = (0..<30).map { 1000.0 - Double($0) * 10 }
        var asked: [Int] = []
        let found = QualitySearch.firstFitting(limit: 950, from: 12, fitting: 29) {
            asked.append($0)
            return values[$0]
        }
        #expect(found == 12)
        #expect(asked.allSatisfy { $0 >= 12 })
    }

    @Test("the tolerance over a window ends in the same two frames as over the whole clip")
    func toleranceWindow() {
        var random = SplitMix(seed: 5)
        let base: [UInt8] = (0..<(32 * 32)).flatMap { i -> [UInt8] in
            let alpha = UInt8([0, 255, 120][i % 3])
            return [alpha / 3, alpha / 2, alpha, alpha]
        }
        let frames = (0..<7).map { _ in
            base.enumerated().map { index, value -> UInt8 in
                let alpha = base[index | 3]
                guard index & 3 != 3, alpha > 0 else { return value }
                return UInt8(max(0, min(Int(alpha), Int(value) + Int(random.next() % 9) - 4)))
            }
        }
        for tolerance in [0, 1, 3, 8] {
            let whole = InterframeTolerance.apply(frames, tolerance: tolerance)
            let (before, after) = InterframeTolerance.lastTwo(count: frames.count, tolerance: tolerance) { frames[$0] }
            #expect(before == whole[5] && after == whole[6], "tolerance \(tolerance)")
        }
    }

    @Test("the tolerance follows its rule pixel for pixel, the last pixels past a group of four included")
    func toleranceRule() {
        var random = SplitMix(seed: 9)
        let count = 37 * 3
        func pixel() -> [UInt8] {
            let alpha = [0, 255, Int(random.next() % 256)][Int(random.next() % 3)]
            return (0..<3).map { _ in UInt8(random.next() % UInt64(alpha + 1)) } + [UInt8(alpha)]
        }
        let first = (0..<count).flatMap { _ in pixel() }
        // The second frame: each pixel the first's moved by up to 5 a channel, or a new one.
        let second = (0..<count).flatMap { index -> [UInt8] in
            guard random.next() % 4 != 0 else { return pixel() }
            return (0..<4).map { channel in
                UInt8(max(0, min(255, Int(first[4 * index + channel]) + Int(random.next() % 11) - 5)))
            }
        }
        for tolerance in [1, 3, 5, 300] {
            let held = InterframeTolerance.apply([first, second], tolerance: tolerance)[1]
            for index in 0..<count {
                let wanted = Array(second[4 * index..<4 * index + 4])
                let shown = Array(first[4 * index..<4 * index + 4])
                let close = zip(wanted, shown).allSatisfy { abs(Int($0) - Int($1)) <= tolerance }
                let alphaMoves = (wanted[3] == 0 || wanted[3] == 255) && shown[3] != wanted[3]
                let expected = close && !alphaMoves ? shown : wanted
                #expect(Array(held[4 * index..<4 * index + 4]) == expected, "pixel \(index), tolerance \(tolerance)")
            }
        }
    }

    @Test("squared differences add up past what 32 bits hold, and the largest difference is kept")
    func squaredDifferences() {
        let count = 200_003
        let (sum, largest) = Fidelity.squaredDifferences(
            [UInt8](repeating: 0, count: count), [UInt8](repeating: 255, count: count))
        #expect(sum == UInt64(count) * 65_025)
        #expect(largest == 255)
        var random = SplitMix(seed: 3)
        let a = (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let b = (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        // The plain sum, a byte at a time.
        func expected(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> (sum: UInt64, largest: Int) {
            var sum: UInt64 = 0
            var largest = 0
            for (x, y) in zip(a, b) {
                let difference = abs(Int(x) - Int(y))
                sum += UInt64(difference * difference)
                largest = max(largest, difference)
            }
            return (sum, largest)
        }
        // Long arrays, short ones, shorter and longer than a vector, whose last bytes the
        // vectorised loop leaves, and ones around a block of 32 KB, whose lanes are added up.
        for length in Array(0...40) + [32_767, 32_768, 32_769, 65_551, count] {
            let measured = Fidelity.squaredDifferences(Array(a.prefix(length)), Array(b.prefix(length)))
            let plain = expected(a.prefix(length), b.prefix(length))
            #expect(measured.sum == plain.sum && measured.largest == plain.largest, "\(length) bytes")
        }
        var spike = [UInt8](repeating: 7, count: 35)
        spike[34] = 200
        let lastByte = Fidelity.squaredDifferences([UInt8](repeating: 7, count: 35), spike)
        #expect(lastByte.sum == 193 * 193 && lastByte.largest == 193)
    }

    @Test("an estimate from every pair of consecutive frames equals the estimate from the whole clip")
    func estimateFromPairs() {
        let clip = GrainyClip.frames(side: 48, frames: 9, grain: 6, seed: 2)
        let pairs = (1..<clip.count).map { (before: clip[$0 - 1], after: clip[$0]) }
        #expect(pairs.allSatisfy { $0.before != $0.after })
        let whole = AnimationEncoder.estimatedBytes(frames: clip, width: 48, height: 48, sampleEvery: 1, threads: 1)
        let sampled = AnimationEncoder.estimatedBytes(
            first: clip[0], pairs: pairs, frameCount: clip.count, width: 48, height: 48, threads: 1)
        #expect(sampled == whole)
        // Half the pairs stand for all of them: the same bytes a change, scaled.
        let half = AnimationEncoder.estimatedBytes(
            first: clip[0], pairs: Array(pairs.prefix(4)), frameCount: clip.count, width: 48, height: 48, threads: 1)
        #expect(half > whole / 2 && half < whole * 2)
    }

    @Test(
        "a sample handed over a pair at a time, its colours counted only while they can change the model, gives the estimate of the sample handed over whole",
        arguments: [false, true])
    func estimateInPieces(flat: Bool) {
        // Flat art keeps a palette possible to the last frame (every colour is counted); grain
        // over translucent pixels rules out every model but RGBA on the first frame (the rest
        // is never counted).
        let side = 48
        let clip =
            flat
            ? (0..<9).map { frame in
                (0..<side * side).flatMap { pixel -> [UInt8] in
                    let (x, y) = (pixel % side, pixel / side)
                    if abs(x - 4 * frame - 8) < 6 && abs(y - 20) < 6 { return [200, 40, 40, 255] }
                    return y < 10 ? [10, 90, 180, 255] : [0, 0, 0, 0]
                }
            }
            : GrainyClip.frames(side: side, frames: 9, grain: 6, seed: 3).map { frame in
                frame.map { min($0, 254) }
            }
        let pairs = [2, 5, 8].map { (before: clip[$0 - 1], after: clip[$0]) }
        let whole = AnimationEncoder.estimatedBytes(
            first: clip[0], pairs: pairs, frameCount: clip.count, width: side, height: side, threads: 1)
        for threads in [1, 2] {
            var estimate = SampledSizeEstimate(width: side, height: side, threads: threads)
            estimate.countColors(clip[0])
            var counted = 1
            for pair in pairs where estimate.needsColors {
                estimate.countColors(pair.before)
                estimate.countColors(pair.after)
                counted += 2
            }
            #expect(counted == (flat ? 7 : 1))
            estimate.measureFirst(clip[0])
            for pair in pairs { estimate.measure([pair]) }
            #expect(estimate.bytes(frameCount: clip.count) == whole, "\(threads) threads")
        }
    }
}
