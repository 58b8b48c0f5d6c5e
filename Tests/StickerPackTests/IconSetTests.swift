import AnimationCodec
import Foundation
import StickerPack
import Testing

/// The catalog's iMessage app icon set, checked by `validate`: every size Apple's asset
/// catalog reference lists for Messages icons, each a PNG of points x scale pixels, and an
/// opaque pair of marketing icons, each entry under the idiom and platform Xcode's own set
/// gives it. The sets are built here; the sizes are Apple's table, the platforms Xcode's.
@Suite("Icon set validation")
struct IconSetTests {
    typealias Slot = (size: String, idiom: String, scale: Int, pixels: (Int, Int), platform: String?)

    /// Apple's list, written out by hand: (points, idiom, scale, pixels, platform as Xcode's
    /// template set writes it).
    static let slots: [Slot] = [
        ("29x29", "iphone", 2, (58, 58), nil), ("29x29", "iphone", 3, (87, 87), nil),
        ("60x45", "iphone", 2, (120, 90), nil), ("60x45", "iphone", 3, (180, 135), nil),
        ("29x29", "ipad", 2, (58, 58), nil), ("67x50", "ipad", 2, (134, 100), nil),
        ("74x55", "ipad", 2, (148, 110), nil),
        ("27x20", "universal", 2, (54, 40), "ios"), ("27x20", "universal", 3, (81, 60), "ios"),
        ("32x24", "universal", 2, (64, 48), "ios"), ("32x24", "universal", 3, (96, 72), "ios"),
        ("1024x768", "ios-marketing", 1, (1024, 768), "ios"), ("1024x1024", "ios-marketing", 1, (1024, 1024), nil)
    ]

