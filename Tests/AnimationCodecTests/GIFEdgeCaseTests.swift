import Foundation
import TestSupport
import Testing

@testable import AnimationCodec

/// wuffs' hand-made GIFs, each with its expected result worked out from its
/// `.make-artificial.txt` description, and Pillow's GIF edge cases.
@Suite("GIF edge cases")
struct GIFEdgeCaseTests {
    static func artificial(_ name: String) throws -> AnimationDecoder {
        try AnimationDecoder(bytes: Fixtures.bytes("wuffs-testdata", "artificial-gif/\(name).gif"))
    }

    static func rgb(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> PremultipliedRGBA {
        PremultipliedRGBA(r: r, g: g, b: b, a: 255)
    }
    static let clear = PremultipliedRGBA(r: 0, g: 0, b: 0, a: 0)

    static func row(_ frame: Frame, _ y: Int) -> [PremultipliedRGBA] {
        (0..<frame.width).map { frame.pixel(x: $0, y: y) }
    }

    @Test("transparent index leaves the canvas untouched; other indexes overwrite it", .needs("wuffs-testdata"))
    func transparentIndex() throws {
        let frames = try Self.artificial("transparent-index").decodeAllFrames()
        // Frame 0: indexes 8..15 = reds 0x80..0xF0 (row 1 is 0x0C..0x0F). Frame 1 at (1,1): 0x1F blue FF,
        // 0x1A transparent (so (2,1) keeps index 0x0E, red E0), 0x15 blue 55.
        #expect(
            Self.row(frames[1], 0) == [
                Self.rgb(0x80, 0, 0), Self.rgb(0x90, 0, 0), Self.rgb(0xA0, 0, 0), Self.rgb(0xB0, 0, 0)
            ])
        #expect(
            Self.row(frames[1], 1) == [
                Self.rgb(0xC0, 0, 0), Self.rgb(0, 0, 0xFF), Self.rgb(0xE0, 0, 0), Self.rgb(0, 0, 0x55)
            ])
    }

    @Test("disposal 2 clears to transparent, not to the background colour", .needs("wuffs-testdata"))
    func restoreToBackground() throws {
        let decoder = try Self.artificial("background-color")
        #expect(decoder.info.loopCount == 1 && decoder.info.plays == 2)
        let frames = try decoder.decodeAllFrames()
        #expect(Self.row(frames[0], 0) == [Self.rgb(0x80, 0, 0), Self.rgb(0x80, 0, 0xC1), Self.clear, Self.clear])
        #expect(Self.row(frames[1], 0) == [Self.clear, Self.clear, Self.rgb(0x80, 0xC2, 0), Self.clear])
    }

    @Test(
        "missing pixel data: undrawn pixels stay transparent, with a warning", .needs("wuffs-testdata"),
        arguments: [("pixel-data-none", 0), ("pixel-data-not-enough", 1)])
    func missingPixelData(name: String, drawn: Int) throws {
        let frame = try Self.artificial(name).frame(at: 0)
        let opaque = (0..<4).filter { frame.pixel(x: $0 % 2, y: $0 / 2).a == 255 }.count
        #expect(opaque == drawn)
        #expect(frame.warnings.contains { $0.kind == .missingPixelData })
    }

    @Test(
        "too much pixel data is ignored, whether or not the excess is valid LZW", .needs("wuffs-testdata"),
        arguments: ["pixel-data-too-much-good-lzw", "pixel-data-too-much-bad-lzw"])
    func tooMuchPixelData(name: String) throws {
        let frame = try Self.artificial(name).frame(at: 0)
        #expect((0..<4).allSatisfy { frame.pixel(x: $0 % 2, y: $0 / 2) == Self.rgb(0, 0, 0xFF) })
        #expect(frame.warnings.isEmpty)
    }

    @Test("a zero-width frame draws nothing; a file with no frames is an error", .needs("wuffs-testdata"))
    func degenerateFrames() throws {
        let frame = try Self.artificial("zero-width-frame").frame(at: 0)
        #expect(frame.pixels.allSatisfy { $0 == 0 })
        #expect(throws: CodecError.noImageData) { try Self.artificial("no-frames") }
    }

    @Test("the first loop count wins; the last Graphic Control Extension before a frame wins", .needs("wuffs-testdata"))
    func repeatedExtensions() throws {
        #expect(try Self.artificial("multiple-loop-counts").info.loopCount == 50)
        #expect(try Self.artificial("multiple-graphic-controls").info.frames[0].delay.milliseconds == 300)
    }

    @Test("a frame without any colour table draws nothing, with a warning", .needs("wuffs-testdata"))
    func emptyPalette() throws {
        let frames = try Self.artificial("empty-palette").decodeAllFrames()
        #expect(frames[1].pixels == frames[0].pixels)
        #expect(frames[1].warnings.contains { $0.kind == .missingColorTable })
    }

    @Test("an interlaced frame one row high lands on its own row", .needs("wuffs-testdata"))
    func smallInterlacedFrame() throws {
        let frame = try Self.artificial("small-frame-interlaced").frame(at: 0)
        for y in 0..<5 {
            for x in 0..<5 {
                #expect(frame.pixel(x: x, y: y) == (x == 3 && y == 2 ? Self.rgb(0, 0, 0xFF) : Self.clear))
            }
        }
    }

    @Test("frames outside the logical screen are clipped to it", .needs("wuffs-testdata"))
    func outOfBounds() throws {
        let decoder = try Self.artificial("frame-out-of-bounds")
        #expect(decoder.info.width == 2 && decoder.info.height == 2)
        let frames = try decoder.decodeAllFrames()
        #expect(frames.count == 4)
        // Palette entry i: 0x11 * i red for 0-7, then 0x11 * i green for 8-15; blue 0xFF throughout.
        let one = Self.rgb(0x11, 0, 0xFF)
        let eight = Self.rgb(0, 0x88, 0xFF)
        let nine = Self.rgb(0, 0x99, 0xFF)
        // Frame 0 at (1,0), 3 x 1, indexes 1 2 3: only index 1 lands on the screen, at (1,0).
        #expect(Self.row(frames[0], 0) == [Self.clear, one] && Self.row(frames[0], 1) == [Self.clear, Self.clear])
        // Frame 1 at (0,1), 2 x 2, indexes 8 9 / 10 11: its top row lands on screen row 1.
        let afterFrame1 = [[Self.clear, one], [eight, nine]]
        #expect([Self.row(frames[1], 0), Self.row(frames[1], 1)] == afterFrame1)
        // Frames 2, at (0,4), and 3, at (2,0), lie wholly outside: the canvas is unchanged.
        for index in 2...3 {
            #expect([Self.row(frames[index], 0), Self.row(frames[index], 1)] == afterFrame1, "frame \(index)")
        }
    }

    // MARK: Pillow's GIFs

    static func pillow(_ name: String) throws -> AnimationDecoder {
        try AnimationDecoder(bytes: Fixtures.bytes("gif-pillow", name))
    }

    @Test(
        "Pillow: disposal methods as stored", .needs("gif-pillow"),
        arguments: [
            ("dispose_none.gif", GIFDisposal.doNotDispose),
            ("dispose_bgnd.gif", .restoreToBackground),
            ("dispose_prev.gif", .restoreToPrevious)
        ])
    func pillowDisposal(name: String, disposal: GIFDisposal) throws {
        let decoder = try Self.pillow(name)
        #expect(decoder.frameCount == 5)
        #expect(decoder.info.frames.dropFirst().allSatisfy { $0.gifDisposal == disposal })
        #expect(try decoder.decodeAllFrames().count == 5)
    }

    @Test("Pillow: disposal to background leaves transparency (pixel (35,30) of frame 2)", .needs("gif-pillow"))
    func pillowBackgroundTransparency() throws {
        let frame = try Self.pillow("dispose_bgnd_transparency.gif").frame(at: 2)
        #expect(frame.pixel(x: 35, y: 30).a == 0)
    }

    @Test("Pillow: transparent_dispose pixels from test_file_gif.py", .needs("gif-pillow"))
    func pillowTransparentDispose() throws {
        let frames = try Self.pillow("transparent_dispose.gif").decodeAllFrames()
        #expect(frames.count == 3)
        #expect(
            (0..<3).map { frames[1].pixel(x: $0, y: 0) } == [
                Self.rgb(0, 255, 24), Self.rgb(0, 0, 255), Self.rgb(0, 255, 24)
            ])
        #expect((0..<3).map { frames[2].pixel(x: $0, y: 0) } == [Self.clear, Self.rgb(0, 0, 255), Self.clear])
    }

    @Test("Pillow: loop counts, durations, restore-previous on the first frame", .needs("gif-pillow"))
    func pillowMetadata() throws {
        #expect(try Self.pillow("duplicate_number_of_loops.gif").info.loopCount == 2)
        let duplicate = try Self.pillow("duplicate_frame.gif")
        #expect(duplicate.info.frames.map(\.delay.milliseconds) == [1000, 1000, 1000])
        let first = try Self.pillow("dispose_prev_first_frame.gif")
        #expect(first.info.frames[0].dispose == .previous)
        let frames = try first.decodeAllFrames()
        // Restoring to "previous" after frame 0 restores the empty canvas: whatever frame 1
        // leaves transparent in its own rectangle or outside it shows no trace of frame 0.
        let layer1 = try first.decodeLayer(1)
        let rect = first.info.frames[1].rect
        for y in 0..<frames[1].height {
            for x in 0..<frames[1].width {
                let inside = x >= rect.x && x < rect.x + rect.width && y >= rect.y && y < rect.y + rect.height
                let drawn = inside && layer1.pixels[((y - rect.y) * rect.width + (x - rect.x)) * 4 + 3] != 0
                if !drawn { #expect(frames[1].pixel(x: x, y: y).a == 0, "(\(x),\(y))") }
            }
        }
    }

    /// What each of Pillow's GIFs decodes to. The frame counts are Pillow's own (`n_frames`);
    /// the two exceptions follow documented rules: a zero-width screen whose first image is
    /// zero-width too has nothing to show (Pillow cannot open it either), and reading stops at
    /// an unknown block (test_extents_transparency.gif holds a second GIF header after its first
    /// image, which Pillow skips byte by byte to find a second image).
    static let pillowOutcomes: [String: DecodeOutcome] = {
        let frameCounts = [
            "background_outside_palette.gif": 2, "comment_after_last_frame.gif": 2, "comment_after_only_frame.gif": 1,
            "different_transparency.gif": 2, "dispose_bgnd.gif": 5, "dispose_bgnd_rgba.gif": 5,
            "dispose_bgnd_transparency.gif": 10,
            "dispose_none.gif": 5, "dispose_none_load_end.gif": 2, "dispose_prev.gif": 5,
            "dispose_prev_first_frame.gif": 2,
            "duplicate_frame.gif": 3, "duplicate_number_of_loops.gif": 2, "first_frame_transparency.gif": 1,
            "iss634.gif": 42,
            "missing_background.gif": 4, "no_palette.gif": 2, "no_palette_after_rgb.gif": 3,
            "no_palette_with_background.gif": 2,
            "no_palette_with_transparency.gif": 2, "palette_not_needed_for_second_frame.gif": 2,
            "second_frame_comment.gif": 3,
            "test_extents.gif": 2, "transparent_dispose.gif": 3
        ]
        var outcomes = frameCounts.mapValues { DecodeOutcome(frameCount: $0, framesDecoded: $0) }
        outcomes["zero_width.gif"] = .failed(.malformed(.gif))
        outcomes["test_extents_transparency.gif"] = DecodeOutcome(frameCount: 1, warnings: [.other], framesDecoded: 1)
        return outcomes
    }()

    @Test("Pillow: the folder holds its 26 GIFs, exactly the ones with a stated outcome", .needs("gif-pillow"))
    func pillowFolderIsComplete() {
        let found = Fixtures.files("gif-pillow", ext: "gif")
        #expect(found.count == 26)
        #expect(Set(found) == Set(Self.pillowOutcomes.keys), "found \(found)")
    }

    @Test(
        "Pillow: every GIF ends in its stated outcome", .needs("gif-pillow"), .timeLimit(.minutes(3)),
        arguments: Fixtures.files("gif-pillow", ext: "gif"))
    func pillowAllDecode(name: String) throws {
        let expected = try #require(Self.pillowOutcomes[name], "no stated outcome for \(name)")
        #expect(DecodeOutcome.of(try Fixtures.bytes("gif-pillow", name)).0 == expected)
    }
}
