import Foundation
import TestSupport
import Testing

@testable import AnimationCodec

/// Philip Taylor's APNG suite (via Pillow) against the renderings its pages describe
/// (`expected.tsv`): "solid green means success, any red means failure", turned into pixel
/// checks on the final displayed frame.
@Suite(
    "APNG conformance (Philip Taylor's suite)", .needs("apng-philip-taylor", "wuffs-testdata"), .timeLimit(.minutes(3)))
struct APNGSuiteTests {
    static let suite = "apng-philip-taylor"
    static let green = PremultipliedRGBA(r: 0, g: 255, b: 0, a: 255)
    static let clear = PremultipliedRGBA(r: 0, g: 0, b: 0, a: 0)
    static let blue = PremultipliedRGBA(r: 0, g: 0, b: 255, a: 255)
    static let yellow = PremultipliedRGBA(r: 255, g: 255, b: 0, a: 255)

    /// What the final frame must show.
    enum Expectation: Sendable, CustomStringConvertible {
        /// Every pixel equals this colour.
        case solid(PremultipliedRGBA)
        /// Every pixel within `tolerance` of this colour in each channel.
        case nearly(PremultipliedRGBA, tolerance: Int)
        /// Inside `rect` one colour, outside another.
        case rectangle(FrameRect, inside: PremultipliedRGBA, outside: PremultipliedRGBA)
        /// The suite's invalid files may show the default image or fail; docs/formats.md says
        /// which: a broken animation shows the default image (solid green) alone, as an APNG,
        /// with one `animationIgnored` warning naming the first broken rule (this text).
        case fallback(String)
        /// No acTL: a plain PNG, its fcTL and fdAT unknown ancillary chunks; the default image
        /// (solid green), no warning.
        case plainPNG
        /// This error.
        case failure(CodecError)
        /// A specific pixel of the final frame.
        case pixel(x: Int, y: Int, PremultipliedRGBA)

        var description: String {
            switch self {
            case .solid(let c): return "solid \(c)"
            case .nearly(let c, let t): return "about \(c) ±\(t)"
            case .rectangle(let r, let i, let o): return "\(i) in \(r), \(o) elsewhere"
            case .fallback(let reason): return "the default image: \(reason)"
            case .plainPNG: return "a plain PNG, solid green"
            case .failure(let error): return "\(error)"
            case .pixel(let x, let y, let c): return "(\(x),\(y)) = \(c)"
            }
        }
    }

