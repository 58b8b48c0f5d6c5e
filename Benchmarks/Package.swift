// swift-tools-version:6.1
import Foundation
import PackageDescription

/// SwiftPM names a path dependency after its folder, so the root package's identity is the
/// name of the checkout's folder, whatever it is.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

/// StickerKit's package-benchmark suite, kept as a nested package so the root build and CI
/// stay light. Run from this folder: `swift package benchmark`.
/// Allocation budgets live in Thresholds/ (update with
/// `swift package --allow-writing-to-package-directory benchmark thresholds update`).
let package = Package(
    name: "StickerKitBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: "../"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "DecodeBenchmarks",
            dependencies: [
                .product(name: "AnimationCodec", package: root),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/DecodeBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
