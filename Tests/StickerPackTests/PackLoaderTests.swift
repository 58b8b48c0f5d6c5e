import AnimationCodec
import Foundation
import StickerPack
import Testing

/// Loading packs: folders in file-name order, `.xcstickers` catalogs as Apple documents them
/// (and as Apple's own samples misspell them), and every way a catalog can be broken.
@Suite("Pack loading")
struct PackLoaderTests {
    @Test("A folder lists its images in file-name order and skips other files")
    func folderOrder() throws {
        let folder = TestFolder()
        defer { folder.remove() }
        let png = TestImages.png(width: 300, height: 300)
        folder.write(png, "b.png")
        folder.write(png, "a.png")
        folder.write(png, "10.png")
        folder.write(Array("notes".utf8), "README.md")
        folder.write(png, ".hidden.png")
        folder.write(png, "no-extension")  // an image by its bytes
        let pack = try PackLoader.load(path: folder.url.path)
        #expect(pack.origin == .folder)
        #expect(pack.stickers.map(\.name) == ["10", "a", "b", "no-extension"])
        #expect(pack.declaredGridSize == nil && pack.gridSize(sides: []) == .regular)
        #expect(pack.warnings.count == 1 && pack.warnings[0].path.hasSuffix("README.md"))
    }

    @Test("A video left in a folder is named with how to convert it; a text file is only not an image")
    func videoBesideStickers() throws {
        let folder = TestFolder()
        defer { folder.remove() }
        folder.write(TestImages.png(width: 300, height: 300), "real.png")
        // An ISO media file's first box (ISO/IEC 14496-12): size, "ftyp", major brand "isom".
        folder.write([0, 0, 0, 0x18] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isomiso2".utf8), "movie.mp4")
        // Matroska's EBML header magic.
        folder.write([0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x86, 0x81, 0x01], "clip.mkv")
        folder.write(Array("MM notes".utf8), "notes.txt")
        // An MP4 audio file (brand "M4A ") is named as audio, not as a video to convert.
        folder.write([0, 0, 0, 0x18] + Array("ftypM4A ".utf8) + [0, 0, 2, 0] + Array("M4A isom".utf8), "memo.m4a")
        let pack = try PackLoader.load(path: folder.url.path)
        #expect(pack.stickers.map(\.name) == ["real"])
        let byFile = Dictionary(
            uniqueKeysWithValues: pack.warnings.map { (URL(fileURLWithPath: $0.path).lastPathComponent, $0.message) })
        #expect(
            byFile["movie.mp4"]?.hasPrefix("ignored: not a sticker format but an MP4 or QuickTime video") == true,
            "\(byFile)")
        #expect(byFile["movie.mp4"]?.contains("ffmpeg -i IN -c:v libvpx-vp9") == true, "\(byFile)")
        #expect(byFile["clip.mkv"]?.contains("Matroska, not WebM") == true, "\(byFile)")
        #expect(byFile["notes.txt"] == "ignored: not an image file", "\(byFile)")
        #expect(byFile["memo.m4a"] == "ignored: not a sticker format but MP4 audio (brand \"M4A \")", "\(byFile)")
    }

