import Foundation
import TestSupport
import Testing

@testable import AnimationCodec

/// The GIF suites: peterdn's expected canvases per frame, wuffs' exact indexes and expected
/// renderings, image-gif's CRC32s of each frame's own pixels, and the edge-case files.
@Suite("GIF conformance", .needs("gif-peterdn", "wuffs-testdata", "image-gif-tests"))
struct GIFSuiteTests {
    // MARK: peterdn: composited canvas after every frame

    static let peterdn = Fixtures.files("gif-peterdn", ext: "gif")

    /// The tests below are parameterised over what is found on disk, and a missing folder or
    /// list is found empty: counted here, so an empty suite fails instead of passing unchecked.
    @Test("the suites are all there: peterdn's 13 GIFs, image-gif's 12 checksums", .tags(.conformance))
    func suitesArePresent() {
        #expect(Self.peterdn.count == 13, "\(Self.peterdn)")
        #expect(Self.imageGIFResults.count == 12, "\(Self.imageGIFResults.map(\.0))")
    }

    @Test("peterdn: every frame equals the expected canvas", .tags(.conformance), arguments: peterdn)
    func peterdnFrames(name: String) throws {
        let stem = name.replacingOccurrences(of: ".gif", with: "")
        let (info, frames) = try Fixtures.decodeAll(Fixtures.bytes("gif-peterdn", name))
        for frame in frames {
            let single = Fixtures.url("gif-peterdn", "frames/\(stem).png")
            let numbered = Fixtures.url("gif-peterdn", "frames/\(stem)-\(frame.info.index).png")
            let url = FileManager.default.fileExists(atPath: numbered.path) ? numbered : single
            let expected = try #require(LibPNGOracle.decode(contentsOf: url), "\(url.lastPathComponent)")
            #expect(expected.width == info.width && expected.height == info.height, "\(name) canvas size")
            #expect(
                Reference.mismatches(frame.pixels, Reference.premultiplied(straight: expected.rgba)) == 0,
                "\(name) frame \(frame.info.index)")
        }
    }

    @Test("peterdn: loop counts and delays as stored")
    func peterdnMetadata() throws {
        let loop = try AnimationDecoder(bytes: Fixtures.bytes("gif-peterdn", "animated_loop.gif"))
        #expect(loop.info.loopCount == 0 && loop.info.plays == 0)
        let noLoop = try AnimationDecoder(bytes: Fixtures.bytes("gif-peterdn", "animated_noloop.gif"))
        #expect(noLoop.info.loopCount == nil && noLoop.info.plays == 1)
        // Pillow reads the Graphic Control Extensions' delays as 1000, 1000, 100 and 1000 ms.
        let variable = try AnimationDecoder(bytes: Fixtures.bytes("gif-peterdn", "animated_loop_variable_delay.gif"))
        #expect(variable.info.frames.map(\.delay) == [100, 100, 10, 100].map(FrameDelay.centiseconds))
        #expect(variable.info.frames.map(\.delay.milliseconds) == [1000, 1000, 100, 1000])
    }

    // MARK: wuffs: exact LZW indexes and expected renderings

    /// The LZW indexes of image `index`, decoded alone.
    static func indexes(of bytes: [UInt8], image index: Int) throws -> [UInt8] {
        let file = try GIFFile(parsing: bytes, limits: .default)
        let image = file.images[index]
        var out = [UInt8](repeating: 0, count: image.info.rect.width * image.info.rect.height)
        let data = image.dataRanges.flatMap { bytes[$0] }  // the sub-blocks, joined
        let outcome = data.withUnsafeBytes { input in
            out.withUnsafeMutableBufferPointer {
                LZWDecoder.decode(input, minimumCodeSize: Int(image.minimumCodeSize), into: $0)
            }
        }
        #expect(outcome == .complete)
        // De-interlace so the result is in display order, as the .indexes files are.
        guard image.info.isInterlaced else { return out }
        var display = out
        let width = image.info.rect.width
        var rows: [Int] = []
        GIFImageDecoder.forEachDisplayRow(height: image.info.rect.height, interlaced: true) {
            rows.append($0); return true
        }
        for (row, y) in rows.enumerated() {
            display.replaceSubrange((y * width)..<((y + 1) * width), with: out[(row * width)..<((row + 1) * width)])
        }
        return display
    }

    @Test(
        "wuffs: bricks GIFs decode to the exact indexes", .tags(.conformance),
        arguments: ["bricks-dither", "bricks-gray", "bricks-nodither"])
    func bricksIndexes(name: String) throws {
        let bytes = try Fixtures.bytes("wuffs-testdata", "\(name).gif")
        let expected = try Fixtures.bytes("wuffs-testdata", "\(name).indexes")
        #expect(try Self.indexes(of: bytes, image: 0) == expected)
    }

    @Test("wuffs: bricks palettes match the premultiplied BGRA dumps", arguments: ["bricks-dither", "bricks-nodither"])
    func bricksPalette(name: String) throws {
        let file = try GIFFile(parsing: Fixtures.bytes("wuffs-testdata", "\(name).gif"), limits: .default)
        let dump = try Fixtures.bytes("wuffs-testdata", "\(name).palette")
        let ours = GIFImageDecoder.premultipliedPalette(
            file.images[0].palette, transparentIndex: file.images[0].transparentIndex)
        for entry in 0..<(file.images[0].palette.count / 3) {
            let v = ours[entry]
            let bgra = [UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF), UInt8(v >> 24)]
            #expect(Array(dump[(4 * entry)..<(4 * entry + 4)]) == bgra, "entry \(entry)")
        }
    }

    @Test("wuffs: muybridge frames 0-14 decode to the exact indexes", .tags(.conformance), arguments: 0..<15)
    func muybridgeIndexes(frame: Int) throws {
        let bytes = try Fixtures.bytes("wuffs-testdata", "muybridge.gif")
        let name =
            "muybridge-frame-" + String(repeating: "0", count: 3 - String(frame).count) + String(frame) + ".indexes"
        #expect(try Self.indexes(of: bytes, image: frame) == Fixtures.bytes("wuffs-testdata", name))
    }

    @Test("wuffs: pjw-thumbnail renders as its reference PNG", .tags(.conformance))
    func wuffsRendering() throws {
        let frame = try AnimationDecoder(bytes: Fixtures.bytes("wuffs-testdata", "pjw-thumbnail.gif")).frame(at: 0)
        let expected = try #require(
            LibPNGOracle.decode(contentsOf: Fixtures.url("wuffs-testdata", "pjw-thumbnail.png")))
        #expect(expected.width == frame.width && expected.height == frame.height)
        #expect(Reference.mismatches(frame.pixels, Reference.premultiplied(straight: expected.rgba)) == 0)
    }

    @Test("wuffs: the interlaced hippopotamus equals the regular one; the truncated one keeps its decoded rows")
    func hippopotamus() throws {
        let regular = try AnimationDecoder(bytes: Fixtures.bytes("wuffs-testdata", "hippopotamus.regular.gif")).frame(
            at: 0)
        let interlaced = try AnimationDecoder(bytes: Fixtures.bytes("wuffs-testdata", "hippopotamus.interlaced.gif"))
            .frame(at: 0)
        #expect(regular.pixels == interlaced.pixels)
        let truncated = try AnimationDecoder(
            bytes: Fixtures.bytes("wuffs-testdata", "hippopotamus.interlaced.truncated.gif"))
        #expect(truncated.info.warnings.contains { $0.kind == .truncated })
        let partial = try truncated.frame(at: 0)
        #expect(partial.warnings.contains { $0.kind == .missingPixelData })
        // Rows decoded before the cut (the first interlace pass: rows 0, 8, 16, 24) match the full image.
        let rowBytes = regular.width * 4
        for y in stride(from: 0, to: regular.height, by: 8) {
            #expect(
                partial.pixels[(y * rowBytes)..<((y + 1) * rowBytes)]
                    == regular.pixels[(y * rowBytes)..<((y + 1) * rowBytes)], "row \(y)")
        }
        // Rows never reached stay transparent.
        #expect(partial.pixels.suffix(rowBytes).allSatisfy { $0 == 0 })
    }

    // MARK: image-gif: CRC32 of every frame's own RGBA

    static let imageGIFResults: [(String, UInt32)] = {
        guard let text = try? String(contentsOf: Fixtures.url("image-gif-tests", "results.txt"), encoding: .utf8) else {
            return []
        }
        return text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: ":")
            guard parts.count == 2, let crc = UInt32(parts[1].trimmingCharacters(in: .whitespaces)) else { return nil }
            return (String(parts[0]).replacingOccurrences(of: "tests/", with: ""), crc)
        }
    }()

    /// image-gif's RGBA for one frame: the palette colour of every index, alpha 0 for the
    /// transparent index (its RGB kept, straight alpha), built from our indexes.
    static func imageGIFRGBA(_ file: GIFFile, image index: Int, bytes: [UInt8]) throws -> [UInt8] {
        let image = file.images[index]
        let indexes = try Self.indexes(of: bytes, image: index)
        var rgba: [UInt8] = []
        rgba.reserveCapacity(indexes.count * 4)
        for i in indexes {
            let entry = Int(i)
            let rgb =
                3 * entry + 2 < image.palette.count ? Array(image.palette[(3 * entry)...(3 * entry + 2)]) : [0, 0, 0]
            rgba += rgb + [image.transparentIndex == i ? 0 : 255]
        }
        return rgba
    }

    @Test(
        "image-gif: CRC32 over each frame's own pixels, and our premultiplied layers agree",
        .tags(.conformance), arguments: imageGIFResults)
    func imageGIFChecksums(path: String, crc: UInt32) throws {
        let bytes = try Fixtures.bytes("image-gif-tests", path)
        let decoder = try AnimationDecoder(bytes: bytes)
        let file = try GIFFile(parsing: bytes, limits: .default)
        var all: [UInt8] = []
        for index in 0..<decoder.frameCount {
            let straight = try Self.imageGIFRGBA(file, image: index, bytes: bytes)
            all += straight
            #expect(
                try decoder.decodeLayer(index).pixels == Reference.premultiplied(straight: straight), "frame \(index)")
        }
        #expect(Reference.crc32(all) == crc)
    }

    /// image-gif's crash, regression and stall files, each with its outcome worked out from its
    /// blocks (the regression files' pixels are compared with Pillow's in ``hostileFilePixels``).
    static let hostileFiles: [(String, DecodeOutcome)] = [
        // A 256 x 513 image with LZW minimum code size 0 (it draws nothing), then a block
        // starting 0x00 at byte 541, where reading stops with a warning.
        ("crashtest/issue-117-out-of-range.gif", DecodeOutcome(frameCount: 1, warnings: [.other], framesDecoded: 1)),
        // A logical screen of 11390 x 12595 = 143,457,050 pixels, over the 64 Mpx limit.
        ("crashtest/issue-96-small-codesize-2.gif", .failed(.limitExceeded)),
        // A 185 x 0 screen takes the first image's extent, 12337 x 0: nothing can be shown.
        ("crashtest/issue-96-small-codesize.gif", .failed(.malformed(.gif))),
        // An 8 x 8 (or 1 x 1) image that decodes whole: one frame, no warning.
        ("regression/issue-208-block-type-beta.gif", DecodeOutcome(frameCount: 1, framesDecoded: 1)),
        ("regression/issue-208-block-type.gif", DecodeOutcome(frameCount: 1, framesDecoded: 1)),
        ("regression/issue-209-extension-block-type.gif", DecodeOutcome(frameCount: 1, framesDecoded: 1)),
        // A logical screen of 6727 x 65351 = 439,616,177 pixels, over the 64 Mpx limit.
        ("stall/issue-101-infinite-empty-loop.gif", .failed(.limitExceeded))
    ]

    @Test(
        "image-gif: crash, regression and stall files end in their stated outcome, quickly", .timeLimit(.minutes(3)),
        arguments: hostileFiles)
    func hostileFile(path: String, expected: DecodeOutcome) throws {
        let bytes = try Fixtures.bytes("image-gif-tests", path)
        var drawn = 0
        let (outcome, _) = DecodeOutcome.of(bytes) { _, frame in drawn += frame.pixels.filter { $0 != 0 }.count }
        #expect(outcome == expected)
        if path.hasPrefix("crashtest/issue-117") { #expect(drawn == 0, "a frame with LZW code size 0 draws nothing") }
    }

    @Test(
        "image-gif: the regression files decode to Pillow's pixels", .timeLimit(.minutes(3)),
        arguments: hostileFiles.map(\.0).filter { $0.hasPrefix("regression/") })
    func hostileFilePixels(path: String) throws {
        let frames = try AnimationDecoder(bytes: Fixtures.bytes("image-gif-tests", path)).decodeAllFrames(threads: 1)
        let pillow = try ExternalReference.pillow.decode(Fixtures.url("image-gif-tests", path))
        #expect(frames.map(\.pixels) == pillow.frames)
    }
}