    /// A catalog with one good sticker and, unless `icons` is nil, an icon set of those slots
    /// (each an opaque PNG of its pixel size, `override` replacing a file's bytes by name).
    static func catalog(icons: [Slot]? = slots, override: [String: [UInt8]] = [:]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "icons-\(UUID().uuidString)/Test.xcstickers")
        let pack = root.appendingPathComponent("Sticker Pack.stickerpack")
        let sticker = pack.appendingPathComponent("Good.sticker")
        try FileManager.default.createDirectory(at: sticker, withIntermediateDirectories: true)
        func json(_ object: Any, _ folder: URL) throws {
            try JSONSerialization.data(withJSONObject: object).write(to: folder.appendingPathComponent("Contents.json"))
        }
        try json(["info": ["author": "xcode", "version": 1]], root)
        try json(["properties": ["grid-size": "regular"], "stickers": [["filename": "Good.sticker"]]], pack)
        try json(["properties": ["filename": "good.png"]], sticker)
        try Data(TestImages.png(width: 408, height: 408)).write(to: sticker.appendingPathComponent("good.png"))
        guard let icons else { return root }
        let set = root.appendingPathComponent("iMessage App Icon.stickersiconset")
        try FileManager.default.createDirectory(at: set, withIntermediateDirectories: true)
        var images: [[String: String]] = []
        for slot in icons {
            let name = "\(slot.size)@\(slot.scale)x-\(slot.idiom).png"
            let bytes = override[name] ?? TestImages.png(width: slot.pixels.0, height: slot.pixels.1, opaque: true)
            try Data(bytes).write(to: set.appendingPathComponent(name))
            var entry = ["size": slot.size, "idiom": slot.idiom, "scale": "\(slot.scale)x", "filename": name]
            if let platform = slot.platform { entry["platform"] = platform }
            images.append(entry)
        }
        try json(["images": images], set)
        return root
    }

    static func iconFindings(_ catalog: URL) throws -> [String] {
        defer { try? FileManager.default.removeItem(at: catalog.deletingLastPathComponent()) }
        let report = PackValidator().validate(try PackLoader.load(path: catalog.path))
        return report.findings.filter { $0.rule == .iconSet }.map { "\($0.severity.rawValue): \($0.message)" }
    }

    @Test("a complete set of opaque PNGs of the right sizes passes")
    func complete() throws {
        #expect(try Self.iconFindings(Self.catalog()) == [])
    }

    @Test("a catalog without an icon set is an error")
    func noSet() throws {
        let findings = try Self.iconFindings(Self.catalog(icons: nil))
        #expect(
            findings.count == 1 && findings[0].hasPrefix("error: the catalog has no iMessage app icon set"),
            "\(findings)")
    }

    @Test("a missing size is an error naming it")
    func missingSize() throws {
        let findings = try Self.iconFindings(
            Self.catalog(icons: Self.slots.filter { !($0.size == "60x45" && $0.scale == 3) }))
        #expect(findings == ["error: iMessage App Icon.stickersiconset: no icon for 60x45@3x (iphone)"])
    }

    @Test("a wrong pixel size, a file that is not a PNG and a transparent marketing icon are errors")
    func brokenFiles() throws {
        let findings = try Self.iconFindings(
            Self.catalog(override: [
                "60x45@2x-iphone.png": TestImages.png(width: 58, height: 58, opaque: true),
                "29x29@3x-iphone.png": Array("GIF89a not really".utf8),
                "1024x1024@1x-ios-marketing.png": TestImages.png(width: 1024, height: 1024, opaque: false),
                "1024x768@1x-ios-marketing.png": TestImages.png(width: 1024, height: 768, opaque: false)
            ]))
        let set = "iMessage App Icon.stickersiconset"
        #expect(
            findings.sorted() == [
                "error: \(set)/1024x1024@1x-ios-marketing.png (1024x1024@1x (ios-marketing)): has transparent pixels; the App Store's 1024x1024 icon must be opaque",
                "error: \(set)/1024x768@1x-ios-marketing.png (1024x768@1x (ios-marketing)): has transparent pixels; the App Store's 1024x768 icon must be opaque",
                "error: \(set)/29x29@3x-iphone.png (29x29@3x (iphone)): not a PNG",
                "error: \(set)/60x45@2x-iphone.png (60x45@2x (iphone)): 58x58 px, must be 120x90 px"
            ], "\(findings)")
    }

    @Test("an opaque marketing icon stored with alpha (RGBA, or RGB with a tRNS key) is an error (ITMS-90717)")
    func marketingIconAlphaChannel() throws {
        let rgba = PNGEncoder.encode(
            premultiplied: TestImages.canvas(1024, 1024, opaque: true), width: 1024, height: 1024,
            options: .init(dropsOpaqueAlpha: false))
        // An RGB file whose tRNS key is a colour no pixel has (black; the pixels are red).
        let rgb = TestImages.png(width: 1024, height: 768, opaque: true)
        #expect(rgb[25] == 2, "RGB, colour type 2")
        let keyed = Array(rgb[..<33]) + TestImages.chunk("tRNS", [0, 0, 0, 0, 0, 0]) + Array(rgb[33...])
        let findings = try Self.iconFindings(
            Self.catalog(override: [
                "1024x1024@1x-ios-marketing.png": rgba, "1024x768@1x-ios-marketing.png": keyed
            ]))
        let set = "iMessage App Icon.stickersiconset"
        let fix =
            "though every pixel is opaque; the App Store refuses an icon with an alpha channel (ITMS-90717): save it as RGB"
        #expect(
            findings.sorted() == [
                "error: \(set)/1024x1024@1x-ios-marketing.png (1024x1024@1x (ios-marketing)): has an alpha channel (PNG colour type 6), \(fix)",
                "error: \(set)/1024x768@1x-ios-marketing.png (1024x768@1x (ios-marketing)): has a tRNS chunk (transparency), \(fix)"
            ], "\(findings)")
    }

    @Test("two entries for one icon are an error naming the slot")
    func duplicateEntry() throws {
        let catalog = try Self.catalog()
        let set = catalog.appendingPathComponent("iMessage App Icon.stickersiconset/Contents.json")
        var contents = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: set)) as? [String: Any])
        var images = try #require(contents["images"] as? [[String: Any]])
        images.append(try #require(images.first { $0["size"] as? String == "60x45" && $0["scale"] as? String == "3x" }))
        contents["images"] = images
        try JSONSerialization.data(withJSONObject: contents).write(to: set)
        #expect(
            try Self.iconFindings(catalog) == [
                "error: iMessage App Icon.stickersiconset: 2 entries for 60x45@3x (iphone); Xcode takes one an icon and warns of the others (remove all but one)"
            ])
    }

    @Test("an icon under the wrong idiom is an error naming the idiom it must have (ITMS-90649)")
    func wrongIdiom() throws {
        let icons = Self.slots.map { slot in
            slot.size == "60x45" && slot.scale == 2 ? (slot.size, "ipad", slot.scale, slot.pixels, slot.platform) : slot
        }
        let findings = try Self.iconFindings(Self.catalog(icons: icons))
        #expect(
            findings == [
                "error: iMessage App Icon.stickersiconset: the 60x45@2x icon is filed under idiom \"ipad\"; it must be \"iphone\" (ITMS-90649)"
            ], "\(findings)")
    }

    @Test("a Messages icon without platform ios, or with another, is an error")
    func missingPlatform() throws {
        let icons = Self.slots.map { slot -> Slot in
            switch (slot.size, slot.scale) {
            case ("27x20", 3): return (slot.size, slot.idiom, slot.scale, slot.pixels, nil)
            case ("1024x768", _): return (slot.size, slot.idiom, slot.scale, slot.pixels, "watchos")
            default: return slot
            }
        }
        let findings = try Self.iconFindings(Self.catalog(icons: icons))
        let set = "iMessage App Icon.stickersiconset"
        #expect(
            findings.sorted() == [
                "error: \(set): the 1024x768@1x (ios-marketing) entry has \"platform\": \"watchos\"; it must say \"platform\": \"ios\" or App Store Connect drops the Messages icons (ITMS-90649)",
                "error: \(set): the 27x20@3x (universal) entry has no \"platform\"; it must say \"platform\": \"ios\" or App Store Connect drops the Messages icons (ITMS-90649)"
            ], "\(findings)")
    }

    @Test("the sample catalog's icon set is complete")
    func sample() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let report = PackValidator().validate(
            try PackLoader.load(path: root.appendingPathComponent("corpus/Sample.xcstickers").path))
        #expect(report.findings.filter { $0.rule == .iconSet }.isEmpty, "\(report.findings)")
    }
}
