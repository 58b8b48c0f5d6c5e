import AnimationCodec
import Foundation
import StickerFit
import StickerPack
import StickerPixels
import StickerRenderer
import Testing

/// A whole pack through ``PackFitter`` and into a catalog: sequences stay sequences with their
/// timing, the catalog and the iMessage app icon set are laid out as Xcode writes them, and the
/// report names each sticker's steps with figures that match the files written. Expectations
/// are hand-written (Contents.json trees, Apple's icon sizes) or read by Pillow.
@Suite("fit: catalogs, sequences and the report", .timeLimit(.minutes(3)))
struct CatalogTests {
    /// The fixture catalog fitted and written as `stickers fit` does.
    struct Written {
        var fixture: CatalogFixture
        var fitted: [FittedSticker]
        var size: StickerSize
        var catalog: URL
        var pack: URL { catalog.appendingPathComponent("Sticker Pack.stickerpack") }
        var iconSet: URL { catalog.appendingPathComponent("iMessage App Icon.stickersiconset") }
    }

    static let blinkLabel = "Blinking colours"

    /// Loads ``CatalogFixture``, fits it with the pack's own grid size, draws the icons from
    /// the first sticker on white, and writes the catalog.
    static func fitAndWrite(in folder: URL) throws -> Written {
        let fixture = try CatalogFixture.make(in: folder)
        let pack = try PackLoader.load(path: fixture.catalog.path)
        let fitter = PackFitter(options: FitFixtures.quickOptions())
        let size = fitter.size(for: pack)
        let fitted = fitter.fit(pack.stickers, size: size, labels: ["Blink": blinkLabel])
        let first = try #require(fitted.first?.files.first)
        let icons = IconSetMaker.icons(
            from: .sticker(RGBAImage(try AnimationDecoder(bytes: first.bytes).frame(at: 0))),
            background: try #require(Background(named: "white")), threads: 2)
        let catalog = folder.appendingPathComponent("Fitted.xcstickers")
        try CatalogWriter.write(stickers: PackFitter.catalogEntries(fitted), gridSize: size, icons: icons, to: catalog)
        return Written(fixture: fixture, fitted: fitted, size: size, catalog: catalog)
    }

    static var info: NSDictionary { ["author": "xcode", "version": 1] }

    @Test("a sticker sequence stays a sequence of every still, with its timing and label")
    func sequence() throws {
        let folder = try FitFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let written = try Self.fitAndWrite(in: folder)
        let beat = try #require(written.fitted.first { $0.name == "Beat" })
        guard case .sequence(let frames, let timing) = beat.output else {
            Issue.record("Beat is not a sequence: \(String(describing: beat.output))"); return
        }
        #expect(
            frames.map(\.name) == ["Beat-01.png", "Beat-02.png", "Beat-03.png"], "every still, the repeated one too")
        #expect(
            timing.duration == CatalogFixture.beatDuration && timing.durationType == .fixed
                && timing.repetitions == CatalogFixture.beatRepetitions)

        let folderOut = written.pack.appendingPathComponent("Beat.stickersequence")
        let expected: NSDictionary = [
            "info": Self.info,
            "properties": [
                "accessibility-label": "A beating shape", "duration": 0.9, "duration-type": "fixed", "repetitions": 2
            ],
            "frames": [["filename": "Beat-01.png"], ["filename": "Beat-02.png"], ["filename": "Beat-03.png"]]
        ]
        #expect(try CatalogFixture.contents(folderOut) == expected)

