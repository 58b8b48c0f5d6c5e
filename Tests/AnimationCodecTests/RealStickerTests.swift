import AnimationCodec
import Foundation
import TestSupport
import Testing

/// Real sticker content (blobfox APNGs) and real GIFs, frame by frame against independent
/// decoders: libpng per frame plus a spec-written compositor (exact), and Pillow and ffmpeg
/// (within 1 per channel, premultiplied, wherever the two references agree).
@Suite("Real stickers against independent decoders", .timeLimit(.minutes(3)))
struct RealStickerTests {
    static let blobfox = Fixtures.files("stickers-blobfox", ext: "png")

    @Test("blobfox: the folder holds its 13 animated stickers", .tags(.conformance), .needs("stickers-blobfox"))
    func blobfoxIsPresent() {
        #expect(Self.blobfox.count == 13, "\(Self.blobfox)")
    }

    @Test(
        "blobfox: every frame equals libpng + a spec compositor, exactly", .tags(.conformance),
        .needs("stickers-blobfox"), arguments: blobfox)
    func blobfoxAgainstLibPNG(name: String) throws {
        let bytes = try Fixtures.bytes("stickers-blobfox", name)
        let expected = try #require(LibPNGAPNGReference.render(bytes))
        let (_, frames) = try Fixtures.decodeAll(bytes)
        #expect(frames.count == expected.count)
        for (frame, reference) in zip(frames, expected) {
            #expect(Reference.mismatches(frame.pixels, reference) == 0, "\(name) frame \(frame.info.index)")
        }
    }

    static let realAnimations: [(String, String)] =
        blobfox.map { ("stickers-blobfox", $0) } + [
            ("wuffs-testdata", "muybridge.gif"), ("wuffs-testdata", "animated-red-blue.gif"),
            ("wuffs-testdata", "hat.gif"),
            ("wuffs-testdata", "muybridge.apng"), ("wuffs-testdata", "animated-red-blue.apng"),
            ("image-gif-tests", "samples/moon_impact.gif"), ("image-gif-tests", "samples/anim-gr.gif"),
            ("image-gif-tests", "samples/interlaced.gif"), ("image-gif-tests", "samples/alpha_gif_a.gif"),
            ("gif-pillow", "iss634.gif"), ("gif-pillow", "iss634.apng")
        ]

    @Test(
        "real animations agree with Pillow and ffmpeg wherever those two agree", .tags(.conformance),
        .needs(Array(Set(realAnimations.map(\.0))).sorted()), arguments: realAnimations)
    func againstPillowAndFFmpeg(suite: String, path: String) throws {
        try DifferentialCheck.compare(Fixtures.url(suite, path))
    }
}

/// Compares our frames with Pillow's and ffmpeg's: a pixel is judged only where the two
/// references agree (within 1 per channel, premultiplied); there ours must agree too.
/// Enough pixels must be judged for the check to mean something.
enum DifferentialCheck {
    static func compare(_ url: URL, minimumJudged: Double = 0.5) throws {
        let bytes = [UInt8](try Data(contentsOf: url))
        let (info, frames) = try Fixtures.decodeAll(bytes)
        let pillow = try ExternalReference.pillow.decode(url)
        let ffmpeg = try ExternalReference.ffmpeg.decode(url)
        // Pillow lists an APNG's excluded default image as an extra first frame.
        let pillowFrames =
            pillow.frames.count == frames.count + 1 && info.details["defaultImageIsFirstFrame"] == "false"
            ? Array(pillow.frames.dropFirst()) : pillow.frames
        #expect(
            pillowFrames.count == frames.count,
            "\(url.lastPathComponent): Pillow shows \(pillowFrames.count) frames, we \(frames.count)")
        #expect(
            ffmpeg.frames.count == frames.count,
            "\(url.lastPathComponent): ffmpeg shows \(ffmpeg.frames.count) frames, we \(frames.count)")
        var judged = 0
        var total = 0
        var disagreements = 0
        var firstDisagreement: String?
        for (index, frame) in frames.enumerated() where index < pillowFrames.count && index < ffmpeg.frames.count {
            let a = pillowFrames[index]
            let b = ffmpeg.frames[index]
            let ours = frame.pixels
            guard a.count == ours.count, b.count == ours.count else {
                Issue.record("\(url.lastPathComponent): reference canvas size differs")
                return
            }
            for p in stride(from: 0, to: ours.count, by: 4) {
                total += 1
                var referencesAgree = true
                for c in 0..<4 where abs(Int(a[p + c]) - Int(b[p + c])) > 1 { referencesAgree = false }
                guard referencesAgree else { continue }
                judged += 1
                for c in 0..<4 where abs(Int(ours[p + c]) - Int(a[p + c])) > 1 {
                    disagreements += 1
                    if firstDisagreement == nil {
                        firstDisagreement =
                            "frame \(index) pixel \(p / 4 % frame.width),\(p / 4 / frame.width): ours \(Array(ours[p..<(p + 4)])), references \(Array(a[p..<(p + 4)]))"
                    }
                    break
                }
            }
        }
        #expect(
            disagreements == 0,
            "\(url.lastPathComponent): \(disagreements) pixels differ; first: \(firstDisagreement ?? "")")
        #expect(
            total > 0 && Double(judged) >= minimumJudged * Double(total),
            "\(url.lastPathComponent): references agree on only \(judged) of \(total) pixels")
    }
}
