import AnimationCodec
import Foundation
import TestSupport
import Testing

/// Single-byte damage to the files ``TruncationSweepTests`` samples. A flip must end in the
/// outcome documented for what it hits where that is knowable (a signature, a chunk's data or
/// CRC, a GIF image's LZW data), and otherwise in frames of exactly the canvas the damaged
/// header declares or in one of the typed errors the format's reader gives there; never in a
/// crash or a hang. Bounded: a fixed number of flips per file, chosen from fixed seeds.
@Suite("Byte-flip sweep")
struct ByteFlipTests {
    typealias Sample = TruncationSweepTests.Sample

    @Test(
        "single-byte flips end in the outcome documented for what they hit", .needs(TruncationSweepTests.suites),
        .timeLimit(.minutes(3)), arguments: TruncationSweepTests.files)
    func flips(suite: String, path: String) throws {
        let sample = try Sample(suite, path)
        var generator = SplitMix(seed: UInt64(sample.bytes.count))
        for _ in 0..<300 {
            var damaged = sample.bytes
            let offset = Int(generator.next() % UInt64(damaged.count))
            damaged[offset] ^= UInt8(truncatingIfNeeded: generator.next() | 1)
            if sample.isGIF {
                Self.expectGIFFlip(damaged, at: offset, of: sample)
            } else {
                try Self.expectPNGFlip(damaged, at: offset, of: sample)
            }
        }
    }

