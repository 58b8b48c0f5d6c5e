import AnimationCodec
import Foundation
import TestSupport
import Testing

/// giflib as a second GIF oracle over every GIF of the conformance suites. giflib parses each
/// file and decodes its LZW data (``GiflibOracle``); ``GIF89aCompositor``, written from the
/// spec, draws the canvases. Where giflib reads the whole file, each of our frames must equal
/// its canvas exactly. Where giflib refuses the file, the file is listed in
/// ``GiflibAgreement/refusals`` with what our decoder does instead (docs/formats.md), which is
/// checked, and the images giflib completed before its error must still equal our frames.
@Suite(
    "giflib oracle: conformance GIFs", .needs("gif-peterdn", "gif-pillow", "image-gif-tests", "wuffs-testdata"),
    .timeLimit(.minutes(3)))
struct GiflibConformanceTests {
    static let suites = ["gif-peterdn", "gif-pillow", "image-gif-tests", "wuffs-testdata"]

    /// Every GIF in the suites, in subfolders too, as "suite/path".
    static let files: [String] = suites.flatMap { suite in
        let root = Fixtures.conformance.appendingPathComponent(suite)
        let all = (FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String]) ?? []
        return all.filter { $0.hasSuffix(".gif") }.sorted().map { "\(suite)/\($0)" }
    }

    /// The GIFs each suite holds, subfolders included.
    static let expectedCounts = ["gif-peterdn": 13, "gif-pillow": 26, "image-gif-tests": 19, "wuffs-testdata": 27]

    @Test("every suite's GIFs are found: 85 in all")
    func filesArePresent() {
        for suite in Self.suites {
            let found = Self.files.filter { $0.hasPrefix(suite + "/") }.count
            #expect(found == Self.expectedCounts[suite], "\(suite): \(found) GIFs")
        }
        #expect(Self.files.count == 85)
        #expect(
            Fixtures.files("gif-peterdn", ext: "gif").count == 13,
            "the oracle's own check below runs over peterdn's GIFs")
    }

    @Test(
        "our frames equal giflib's, or giflib refuses the file and our documented behaviour applies", arguments: files)
    func agreement(path: String) throws {
        let bytes = [UInt8](try Data(contentsOf: Fixtures.conformance.appendingPathComponent(path)))
        try GiflibAgreement.check(bytes, name: path)
    }

    @Test(
        "the oracle itself: giflib's canvases equal peterdn's expected frames",
        arguments: Fixtures.files("gif-peterdn", ext: "gif"))
    func oracleMatchesPeterdn(name: String) throws {
        let slurp = try #require(GiflibOracle.slurp(Fixtures.bytes("gif-peterdn", name)))
        #expect(slurp.error == nil)
        let canvases = GIF89aCompositor.render(slurp.images, width: slurp.screenWidth, height: slurp.screenHeight)
        let stem = name.replacingOccurrences(of: ".gif", with: "")
        for (index, canvas) in canvases.enumerated() {
            let numbered = Fixtures.url("gif-peterdn", "frames/\(stem)-\(index).png")
            let url =
                FileManager.default.fileExists(atPath: numbered.path)
                ? numbered : Fixtures.url("gif-peterdn", "frames/\(stem).png")
            let expected = try #require(LibPNGOracle.decode(contentsOf: url), "\(url.lastPathComponent)")
            #expect(
                Reference.mismatches(canvas, Reference.premultiplied(straight: expected.rgba)) == 0,
                "\(name) frame \(index)")
        }
    }
}

/// The same comparison over the hostile inputs: the fuzz regressions and the GIF bombs of
/// Tests/Scripts/make_bombs.py.
@Suite("giflib oracle: hostile GIFs", .timeLimit(.minutes(3)))
struct GiflibHostileTests {
    static let fuzzRegressions = FuzzRegressionTests.inputs.filter { $0.hasSuffix(".gif") }

    @Test(
        "fuzz regressions: our frames equal giflib's, or our documented behaviour applies", arguments: fuzzRegressions)
    func fuzzRegression(name: String) throws {
        let bytes = [UInt8](try Data(contentsOf: FuzzRegressionTests.folder.appendingPathComponent(name)))
        try GiflibAgreement.check(bytes, name: "FuzzRegressions/\(name)")
    }