    static let cases: [(String, Expectation)] = [
        ("single_frame", .solid(green)),
        ("single_frame_default", .solid(green)),
        ("split_fdat", .solid(green)),
        ("split_fdat_zero_chunk", .solid(green)),
        ("dispose_op_none", .solid(green)),
        ("dispose_op_background", .solid(clear)),
        ("dispose_op_background_final", .solid(green)),
        ("dispose_op_previous", .solid(green)),
        ("dispose_op_previous_final", .solid(green)),
        ("dispose_op_previous_first", .solid(clear)),
        ("dispose_op_none_region", .solid(green)),
        ("dispose_op_background_before_region", .solid(clear)),
        (
            "dispose_op_background_region",
            .rectangle(FrameRect(x: 32, y: 16, width: 64, height: 32), inside: clear, outside: blue)
        ),
        ("dispose_op_previous_region", .solid(green)),
        ("blend_op_source_solid", .solid(green)),
        ("blend_op_source_transparent", .solid(clear)),
        // Green with alpha 2/255, premultiplied: (0, 2, 0, 2).
        ("blend_op_source_near_transparent", .solid(PremultipliedRGBA(r: 0, g: 2, b: 0, a: 2))),
        ("blend_op_over", .solid(green)),
        ("blend_op_over_near_transparent", .solid(green)),
        ("fctl_actl", .solid(green)),
        // Blue 0xFFFF with alpha 0x8000 OVER opaque black: 0x8000 reduces to 128, so (0, 0, 128, 255).
        ("mode_16bit", .nearly(PremultipliedRGBA(r: 0, g: 0, b: 128, a: 255), tolerance: 1)),
        (
            "mode_grayscale",
            .rectangle(
                FrameRect(x: 32, y: 16, width: 64, height: 32),
                inside: PremultipliedRGBA(r: 255, g: 255, b: 255, a: 255),
                outside: PremultipliedRGBA(r: 128, g: 128, b: 128, a: 255))
        ),
        ("mode_grayscale_alpha", .nearly(PremultipliedRGBA(r: 128, g: 128, b: 128, a: 255), tolerance: 1)),
        ("mode_palette", .solid(green)),
        ("mode_palette_alpha", .solid(green)),
        ("mode_palette_1bit_alpha", .nearly(PremultipliedRGBA(r: 0, g: 0, b: 128, a: 255), tolerance: 1)),
        // The invalid files, each outcome read from its chunks (acTL(frames, plays), fcTL#n,
        // fdAT#n) against the APNG spec's rules: sequence numbers count 0, 1, 2... across fcTL
        // and fdAT; one acTL, before IDAT, declaring 1 to 2^31 - 1 frames, as many as there are
        // fcTLs; every frame but a default-image one with fdAT data, after its fcTL.
        // IDAT fcTL#0 fdAT#1
        ("chunk_no_actl", .plainPNG),
        // acTL(1,0) acTL(1,0) IDAT fcTL#0 fdAT#1
        ("chunk_multi_actl", .fallback("more than one acTL chunk")),
        // IDAT acTL(1,0) fcTL#0 fdAT#1
        ("chunk_actl_after_idat", .fallback("acTL comes after IDAT")),
        // acTL(1,0) IDAT fdAT#0
        ("chunk_no_fctl", .fallback("fdAT without a preceding fcTL")),
        // acTL(1,0) IDAT fcTL#0 fcTL#0 fdAT#1
        ("chunk_repeat_fctl", .fallback("fcTL has sequence number 0, expected 1")),
        // acTL(2,0) IDAT fcTL#0 fcTL#1 fdAT#2
        ("chunk_no_fdat", .fallback("fcTL 1 follows a frame that has no fdAT data")),
        // acTL(0,0) and no IDAT at all before IEND: not an image.
        ("syntax_num_frames_zero", .failure(.malformed(format: .png, reason: "no IDAT chunk"))),
        // acTL(0,0) IDAT
        ("syntax_num_frames_zero_default", .fallback("acTL declares 0 frames")),
        // acTL(1,0) IDAT fcTL#0 fdAT#1 fcTL#2 fdAT#3
        ("syntax_num_frames_low", .fallback("acTL declares 1 frames, the file has 2")),
        // acTL(3,0) IDAT fcTL#0 fdAT#1 fcTL#2 fdAT#3
        ("syntax_num_frames_high", .fallback("acTL declares 3 frames, the file has 2")),
        // acTL(2147483649,0) IDAT fcTL#0 fdAT#1
        ("syntax_num_frames_invalid", .fallback("acTL declares 2147483649 frames")),
        // acTL(2,0) IDAT fcTL#1 fdAT#2 fcTL#3 fdAT#4
        ("sequence_start", .fallback("fcTL has sequence number 1, expected 0")),
        // acTL(2,0) IDAT fcTL#0 fdAT#1 fcTL#2 fdAT#4
        ("sequence_gap", .fallback("fdAT has sequence number 4, expected 3")),
        // acTL(2,0) IDAT fcTL#0 fdAT#1 fcTL#2 fdAT#2
        ("sequence_repeat", .fallback("fdAT has sequence number 2, expected 3")),
        // acTL(2,0) IDAT fcTL#0 fdAT#1 fcTL#2 fdAT#3 fdAT#3
        ("sequence_repeat_chunk", .fallback("fdAT has sequence number 3, expected 4")),
        // acTL(2,0) IDAT fcTL#0 fdAT#1 fcTL#2 fdAT#4 fdAT#3
        ("sequence_reorder", .fallback("fdAT has sequence number 4, expected 3")),
        // acTL(2,0) IDAT fcTL#0 fdAT#1 fcTL#2 fdAT#4 fdAT#3 (the fdATs' data swapped too)
        ("sequence_reorder_chunk", .fallback("fdAT has sequence number 4, expected 3")),
        // acTL(2,0) IDAT fcTL#0 fdAT#0 fcTL#1 fdAT#1
        ("sequence_fdat_fctl", .fallback("fdAT has sequence number 0, expected 1")),
        ("dispose_op_previous_frame", .pixel(x: 0, y: 0, PremultipliedRGBA(r: 255, g: 0, b: 0, a: 255)))
    ]

