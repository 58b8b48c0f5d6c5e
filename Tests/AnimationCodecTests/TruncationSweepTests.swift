import Foundation
import TestSupport
import Testing

@testable import AnimationCodec

/// Truncated input: every prefix must end in the documented outcome for where the cut falls
/// in the file's structure (walked by the test itself), never in a crash or a hang. Bounded: a
/// fixed set of cuts per file. ``ByteFlipTests`` damages the same files byte by byte.
@Suite("Truncation sweep")
struct TruncationSweepTests {
    static let files: [(String, String)] = [
        ("apng-philip-taylor", "dispose_op_previous_frame.png"), ("apng-philip-taylor", "split_fdat.png"),
        ("apng-philip-taylor", "mode_palette_alpha.png"), ("gif-peterdn", "animated_transparent_restoreprev_loop.gif"),
        ("gif-peterdn", "animated_loop_interlaced.gif"), ("pngsuite", "png/basi6a16.png"),
        ("pngsuite", "png/basi3p02.png"),
        ("wuffs-testdata", "muybridge.gif"), ("stickers-blobfox", "ablobfoxhyper.png"),
        ("image-gif-tests", "samples/moon_impact.gif")
    ]

    /// The conformance suites the sampled files come from.
    static let suites = Array(Set(files.map(\.0))).sorted()

    /// A sampled file, its whole decode (serial) and, for an APNG, its default image as libpng
    /// reads it (libpng ignores the APNG chunks).
    struct Sample {
        var bytes: [UInt8]
        var frames: [[UInt8]]
        var defaultImage: [UInt8]?
        var isGIF: Bool

        init(_ suite: String, _ path: String) throws {
            bytes = try Fixtures.bytes(suite, path)
            frames = try AnimationDecoder(bytes: bytes).decodeAllFrames(threads: 1).map(\.pixels)
            isGIF = path.hasSuffix(".gif")
            if PNGChunkLayout(bytes).chunks.contains(where: { $0.type == "acTL" }) {
                let image = try #require(LibPNGOracle.decode(bytes))
                defaultImage = Reference.premultiplied(straight: image.rgba)
            }
        }

