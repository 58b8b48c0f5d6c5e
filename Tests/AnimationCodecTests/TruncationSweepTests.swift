@testable import AnimationCodec
import Foundation
import TestSupport
import Testing

/// Damaged input: prefixes of files and single-byte flips must give a typed error or frames
/// (a documented partial result), never a crash or a hang. Bounded: a fixed number of cuts
/// and flips per file, chosen from fixed seeds.
@Suite("Truncation and corruption sweep")
struct TruncationSweepTests {
    static let files: [(String, String)] = [
        ("apng-philip-taylor", "dispose_op_previous_frame.png"), ("apng-philip-taylor", "split_fdat.png"),
        ("apng-philip-taylor", "mode_palette_alpha.png"), ("gif-peterdn", "animated_transparent_restoreprev_loop.gif"),
        ("gif-peterdn", "animated_loop_interlaced.gif"), ("pngsuite", "png/basi6a16.png"), ("pngsuite", "png/basi3p02.png"),
        ("wuffs-testdata", "muybridge.gif"), ("stickers-blobfox", "ablobfoxhyper.png"), ("image-gif-tests", "samples/moon_impact.gif"),
    ]

    /// The conformance suites the sampled files come from.
    static let suites = Array(Set(files.map(\.0))).sorted()

    /// Decodes everything it can; returns whether it ended in a typed error.
    static func decodeCompletely(_ bytes: [UInt8]) -> Bool {
        do {
            let decoder = try AnimationDecoder(bytes: bytes)
            var iterator = decoder.makeFrameIterator()
            var count = 0
            while let frame = try iterator.next() {
                #expect(frame.pixels.count == decoder.info.width * decoder.info.height * 4)
                count += 1
            }
            #expect(count == decoder.frameCount)
            return false
        } catch {
            return true
        }
    }

    @Test("every sampled prefix decodes to frames or a typed error", .needs(suites), arguments: files)
    func prefixes(suite: String, path: String) throws {
        let bytes = try Fixtures.bytes(suite, path)
        // All of the first 300 cuts (headers), then 200 spread over the rest.
        var cuts = Set(0..<min(300, bytes.count))
        for k in 0..<200 { cuts.insert(bytes.count * k / 200) }
        for cut in cuts.sorted() { _ = Self.decodeCompletely(Array(bytes.prefix(cut))) }
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
    @Test("every prefix of every corpus file decodes to frames or a typed error", arguments: corpusFiles)
    func everyPrefix(path: String) throws {
        let bytes = try [UInt8](Data(contentsOf: Fixtures.repoRoot.appendingPathComponent("corpus").appendingPathComponent(path)))
        #expect(!Self.decodeCompletely(bytes), "the whole file decodes")
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

    @Test("single-byte flips at sampled offsets decode to frames or a typed error", .needs(suites), arguments: files)
    func flips(suite: String, path: String) throws {
        let bytes = try Fixtures.bytes(suite, path)
        var generator = SplitMix(seed: UInt64(bytes.count))
        for _ in 0..<300 {
            var damaged = bytes
            let offset = Int(generator.next() % UInt64(bytes.count))
            damaged[offset] ^= UInt8(truncatingIfNeeded: generator.next() | 1)
            _ = Self.decodeCompletely(damaged)
        }
    }

    @Test("PNG byte flips with the chunk CRC repaired reach the decoder and still end cleanly", .needs(suites),
          arguments: files.filter { $0.1.hasSuffix(".png") })
    func flipsBehindValidCRC(suite: String, path: String) throws {
        let bytes = try Fixtures.bytes(suite, path)
        // Chunk layout: (start of length field, data count).
        var chunks: [(Int, Int)] = []
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard offset + 12 + length <= bytes.count else { break }
            if length > 0 { chunks.append((offset, length)) }
            offset += 12 + length
        }
        var generator = SplitMix(seed: UInt64(bytes.count) &* 31)
        for _ in 0..<400 {
            var damaged = bytes
            let (start, length) = chunks[Int(generator.next() % UInt64(chunks.count))]
            damaged[start + 8 + Int(generator.next() % UInt64(length))] ^= UInt8(truncatingIfNeeded: generator.next() | 1)
            let crc = Reference.crc32(damaged[(start + 4)..<(start + 8 + length)])
            damaged.replaceSubrange((start + 8 + length)..<(start + 12 + length),
                                    with: [UInt8(crc >> 24), UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)])
            _ = Self.decodeCompletely(damaged)
        }
    }

    @Test("a truncated GIF keeps the frames before the cut, with a truncation warning", .needs("gif-peterdn"))
    func truncatedGIFKeepsFrames() throws {
        let bytes = try Fixtures.bytes("gif-peterdn", "animated_loop.gif")
        let full = try AnimationDecoder(bytes: bytes)
        let decoder = try AnimationDecoder(bytes: Array(bytes.prefix(bytes.count * 3 / 4)))
        #expect(decoder.frameCount >= 1 && decoder.frameCount <= full.frameCount)
        #expect(decoder.info.warnings.contains { $0.kind == .truncated })
        let first = try decoder.frame(at: 0), expected = try full.frame(at: 0)
        if decoder.frameCount > 1 { #expect(first.pixels == expected.pixels) }
    }
}
