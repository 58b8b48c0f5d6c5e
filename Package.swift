// swift-tools-version:6.0
import PackageDescription

/// StickerKit: decode animated stickers (APNG, GIF, PNG, JPEG, WebP, WebM, Lottie) into premultiplied RGBA frames,
/// check packs against Apple's rules, and render them as the Messages sticker browser does.
///
/// Layers, each importing only those below it (docs/architecture.md has the table):
/// `AnimationCodec` (bytes to frames) <- `StickerPixels` (images, resampling, backgrounds, paths
/// and masks) and `StickerPack` (packs, rules) <- `StickerRenderer` (layout, time, the browser,
/// sheets and the terminal) and `StickerFit` (packs made to pass), siblings <- `StickerTranscript`
/// (the conversation, on the renderer's players) <- `StickerReview` (one page per pack) and
/// `StickerBench` (timing, baselines) <- `StickerCLI` (command types) <- `stickers` (executable).
let package = Package(
    name: "StickerKit",
    products: [
        .library(name: "AnimationCodec", targets: ["AnimationCodec"]),
        .library(name: "StickerPixels", targets: ["StickerPixels"]),
        .library(name: "StickerPack", targets: ["StickerPack"]),
        .library(name: "StickerRenderer", targets: ["StickerRenderer"]),
        .library(name: "StickerTranscript", targets: ["StickerTranscript"]),
        .library(name: "StickerFit", targets: ["StickerFit"]),
        .library(name: "StickerReview", targets: ["StickerReview"]),
        .library(name: "StickerBench", targets: ["StickerBench"]),
        .library(name: "StickerCLI", targets: ["StickerCLI"]),
        .executable(name: "stickers", targets: ["stickers"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `swift package generate-documentation` (make api-docs): the DocC plugin, nothing linked.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0")
    ],
    targets: [
        // System libraries (Debian packages named in `providers`).
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CGIF", pkgConfig: "libgif", providers: [.apt(["libgif-dev"])]),
        .systemLibrary(name: "CLibJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg62-turbo-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebpdemux", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CVPX", pkgConfig: "vpx", providers: [.apt(["libvpx-dev"])]),
        // glibc's malloc.h (mallopt), for the CLI's heap set-up before a large render.
        .systemLibrary(name: "CMalloc"),
        // libjpeg reports errors by longjmp, which Swift cannot catch: a tiny C shim owns that.
        .target(name: "CJPEG", dependencies: ["CLibJPEG"]),
        // rlottie (Debian's librlottie-dev), loaded with dlopen the first time a Lottie file
        // is read: it is a shared C++ library only, kept out of every other command's start-up.
        .target(name: "CLottie"),
        // FreeType and HarfBuzz (Debian's libfreetype6 and libharfbuzz0b), loaded with dlopen the
        // first time a font is opened: HarfBuzz has no static library, and no other command should
        // pay for either at start-up.
        .target(name: "CText"),

        .target(name: "AnimationCodec", dependencies: ["CZlib", "CDeflate", "CJPEG", "CWebP", "CVPX", "CLottie"]),
        // The pixel tools every layer above uses: premultiplied images, the resampler, backgrounds,
        // vector paths, coverage masks and the painter, rotated drawing.
        .target(name: "StickerPixels", dependencies: ["AnimationCodec"]),
        // Packs (folders, .xcstickers catalogs) and Apple's sticker rules.
        .target(name: "StickerPack", dependencies: ["AnimationCodec"]),
        // The headless sticker browser: layout, time, pixels out.
        // The terminal's settings put back by a signal handler of C statics (async-signal-safe).
        .target(name: "CTerminal"),
        .target(name: "StickerRenderer", dependencies: ["AnimationCodec", "StickerPixels", "StickerPack", "CTerminal"]),
        // The conversation: scripts, Messages' transcript layout, text set with FreeType and
        // HarfBuzz, stickers played by the renderer's players on its clock.
        .target(
            name: "StickerTranscript",
            dependencies: ["AnimationCodec", "StickerPixels", "StickerPack", "StickerRenderer", "CText"]),
        // `stickers fit`: any images to a catalog that passes every rule (scaling, exact and
        // lossy re-encoding, the icon set).
        .target(name: "StickerFit", dependencies: ["AnimationCodec", "StickerPixels", "StickerPack", "CMalloc"]),
        // `stickers review`: the whole verdict on a pack as one HTML page with its images.
        .target(
            name: "StickerReview",
            dependencies: [
                "AnimationCodec", "StickerPixels", "StickerPack", "StickerRenderer", "StickerTranscript", "StickerFit"
            ]),
        // `stickers bench`: the timing harness and the libpng / giflib baselines it compares with.
        .target(name: "CBaselines", dependencies: ["CPNG", "CGIF"]),
        .target(
            name: "StickerBench",
            dependencies: [
                "AnimationCodec", "StickerPixels", "StickerPack", "StickerRenderer", "StickerTranscript", "StickerFit",
                "CBaselines", "CZlib", "CDeflate"
            ]),
        .target(
            name: "StickerCLI",
            dependencies: [
                "AnimationCodec",
                "StickerPixels",
                "StickerPack",
                "StickerRenderer",
                "StickerTranscript",
                "StickerFit",
                "StickerReview",
                "StickerBench",
                "CMalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser")
            ]),
        .executableTarget(name: "stickers", dependencies: ["StickerCLI"]),

        // Finds the third-party conformance suites and skips, by name, the tests that need a missing one.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(
            name: "AnimationCodecTests",
            dependencies: ["AnimationCodec", "CPNG", "CGIF", "CZlib", "CLottie", "TestSupport"],
            // The Lottie tests call rlottie directly, linked as usual, as the oracle.
            linkerSettings: [.linkedLibrary("rlottie")]),
        .testTarget(name: "StickerPixelsTests", dependencies: ["StickerPixels", "AnimationCodec"]),
        .testTarget(name: "StickerPackTests", dependencies: ["StickerPack", "AnimationCodec"]),
        .testTarget(
            name: "StickerRendererTests",
            dependencies: [
                "StickerRenderer", "StickerTranscript", "StickerPixels", "StickerPack", "AnimationCodec", "TestSupport"
            ]),
        .testTarget(
            name: "StickerFitTests",
            dependencies: [
                "StickerFit", "StickerPixels", "StickerPack", "StickerRenderer", "AnimationCodec", "TestSupport"
            ]),
        .testTarget(
            name: "StickerReviewTests",
            dependencies: [
                "StickerReview", "StickerPixels", "StickerPack", "StickerRenderer", "AnimationCodec", "TestSupport"
            ],
            exclude: ["ReviewFixtures.py"]),
        .testTarget(
            name: "StickerCLITests",
            dependencies: ["StickerCLI", "StickerPixels", "StickerPack", "AnimationCodec", "TestSupport"])
    ]
)