    @Test("every file in the suite has an expectation")
    func everyFileCovered() {
        let files = Set(Fixtures.files(Self.suite, ext: "png").map { $0.replacingOccurrences(of: ".png", with: "") })
        let covered = Set(Self.cases.map(\.0)).union([
            "delay", "delay_round", "delay_short_max", "delay_zero_denom",
            "delay_zero_numer", "num_plays", "num_plays_1", "different_durations",
            "dispose_op_background_p_mode"
        ])
        #expect(files == covered)
    }

    @Test("final frame matches the suite's expected rendering", .tags(.conformance), arguments: cases)
    func finalFrame(name: String, expectation: Expectation) throws {
        let bytes = try Fixtures.bytes(Self.suite, "\(name).png")
        let result = Result { () throws(CodecError) -> (AnimationInfo, [Frame]) in
            let decoder = try AnimationDecoder(bytes: bytes)
            return (decoder.info, try decoder.decodeAllFrames())
        }
        let frame: Frame
        switch (expectation, result) {
        case (.failure(let expected), .failure(let error)):
            #expect(error == expected, "\(name)")
            return
        case (.failure, .success):
            Issue.record("\(name): expected \(expectation), decoded it")
            return
        case (_, .failure(let error)):
            Issue.record("\(name): \(error)")
            return
        case (.fallback(let reason), .success(let (info, frames))):
            #expect(info.format == .apng, "\(name)")
            #expect(frames.count == 1, "\(name)")
            #expect(info.warnings.map(\.kind) == [.animationIgnored], "\(name)")
            #expect(info.warnings.first?.message.contains(reason) == true, "\(name): \(info.warnings)")
            frame = try #require(frames.last)
        case (.plainPNG, .success(let (info, frames))):
            #expect(info.format == .png, "\(name)")
            #expect(frames.count == 1, "\(name)")
            #expect(info.warnings.isEmpty, "\(name): \(info.warnings)")
            frame = try #require(frames.last)
        case (_, .success(let (_, frames))):
            frame = try #require(frames.last)
        }
        switch expectation {
        case .fallback, .plainPNG:
            #expect(Self.count(frame) { _, _, p in p != Self.green } == 0, "\(name): not solid green")
        case .solid(let colour):
            #expect(Self.count(frame) { _, _, p in p != colour } == 0, "\(name): not solid \(colour)")
        case .nearly(let colour, let tolerance):
            let off = Self.count(frame) { _, _, p in
                abs(Int(p.r) - Int(colour.r)) > tolerance || abs(Int(p.g) - Int(colour.g)) > tolerance
                    || abs(Int(p.b) - Int(colour.b)) > tolerance || p.a != colour.a
            }
            #expect(off == 0, "\(name): first pixel \(frame.pixel(x: 0, y: 0)), expected about \(colour)")
        case .rectangle(let rect, let inside, let outside):
            let off = Self.count(frame) { x, y, p in
                let isInside = x >= rect.x && x < rect.x + rect.width && y >= rect.y && y < rect.y + rect.height
                return p != (isInside ? inside : outside)
            }
            #expect(off == 0, "\(name): \(off) pixels off")
        case .pixel(let x, let y, let colour):
            #expect(frame.pixel(x: x, y: y) == colour)
        case .failure:
            break
        }
    }

    static func count(_ frame: Frame, where predicate: (Int, Int, PremultipliedRGBA) -> Bool) -> Int {
        var count = 0
        for y in 0..<frame.height {
            for x in 0..<frame.width where predicate(x, y, frame.pixel(x: x, y: y)) { count += 1 }
        }
        return count
    }

    @Test(
        "delays: 16-bit fractions, rounding and a zero denominator meaning 100",
        arguments: [
            ("delay", [500.0, 1000, 500, 1000]), ("delay_round", [500, 1000]), ("delay_short_max", [500, 1000]),
            ("delay_zero_denom", [500, 1000]), ("delay_zero_numer", [0, 0, 500, 1000]),
            ("different_durations", [4000, 1000])
        ])
    func delays(name: String, milliseconds: [Double]) throws {
        let decoder = try AnimationDecoder(bytes: Fixtures.bytes(Self.suite, "\(name).png"))
        #expect(decoder.info.frames.map { ($0.delay.milliseconds * 1000).rounded() / 1000 } == milliseconds)
        if name.hasPrefix("delay") {
            // "flash blue 0.5 s, yellow 1 s": frames alternate blue and yellow after any zero-delay frames.
            let frames = try decoder.decodeAllFrames().filter { $0.info.delay.numerator != 0 }
            for frame in frames {
                #expect(frame.pixel(x: 64, y: 32) == (frame.info.delay.milliseconds == 500 ? Self.blue : Self.yellow))
            }
        }
    }

