import AnimationCodec
import Foundation
import StickerPack
import Testing

/// The validator, one crafted file per rule: each gives exactly the expected finding and
/// nothing else. Sizes, thresholds and rules come from Apple's rules (docs/BROWSER-MODEL.md) and the README's table.
@Suite("Pack validation")
struct ValidatorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let fileName: String
        let bytes: @Sendable () -> [UInt8]
        var label: String?
        var gridSize: StickerSize? = .regular
        var thresholds = ValidationThresholds.default
        /// The expected findings as "severity rule"; empty means a clean file.
        let expected: [String]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "a good regular sticker", fileName: "ok.png", bytes: { TestImages.png(width: 408, height: 408) },
            expected: []),
        Case(
            name: "too large a side", fileName: "big.png", bytes: { TestImages.png(width: 620, height: 620) },
            expected: ["error pixel-size"]),
        Case(
            name: "too small a side", fileName: "small.png", bytes: { TestImages.png(width: 299, height: 299) },
            expected: ["error pixel-size"]),
        Case(
            name: "not square", fileName: "wide.png", bytes: { TestImages.png(width: 408, height: 300) },
            expected: ["warning square"]),
        Case(
            name: "not the grid size", fileName: "large.png", bytes: { TestImages.png(width: 618, height: 618) },
            expected: ["warning grid-size"]),
        Case(
            name: "a catalog that declares no grid size is shown regular (Xcode's default): 618 px is not its side",
            fileName: "large.png", bytes: { TestImages.png(width: 618, height: 618) },
            gridSize: nil, expected: ["warning grid-size"]),
        Case(
            name: "a catalog that declares no grid size takes 408 px as it is", fileName: "regular.png",
            bytes: { TestImages.png(width: 408, height: 408) }, gridSize: nil, expected: []),
        Case(
            name: "opaque", fileName: "opaque.png", bytes: { TestImages.png(width: 408, height: 408, opaque: true) },
            expected: ["warning transparency"]),
        Case(
            name: "499,999 bytes", fileName: "fits.png",
            bytes: { TestImages.padded(TestImages.png(width: 408, height: 408), to: 499_999) }, expected: []),
        Case(
            name: "500,000 bytes: over 500 KB, under 500 KiB", fileName: "kb.png",
            bytes: { TestImages.padded(TestImages.png(width: 408, height: 408), to: 500_000) },
            expected: ["warning file-size"]),
        Case(
            name: "511,999 bytes", fileName: "kb2.png",
            bytes: { TestImages.padded(TestImages.png(width: 408, height: 408), to: 511_999) },
            expected: ["warning file-size"]),
        Case(
            name: "512,000 bytes: over 500 KiB", fileName: "kib.png",
            bytes: { TestImages.padded(TestImages.png(width: 408, height: 408), to: 512_000) },
            expected: ["error file-size"]),
        Case(
            name: "WebP bytes", fileName: "sticker.webp",
            bytes: { Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8) + [UInt8](repeating: 0, count: 32) },
            expected: ["error format"]),
        Case(
            name: "PNG name, GIF-less garbage bytes", fileName: "fake.png",
            bytes: { Array("hello, world, not an image".utf8) },
            expected: ["error format"]),
        Case(
            name: "Apple CgBI PNG", fileName: "crushed.png",
            bytes: { TestImages.cgbi(TestImages.png(width: 408, height: 408)) },
            expected: ["warning cgbi"]),
        Case(
            name: "corrupt image data", fileName: "corrupt.png",
            bytes: {
                var png = TestImages.png(width: 408, height: 408)
                png.replaceSubrange(png.count - 12 - 20..<png.count - 12, with: [UInt8](repeating: 0xFF, count: 20))
                return png
            }, expected: ["error decodes"]),
        Case(
            name: "APNG with one frame", fileName: "one.png", bytes: { TestImages.apng(side: 408, delaysMs: [100]) },
            expected: ["warning lost-animation"]),
        Case(
            name: "APNG with a broken sequence", fileName: "broken.png",
            bytes: { TestImages.brokenSequence(TestImages.apng(side: 408, delaysMs: [100, 100])) },
            expected: ["warning lost-animation"]),
        Case(
            name: "named .apng but static", fileName: "flat.apng", bytes: { TestImages.png(width: 408, height: 408) },
            expected: ["warning lost-animation"]),
        // Animations: red and blue full frames, each with a transparent corner pixel.
        Case(
            name: "a 10 ms frame", fileName: "fast.png", bytes: { TestImages.apng(side: 408, delaysMs: [10, 1000]) },
            expected: ["warning short-delay"]),
        // Four 10 ms frames: Messages shows each for 100 ms, 10 fps, so they are short, not fast.
        Case(
            name: "four 10 ms frames", fileName: "tens.png",
            bytes: { TestImages.apng(side: 408, delaysMs: [10, 10, 10, 10]) }, expected: ["warning short-delay"]),
        // 61 frames of 10 ms: shown for 6.1 s, a long loop (and too many frames), not 0.61 s.
        Case(
            name: "61 frames of 10 ms", fileName: "long.png",
            bytes: { TestImages.apng(side: 300, delaysMs: Array(repeating: 10, count: 61)) }, gridSize: .small,
            expected: ["warning frame-count", "warning loop-duration", "warning short-delay"]),
        // 40 frames of 10.5 ms: Messages shows each for 100 ms, 10 fps over 4 s, so they are
        // short, not a 95 fps animation.
        Case(
            name: "40 frames of 10.5 ms", fileName: "half.png",
            bytes: {
                TestImages.apng(
                    side: 408, delays: Array(repeating: FrameDelay(numerator: 21, denominator: 2000), count: 40))
            },
            expected: ["warning short-delay"]),
        Case(
            name: "a 6 s loop", fileName: "slow.png", bytes: { TestImages.apng(side: 408, delaysMs: [3000, 3000]) },
            expected: ["warning loop-duration"]),
        // 120 frames of 1/30 s are a 4 s loop, within 4 s, though the delays summed in floating
        // point come to 4.000000000000007 s; one frame more is over.
        Case(
            name: "120 frames of 1/30 s", fileName: "four.png",
            bytes: {
                TestImages.apng(
                    side: 300, delays: Array(repeating: FrameDelay(numerator: 1, denominator: 30), count: 120))
            },
            gridSize: .small, expected: ["warning frame-count"]),
        Case(
            name: "121 frames of 1/30 s", fileName: "over.png",
            bytes: {
                TestImages.apng(
                    side: 300, delays: Array(repeating: FrameDelay(numerator: 1, denominator: 30), count: 121))
            },
            gridSize: .small, expected: ["warning frame-count", "warning loop-duration"]),
        Case(
            name: "61 frames", fileName: "many.png",
            bytes: { TestImages.apng(side: 300, delaysMs: Array(repeating: 40, count: 61)) },
            gridSize: .small, expected: ["warning frame-count"]),
        Case(
            name: "50 fps", fileName: "fps.png", bytes: { TestImages.apng(side: 408, delaysMs: [20, 20, 20]) },
            expected: ["warning frame-rate"]),
        Case(
            name: "30 fps in millisecond delays (30.03 fps)", fileName: "ms.png",
            bytes: { TestImages.apng(side: 408, delaysMs: [33, 33, 34, 33, 33, 34, 33, 33, 34, 33]) },
            expected: []),
        Case(
            name: "30 fps stored as 33 ms frames (30.3 fps)", fileName: "ms33.png",
            bytes: { TestImages.apng(side: 408, delaysMs: [33, 33, 33]) }, expected: []),
        Case(
            name: "31.25 fps", fileName: "fast.png",
            bytes: { TestImages.apng(side: 408, delaysMs: [32, 32, 32]) }, expected: ["warning frame-rate"]),
        Case(
            name: "costly to play", fileName: "cost.png", bytes: { TestImages.apng(side: 408, delaysMs: [100, 100]) },
            thresholds: {
                var t = ValidationThresholds.default; t.maxDecodedBytes = 1 << 20; return t
            }(),
            expected: ["warning playback-cost"]),
        Case(
            name: "150-character description", fileName: "ok.png", bytes: { TestImages.png(width: 408, height: 408) },
            label: String(repeating: "é", count: 150), expected: []),
        Case(
            name: "151-character description", fileName: "ok.png", bytes: { TestImages.png(width: 408, height: 408) },
            label: String(repeating: "a", count: 151), expected: ["error description-length"])
    ]

    @Test(
        "a format Messages does not take names `stickers fit` only when fit can read the file, and the summary names it"
    )
    func formatAdvice() throws {
        let folder = TestFolder()
        defer { folder.remove() }
        // Lottie documents: one whose out point is before its in point, and a plain valid one.
        folder.write(Array(#"{"v":"5.5.2","fr":60,"ip":10,"op":-5,"w":512,"h":512,"layers":[]}"#.utf8), "broken.json")
        folder.write(Array(#"{"v":"5.5.2","fr":30,"ip":0,"op":30,"w":64,"h":64,"layers":[]}"#.utf8), "good.json")
        let report = PackValidator().validate(try PackLoader.load(path: folder.url.path))
        let format = Dictionary(
            uniqueKeysWithValues: report.findings.filter { $0.rule == .format }.map { ($0.sticker ?? "", $0.message) })
        #expect(format.count == 2, "\(report.findings)")
        #expect(format["good"]?.hasSuffix("`stickers fit` converts it") == true, "\(format)")
        let broken = format["broken"] ?? ""
        #expect(broken.contains("cannot convert it either") && broken.contains("out point"), "\(broken)")
        #expect(report.stickers.map(\.format) == ["lottie", "lottie"])
    }

    @Test(
        "a format error names what the bytes are, whatever the file's name says: WebP named .png, Matroska named .webm")
    func formatNamesTheBytes() throws {
        let folder = TestFolder()
        defer { folder.remove() }
        // A RIFF WEBP header (the signature alone), and an EBML header whose DocType is "matroska".
        folder.write(
            Array("RIFF".utf8) + [26, 0, 0, 0] + Array("WEBPVP8X".utf8) + [UInt8](repeating: 0, count: 18), "x.png")
        folder.write([0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x82, 0x88] + Array("matroska".utf8), "clip.webm")
        // ISO media boxes: an ftyp of major brand isom (an MP4 video), heic and avif (images).
        for (brand, name) in [("isom", "movie.png"), ("heic", "photo.png"), ("avif", "still.png")] {
            folder.write([0, 0, 0, 24] + Array("ftyp\(brand)".utf8) + [0, 0, 2, 0] + Array("isommp41".utf8), name)
        }
        let report = PackValidator().validate(try PackLoader.load(path: folder.url.path))
        let format = Dictionary(
            uniqueKeysWithValues: report.findings.filter { $0.rule == .format }.map { ($0.sticker ?? "", $0.message) })
        #expect(
            format["x"]?.hasPrefix(
                "x.png is not PNG, APNG, GIF or JPEG but WebP (identified from its bytes; named .png)") == true,
            "\(format)")
        #expect(format["clip"]?.contains("but Matroska, not WebM") == true, "\(format)")
        #expect(format["clip"]?.contains("-c copy") == true, "\(format)")
        #expect(format["movie"]?.contains("but an MP4 or QuickTime video (brand \"isom\"") == true, "\(format)")
        #expect(format["movie"]?.contains("OUT.webm") == true, "\(format)")
        #expect(format["photo"]?.contains("but HEIF (") == true, "\(format)")
        #expect(format["still"]?.contains("but AVIF (") == true, "\(format)")
    }

    @Test(
        "what VoiceOver reads: a folder's sticker by the label fit makes from its name, a catalog's by its label, else its name; one that names a file is a voiceover-label warning"
    )
    func voiceOverLabel() throws {
        let folder = TestFolder()
        defer { folder.remove() }
        let png = TestImages.solidPNG(408, [255, 0, 0, 255])
        for name in ["01-bouncing-blob", "IMG_2041", "thumbsUpBig"] { folder.write(png, "pack/\(name).png") }
        let report = PackValidator().validate(try PackLoader.load(path: folder.path("pack")))
        #expect(report.stickers.map(\.label) == ["Bouncing blob", "IMG 2041", "Thumbs up big"])
        let warned = report.findings.filter { $0.rule == .voiceOverLabel }
        #expect(warned.map(\.sticker) == ["IMG_2041"], "\(warned)")
        #expect(warned.first?.severity == .warning)
        #expect(warned.first?.message.hasPrefix(#"VoiceOver reads "IMG 2041" (made from its file's name)"#) == true)

        // A catalog: a label that names a file, a sticker without one (Messages reads its
        // name), and a good label.
        for (name, label) in [("Artboard 1", "Artboard 1"), ("Screenshot 3", nil), ("Heart", "A beating heart")] {
            folder.write(png, "S.xcstickers/Sticker Pack.stickerpack/\(name).sticker/s.png")
            var properties: [String: Any] = ["filename": "s.png"]
            if let label { properties["accessibility-label"] = label }
            folder.writeJSON(
                ["info": ["version": 1, "author": "xcode"], "properties": properties],
                "S.xcstickers/Sticker Pack.stickerpack/\(name).sticker/Contents.json")
        }
        folder.writeJSON(
            ["info": ["version": 1, "author": "xcode"]], "S.xcstickers/Sticker Pack.stickerpack/Contents.json")
        folder.writeJSON(["info": ["version": 1, "author": "xcode"]], "S.xcstickers/Contents.json")
        let catalog = PackValidator().validate(try PackLoader.load(path: folder.path("S.xcstickers")))
        let byName = Dictionary(uniqueKeysWithValues: catalog.stickers.map { ($0.name, $0.label) })
        #expect(byName == ["Artboard 1": "Artboard 1", "Screenshot 3": "Screenshot 3", "Heart": "A beating heart"])
        let messages = catalog.findings.filter { $0.rule == .voiceOverLabel }.map(\.message)
        #expect(messages.count == 2, "\(catalog.findings)")
        #expect(messages.contains { $0.hasPrefix(#"VoiceOver reads "Artboard 1" (its label)"#) })
        #expect(
            messages.contains {
                $0.hasPrefix(#"VoiceOver reads "Screenshot 3" (its name: the catalog gives no label)"#)
            })
    }

    @Test("short delays are those Messages shows for 100 ms (under 11 ms), named in the message with the shortest")
    func shortDelayMessage() throws {
        let folder = TestFolder()
        defer { folder.remove() }
        // 0, 10 and 10.5 ms are under Apple's line; 11 and 500 ms are not.
        let delays = [(0, 1000), (10, 1000), (21, 2000), (11, 1000), (500, 1000)].map {
            FrameDelay(numerator: $0.0, denominator: $0.1)
        }
        folder.write(TestImages.apng(side: 408, delays: delays), "quick.png")
        let report = PackValidator().validate(try PackLoader.load(path: folder.url.path))
        let short = report.findings.filter { $0.rule == .shortDelay }
        #expect(
            short.map(\.message) == [
                "3 of 5 frames are under 11 ms (the shortest 0 ms); Messages shows those for 100 ms"
            ], "\(report.findings)")
        let summary = try #require(report.stickers.first)
        #expect(summary.loopMilliseconds == 531.5, "the summary keeps the stored delays (0 + 10 + 10.5 + 11 + 500)")
        #expect(summary.shownLoopMilliseconds == 811, "as Messages shows them: 100 + 100 + 100 + 11 + 500")
    }

    @Test(
        "a FIFO, a device or a link to nothing named like an image is named for what it is, not read as an empty image or left out"
    )
    func notRegularFiles() throws {
        let folder = TestFolder()
        defer { folder.remove() }
        folder.write(TestImages.png(width: 408, height: 408), "ok.png")
        try #require(mkfifo(folder.url.appendingPathComponent("pipe.png").path, 0o644) == 0)
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("zero.png").path, withDestinationPath: "/dev/zero")
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("gone.gif").path, withDestinationPath: "../art/gone.gif")
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("loop.png").path, withDestinationPath: "loop.png")
        let report = PackValidator().validate(try PackLoader.load(path: folder.url.path))
        let format = Dictionary(
            uniqueKeysWithValues: report.findings.filter { $0.rule == .format }.map { ($0.sticker ?? "", $0.message) })
        #expect(format["pipe"] == "pipe.png is a FIFO (named pipe), not an image file", "\(report.findings)")
        #expect(format["zero"] == "zero.png is a device, not an image file", "\(report.findings)")
        #expect(format["gone"] == "gone.gif is a link to a file that does not exist, not an image file")
        #expect(format["loop"] == "loop.png is a link that leads round in a loop, not an image file")
        #expect(!report.passed)
        #expect(format["ok"] == nil)
    }

    @Test("an empty file is named empty, not an unknown format, and the codec says so too")
    func emptyFile() throws {
        let folder = TestFolder()
        defer { folder.remove() }
        folder.write([], "blank.png")
        folder.write(TestImages.png(width: 408, height: 408), "ok.png")
        let report = PackValidator().validate(try PackLoader.load(path: folder.url.path))
        let format = report.findings.filter { $0.rule == .format }
        #expect(format.map(\.message) == ["blank.png is empty (0 bytes)"], "\(report.findings)")
        #expect(format.map(\.severity) == [.error])
        #expect(throws: CodecError.emptyFile) { try AnimationDecoder(bytes: []) }
    }

    @Test("Each crafted file gives exactly its finding", arguments: cases)
    func rule(_ testCase: Case) throws {
        let folder = TestFolder()
        defer { folder.remove() }
        let url = folder.write(testCase.bytes(), testCase.fileName)
        let sticker = Sticker(name: "s", accessibilityLabel: testCase.label, source: .file(url))
        let pack = StickerPack(name: "p", origin: .catalog, declaredGridSize: testCase.gridSize, stickers: [sticker])
        let report = PackValidator(thresholds: testCase.thresholds).validate(pack)
        let found = report.findings.map { "\($0.severity.rawValue) \($0.rule.rawValue)" }.sorted()
        #expect(found == testCase.expected.sorted(), "\(report.findings)")
        #expect(report.passed == !testCase.expected.contains { $0.hasPrefix("error") })
        #expect(report.findings.allSatisfy { $0.sticker == "s" })
    }

    @Test(
        "Each frame of a sequence is held to Apple's sizes, not the first alone",
        arguments: [
            ([408, 408, 408], [String]()),
            ([408, 700, 408], ["error pixel-size 2.png", "warning square"]),
            // A smaller frame leaves a ring of the canvas clear (white over white, red before):
            // at the sequence's rate that ring flashes, over more than a quarter of it.
            ([408, 408, 200], ["error pixel-size 3.png", "warning square", "warning flashing"]),
            ([700, 408], ["error pixel-size", "warning square", "warning flashing"]),
            // Frames of the canvas's size share its one finding.
            ([700, 700, 700], ["error pixel-size"])
        ])
    func sequenceFrameSizes(sides: [Int], expected: [String]) throws {
        let folder = TestFolder()
        defer { folder.remove() }
        let frames = sides.enumerated().map { folder.write(TestImages.png(width: $1, height: $1), "\($0 + 1).png") }
        let sticker = Sticker(name: "s", source: .sequence(StickerSequence(frames: frames)))
        let pack = StickerPack(name: "p", origin: .catalog, declaredGridSize: nil, stickers: [sticker])
        let report = PackValidator().validate(pack)
        // A frame's own finding names its file; the canvas's (the first frame's) does not.
        let found = report.findings.map { finding in
            let file = sides.indices.dropFirst().map { "\($0 + 1).png" }.first { finding.message.hasPrefix($0) }
            return "\(finding.severity.rawValue) \(finding.rule.rawValue)" + (file.map { " " + $0 } ?? "")
        }
        #expect(found.sorted() == expected.sorted(), "\(report.findings)")
    }

    @Test("Stickers that share a name, letter case aside, are one warning naming their files")
    func duplicateNames() throws {
        let folder = TestFolder()
        defer { folder.remove() }
        let png = TestImages.png(width: 408, height: 408)
        folder.write(png, "a.png")
        folder.write(TestImages.apng(side: 408, delaysMs: [100, 100]), "a.apng")
        folder.write(png, "B.png")
        folder.write(TestImages.apng(side: 408, delaysMs: [100, 100]), "b.apng")
        folder.write(png, "c d.png")
        folder.write(png, "c d .apng")
        folder.write(png, "c.png")
        let report = PackValidator().validate(try PackLoader.load(path: folder.url.path))
        let duplicates = report.findings.filter { $0.rule == .duplicateName }
        #expect(duplicates.count == 3, "\(report.findings)")
        #expect(duplicates.allSatisfy { $0.severity == .warning })
        #expect(duplicates.contains { $0.message.contains("a.apng, a.png") || $0.message.contains("a.png, a.apng") })
        #expect(duplicates.contains { $0.message.contains("B.png") && $0.message.contains("b.apng") })
        #expect(duplicates.contains { $0.message.contains("c d.png") && $0.message.contains("c d .apng") })
    }

    @Test("Mixed sizes and catalog workarounds are pack-level warnings")
    func packLevel() throws {
        let folder = TestFolder()
        defer { folder.remove() }
        let a = folder.write(TestImages.png(width: 408, height: 408), "a.png")
        let b = folder.write(TestImages.png(width: 618, height: 618), "b.png")
        let pack = StickerPack(
            name: "p", origin: .folder,
            stickers: [Sticker(name: "a", source: .file(a)), Sticker(name: "b", source: .file(b))],
            warnings: [PackWarning(path: "Contents.json", message: "\"grid-space\" read as \"grid-size\"")])
        let report = PackValidator().validate(pack)
        let found = report.findings.map { "\($0.severity.rawValue) \($0.rule.rawValue) \($0.sticker ?? "-")" }
        #expect(found.sorted() == ["warning catalog -", "warning mixed-sizes -"])
        #expect(report.findings.first { $0.rule == .mixedSizes }?.measured == "408x408, 618x618")
        #expect(report.stickers.map(\.width) == [408, 618])
    }

    @Test("Mixed sizes are listed smallest first, by width and then height, not as text")
    func mixedSizesInOrder() throws {
        let folder = TestFolder()
        defer { folder.remove() }
        let sizes = [(100, 100), (9, 9), (20, 40), (20, 20)]
        let stickers = sizes.enumerated().map { index, size in
            Sticker(
                name: "s\(index)",
                source: .file(folder.write(TestImages.png(width: size.0, height: size.1), "s\(index).png")))
        }
        let report = PackValidator().validate(StickerPack(name: "p", origin: .folder, stickers: stickers))
        let mixed = try #require(report.findings.first { $0.rule == .mixedSizes })
        #expect(mixed.measured == "9x9, 20x20, 20x40, 100x100")
        #expect(mixed.message.contains("4 sizes (9x9, 20x20, 20x40, 100x100)"), "\(mixed.message)")
    }

    @Test(
        "What a folder or catalog leaves out is a left-out warning naming its path from the pack's folder; a catalog workaround stays a catalog warning"
    )
    func leftOutFromThePack() throws {
        let folder = TestFolder()
        defer { folder.remove() }
        folder.write(TestImages.png(width: 408, height: 408), "a.png")
        folder.write(Array("to do".utf8), "notes.txt")
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("drafts"), withIntermediateDirectories: true)
        let report = PackValidator().validate(try PackLoader.load(path: folder.url.path))
        let found = report.findings.map { "\($0.severity.rawValue) \($0.rule.rawValue) \($0.message)" }
        #expect(
            found.sorted() == [
                "warning left-out drafts: ignored: a folder (a pack's stickers are the images in its own folder)",
                "warning left-out notes.txt: ignored: not an image file"
            ])

        // A catalog without a "stickers" list, and a sticker folder beside one it lists.
        let catalog = folder.url.appendingPathComponent("Mine.xcstickers/Sticker Pack.stickerpack")
        for sticker in ["a", "b"] {
            let url = catalog.appendingPathComponent("\(sticker).sticker")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            try Data(TestImages.png(width: 408, height: 408)).write(to: url.appendingPathComponent("\(sticker).png"))
            try Data(#"{"info":{"version":1,"author":"xcode"},"properties":{"filename":"\#(sticker).png"}}"#.utf8)
                .write(to: url.appendingPathComponent("Contents.json"))
        }
        try Data(
            #"{"info":{"version":1,"author":"xcode"},"properties":{"grid-space":"regular"},"stickers":[{"filename":"a.sticker"}]}"#
                .utf8
        )
        .write(to: catalog.appendingPathComponent("Contents.json"))
        let catalogReport = PackValidator().validate(
            try PackLoader.load(path: folder.url.appendingPathComponent("Mine.xcstickers").path))
        let catalogFound = catalogReport.findings.filter { $0.sticker == nil && $0.rule != .iconSet }.map {
            "\($0.rule.rawValue) \($0.message)"
        }
        #expect(
            catalogFound.sorted() == [
                "catalog Sticker Pack.stickerpack/Contents.json: \"grid-space\" read as \"grid-size\" (a misspelling found in Apple's samples)",
                "left-out Sticker Pack.stickerpack/b.sticker: ignored: a sticker folder the \"stickers\" list does not name"
            ], "\(catalogFound)")
    }

    @Test("A frame-count warning names the whole frame rate that keeps the loop within 60 frames")
    func frameCountAdvice() throws {
        let folder = TestFolder()
        defer { folder.remove() }
        // 90 frames of 33 ms: a loop of 2.97 s; 60 / 2.97 = 20.2 frames a second, so 20 fps.
        let url = folder.write(TestImages.apng(side: 300, delaysMs: Array(repeating: 33, count: 90), plays: 0), "a.png")
        let report = PackValidator().validate(
            StickerPack(name: "p", origin: .files, stickers: [Sticker(name: "a", source: .file(url))]))
        let finding = try #require(report.findings.first { $0.rule == .frameCount })
        #expect(
            finding.message
                == "90 frames; keep it within 60: `stickers fit --max-fps 20` keeps it within that (20 fps over its 2.97 s loop, the loop's length kept)"
        )
    }

    @Test("The summary measures what the file holds")
    func summary() throws {
        let folder = TestFolder()
        defer { folder.remove() }
        let bytes = TestImages.apng(side: 408, delaysMs: [100, 250, 50], plays: 2)
        let url = folder.write(bytes, "a.png")
        let report = PackValidator().validate(
            StickerPack(name: "p", origin: .files, stickers: [Sticker(name: "a", source: .file(url))]))
        let s = try #require(report.stickers.first)
        #expect(s.format == "apng" && s.fileBytes == bytes.count)
        #expect(s.frameCount == 3 && s.loopMilliseconds == 400 && s.plays == 2)
        #expect(s.decodedBytes == 3 * 408 * 408 * 4)
    }

    @Test("The JSON report carries counts and the verdict")
    func json() throws {
        let report = ValidationReport(
            pack: "p", gridSize: "regular", gridSizeDeclared: true, stickers: [],
            findings: [
                ValidationFinding(
                    .error, sticker: "s", rule: .pixelSize, message: "m", measured: "620x620 px", limit: "300-618 px"),
                ValidationFinding(.warning, sticker: nil, rule: .mixedSizes, message: "m")
            ])
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(report)) as! [String: Any]
        #expect(
            object["errorCount"] as? Int == 1 && object["warningCount"] as? Int == 1
                && object["passed"] as? Bool == false)
        let findings = object["findings"] as! [[String: Any]]
        #expect(findings[0]["rule"] as? String == "pixel-size" && findings[0]["severity"] as? String == "error")
    }
}