        /// Decodes `damaged` and checks its outcome and every decoded frame against `expected`.
        func expect(_ damaged: [UInt8], toDecodeAs expected: ExpectedDecode, _ context: @autoclosure () -> String) {
            let (outcome, _) = DecodeOutcome.of(damaged) { index, frame in
                guard index < expected.pixels.count else { return }  // the outcome check below reports it
                switch expected.pixels[index] {
                case .wholeFileFrame(let whole):
                    #expect(
                        Reference.mismatches(frame.pixels, frames[whole]) == 0,
                        "\(context()): frame \(index) differs from the whole file's frame \(whole)")
                case .defaultImage:
                    #expect(
                        Reference.mismatches(frame.pixels, defaultImage ?? []) == 0,
                        "\(context()): frame \(index) is not the default image")
                case .unknown: break
                }
            }
            #expect(outcome == expected.outcome, "\(context())")
        }
    }

    @Test(
        "every sampled prefix decodes to the documented outcome for where the cut falls", .needs(suites),
        .timeLimit(.minutes(3)), arguments: files)
    func prefixes(suite: String, path: String) throws {
        let sample = try Sample(suite, path)
        let bytes = sample.bytes
        let pngLayout = PNGChunkLayout(bytes)
        let gifLayout = GIFBlockLayout(bytes)
        // All of the first 300 cuts (headers), then 200 spread over the rest, the whole file,
        // and each side of where the rules change: every chunk's end; every image's code size
        // byte, data end and the trailer.
        var cuts = Set(0..<min(300, bytes.count))
        for k in 0...200 { cuts.insert(bytes.count * k / 200) }
        let boundaries =
            sample.isGIF
            ? gifLayout.images.flatMap { [$0.codeSizeOffset, $0.codeSizeOffset + 1, $0.dataEnd ?? 0] } + [
                gifLayout.trailer ?? 0
            ]
            : pngLayout.chunks.map(\.end)
        for boundary in boundaries {
            cuts.formUnion([boundary - 1, boundary, boundary + 1].filter { (0...bytes.count).contains($0) })
        }
        for cut in cuts.sorted() {
            let expected =
                sample.isGIF
                ? ExpectedDecode.gifPrefix(cut: cut, layout: gifLayout)
                : ExpectedDecode.pngPrefix(cut: cut, layout: pngLayout, wholeFileFrames: sample.frames.count)
            sample.expect(Array(bytes.prefix(cut)), toDecodeAs: expected, "cut at \(cut) of \(bytes.count)")
        }
    }

    /// Every image file in the repository's corpus/ (the sample pack and the sample catalog).
    static let corpusFiles: [String] = {
        let root = Fixtures.repoRoot.appendingPathComponent("corpus")
        let walker = FileManager.default.enumerator(atPath: root.path)
        let images = (walker?.allObjects as? [String] ?? []).filter {
            ["png", "gif", "jpg"].contains(($0 as NSString).pathExtension)
        }
        return images.sorted()
    }()

    /// Every prefix of every corpus file ends in the documented outcome for where the cut falls
    /// (``ExpectedDecode``; for a JPEG, ``jpegPrefix(cut:imageStart:fileLength:)``). The structure is read
    /// for every prefix, and the one frame the outcome turns on is decoded: the first that must
    /// fail, with its error, else the last, which must equal the whole file's frame when its
    /// data is complete (for a PNG cut inside a chunk, which reads as cut where the chunk starts,
    /// at every 251st byte). The frames before it have the same bytes as in the whole file, whose
    /// layers are decoded once in full, so the prefix adds nothing new for them.
    @Test(
        "every prefix of every corpus file decodes to its documented structure, and its frames (a sample of those a PNG cut inside a chunk gives) or error",
        .timeLimit(.minutes(3)),
        arguments: corpusFiles)
    func everyPrefix(path: String) throws {
        let bytes = try [UInt8](
            Data(contentsOf: Fixtures.repoRoot.appendingPathComponent("corpus").appendingPathComponent(path)))
        let (whole, _) = DecodeOutcome.of(bytes)
        #expect(
            whole.error == nil && whole.warnings.isEmpty && whole.framesDecoded == whole.frameCount,
            "the whole file decodes: \(whole)")
        let scratch = DecodeScratch()
        var storage: [UInt8] = []
        let wholeDecoder = try AnimationDecoder(bytes: bytes)
        let wholeLayers = try (0..<wholeDecoder.frameCount).map {
            try wholeDecoder.source.decodeLayer($0, bytes: wholeDecoder.bytes, scratch: scratch, storage: &storage)
                .pixels
        }
        let format = (path as NSString).pathExtension
        let pngLayout = PNGChunkLayout(bytes)
        let gifLayout = GIFBlockLayout(bytes)
        var jpegImageStart = 0
        if format == "jpg" {
            jpegImageStart = try #require(Self.jpegImageStart(bytes), "the JPEG has a scan")
            try #require(bytes.suffix(2) == [0xFF, 0xD9], "the JPEG ends in its end-of-image marker")
        }
        // An APNG's default image as libpng reads it (libpng ignores the APNG chunks).
        var defaultImage: [UInt8]?
        if pngLayout.chunks.contains(where: { $0.type == "acTL" }) {
            let image = try #require(LibPNGOracle.decode(bytes), "libpng reads the whole file")
            defaultImage = Reference.premultiplied(straight: image.rgba)
        }
        let chunkEnds = Set(pngLayout.chunks.map(\.end))
        var framesChecked = 0
        for cut in 0..<bytes.count {
            let expected =
                switch format {
                case "png": ExpectedDecode.pngPrefix(cut: cut, layout: pngLayout, wholeFileFrames: whole.frameCount)
                case "gif": ExpectedDecode.gifPrefix(cut: cut, layout: gifLayout)
                default: Self.jpegPrefix(cut: cut, imageStart: jpegImageStart, fileLength: bytes.count)
                }
            let context = "\(path) cut at \(cut) of \(bytes.count)"
            let decoder: AnimationDecoder
            do {
                decoder = try AnimationDecoder(bytes: Array(bytes[..<cut]))
            } catch {
                #expect(DecodeOutcome.failed(CodecErrorCase(error)) == expected.outcome, "\(context): \(error)")
                continue
            }
            let structure = DecodeOutcome(
                frameCount: decoder.frameCount, warnings: Set(decoder.info.warnings.map(\.kind)))
            #expect(
                expected.outcome.structureError == nil && structure.frameCount == expected.outcome.frameCount
                    && structure.warnings == expected.outcome.warnings,
                "\(context): \(structure), expected \(expected.outcome)")
            guard expected.outcome.structureError == nil, decoder.frameCount == expected.outcome.frameCount,
                decoder.frameCount > 0
            else { continue }
            // A PNG cut inside a chunk is read as cut where that chunk starts: its frame is the
            // one decoded at that boundary, so it is decoded again only at a sample of such cuts.
            guard format != "png" || chunkEnds.contains(cut) || cut % 251 == 0 else { continue }
            let index = expected.outcome.frameError == nil ? decoder.frameCount - 1 : expected.outcome.framesDecoded
            let layer: FrameLayer
            do {
                layer = try decoder.source.decodeLayer(index, bytes: decoder.bytes, scratch: scratch, storage: &storage)
            } catch {
                #expect(CodecErrorCase(error) == expected.outcome.frameError, "\(context): frame \(index): \(error)")
                continue
            }
            #expect(
                expected.outcome.frameError == nil,
                "\(context): frame \(index) decoded where \(expected.outcome) was expected")
            guard index < expected.pixels.count else { continue }
            #expect(layer.pixels.count == layer.rect.width * layer.rect.height * 4, "\(context)")
            switch expected.pixels[index] {
            case .wholeFileFrame(let frame):
                #expect(layer.pixels == wholeLayers[frame], "\(context): frame \(index) differs from the whole file's")
                framesChecked += 1
            case .defaultImage:
                #expect(layer.pixels == defaultImage, "\(context): frame \(index) is not the default image")
                framesChecked += 1
            case .unknown:
                break
            }
        }
        #expect(framesChecked > 0, "some prefix decodes to a frame of known pixels")
    }

    /// The shortest prefix of a JPEG in which libjpeg finds an image: through the first
    /// start-of-scan segment's last component selector, walked from the JPEG specification's
    /// markers (two bytes, then a big-endian length that counts itself; a scan header gives
    /// its component count, then two bytes a component). libjpeg reads what a shorter scan
    /// header lacks from the end-of-image marker it supplies when the data runs out.
    static func jpegImageStart(_ bytes: [UInt8]) -> Int? {
        var offset = 2
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else { return nil }
            let marker = bytes[offset + 1]
            if marker == 0xFF {  // a fill byte before the marker
                offset += 1
                continue
            }
            if marker == 0xDA {
                guard offset + 4 < bytes.count else { return nil }
                return offset + 4 + 2 * Int(bytes[offset + 4])
            }
            offset += 2 + (Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3]))
        }
        return nil
    }

    /// A JPEG cut after `cut` bytes (docs/formats.md: libjpeg's warnings about recoverable damage
    /// are ignored and decoding goes on).
    ///
    /// - Fewer than the 3 signature bytes (`FF D8 FF`): no format is recognised.
    /// - A cut before ``jpegImageStart(_:)``: libjpeg finds no image, a `jpeg` error.
    /// - A cut right there, before the last component's table selectors: one frame, which
    ///   fails with a `jpeg` error, since libjpeg reads the selectors from its end-of-image
    ///   marker's 0xFF (table 15, where a JPEG has tables 0-3 only).
    /// - Otherwise one frame, what it lacks filled in by libjpeg: it decodes, to the whole
    ///   file's pixels when only the end-of-image marker (the last two bytes) is cut.
    static func jpegPrefix(cut: Int, imageStart: Int, fileLength: Int) -> ExpectedDecode {
        if cut == 0 { return ExpectedDecode(outcome: .failed(.emptyFile)) }
        if cut < 3 { return ExpectedDecode(outcome: .failed(.unknownFormat)) }
        if cut < imageStart { return ExpectedDecode(outcome: .failed(.jpeg)) }
        if cut == imageStart {
            return ExpectedDecode(outcome: DecodeOutcome(frameCount: 1, framesDecoded: 0, frameError: .jpeg))
        }
        return ExpectedDecode(
            outcome: DecodeOutcome(frameCount: 1, framesDecoded: 1),
            pixels: [cut >= fileLength - 2 ? .wholeFileFrame(0) : .unknown])
    }

    /// A cut in the middle of the third image's data (located by the test's own block walk):
    /// the two images before it are kept whole and equal peterdn's expected canvases, the third
    /// is kept partial, and the structure warns of the truncation.
    @Test(
        "a truncated GIF keeps every frame whose data began before the cut, the complete ones exact",
        .needs("gif-peterdn"))
    func truncatedGIFKeepsFrames() throws {
        let bytes = try Fixtures.bytes("gif-peterdn", "animated_loop.gif")
        let layout = GIFBlockLayout(bytes)
        #expect(layout.images.count == 4)
        let cut = (layout.images[2].codeSizeOffset + (layout.images[2].dataEnd ?? 0)) / 2
        let decoder = try AnimationDecoder(bytes: Array(bytes.prefix(cut)))
        #expect(decoder.frameCount == 3)
        #expect(decoder.info.warnings.map(\.kind) == [.truncated])
        let frames = try decoder.decodeAllFrames(threads: 1)
        #expect(frames.count == 3)
        for index in 0..<2 {
            let url = Fixtures.url("gif-peterdn", "frames/animated_loop-\(index).png")
            let expected = try #require(LibPNGOracle.decode(contentsOf: url))
            #expect(
                Reference.mismatches(frames[index].pixels, Reference.premultiplied(straight: expected.rgba)) == 0,
                "frame \(index)")
        }
    }
}
