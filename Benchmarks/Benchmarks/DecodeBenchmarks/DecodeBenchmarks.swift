import AnimationCodec
import Benchmark
import Foundation

/// Sample-pack files, found relative to this source file.
private let samplePack = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("corpus/sample-pack")

private func load(_ name: String) -> [UInt8] {
    (try? [UInt8](Data(contentsOf: samplePack.appendingPathComponent(name)))) ?? []
}

/// Decodes and composites every frame of `decoder` once, `benchmark.scaledIterations` times.
private func decodeEveryFrame(_ decoder: AnimationDecoder, _ benchmark: Benchmark) throws {
    for _ in benchmark.scaledIterations {
        var sum = 0
        try decoder.forEachFrame(threads: 1) { sum &+= Int($0.pixels[0]) }
        blackHole(sum)
    }
}

let benchmarks: @Sendable () -> Void = {
    let metrics: [BenchmarkMetric] = [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident, .throughput]
    Benchmark.defaultConfiguration = .init(metrics: metrics, maxDuration: .seconds(3), maxIterations: 200)

    let apng = load("03-beating-heart.png")
    Benchmark("Decode APNG 618x618x10, all frames composited") { benchmark in
        try decodeEveryFrame(AnimationDecoder(bytes: apng), benchmark)
    }

    let gif = load("02-spinning-star.gif")
    Benchmark("Decode GIF 408x408x16, all frames composited") { benchmark in
        try decodeEveryFrame(AnimationDecoder(bytes: gif), benchmark)
    }

    // 618 x 618 premultiplied pixels: a third transparent, a third opaque, a third partial.
    let pixelCount = 618 * 618
    let source: [UInt8] = (0..<pixelCount).flatMap { p -> [UInt8] in
        let alpha: UInt8 = p % 3 == 0 ? 0 : (p % 3 == 1 ? 255 : UInt8(truncatingIfNeeded: p))
        return [alpha / 2, alpha / 3, alpha, alpha]
    }
    let kernels: [(String, (UnsafeRawPointer, UnsafeMutableRawPointer, Int) -> Void)] = [
        ("SIMD", BlendKernels.overSIMD), ("scalar", BlendKernels.overScalar),
    ]
    for (name, kernel) in kernels {
        Benchmark("Blend OVER, \(name) kernel, 618x618") { benchmark in
            var destination = [UInt8](repeating: 200, count: pixelCount * 4)
            for _ in benchmark.scaledIterations {
                source.withUnsafeBytes { s in destination.withUnsafeMutableBytes { kernel(s.baseAddress!, $0.baseAddress!, pixelCount) } }
                blackHole(destination[0])
            }
        }
    }
}