        // Each still: 150 x 100 scaled to 300 x 200 (100 * 300 / 150), 50 rows of padding above and below.
        let stills = CatalogFixture.beatStills()
        for (index, still) in stills.enumerated() {
            let shown = try Pillow.decode(folderOut.appendingPathComponent(String(format: "Beat-%02d.png", index + 1)))
            #expect(shown.width == 300 && shown.height == 300 && shown.frames.count == 1)
            let pixels = try #require(shown.frames.first)
            let scaled = ReferenceLanczos.resize(
                still, width: CatalogFixture.beatWidth, height: CatalogFixture.beatHeight, to: 300, 200)
            #expect(
                pixels[0..<50 * 300 * 4].allSatisfy { $0 == 0 }
                    && pixels[250 * 300 * 4..<300 * 300 * 4].allSatisfy { $0 == 0 }, "frame \(index + 1)")
            #expect(
                PixelDifference(Array(pixels[50 * 300 * 4..<250 * 300 * 4]), scaled).maxError <= 1, "frame \(index + 1)"
            )
        }

        let reloaded = try PackLoader.load(path: written.catalog.path)
        let again = try #require(reloaded.stickers.first { $0.name == "Beat" })
        guard case .sequence(let read) = again.source else { Issue.record("read back as a file"); return }
        #expect(read.frames.count == 3 && read.duration == 0.9 && read.durationType == .fixed && read.repetitions == 2)
    }

    /// Apple's iMessage app icon sizes (points x scale), worked out by hand: name, idiom and pixels.
    static let icons: [(size: String, idiom: String, scale: String, width: Int, height: Int)] = [
        ("29x29", "iphone", "2x", 58, 58), ("29x29", "iphone", "3x", 87, 87),
        ("60x45", "iphone", "2x", 120, 90), ("60x45", "iphone", "3x", 180, 135),
        ("29x29", "ipad", "2x", 58, 58), ("67x50", "ipad", "2x", 134, 100), ("74x55", "ipad", "2x", 148, 110),
        ("27x20", "universal", "2x", 54, 40), ("27x20", "universal", "3x", 81, 60),
        ("32x24", "universal", "2x", 64, 48), ("32x24", "universal", "3x", 96, 72),
        ("1024x768", "ios-marketing", "1x", 1024, 768), ("1024x1024", "ios-marketing", "1x", 1024, 1024)
    ]

    @Test("the catalog's Contents.json files and the 13 opaque icons of exact sizes")
    func catalogLayout() throws {
        let folder = try FitFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let written = try Self.fitAndWrite(in: folder)
        #expect(written.size == .small, "the pack's grid-size")

        #expect(try CatalogFixture.contents(written.catalog) == ["info": Self.info])
        let pack: NSDictionary = [
            "info": Self.info,
            "properties": ["grid-size": "small"],
            "stickers": [
                ["filename": "Wide.sticker"], ["filename": "Blink.sticker"], ["filename": "Beat.stickersequence"],
                ["filename": "Photo.sticker"]
            ]
        ]
        #expect(try CatalogFixture.contents(written.pack) == pack)
        for (name, file, label) in [
            ("Wide", "Wide.png", "A wide shape"), ("Blink", "Blink.png", Self.blinkLabel),
            ("Photo", "Photo.jpg", "Photo")
        ] {
            let sticker = written.pack.appendingPathComponent(name + ".sticker")
            let expected: NSDictionary = [
                "info": Self.info, "properties": ["filename": file, "accessibility-label": label]
            ]
            #expect(try CatalogFixture.contents(sticker) == expected, "\(name)")
            #expect(Set(try FileManager.default.contentsOfDirectory(atPath: sticker.path)) == ["Contents.json", file])
        }

        let images = try #require(try CatalogFixture.contents(written.iconSet)["images"] as? [[String: Any]])
        #expect(try CatalogFixture.contents(written.iconSet)["info"] as? NSDictionary == Self.info)
        #expect(images.count == 13)
        var files: [URL] = []
        for icon in Self.icons {
            let entry = images.first {
                $0["size"] as? String == icon.size && $0["idiom"] as? String == icon.idiom
                    && $0["scale"] as? String == icon.scale
            }
            let name = try #require(entry?["filename"] as? String, "\(icon.size)@\(icon.scale) \(icon.idiom)")
            // Xcode's own set: the Messages sizes and the Messages App Store icon say platform ios.
            let platform: String? = icon.idiom == "universal" || icon.size == "1024x768" ? "ios" : nil
            #expect(entry?["platform"] as? String == platform, "\(icon.size)@\(icon.scale) \(icon.idiom)'s platform")
            files.append(written.iconSet.appendingPathComponent(name))
        }
        let facts = try Pillow.facts(files)
        for (icon, fact) in zip(Self.icons, facts) {
            #expect(
                fact.width == icon.width && fact.height == icon.height,
                "\(icon.size)@\(icon.scale) \(icon.idiom): \(fact.width)x\(fact.height)")
            #expect(
                fact.frames == 1 && fact.minAlpha == 255, "\(icon.size)@\(icon.scale) \(icon.idiom) is one opaque image"
            )
            // The App Store refuses an icon with an alpha channel (ITMS-90717), opaque or not.
            #expect(!fact.hasAlpha, "\(icon.size)@\(icon.scale) \(icon.idiom) stores no alpha")
        }
        #expect(
            Set(try FileManager.default.contentsOfDirectory(atPath: written.iconSet.path))
                == Set(files.map(\.lastPathComponent) + ["Contents.json"]))
    }

    @Test("the report names each sticker's steps, and its bytes and frames are the files'")
    func report() throws {
        let folder = try FitFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let written = try Self.fitAndWrite(in: folder)
        let validation = PackValidator().validate(try PackLoader.load(path: written.catalog.path))
        #expect(validation.passed, "\(validation.findings)")
        let report = FitReport(
            catalog: "Fitted.xcstickers", size: written.size, maxBytes: 500_000, stickers: written.fitted,
            validation: validation, seconds: 0)
        // Read as a user reads it: the JSON.
        let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(report)) as? [String: Any])
        let entries = try #require(json["stickers"] as? [[String: Any]])
        #expect(entries.compactMap { $0["name"] as? String } == CatalogFixture.names)

        let steps = [
            "Wide": ["scale", "pad", "encode"], "Blink": ["merge-repeats", "encode"],
            "Beat": ["scale", "pad", "encode"], "Photo": ["keep-original"]
        ]
        // Frames written, counted by hand: Blink's on, on, off, off, off, on, off plays as on, off, on, off.
        let framesAfter = ["Wide": 1, "Blink": 4, "Beat": 3, "Photo": 1]
        var outputs: [(name: String, entry: [String: Any], files: [URL])] = []
        for entry in entries {
            let name = try #require(entry["name"] as? String)
            #expect(entry["fitted"] as? Bool == true && entry["lossy"] as? Bool == false, "\(name)")
            #expect(
                (entry["steps"] as? [[String: Any]])?.compactMap { $0["kind"] as? String } == steps[name], "\(name)")

            let inputs = try #require(written.fixture.inputs[name])
            #expect(
                entry["bytesBefore"] as? Int == (try inputs.reduce(0) { $0 + (try FitFixtures.fileSize($1)) }),
                "\(name)")
            #expect(entry["framesBefore"] as? Int == CatalogFixture.inputFrames[name], "\(name)")

            let stickerFolder = try #require(
                try FileManager.default.contentsOfDirectory(at: written.pack, includingPropertiesForKeys: nil)
                    .first { $0.deletingPathExtension().lastPathComponent == name })
            let files = try FileManager.default.contentsOfDirectory(atPath: stickerFolder.path).filter {
                $0 != "Contents.json"
            }.sorted()
            #expect((entry["files"] as? [String])?.sorted() == files, "\(name)")
            let urls = files.map { stickerFolder.appendingPathComponent($0) }
            #expect(
                entry["bytesAfter"] as? Int == (try urls.reduce(0) { $0 + (try FitFixtures.fileSize($1)) }), "\(name)")
            outputs.append((name, entry, urls))
        }
        // Frames as Pillow counts them in the files (one Pillow run for all).
        var facts = try Pillow.facts(outputs.flatMap(\.files))[...]
        for (name, entry, urls) in outputs {
            let frames = facts.prefix(urls.count).reduce(0) { $0 + $1.frames }
            facts = facts.dropFirst(urls.count)
            #expect(
                frames == framesAfter[name] && entry["framesAfter"] as? Int == frames,
                "\(name): \(frames) frame(s) written")
        }
        let photo = try #require(written.fixture.inputs["Photo"]?.first)
        #expect(
            try FitFixtures.bytes(written.pack.appendingPathComponent("Photo.sticker/Photo.jpg"))
                == FitFixtures.bytes(photo),
            "the kept JPEG is written byte for byte")
    }
}