    @Test(
        "A folder's browser order is Finder's: letter case aside, numbers by their value (2 before 10), digits before letters"
    )
    func folderNaturalOrder() throws {
        let folder = TestFolder()
        defer { folder.remove() }
        let png = TestImages.png(width: 300, height: 300)
        for name in [
            "sticker10.png", "sticker2.png", "Banana.png", "apple.png", "sticker1.png", "b1.png", "b01.png",
            "Sticker3.png",
            "10.png", "9.png", "Éclair.png", "eclair.png"
        ] {
            folder.write(png, name)
        }
        let pack = try PackLoader.load(path: folder.url.path)
        // Worked out by hand from Finder's rules: 9 < 10; "b01" and "b1" are equal as numbers, and
        // ties go to the byte order ("0" before "1"); "b" before "banana" (a prefix first);
        // "Sticker3" between "sticker2" and "sticker10"; é after every unaccented letter.
        #expect(
            pack.stickers.map(\.name) == [
                "9", "10", "apple", "b01", "b1", "Banana", "eclair", "sticker1", "sticker2", "Sticker3", "sticker10",
                "Éclair"
            ])
    }

    @Test("A folder holding two catalogs and no images is not a pack, and the error names them")
    func twoCatalogs() throws {
        let folder = TestFolder()
        defer { folder.remove() }
        for name in ["One", "Two"] {
            folder.writeJSON(["info": ["version": 1, "author": "xcode"]], "\(name).xcstickers/Contents.json")
        }
        #expect {
            try PackLoader.load(path: folder.url.path)
        } throws: { error in
            "\(error)".contains("One.xcstickers, Two.xcstickers; name the one to use")
        }
    }

    @Test(
        "A folder's sub-folders and links to nothing are not read, each with a warning naming it; a link to nothing named as an image is a sticker (that cannot be read)"
    )
    func subfoldersAndBrokenLinks() throws {
        let folder = TestFolder()
        defer { folder.remove() }
        let png = TestImages.png(width: 300, height: 300)
        folder.write(png, "a.png")
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("animated"), withIntermediateDirectories: true)
        folder.write(png, "animated/b.png")
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("gone.png").path, withDestinationPath: "/nonexistent/gone.png")
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("notes.txt").path, withDestinationPath: "/nonexistent/notes.txt")
        let pack = try PackLoader.load(path: folder.url.path)
        #expect(pack.stickers.map(\.name) == ["a", "gone"])
        let warned = pack.warnings.map { URL(fileURLWithPath: $0.path).lastPathComponent }.sorted()
        #expect(warned == ["animated", "notes.txt"], "\(pack.warnings)")
        #expect(pack.warnings.contains { $0.message.contains("folder") })

        // With its images only in sub-folders, a folder is not a pack, and the error says why.
        let nested = TestFolder()
        defer { nested.remove() }
        try FileManager.default.createDirectory(
            at: nested.url.appendingPathComponent("stickers"), withIntermediateDirectories: true)
        nested.write(png, "stickers/a.png")
        #expect {
            try PackLoader.load(path: nested.url.path)
        } throws: { error in
            "\(error)".contains("not in sub-folders")
        }
    }

    @Test(
        "A link round in a loop is named as one; an image whose name is not UTF-8 fails the pack, named, another file is ignored"
    )
    func loopsAndNamesNotUTF8() throws {
        let folder = TestFolder()
        defer { folder.remove() }
        let png = TestImages.png(width: 300, height: 300)
        folder.write(png, "a.png")
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("loop.txt").path, withDestinationPath: "loop.txt")
        // "notes", the byte 0xFF (no UTF-8 sequence starts with it), ".txt".
        try Self.writeRawName(Array("notes".utf8) + [0xFF] + Array(".txt".utf8), bytes: Array("hi".utf8), in: folder)
        let pack = try PackLoader.load(path: folder.url.path)
        #expect(pack.stickers.map(\.name) == ["a"])
        #expect(
            pack.warnings.map(\.message).sorted() == [
                "ignored: a link that leads round in a loop", "ignored: its name is not UTF-8"
            ], "\(pack.warnings)")

        try Self.writeRawName(Array("b".utf8) + [0xFF] + Array("ad.png".utf8), bytes: png, in: folder)
        #expect {
            try PackLoader.load(path: folder.url.path)
        } throws: { error in
            "\(error)".contains("b\u{FFFD}ad.png: the file's name is not UTF-8")
        }
    }

    /// Writes `bytes` to a file in `folder` named by the raw bytes `name` (which need not be UTF-8).
    static func writeRawName(_ name: [UInt8], bytes: [UInt8], in folder: TestFolder) throws {
        let path = Array(folder.url.path.utf8) + [UInt8(ascii: "/")] + name + [0]
        let descriptor = path.withUnsafeBufferPointer {
            $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644) }
        }
        try #require(descriptor >= 0)
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
    }

    @Test("A Lottie document whose top-level keys come past the first 4,096 bytes is a sticker, by its bytes")
    func lateLottieKeys() throws {
        let folder = TestFolder()
        defer { folder.remove() }
        let padding = String(repeating: "a", count: 6000)
        let document =
            #"{"assets":[{"id":"pad","nm":"\#(padding)","layers":[]}],"ddd":0,"fr":30,"h":64,"ip":0,"layers":[],"nm":"s","op":30,"v":"5.5.2","w":64}"#
        folder.write(Array(document.utf8), "late.json")
        folder.write(Array(#"{"aaa":"\#(padding)","name":"pack","stickers":[1,2],"info":{}}"#.utf8), "other.json")
        let pack = try PackLoader.load(path: folder.url.path)
        #expect(pack.stickers.map(\.name) == ["late"])
        #expect(pack.warnings.map { URL(fileURLWithPath: $0.path).lastPathComponent } == ["other.json"])
    }

    @Test("An .xcstickers catalog: grid-size, sticker order, labels and a sequence's timing")
    func catalog() throws {
        let folder = TestFolder()
        defer { folder.remove() }
        let png = TestImages.png(width: 300, height: 300)
        folder.writeJSON(["info": ["author": "xcode", "version": 1]], "S.xcstickers/Contents.json")
        folder.writeJSON(
            [
                "info": ["author": "xcode", "version": 1], "properties": ["grid-size": "small"],
                "stickers": [["filename": "Zed.sticker"], ["filename": "Anim.stickersequence"]]
            ],
            "S.xcstickers/Sticker Pack.stickerpack/Contents.json")
        folder.writeJSON(
            ["properties": ["filename": "zed.png", "accessibility-label": "The letter Z"]],
            "S.xcstickers/Sticker Pack.stickerpack/Zed.sticker/Contents.json")
        folder.write(png, "S.xcstickers/Sticker Pack.stickerpack/Zed.sticker/zed.png")
        folder.writeJSON(
            [
                "properties": ["duration": 2, "duration-type": "fixed", "repetitions": 2],
                "frames": [["filename": "1.png"], ["filename": "2.png"], ["filename": "3.png"], ["filename": "4.png"]]
            ],
            "S.xcstickers/Sticker Pack.stickerpack/Anim.stickersequence/Contents.json")
        for i in 1...4 { folder.write(png, "S.xcstickers/Sticker Pack.stickerpack/Anim.stickersequence/\(i).png") }
        folder.write(png, "S.xcstickers/iMessage App Icon.stickersiconset/icon.png")

        let pack = try PackLoader.load(path: folder.path("S.xcstickers"))
        #expect(pack.origin == .catalog && pack.name == "S")
        #expect(pack.declaredGridSize == .small)
        #expect(pack.stickers.map(\.name) == ["Zed", "Anim"])  // the catalog's order, not the name order
        #expect(pack.stickers[0].localizedDescription == "The letter Z")
        #expect(pack.stickers[1].localizedDescription == "Anim")
        guard case .sequence(let sequence) = pack.stickers[1].source else { Issue.record("not a sequence"); return }
        #expect(sequence.frames.map(\.lastPathComponent) == ["1.png", "2.png", "3.png", "4.png"])
        #expect(sequence.frameSeconds == 0.5)  // fixed: 2 s for the 4-frame cycle
        #expect(sequence.plays == 3)  // repetitions are in addition to the first play
        #expect(pack.warnings.isEmpty)
        // A bare .stickerpack and the folder that holds the catalog load the same pack.
        #expect(
            try PackLoader.load(path: folder.path("S.xcstickers/Sticker Pack.stickerpack")).stickers.map(\.name) == [
                "Zed", "Anim"
            ])
        #expect(try PackLoader.load(path: folder.url.path).stickers.map(\.name) == ["Zed", "Anim"])
    }

    @Test(
        "a sequence's frames are held to the limits together, as one file's: their count, the bytes read and the bytes decoded"
    )
    func sequenceLimits() throws {
        let folder = TestFolder()
        defer { folder.remove() }
        let png = TestImages.png(width: 16, height: 16)
        folder.writeJSON(
            ["frames": (1...4).map { ["filename": "\($0).png"] }], "P.stickerpack/A.stickersequence/Contents.json")
        folder.writeJSON(["stickers": [["filename": "A.stickersequence"]]], "P.stickerpack/Contents.json")
        for i in 1...4 { folder.write(png, "P.stickerpack/A.stickersequence/\(i).png") }
        let sticker = try PackLoader.load(path: folder.path("P.stickerpack")).stickers[0]
        let sequence = folder.path("P.stickerpack/A.stickersequence")
        func limits(frames: Int = 100, fileBytes: Int = 1 << 20, decoded: Int = 1 << 20) -> DecodingLimits {
            DecodingLimits(
                maxSide: 1024, maxPixels: 1 << 20, maxFrames: frames, maxTotalDecodedBytes: decoded,
                maxFileBytes: fileBytes)
        }
        #expect(try StickerAnimation.load(sticker, limits: limits()).frameCount == 4)
        #expect(throws: PackError.codec(path: sequence, .limitExceeded(.frames(4, limit: 3)))) {
            try StickerAnimation.load(sticker, limits: limits(frames: 3))
        }
        // Each file is under the bytes allowed, the four together are not: refused at the third.
        let allowed = png.count * 5 / 2
        #expect(throws: PackError.codec(path: sequence, .limitExceeded(.fileBytes(png.count * 3, limit: allowed)))) {
            try StickerAnimation.load(sticker, limits: limits(fileBytes: allowed))
        }
        // Four frames of 16 x 16 decode to 4 x 1,024 bytes.
        #expect(throws: PackError.codec(path: sequence, .limitExceeded(.decodedBytes(4096, limit: 4095)))) {
            try StickerAnimation.load(sticker, limits: limits(decoded: 4095))
        }
    }

    @Test("Apple's sample typos (grid-space, repetions) are read, each with a warning; defaults fill gaps")
    func typos() throws {
        let folder = TestFolder()
        defer { folder.remove() }
        folder.writeJSON(
            ["properties": ["grid-space": "large"], "stickers": [["filename": "A.stickersequence"]]],
            "P.stickerpack/Contents.json")
        folder.writeJSON(
            ["properties": ["repetions": 1], "frames": [["filename": "f.png"]]],
            "P.stickerpack/A.stickersequence/Contents.json")
        folder.write(TestImages.png(width: 618, height: 618), "P.stickerpack/A.stickersequence/f.png")
        let pack = try PackLoader.load(path: folder.path("P.stickerpack"))
        #expect(pack.declaredGridSize == .large)
        guard case .sequence(let sequence) = pack.stickers[0].source else { Issue.record("not a sequence"); return }
        #expect(sequence.repetitions == 1 && sequence.plays == 2)
        #expect(sequence.durationType == .fps && sequence.duration == 15)  // Apple's sample defaults
        #expect(abs(sequence.frameSeconds - 1.0 / 15) < 1e-12)
        #expect(pack.warnings.count == 2)
        #expect(pack.warnings.contains { $0.message.contains("grid-space") })
        #expect(pack.warnings.contains { $0.message.contains("repetions") })
    }

    @Test(
        "Broken catalogs fail with the file and the reason",
        arguments: [
            ("not json", "{", "invalidContents"),
            ("bad grid size", #"{"properties":{"grid-size":"huge"},"stickers":[]}"#, "invalidContents"),
            ("missing sticker", #"{"stickers":[{"filename":"Gone.sticker"}]}"#, "missingFile"),
            ("escaping name", #"{"stickers":[{"filename":"../x.sticker"}]}"#, "invalidContents"),
            ("stickers not an array", #"{"stickers":{"filename":"A.sticker"}}"#, "invalidContents"),
            ("no stickers", #"{"stickers":[]}"#, "notAPack")
        ])
    func brokenCatalogs(_ name: String, _ contents: String, _ expected: String) throws {
        let folder = TestFolder()
        defer { folder.remove() }
        folder.write(Array(contents.utf8), "P.stickerpack/Contents.json")
        do {
            _ = try PackLoader.load(path: folder.path("P.stickerpack"))
            Issue.record("\(name): loaded")
        } catch {
            #expect(Mirror(reflecting: error).children.first?.label == expected, "\(name): \(error)")
        }
    }

    /// A copy of the repository's sample catalog (Heart, a sequence, then Star) in a new folder.
    static func sampleCatalogCopy() throws -> (folder: TestFolder, catalog: URL) {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let folder = TestFolder()
        let catalog = folder.url.appendingPathComponent("Sample.xcstickers")
        try FileManager.default.copyItem(at: root.appendingPathComponent("corpus/Sample.xcstickers"), to: catalog)
        return (folder, catalog)
    }

    @Test("A .stickersequence or .sticker named alone is a pack of that one sticker, not of its frames")
    func oneStickerFolder() throws {
        let (folder, catalog) = try Self.sampleCatalogCopy()
        defer { folder.remove() }
        let pack = catalog.appendingPathComponent("Sticker Pack.stickerpack")
        let heart = try PackLoader.load(path: pack.appendingPathComponent("Heart.stickersequence").path)
        #expect(heart.stickers.map(\.name) == ["Heart"] && heart.warnings.isEmpty)
        guard case .sequence(let sequence) = heart.stickers.first?.source else {
            Issue.record("Heart is a sequence")
            return
        }
        // Its Contents.json lists heart-01.png to heart-06.png at 8 fps.
        #expect(sequence.frames.map(\.lastPathComponent) == (1...6).map { "heart-0\($0).png" })
        #expect(sequence.duration == 8 && heart.stickers.first?.accessibilityLabel == "Beating heart")
        let star = try PackLoader.load(path: pack.appendingPathComponent("Star.sticker").path)
        #expect(
            star.stickers.map(\.name) == ["Star"] && star.stickers.first?.files.map(\.lastPathComponent) == ["star.png"]
        )
        // Its pack's Contents.json declares "grid-size": "regular": the lone sticker keeps it.
        #expect(star.declaredGridSize == .regular && heart.declaredGridSize == .regular)
    }

    @Test(
        "A file the catalog names that is there only in other letter case: that sticker's error, naming the file that is there; the other stickers are read"
    )
    func caseMismatch() throws {
        let (folder, catalog) = try Self.sampleCatalogCopy()
        defer { folder.remove() }
        let star = catalog.appendingPathComponent("Sticker Pack.stickerpack/Star.sticker")
        let file = try #require(
            try FileManager.default.contentsOfDirectory(atPath: star.path).first { $0 != "Contents.json" })
        try FileManager.default.moveItem(
            at: star.appendingPathComponent(file), to: star.appendingPathComponent(file.uppercased()))
        try Self.expectStarAloneFails(
            catalog,
            "Star: \(file): file named by the catalog is missing (\(file.uppercased()) is there: the names differ only in letter case, which this file system tells apart; rename one to match)"
        )
    }

    /// The catalog loads with both its stickers, and validating it gives Star alone one error,
    /// a `format` finding whose text is `message`; Heart has none.
    static func expectStarAloneFails(_ catalog: URL, _ message: String) throws {
        let pack = try PackLoader.load(path: catalog.path)
        #expect(pack.stickers.map(\.name) == ["Heart", "Star"])
        let errors = PackValidator().validate(pack).findings.filter { $0.severity == .error }
        #expect(errors.map(\.sticker) == ["Star"] && errors.map(\.rule) == [.format], "\(errors)")
        #expect(errors.map(\.description) == ["error [format] \(message)"], "\(errors)")
    }

    @Test("A file the catalog names that is a link to itself: named as a link round in a loop")
    func selfLink() throws {
        let (folder, catalog) = try Self.sampleCatalogCopy()
        defer { folder.remove() }
        let star = catalog.appendingPathComponent("Sticker Pack.stickerpack/Star.sticker")
        let file = try #require(
            try FileManager.default.contentsOfDirectory(atPath: star.path).first { $0 != "Contents.json" })
        try FileManager.default.removeItem(at: star.appendingPathComponent(file))
        try FileManager.default.createSymbolicLink(
            atPath: star.appendingPathComponent(file).path, withDestinationPath: file)
        try Self.expectStarAloneFails(
            catalog, "Star: \(file) is a link that leads round in a loop, not an image file")
    }

    @Test(
        "A sticker's folder name: '/', ':', line breaks, tabs, controls and bidirectional controls become '-', spaces trimmed, a hidden or empty name prefixed",
        arguments: [
            ("a/b:c", "a-b-c"), ("nl\nx", "nl-x"), ("cr\r\nx", "cr-x"), ("tab\tx", "tab-x"),
            ("esc\u{1B}[31mred", "esc-[31mred"),
            ("evil\u{202E}gnp.exe", "evil-gnp.exe"), ("c1\u{9B}x", "c1-x"), ("  spaced  ", "spaced"),
            (".hidden", "Sticker.hidden"),
            ("", "Sticker"), ("café ☕️", "café ☕️")
        ])
    func folderNames(proposed: String, expected: String) {
        #expect(CatalogWriter.folderName(proposed) == expected)
    }

    @Test("A catalog written for names too long for a file name: cut to 200 bytes between characters, loaded back")
    func longNames() throws {
        let folder = TestFolder()
        defer { folder.remove() }
        // 250 ASCII bytes, and 80 four-byte emoji (320 bytes), whose cut must not split one.
        let names = [String(repeating: "x", count: 250), String(repeating: "\u{1F600}", count: 80)]
        let catalog = folder.url.appendingPathComponent("Long.xcstickers")
        let png = TestImages.png(width: 408, height: 408)
        let entries = names.map { name in
            let folderName = CatalogWriter.folderName(name)
            return CatalogWriter.Entry(
                name: folderName, accessibilityLabel: "long", content: .file(name: folderName + ".png", bytes: png))
        }
        #expect(entries.map(\.name.utf8.count) == [200, 200])
        // One character of 251 bytes (a letter and 125 two-byte combining accents): cut between
        // its scalars, never to nothing.
        let accented = "a" + String(repeating: "\u{301}", count: 125)
        #expect(accented.count == 1 && accented.utf8.count == 251)
        #expect(CatalogWriter.folderName(accented).unicodeScalars.count == 100, "a and 99 accents: 199 bytes")
        #expect(entries.map(\.name) == [String(repeating: "x", count: 200), String(repeating: "\u{1F600}", count: 50)])
        try CatalogWriter.write(stickers: entries, gridSize: .regular, icons: [], to: catalog)
        #expect(try PackLoader.load(path: catalog.path).stickers.map(\.name) == entries.map(\.name))
    }

    @Test("A folder read as its one catalog names each image beside it as ignored")
    func imagesBesideCatalog() throws {
        let (folder, _) = try Self.sampleCatalogCopy()
        defer { folder.remove() }
        folder.write(TestImages.png(width: 300, height: 300), "blue.png")
        folder.write(Array("notes".utf8), "README.md")
        let pack = try PackLoader.load(path: folder.url.path)
        #expect(pack.stickers.map(\.name).sorted() == ["Heart", "Star"])
        #expect(pack.warnings.count == 1, "\(pack.warnings)")
        #expect(pack.warnings.first?.path.hasSuffix("blue.png") == true)
        #expect(pack.warnings.first?.message.contains("beside Sample.xcstickers") == true)
    }

    @Test(
        "A folder holding the output the command writes: read as its images when the output was made from them, else as the output"
    )
    func outputInTheFolder() throws {
        let (folder, catalog) = try Self.sampleCatalogCopy()
        defer { folder.remove() }
        // Only the output: read as it (fit run again over its own catalog).
        #expect(
            try PackLoader.load(path: folder.url.path, outputs: [catalog]).stickers.map(\.name) == ["Heart", "Star"])
        // The output beside an icon it was not made from: still the catalog, the icon named.
        folder.write(TestImages.png(width: 300, height: 300), "icon.png")
        let beside = try PackLoader.load(path: folder.url.path, outputs: [catalog])
        #expect(beside.stickers.map(\.name) == ["Heart", "Star"])
        #expect(beside.warnings.map(\.kind) == [.leftOut] && beside.warnings.first?.path.hasSuffix("icon.png") == true)
        // Images named like every sticker of the output (another letter case too), and one
        // more: the images, the output left out without a word.
        for name in ["heart.png", "Star.gif", "Zebra.png"] {
            folder.write(TestImages.png(width: 300, height: 300), name)
        }
        let images = try PackLoader.load(path: folder.url.path, outputs: [catalog])
        #expect(images.stickers.map(\.name) == ["heart", "icon", "Star", "Zebra"] && images.warnings.isEmpty)
        // The same folder with another output: read as the catalog it holds, as without one.
        let other = try PackLoader.load(
            path: folder.url.path, outputs: [folder.url.appendingPathComponent("New.xcstickers")])
        #expect(other.stickers.map(\.name) == ["Heart", "Star"] && other.warnings.count == 4)

        // A catalog whose stickers fit named apart ("Wave" and "wave 2" for Wave.png and
        // wave.gif) or cut to 200 bytes is one made from the images beside it.
        let renamed = TestFolder()
        defer { renamed.remove() }
        let png = TestImages.png(width: 408, height: 408)
        let long = String(repeating: "x", count: 250)
        for name in ["Wave.png", "wave.gif", long + ".png"] { renamed.write(png, name) }
        let made = renamed.url.appendingPathComponent("Stickers.xcstickers")
        try CatalogWriter.write(
            stickers: ["Wave", "wave 2", String(repeating: "x", count: 200)].map {
                CatalogWriter.Entry(name: $0, accessibilityLabel: $0, content: .file(name: $0 + ".png", bytes: png))
            }, gridSize: .regular, icons: [], to: made)
        let again = try PackLoader.load(path: renamed.url.path, outputs: [made])
        // (Finder's order: "wave.gif" before "Wave.png".)
        #expect(again.stickers.map(\.name) == ["wave", "Wave", long] && again.warnings.isEmpty, "\(again.warnings)")
        // "wave 9" is no name fit gives three images (its counter skips names taken, so it
        // reaches at most the count of images): the catalog is read as it is.
        let pack = made.appendingPathComponent(CatalogWriter.packFolderName)
        try FileManager.default.moveItem(
            at: pack.appendingPathComponent("wave 2.sticker"), to: pack.appendingPathComponent("wave 9.sticker"))
        let contents = pack.appendingPathComponent("Contents.json")
        try Data(String(contentsOf: contents, encoding: .utf8).replacingOccurrences(of: "wave 2", with: "wave 9").utf8)
            .write(to: contents)
        let asCatalog = try PackLoader.load(path: renamed.url.path, outputs: [made])
        #expect(asCatalog.stickers.map(\.name) == ["Wave", "wave 9", String(repeating: "x", count: 200)])
        #expect(asCatalog.warnings.map(\.kind) == [.leftOut, .leftOut, .leftOut], "\(asCatalog.warnings)")

        // A review written into a folder of images is no sub-folder of the pack.
        let images2 = TestFolder()
        defer { images2.remove() }
        images2.write(TestImages.png(width: 300, height: 300), "a.png")
        let review = images2.url.appendingPathComponent("review")
        try FileManager.default.createDirectory(at: review, withIntermediateDirectories: true)
        #expect(try PackLoader.load(path: images2.url.path).warnings.map(\.kind) == [.leftOut])
        #expect(try PackLoader.load(path: images2.url.path, outputs: [review]).warnings.isEmpty)
    }

    @Test("A catalog whose own Contents.json is not JSON fails, naming that file")
    func brokenCatalogContents() throws {
        let (folder, catalog) = try Self.sampleCatalogCopy()
        defer { folder.remove() }
        try Data(#"{ "info": "#.utf8).write(to: catalog.appendingPathComponent("Contents.json"))
        #expect {
            try PackLoader.load(path: catalog.path)
        } throws: { error in
            guard case PackError.invalidContents(let path, let reason) = error else { return false }
            return path == catalog.appendingPathComponent("Contents.json").path && reason == "not JSON"
        }
    }

    @Test("A sticker listed twice is read once, and a sticker folder the list leaves out is named, each with a warning")
    func listedTwiceAndUnlisted() throws {
        let (folder, catalog) = try Self.sampleCatalogCopy()
        defer { folder.remove() }
        let pack = catalog.appendingPathComponent("Sticker Pack.stickerpack")
        folder.writeJSON(
            [
                "info": ["version": 1, "author": "xcode"], "properties": ["grid-size": "regular"],
                "stickers": [
                    ["filename": "Star.sticker"], ["filename": "Heart.stickersequence"], ["filename": "Star.sticker"]
                ]
            ], "Sample.xcstickers/Sticker Pack.stickerpack/Contents.json")
        try FileManager.default.copyItem(
            at: pack.appendingPathComponent("Star.sticker"), to: pack.appendingPathComponent("Extra.sticker"))
        let loaded = try PackLoader.load(path: catalog.path)
        #expect(loaded.stickers.map(\.name) == ["Star", "Heart"])
        let messages = loaded.warnings.map(\.message)
        #expect(messages.contains("Star.sticker is listed more than once in \"stickers\"; read once"), "\(messages)")
        #expect(
            loaded.warnings.contains {
                $0.path.hasSuffix("Extra.sticker") && $0.message.contains("the \"stickers\" list does not name")
            }, "\(messages)")
    }

    @Test("Oversized files are refused before they are read: a 5 MiB Contents.json, a sticker over the file bound")
    func oversized() throws {
        let folder = TestFolder()
        defer { folder.remove() }
        let contents = folder.write([], "P.stickerpack/Contents.json")
        #expect(truncate(contents.path, 5 << 20) == 0)  // sparse: no 5 MiB is written or read
        #expect {
            try PackLoader.load(path: folder.path("P.stickerpack"))
        } throws: { error in
            guard case .invalidContents(_, let reason) = error as? PackError else { return false }
            return reason.hasPrefix("\(5 << 20) bytes")
        }
        let image = folder.write(TestImages.png(width: 300, height: 300), "big.png")
        #expect(truncate(image.path, 3 << 20) == 0)
        var small = DecodingLimits.default
        small.maxFileBytes = 1 << 20
        #expect(throws: PackError.fileTooLarge(path: image.path, bytes: 3 << 20, limit: 1 << 20)) {
            try StickerAnimation.load(Sticker(name: "big", source: .file(image)), limits: small)
        }
    }

    @Test("A missing path and an empty folder are errors")
    func missing() {
        #expect(throws: PackError.notFound(path: "/no/such/pack")) { try PackLoader.load(path: "/no/such/pack") }
        let folder = TestFolder()
        defer { folder.remove() }
        #expect(throws: PackError.self) { try PackLoader.load(path: folder.url.path) }
    }

    @Test("A sequence's timing: fps gives 1/fps per frame, fixed shares the cycle")
    func sequenceTiming() {
        let frames = (0..<5).map { URL(fileURLWithPath: "/f\($0).png") }
        #expect(StickerSequence(frames: frames, duration: 20, durationType: .fps).frameSeconds == 0.05)
        #expect(StickerSequence(frames: frames, duration: 1, durationType: .fixed).frameSeconds == 0.2)
        #expect(StickerSequence(frames: frames, repetitions: 0).plays == 0)
        #expect(StickerSequence(frames: frames, repetitions: 4).plays == 5)
    }

    @Test("A sequence plays as one animation: frames in order at the sequence's rate")
    func sequenceAnimation() throws {
        let folder = TestFolder()
        defer { folder.remove() }
        let red = TestImages.solidPNG(300, [255, 0, 0, 255])
        let blue = TestImages.solidPNG(300, [0, 0, 255, 255])
        let urls = [folder.write(red, "1.png"), folder.write(blue, "2.png"), folder.write(red, "3.png")]
        let sticker = Sticker(
            name: "seq",
            source: .sequence(StickerSequence(frames: urls, duration: 10, durationType: .fps, repetitions: 1)))
        let animation = try StickerAnimation.load(sticker)
        #expect(animation.frameCount == 3 && animation.width == 300 && animation.plays == 2)
        #expect(animation.delays.allSatisfy { $0.milliseconds == 100 })
        var colours: [[UInt8]] = []
        try animation.forEachFrame { _, frame in colours.append(Array(frame.pixels[0..<4])) }
        #expect(colours == [[255, 0, 0, 255], [0, 0, 255, 255], [255, 0, 0, 255]])
        #expect(Array(try animation.frame(at: 1).pixels[0..<4]) == [0, 0, 255, 255])
    }
}