    @Test("num_plays is the stored total of plays")
    func numPlays() throws {
        let forever = try AnimationDecoder(bytes: Fixtures.bytes(Self.suite, "num_plays.png"))
        #expect(forever.info.loopCount == 0 && forever.info.plays == 0)
        let once = try AnimationDecoder(bytes: Fixtures.bytes(Self.suite, "num_plays_1.png"))
        #expect(once.info.loopCount == 1 && once.info.plays == 1)
        // "yellow 1 s, then stays blue forever"
        let frames = try once.decodeAllFrames()
        #expect(frames.map { $0.pixel(x: 0, y: 0) } == [Self.yellow, Self.blue])
    }

    @Test("the default image is excluded from the animation when IDAT precedes the first fcTL")
    func defaultImageExcluded() throws {
        let excluded = try AnimationDecoder(bytes: Fixtures.bytes(Self.suite, "single_frame_default.png"))
        #expect(excluded.frameCount == 1)
        #expect(excluded.info.details["defaultImageIsFirstFrame"] == "false")
        let included = try AnimationDecoder(bytes: Fixtures.bytes(Self.suite, "single_frame.png"))
        #expect(included.info.details["defaultImageIsFirstFrame"] == "true")
    }

    @Test("a broken animation falls back to the default image with a warning")
    func fallbackWarns() throws {
        for name in ["sequence_gap", "chunk_no_fdat", "syntax_num_frames_high", "chunk_multi_actl"] {
            let decoder = try AnimationDecoder(bytes: Fixtures.bytes(Self.suite, "\(name).png"))
            #expect(decoder.frameCount == 1, "\(name)")
            #expect(decoder.info.warnings.contains { $0.kind == .animationIgnored }, "\(name)")
            #expect(decoder.info.format == .apng)
        }
    }

    @Test("Pillow's indexed APNG with DISPOSE_BACKGROUND: one frame, as libpng and a spec compositor render it")
    func paletteBackground() throws {
        let bytes = try Fixtures.bytes(Self.suite, "dispose_op_background_p_mode.png")
        let decoder = try AnimationDecoder(bytes: bytes)
        #expect(decoder.info.width == 128 && decoder.info.height == 64)
        let frames = try decoder.decodeAllFrames().map(\.pixels)
        let reference = try #require(LibPNGAPNGReference.render(bytes))
        #expect(frames.count == 1 && reference.count == 1)
        #expect(Reference.mismatches(frames[0], reference[0]) == 0)
        // The default image (IDAT before the only fcTL) is not shown; the frame's indexes are
        // all 0: PLTE's first entry, FF 00 00, opaque in tRNS.
        #expect(
            Reference.mismatches(frames[0], Array(repeatElement([255, 0, 0, 255] as [UInt8], count: 128 * 64).joined()))
                == 0)
    }

    @Test("wuffs' APNG files: fcTL after IDAT, sub-rectangles, tRNS, num_plays")
    func wuffsAPNG() throws {
        let skip = try AnimationDecoder(bytes: Fixtures.bytes("wuffs-testdata", "artificial-png/apng-skip-idat.png"))
        #expect(skip.info.format == .apng)
        #expect(skip.info.details["defaultImageIsFirstFrame"] == "false")
        let redBlue = try AnimationDecoder(bytes: Fixtures.bytes("wuffs-testdata", "animated-red-blue.apng"))
        #expect(redBlue.info.loopCount == 3)
        #expect(
            redBlue.info.frames.map(\.rect) == [
                FrameRect(x: 0, y: 0, width: 64, height: 48),
                FrameRect(x: 15, y: 31, width: 37, height: 9),
                FrameRect(x: 15, y: 0, width: 49, height: 40),
                FrameRect(x: 15, y: 31, width: 37, height: 9)
            ])
        #expect(redBlue.info.frames.map(\.delay.milliseconds) == [100, 200, 300, 400])
        #expect(redBlue.info.frames.map(\.dispose) == [.none, .none, .previous, .none])
    }
}