    @Test(
        "PNG byte flips with the chunk CRC repaired reach the decoder and end in frames or the chunk's errors",
        .needs(TruncationSweepTests.suites), .timeLimit(.minutes(3)),
        arguments: TruncationSweepTests.files.filter { $0.1.hasSuffix(".png") })
    func flipsBehindValidCRC(suite: String, path: String) throws {
        let sample = try Sample(suite, path)
        let chunks = PNGChunkLayout(sample.bytes).chunks.filter { !$0.data.isEmpty }
        var generator = SplitMix(seed: UInt64(sample.bytes.count) &* 31)
        for _ in 0..<400 {
            var damaged = sample.bytes
            let chunk = chunks[Int(generator.next() % UInt64(chunks.count))]
            let offset = chunk.data.lowerBound + Int(generator.next() % UInt64(chunk.data.count))
            damaged[offset] ^= UInt8(truncatingIfNeeded: generator.next() | 1)
            let crc = Reference.crc32(damaged[(chunk.start + 4)..<chunk.data.upperBound])
            damaged.replaceSubrange(
                chunk.data.upperBound..<chunk.end,
                with: [UInt8(crc >> 24), UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)])
            Self.expectFramesOfDeclaredSize(
                damaged, orOneOf: Self.errorsAfterRepairedFlip(in: chunk.type),
                canvas: PNGChunkLayout.headerSize(damaged), "\(chunk.type) flip at \(offset)")
        }
    }

    /// A flip in a PNG whose CRCs are left as they were. In the signature no format is
    /// recognised. In a chunk's data or CRC the CRC check fails, which is an error for a
    /// critical chunk, breaks the animation for an APNG chunk (the default image alone) and
    /// skips an ancillary chunk (the frames unchanged, but for a skipped tRNS). In a length or
    /// type field anything the chunk reader reports can follow: a truncation, a malformed or
    /// mismatching chunk, image data cut short (a data chunk whose type turns ancillary is
    /// skipped), or frames of the canvas IHDR declares.
    static func expectPNGFlip(_ damaged: [UInt8], at offset: Int, of sample: Sample) throws {
        let context = "flip at \(offset)"
        guard offset >= 8 else {
            return sample.expect(damaged, toDecodeAs: ExpectedDecode(outcome: .failed(.unknownFormat)), context)
        }
        let chunk = try #require(PNGChunkLayout(sample.bytes).chunk(containing: offset))
        guard offset >= chunk.data.lowerBound else {
            return expectFramesOfDeclaredSize(
                damaged, orOneOf: [.truncated, .malformed(.png), .corruptCompressedData], orChecksumMismatch: true,
                canvas: PNGChunkLayout.headerSize(damaged), "\(context), \(chunk.type) length or type")
        }
        let count = sample.frames.count
        let expected: ExpectedDecode
        if chunk.type.first?.isUppercase == true {
            expected = ExpectedDecode(outcome: .failed(.chunkChecksumMismatch(chunk: chunk.type)))
        } else if ["acTL", "fcTL", "fdAT"].contains(chunk.type) {
            expected = ExpectedDecode(
                outcome: DecodeOutcome(frameCount: 1, warnings: [.animationIgnored], framesDecoded: 1),
                pixels: [.defaultImage])
        } else {
            expected = ExpectedDecode(
                outcome: DecodeOutcome(frameCount: count, warnings: [.ancillaryChunkSkipped], framesDecoded: count),
                pixels: (0..<count).map { chunk.type == "tRNS" ? .unknown : .wholeFileFrame($0) })
        }
        sample.expect(damaged, toDecodeAs: expected, "\(context), \(chunk.type) data or CRC")
    }

    /// A flip in a GIF. In the signature no format is recognised, unless the flip spells the
    /// other GIF version. Inside an image's LZW data the structure is untouched: every frame
    /// decodes, and the frames before that image are unchanged. Elsewhere (screen, colour
    /// tables, extensions, descriptors, block sizes) the outcome is frames of the canvas the
    /// damaged file declares, or an error of the block reader: a truncation, a zero-sized
    /// canvas, no image at all, or a frame over the limits.
    static func expectGIFFlip(_ damaged: [UInt8], at offset: Int, of sample: Sample) {
        let context = "flip at \(offset)"
        if offset < 6 && !["GIF87a", "GIF89a"].contains(String(decoding: damaged.prefix(6), as: UTF8.self)) {
            return sample.expect(damaged, toDecodeAs: ExpectedDecode(outcome: .failed(.unknownFormat)), context)
        }
        if let image = GIFBlockLayout(sample.bytes).images.firstIndex(where: {
            $0.dataRanges.contains { $0.contains(offset) }
        }) {
            let count = sample.frames.count
            let expected = ExpectedDecode(
                outcome: DecodeOutcome(frameCount: count, framesDecoded: count),
                pixels: (0..<count).map { $0 < image ? .wholeFileFrame($0) : .unknown })
            return sample.expect(damaged, toDecodeAs: expected, "\(context), LZW data of image \(image)")
        }
        let canvas = GIFBlockLayout(damaged).canvasSize ?? (0, 0)
        expectFramesOfDeclaredSize(
            damaged, orOneOf: [.truncated, .malformed(.gif), .noImageData, .limitExceeded], canvas: canvas, context)
    }

    /// The errors a flip in a chunk's data, behind a repaired CRC, may lead to: IHDR can declare
    /// an impossible image, one over the limits, or one its data does not fill; image data can
    /// stop inflating early or hold an unknown filter byte; a frame control can give a rectangle
    /// its data does not fit. Damage to any other chunk is decoded through.
    static func errorsAfterRepairedFlip(in type: String) -> Set<CodecErrorCase> {
        switch type {
        case "IHDR": return [.malformed(.png), .limitExceeded, .corruptCompressedData]
        case "IDAT", "fdAT", "fcTL": return [.corruptCompressedData, .malformed(.png)]
        default: return []
        }
    }

    /// Decodes `damaged`: it must end in every frame decoded at exactly the `canvas` size, or
    /// in one of `errors` (or, when allowed, a CRC mismatch on any chunk).
    static func expectFramesOfDeclaredSize(
        _ damaged: [UInt8], orOneOf errors: Set<CodecErrorCase>, orChecksumMismatch: Bool = false,
        canvas: (width: Int, height: Int), _ context: String
    ) {
        let (outcome, info) = DecodeOutcome.of(damaged)
        switch outcome.error {
        case nil:
            #expect(
                info?.width == canvas.width && info?.height == canvas.height, "\(context): \(outcome), canvas \(canvas)"
            )
            #expect(outcome.framesDecoded == outcome.frameCount && outcome.frameCount > 0, "\(context): \(outcome)")
        case .chunkChecksumMismatch? where orChecksumMismatch:
            break
        case let error?:
            #expect(errors.contains(error), "\(context): \(outcome)")
        }
    }
}