    /// make_bombs.py's GIFs by name, made once per run (the folder it writes is removed).
    static let bombs: [String: [UInt8]] = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "stickerkit-giflib-bombs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try? TestProcess.run([
            "python3", Fixtures.repoRoot.appendingPathComponent("Tests/Scripts/make_bombs.py").path, folder.path
        ])
        let names = ["many-frames.gif", "unterminated-lzw.gif", "huge-frame.gif"]
        return Dictionary(
            uniqueKeysWithValues: names.compactMap { name in
                (try? Data(contentsOf: folder.appendingPathComponent(name))).map { (name, [UInt8]($0)) }
            })
    }()

    /// endless-lzw.gif is left out: giflib clears its 4,096-entry code table at every clear
    /// code, so its 16 MiB of them take giflib about 20 s. unterminated-lzw.gif is the same
    /// stream, 300 KB long.
    @Test(
        "bombs: giflib refuses each and our documented behaviour applies",
        arguments: ["unterminated-lzw.gif", "huge-frame.gif"])
    func bomb(name: String) throws {
        let bytes = try #require(Self.bombs[name], "make_bombs.py wrote \(name)")
        try GiflibAgreement.check(bytes, name: "bombs/\(name)")
    }

    @Test("bombs: 20,000 frames exceed the default 10,000-frame limit; with it raised, every frame equals giflib's")
    func manyFrames() throws {
        let bytes = try #require(Self.bombs["many-frames.gif"], "make_bombs.py wrote many-frames.gif")
        #expect {
            _ = try AnimationDecoder(bytes: bytes)
        } throws: { error in
            if case .limitExceeded = error as? CodecError { return true }
            return false
        }
        var raised = DecodingLimits.default
        raised.maxFrames = 20_000
        try GiflibAgreement.check(bytes, name: "bombs/many-frames.gif", limits: raised)
    }
}

/// Our decode of a GIF against giflib's, and the files giflib refuses.
enum GiflibAgreement {
    /// What our decoder does with a file giflib refuses.
    enum Expected: Sendable {
        /// Decodes this many frames, with a warning of this kind (file or frame), or none at all.
        case frames(Int, warning: CodecWarning.Kind?)
        /// Refuses the file: a limit error.
        case limitExceeded
        /// Refuses the file: a format error.
        case malformed
        /// Refuses the file: no image in it.
        case noImageData
    }

    /// Every file giflib refuses (DGifSlurp fails), with our documented behaviour and the rule
    /// in docs/formats.md ("Behaviour, where formats leave room"; "Limits") that sets it.
    /// giflib refuses a file for any error anywhere in it: a short or invalid LZW stream, a
    /// missing trailer, an unknown block, an image with a zero side; browsers keep what
    /// decoded.
    static let refusals: [String: (expected: Expected, rule: String)] = [
        "gif-pillow/test_extents_transparency.gif":
            (
                .frames(1, warning: .other),
                "Unknown GIF block: reading stops there; the frames before it are kept, with a warning"
            ),
        "gif-pillow/zero_width.gif":
            (
                .malformed,
                "a screen with a zero side takes the first frame's extent; that frame is 0 wide, so there is no canvas"
            ),
        "image-gif-tests/crashtest/issue-117-out-of-range.gif":
            (.frames(1, warning: .invalidLZWCode), "GIF LZW: an invalid code: the pixels decoded so far, a warning"),
        "image-gif-tests/crashtest/issue-96-small-codesize-2.gif":
            (.limitExceeded, "Limits: a canvas of 143 Mpx is over the default 64 Mpx"),
        "image-gif-tests/crashtest/issue-96-small-codesize.gif":
            (.malformed, "a screen with a zero side takes the first frame's extent, which has a zero side too"),
        "image-gif-tests/stall/issue-101-infinite-empty-loop.gif":
            (.limitExceeded, "Limits: a canvas of 440 Mpx is over the default 64 Mpx"),
        "wuffs-testdata/artificial-gif/no-frames.gif":
            (.noImageData, "a GIF without an image holds nothing to show"),
        "wuffs-testdata/artificial-gif/pixel-data-none.gif":
            (
                .frames(1, warning: .missingPixelData),
                "GIF LZW: too little data: the rest of the frame draws nothing, a warning"
            ),
        "wuffs-testdata/artificial-gif/pixel-data-not-enough.gif":
            (
                .frames(1, warning: .missingPixelData),
                "GIF LZW: too little data: the rest of the frame draws nothing, a warning"
            ),
        "wuffs-testdata/artificial-gif/zero-width-frame.gif":
            (.frames(1, warning: nil), "GIF LZW: too much data is ignored: a 0-wide frame draws nothing, silently"),
        "wuffs-testdata/hippopotamus.interlaced.truncated.gif":
            (
                .frames(1, warning: .truncated),
                "Truncated GIF: the frames decoded so far (the last possibly partial), a warning"
            ),
        "FuzzRegressions/gif-huge-frame-rect-oom.gif":
            (.limitExceeded, "Limits: a 48350x4091 frame is over the default 64 Mpx"),
        "bombs/unterminated-lzw.gif":
            (
                .frames(1, warning: .missingPixelData),
                "Truncated GIF, and too little LZW data: the frame draws nothing, a warning"
            ),
        "bombs/huge-frame.gif":
            (.limitExceeded, "Limits: a 65535x65535 frame is over the default 64 Mpx")
    ]

