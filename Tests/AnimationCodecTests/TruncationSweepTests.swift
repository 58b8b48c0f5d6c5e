@testable import AnimationCodec
import Foundation
import TestSupport
import Testing

/// Truncated input: every prefix must end in the documented outcome for where the cut falls
/// in the file's structure (walked by the test itself), never in a crash or a hang. Bounded: a
/// fixed set of cuts per file. ``ByteFlipTests`` damages the same files byte by byte.
@Suite("Truncation sweep")
struct TruncationSweepTests {
    static let files: [(String, String)] = [
        ("apng-philip-taylor", "dispose_op_previous_frame.png"), ("apng-philip-taylor", "split_fdat.png"),
        ("apng-philip-taylor", "mode_palette_alpha.png"), ("gif-peterdn", "animated_transparent_restoreprev_loop.gif"),
        ("gif-peterdn", "animated_loop_interlaced.gif"), ("pngsuite", "png/basi6a16.png"), ("pngsuite", "png/basi3p02.png"),
        ("wuffs-testdata", "muybridge.gif"), ("stickers-blobfox", "ablobfoxhyper.png"), ("image-gif-tests", "samples/moon_impact.gif"),
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
                    #expect(Reference.mismatches(frame.pixels, frames[whole]) == 0, "\(context()): frame \(index) differs from the whole file's frame \(whole)")
                case .defaultImage:
                    #expect(Reference.mismatches(frame.pixels, defaultImage ?? []) == 0, "\(context()): frame \(index) is not the default image")
                case .unknown: break
                }
            }
            #expect(outcome == expected.outcome, "\(context())")
        }
    }

    @Test("every sampled prefix decodes to the documented outcome for where the cut falls", .needs(suites),
          .timeLimit(.minutes(3)), arguments: files)
    func prefixes(suite: String, path: String) throws {
        let sample = try Sample(suite, path)
        let bytes = sample.bytes
        let pngLayout = PNGChunkLayout(bytes), gifLayout = GIFBlockLayout(bytes)
        // All of the first 300 cuts (headers), then 200 spread over the rest, the whole file,
        // and each side of where the rules change: every chunk's end; every image's code size
        // byte, data end and the trailer.
        var cuts = Set(0..<min(300, bytes.count))
        for k in 0...200 { cuts.insert(bytes.count * k / 200) }
        let boundaries = sample.isGIF
            ? gifLayout.images.flatMap { [$0.codeSizeOffset, $0.codeSizeOffset + 1, $0.dataEnd ?? 0] } + [gifLayout.trailer ?? 0]
            : pngLayout.chunks.map(\.end)
        for boundary in boundaries { cuts.formUnion([boundary - 1, boundary, boundary + 1].filter { (0...bytes.count).contains($0) }) }
        for cut in cuts.sorted() {
            let expected = sample.isGIF ? ExpectedDecode.gifPrefix(cut: cut, layout: gifLayout)
                : ExpectedDecode.pngPrefix(cut: cut, layout: pngLayout, wholeFileFrames: sample.frames.count)
            sample.expect(Array(bytes.prefix(cut)), toDecodeAs: expected, "cut at \(cut) of \(bytes.count)")
        }
    }

    /// Every image file in the repository's corpus/ (the sample pack and the sample catalog).
    static let corpusFiles: [String] = {
        let root = Fixtures.repoRoot.appendingPathComponent("corpus")
        let walker = FileManager.default.enumerator(atPath: root.path)
        let images = (walker?.allObjects as? [String] ?? []).filter { ["png", "gif", "jpg"].contains(($0 as NSString).pathExtension) }
        return images.sorted()
    }()

    /// Every prefix of every corpus file ends in a typed error or frames. The structure is read
    /// for every prefix, and the frame the cut falls in is decoded: the frames before it have the
    /// same bytes as in the whole file, which is decoded once in full, so the prefix adds
    /// nothing new for them.
    @Test("every prefix of every corpus file decodes to frames or a typed error", .timeLimit(.minutes(3)), arguments: corpusFiles)
    func everyPrefix(path: String) throws {
        let bytes = try [UInt8](Data(contentsOf: Fixtures.repoRoot.appendingPathComponent("corpus").appendingPathComponent(path)))
        let (whole, _) = DecodeOutcome.of(bytes)
        #expect(whole.error == nil && whole.warnings.isEmpty && whole.framesDecoded == whole.frameCount, "the whole file decodes: \(whole)")
        let scratch = DecodeScratch()
        var storage: [UInt8] = []
        var decodedPrefixes: Set<Int> = []
        for cut in 0..<bytes.count {
            guard let decoder = try? AnimationDecoder(bytes: Array(bytes[..<cut])) else { continue }
            let last = decoder.frameCount - 1
            guard let layer = try? decoder.source.decodeLayer(last, bytes: decoder.bytes, scratch: scratch, storage: &storage) else { continue }
            #expect(layer.pixels.count == layer.rect.width * layer.rect.height * 4)
            decodedPrefixes.insert(cut)
        }
        #expect(decodedPrefixes.allSatisfy { $0 >= 6 }, "no format is recognised from less than a signature")
        switch (path as NSString).pathExtension {
        case "png":
            // The documented partial result: a PNG missing only its IEND chunk still decodes.
            #expect(decodedPrefixes.contains(bytes.count - 12))
        case "gif":
            // A truncated GIF keeps its frames: the prefix without the trailer byte decodes.
            #expect(decodedPrefixes.contains(bytes.count - 1))
        default:
            break
        }
    }

    /// A cut in the middle of the third image's data (located by the test's own block walk):
    /// the two images before it are kept whole and equal peterdn's expected canvases, the third
    /// is kept partial, and the structure warns of the truncation.
    @Test("a truncated GIF keeps every frame whose data began before the cut, the complete ones exact", .needs("gif-peterdn"))
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
            #expect(Reference.mismatches(frames[index].pixels, Reference.premultiplied(straight: expected.rgba)) == 0, "frame \(index)")
        }
    }
}