    /// Decodes `bytes` with giflib and with our decoder (`limits`, one thread) and checks that
    /// they agree, or, when giflib refuses the file, that it is listed in ``refusals`` and our
    /// decoder does what the list says.
    static func check(_ bytes: [UInt8], name: String, limits: DecodingLimits = .default) throws {
        let slurp = try #require(GiflibOracle.slurp(bytes), "giflib reads \(name)'s logical screen")
        guard let error = slurp.error else {
            #expect(refusals[name] == nil, "giflib reads \(name) whole, but it is listed as refused")
            let decoder = try AnimationDecoder(bytes: bytes, limits: limits)
            #expect(
                decoder.info.width == slurp.screenWidth && decoder.info.height == slurp.screenHeight, "\(name) canvas")
            #expect(decoder.frameCount == slurp.images.count, "\(name) frame count")
            // Frame by frame, so a long animation's canvases are never all held at once.
            var compositor = GIF89aCompositor(width: slurp.screenWidth, height: slurp.screenHeight)
            var frames = decoder.makeFrameIterator()
            for image in slurp.images {
                guard let frame = try frames.next() else { break }
                #expect(
                    Reference.mismatches(frame.pixels, compositor.draw(image)) == 0, "\(name) frame \(frame.info.index)"
                )
            }
            return
        }
        let refusal = try #require(
            refusals[name], "giflib refuses \(name) (\(error)): list it with our documented behaviour")
        let outcome = Result { () throws(CodecError) -> (AnimationDecoder, [Frame]) in
            let decoder = try AnimationDecoder(bytes: bytes, limits: limits)
            return (decoder, try decoder.decodeAllFrames(threads: 1))
        }
        switch (refusal.expected, outcome) {
        case (.frames(let count, let warning), .success(let (decoder, frames))):
            #expect(frames.count == count, "\(name): \(refusal.rule)")
            let warnings = decoder.info.warnings.map(\.kind) + frames.flatMap(\.warnings).map(\.kind)
            if let warning {
                #expect(warnings.contains(warning), "\(name): \(refusal.rule); warnings \(warnings)")
            } else {
                #expect(warnings.isEmpty, "\(name): \(refusal.rule); warnings \(warnings)")
            }
            // The images giflib completed before its error are frames we must agree on. (The
            // canvas is made only here: a refused file's screen may be larger than any limit.)
            var compositor = GIF89aCompositor(width: slurp.screenWidth, height: slurp.screenHeight)
            for (frame, image) in zip(frames, slurp.images) {
                #expect(
                    Reference.mismatches(frame.pixels, compositor.draw(image)) == 0,
                    "\(name) frame \(frame.info.index), before giflib's error")
            }
        case (.limitExceeded, .failure(.limitExceeded)), (.malformed, .failure(.malformed)),
            (.noImageData, .failure(.noImageData)):
            break
        case (_, let other):
            Issue.record("\(name): expected \(refusal.expected) (\(refusal.rule)), got \(other)")
        }
    }
}
