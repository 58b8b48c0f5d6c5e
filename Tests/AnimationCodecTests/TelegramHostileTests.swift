import AnimationCodec
import CZlib
import Foundation
import TestSupport
import Testing

/// WebM and Lottie files cut short, corrupted, lying about their sizes or built to exhaust
/// memory: the outcome documented for what the damage hits (the same frames, frames up to a
/// frame error, or a typed error), never a crash, a hang or an allocation the limits did not
/// allow.
@Suite("WebM and Lottie: prefixes, corruption, lying sizes, bombs", .timeLimit(.minutes(3)))
struct TelegramHostileTests {
    static func webm() throws -> [UInt8] {
        [UInt8](try Data(contentsOf: WebMTests.file(WebMTests.cases[0])))
    }

    /// Decodes every frame; the error's case, or nil when all decoded. Every frame must be a
    /// whole canvas of the size the file declares.
    static func outcome(_ bytes: [UInt8], limits: DecodingLimits = .default) -> CodecErrorCase? {
        do {
            let decoder = try AnimationDecoder(bytes: bytes, limits: limits)
            try decoder.forEachFrame(threads: 1) { frame throws(CodecError) in
                #expect(
                    frame.pixels.count == decoder.info.width * decoder.info.height * 4,
                    "frame \(frame.info.index) has \(frame.pixels.count) bytes on a \(decoder.info.width)x\(decoder.info.height) canvas"
                )
            }
            return nil
        } catch {
            return CodecErrorCase(error)
        }
    }

    /// Decodes every frame; the error, or nil when all decoded.
    static func error(_ bytes: [UInt8], limits: DecodingLimits = .default) -> CodecError? {
        do {
            let decoder = try AnimationDecoder(bytes: bytes, limits: limits)
            _ = try decoder.decodeAllFrames(threads: 1)
            return nil
        } catch {
            return error
        }
    }

    /// Where the EBML header ends: before it no prefix is recognisable as WebM.
    static func ebmlHeaderEnd(_ bytes: [UInt8]) -> Int {
        let sizeLength = bytes[4].leadingZeroBitCount + 1
        var size = Int(bytes[4] & (0xFF >> sizeLength))
        for index in 1..<sizeLength { size = size << 8 | Int(bytes[4 + index]) }
        return 4 + sizeLength + size
    }

    @Test(
        "every prefix of a WebM: unrecognised inside the EBML header, truncated until a block is whole, then the whole blocks' frames with a truncated warning"
    )
    func webmPrefixes() throws {
        let bytes = try Self.webm()
        let header = Self.ebmlHeaderEnd(bytes)
        let layout = WebMLayout(bytes)
        // Where each block is whole: the end of its BlockGroup (its alpha and duration with it),
        // else of its SimpleBlock.
        let groups = layout.elements.filter { $0.id == WebMLayout.blockGroup }
        let wholeAt = layout.blocks.map { entry in
            groups.first { ($0.start..<$0.end).contains(entry.block.start) }?.end ?? entry.block.end
        }
        var originals: [[UInt8]] = []
        let (original, _) = DecodeOutcome.of(bytes) { _, frame in originals.append(frame.pixels) }
        #expect(original == DecodeOutcome(frameCount: 15, framesDecoded: 15))
        #expect(wholeAt.count == 15)
        for cut in 0..<bytes.count {
            let whole = wholeAt.filter { $0 <= cut }.count
            var changed: [Int] = []
            let (outcome, _) = DecodeOutcome.of(Array(bytes.prefix(cut))) { index, frame in
                if frame.pixels != originals[index] { changed.append(index) }
            }
            let expected =
                cut == 0
                ? .failed(.emptyFile)
                : cut < header
                    ? .failed(.unknownFormat)
                    : whole == 0
                        ? .failed(.truncated)
                        : DecodeOutcome(frameCount: whole, warnings: [.truncated], framesDecoded: whole)
            #expect(outcome == expected, "cut at \(cut) of \(bytes.count)")
            #expect(changed.isEmpty, "cut at \(cut): frames \(changed) differ from the whole file's")
        }
    }

    @Test("random corruption of a WebM: the outcome documented for what each flip hits")
    func webmCorruption() throws {
        let bytes = try Self.webm()
        let layout = WebMLayout(bytes)
        var originals: [[UInt8]] = []
        let (original, _) = DecodeOutcome.of(bytes) { _, frame in originals.append(frame.pixels) }
        #expect(original == DecodeOutcome(frameCount: 15, framesDecoded: 15))
        #expect(layout.blocks.count == 15)
        var random = SplitMix(seed: 26)
        var seen: [String: Int] = [:]
        for _ in 0..<400 {
            var damaged = bytes
            var regions: [WebMLayout.Region] = []
            for _ in 0..<1 + Int(random.next() % 4) {
                let offset = Int(random.next() % UInt64(bytes.count))
                damaged[offset] ^= UInt8(truncatingIfNeeded: random.next() | 1)
                regions.append(layout.region(of: offset))
            }
            let region = WebMLayout.Region.covering(regions)
            seen[region.kind, default: 0] += 1
            let context = "flips in \(regions)"
            var changed: [Int] = []
            let (outcome, _) = DecodeOutcome.of(damaged) { index, frame in
                if index < originals.count, frame.pixels != originals[index] { changed.append(index) }
            }
            switch region {
            case .skipped, .blockTime:
                // Data nothing reads (SeekHead, Void, Cues, Tags), or a block's time relative to
                // its Cluster: the same frames, pixel for pixel.
                #expect(outcome == original, "\(context): \(outcome)")
                #expect(changed.isEmpty, "\(context): frames \(changed) changed")
            case .framePayload(let block):
                // The container is intact: every block is read; those before the damaged one
                // decode as before; from it on, frames or the error libvpx or the frame-header
                // check reports.
                #expect(
                    outcome.structureError == nil && outcome.frameCount == original.frameCount, "\(context): \(outcome)"
                )
                #expect(outcome.framesDecoded >= block, "\(context): \(outcome)")
                #expect(changed.allSatisfy { $0 >= block }, "\(context): frames \(changed) changed")
                if let error = outcome.frameError {
                    #expect([.malformed(.webm), .corruptCompressedData].contains(error), "\(context): \(outcome)")
                } else {
                    #expect(outcome.framesDecoded == outcome.frameCount, "\(context): \(outcome)")
                }
            case .structure:
                // An ID, a size, the EBML header, Info, Tracks, a block's header: the errors the
                // EBML and Matroska readers give, or every frame the damaged file declares.
                if let error = outcome.error {
                    #expect(
                        [
                            .unknownFormat, .truncated, .malformed(.webm), .limitExceeded, .noImageData,
                            .corruptCompressedData
                        ].contains(error),
                        "\(context): \(outcome)")
                } else {
                    #expect(
                        outcome.framesDecoded == outcome.frameCount && outcome.frameCount > 0, "\(context): \(outcome)")
                }
            }
        }
        // The seed reaches these kinds of region; block times, 2 bytes in 200, are flipped one
        // by one below.
        #expect(Set(seen.keys) == ["skipped", "framePayload", "structure"], "\(seen)")
        for (index, entry) in layout.blocks.enumerated() {
            let trackLength = 1
            #expect(bytes[entry.block.dataStart] == 0x81, "block \(index): track number 1 in one byte")
            var damaged = bytes
            damaged[entry.block.dataStart + trackLength] ^= 0x40
            #expect(layout.region(of: entry.block.dataStart + trackLength) == .blockTime)
            var changed: [Int] = []
            let (outcome, _) = DecodeOutcome.of(damaged) { index, frame in
                if frame.pixels != originals[index] { changed.append(index) }
            }
            #expect(
                outcome == original && changed.isEmpty,
                "block \(index)'s time flipped: \(outcome), frames \(changed) changed")
        }
    }

    @Test("lying EBML sizes: past the file is a file cut short, past the parent a malformed file")
    func webmLyingSizes() throws {
        let bytes = try Self.webm()
        // The Segment's size field (after its 4-byte ID) made 8 bytes of "2^50".
        let segment = Self.ebmlHeaderEnd(bytes)
        let sizeLength = bytes[segment + 4].leadingZeroBitCount + 1
        var lying =
            Array(bytes[..<(segment + 4)]) + [0x01, 0x04, 0, 0, 0, 0, 0, 0] + bytes[(segment + 4 + sizeLength)...]
        let whole = DecodeOutcome(frameCount: 15, warnings: [.truncated], framesDecoded: 15)
        #expect(DecodeOutcome.of(lying).0 == whole)
        // The first Cluster's size made one byte more than what is left of the Segment, whose
        // end is the file's: a Cluster cut short, which ends where the next element of the
        // Segment starts, so every block is read.
        let layout = WebMLayout(bytes)
        let segmentElement = try #require(layout.elements.first { $0.id == WebMLayout.segment })
        #expect(segmentElement.end == bytes.count)
        let cluster = try #require(layout.elements.first { $0.id == WebMLayout.cluster })
        lying = bytes
        try WebMLayout.setSize(of: cluster, to: bytes.count - cluster.dataStart + 1, in: &lying)
        #expect(DecodeOutcome.of(lying).0 == whole)
        // The first BlockGroup's size made one byte more than what is left of its Cluster,
        // which ends before the file does (Cues follow): a malformed file.
        #expect(cluster.end < bytes.count)
        let group = try #require(layout.elements.first { $0.id == WebMLayout.blockGroup })
        lying = bytes
        try WebMLayout.setSize(of: group, to: cluster.end - group.dataStart + 1, in: &lying)
        #expect(Self.outcome(lying) == .malformed(.webm))
    }

    @Test("a track that lies about its size: the frame headers are checked before libvpx")
    func webmLyingTrackSize() throws {
        let bytes = try Self.webm()
        // PixelWidth (B0) and PixelHeight (BA) inside Tracks, one-byte values, set to 255.
        let tracksID: [UInt8] = [0x16, 0x54, 0xAE, 0x6B]
        let tracks = try #require((0..<bytes.count - 4).first { Array(bytes[$0..<$0 + 4]) == tracksID })
        var lying = bytes
        for id: UInt8 in [0xB0, 0xBA] {
            let at = try #require((tracks..<bytes.count - 3).first { bytes[$0] == id && bytes[$0 + 1] == 0x81 })
            lying[at + 2] = 255
        }
        do {
            let decoder = try AnimationDecoder(bytes: lying)
            #expect(decoder.info.width == 255 && decoder.info.height == 255)
            _ = try decoder.frame(at: 0)
            Issue.record("a 67x45 stream decoded as 255x255")
        } catch {
            #expect(String(describing: error).contains("frame is 67x45, the track is 255x255"), "\(error)")
        }
        // A canvas past the limits is refused from the track alone, and so are too many frames.
        let small = DecodingLimits(maxSide: 4096, maxPixels: 10_000, maxFrames: 100, maxTotalDecodedBytes: 1 << 30)
        #expect(Self.error(lying, limits: small) == .limitExceeded(.pixels(255 * 255, limit: 10_000)))
        // Blocks are counted as they are read: the fourth is one over.
        #expect(
            Self.error(
                bytes,
                limits: DecodingLimits(maxSide: 4096, maxPixels: 1 << 20, maxFrames: 3, maxTotalDecodedBytes: 1 << 30))
                == .limitExceeded(.frames(4, limit: 3)))
    }

    @Test("every prefix of a .tgs and of its JSON: unrecognised until four of Lottie's keys are whole, then truncated")
    func lottiePrefixes() throws {
        let text = LottieTests.movingSquare
        let json = Array(text.utf8)
        let tgs = Gzip.compress(json)
        // The fourth of Lottie's top-level keys is "op" (after "v", "fr", "ip"): a head is
        // Lottie once it holds that member's name and the ':' that makes it one.
        let fourthKey = try #require(text.range(of: #""op":"#))
        #expect(String(text[..<fourthKey.lowerBound]).hasPrefix(#"{"v":"5.5.2","fr":30,"ip":0,"#))
        let recognisedFrom = text.utf8.distance(from: text.startIndex, to: fourthKey.upperBound)
        for cut in 0..<json.count {
            let expected: CodecErrorCase = cut == 0 ? .emptyFile : cut < recognisedFrom ? .unknownFormat : .truncated
            #expect(Self.outcome(Array(json.prefix(cut))) == expected, "json cut at \(cut)")
        }
        // A .tgs head is read as far as zlib inflates it.
        for cut in 0..<tgs.count {
            let inflated = Gzip.inflatedPrefixCount(Array(tgs.prefix(cut)))
            let expected: CodecErrorCase =
                cut == 0 ? .emptyFile : inflated < recognisedFrom ? .unknownFormat : .truncated
            #expect(Self.outcome(Array(tgs.prefix(cut))) == expected, "tgs cut at \(cut), \(inflated) bytes inflated")
        }
        #expect(Self.outcome(json) == nil)
        #expect(Self.outcome(tgs) == nil)
    }

    @Test("random corruption of Lottie JSON and .tgs: the outcome Python's json and the documented rules give")
    func lottieCorruption() throws {
        let text = LottieTests.fadingCircle
        let json = Array(text.utf8)
        // Damage after the fourth key's ':' cannot stop the sniffer recognising the document.
        let fourthKey = try #require(text.range(of: #""op":"#))
        let recognisedFrom = text.utf8.distance(from: text.startIndex, to: fourthKey.upperBound)
        var random = SplitMix(seed: 27)
        var rounds: [(bytes: [UInt8], document: [UInt8], firstDamage: Int)] = []
        for round in 0..<300 {
            var damaged = json
            var firstDamage = json.count
            for _ in 0..<1 + Int(random.next() % 3) {
                let offset = Int(random.next() % UInt64(json.count))
                damaged[offset] = UInt8(truncatingIfNeeded: random.next())
                firstDamage = min(firstDamage, offset)
            }
            rounds.append((round % 2 == 0 ? damaged : Gzip.compress(damaged), damaged, firstDamage))
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "stickerkit-lottie-verdicts-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = folder.appendingPathComponent("original.json")
        let docs = folder.appendingPathComponent("docs.hex")
        let verdictsFile = folder.appendingPathComponent("verdicts.txt")
        try Data(json).write(to: original)
        try Data(rounds.map { $0.document.map { String(format: "%02x", $0) }.joined() + "\n" }.joined().utf8).write(
            to: docs)
        let script = Fixtures.repoRoot.appendingPathComponent("Tests/Scripts/lottie_verdicts.py").path
        try #require(
            try TestProcess.run(["python3", script, original.path, docs.path, verdictsFile.path], timeout: .seconds(60))
                == 0)
        let verdicts = try String(contentsOf: verdictsFile, encoding: .utf8).split(separator: "\n").map(String.init)
        try #require(verdicts.count == rounds.count)

        var originals: [[UInt8]] = []
        let (undamaged, _) = DecodeOutcome.of(json) { _, frame in originals.append(frame.pixels) }
        #expect(undamaged == DecodeOutcome(frameCount: 30, framesDecoded: 30))
        var seen: [String: Int] = [:]
        for (round, ((bytes, _, firstDamage), verdict)) in zip(rounds, verdicts).enumerated() {
            let context =
                "round \(round) (\(round % 2 == 0 ? "json" : "tgs"), damage from byte \(firstDamage)): Python says \(verdict)"
            var changed: [Int] = []
            let (outcome, _) = DecodeOutcome.of(bytes) { index, frame in
                if index < originals.count, frame.pixels != originals[index] { changed.append(index) }
            }
            var words = verdict.split(separator: " ")
            seen[String(words[0]), default: 0] += 1
            if words.first == "utf8" {
                words.removeFirst()
                if ["same", "frames"].contains(words.first) {
                    // RFC 8259 section 8.1: JSON text is UTF-8, and docs/formats.md promises strict
                    // JSON, else a malformed error (or, inside the first four keys, a head that
                    // is not recognised as Lottie at all).
                    if !(firstDamage < recognisedFrom && outcome.error == .unknownFormat) {
                        #expect(outcome == .failed(.malformed(.lottie)), "\(context): \(outcome)")
                    }
                    continue
                }
            }
            // Damage inside the first four keys can also leave the head unrecognisable.
            if firstDamage < recognisedFrom, outcome.error == .unknownFormat { continue }
            switch (words[0], words.count > 1 ? Int(words[1]) : nil) {
            case ("malformed", nil):
                #expect(outcome == .failed(.malformed(.lottie)), "\(context): \(outcome)")
            case ("truncated", nil):
                #expect(outcome == .failed(.truncated), "\(context): \(outcome)")
            case ("unrecognised", nil):
                #expect(outcome == .failed(.unknownFormat), "\(context): \(outcome)")
            case ("limit", nil):
                #expect(outcome == .failed(.limitExceeded), "\(context): \(outcome)")
            case ("same", let frames?):
                #expect(outcome == DecodeOutcome(frameCount: frames, framesDecoded: frames), "\(context): \(outcome)")
                #expect(changed.isEmpty, "\(context): frames \(changed) differ from the undamaged document's")
            case ("frames", let frames?):
                // rlottie may still refuse a layer it cannot build; nothing else may fail.
                if outcome != .failed(.malformed(.lottie)) {
                    #expect(
                        outcome == DecodeOutcome(frameCount: frames, framesDecoded: frames), "\(context): \(outcome)")
                }
            default:
                Issue.record("\(context): an unknown verdict")
            }
        }
        #expect(
            seen["malformed", default: 0] > 0 && seen["frames", default: 0] + seen["same", default: 0] > 0, "\(seen)")
        // A flipped byte in the middle of the gzip stream: the stream still inflates to its
        // end, to other text, and its CRC-32 disagrees (Python's zlib: "incorrect data check").
        var tgs = Gzip.compress(json)
        tgs[tgs.count / 2] ^= 0xFF
        #expect(Self.error(tgs) == .corruptCompressedData(reason: "gzip: incorrect data check"))
    }

    @Test("a gzip bomb is refused by its inflated size, before it is all in memory")
    func gzipBomb() {
        let head = #"{"v":"5.5.2","fr":30,"ip":0,"op":30,"w":64,"h":64,"layers":["#
        let bomb = Gzip.compress(Array(head.utf8) + [UInt8](repeating: 0x20, count: 8 << 20) + Array("]}".utf8))
        #expect(bomb.count < 64 << 10)
        #expect(ImageFormat.sniff(bomb) == .lottie)
        let limits = DecodingLimits(
            maxSide: 4096, maxPixels: 1 << 22, maxFrames: 1000, maxTotalDecodedBytes: 1 << 30, maxFileBytes: 1 << 20)
        do {
            _ = try AnimationDecoder(bytes: bomb, limits: limits)
            Issue.record("an 8 MB document inflated under a 1 MB limit")
        } catch {
            #expect(error == .limitExceeded(.inflatedBytes(limit: 1 << 20)))
        }
    }

    @Test("a Lottie canvas of 100000 px, a million frames, deep nesting: refused before rlottie")
    func lottieLimits() {
        func document(w: Int, h: Int, op: Int, layers: String = "[]") -> [UInt8] {
            Array(#"{"v":"5.5.2","fr":30,"ip":0,"op":\#(op),"w":\#(w),"h":\#(h),"layers":\#(layers)}"#.utf8)
        }
        #expect(
            Self.error(document(w: 100_000, h: 100_000, op: 30))
                == .limitExceeded(.pixels(100_000 * 100_000, limit: 64 << 20)))
        #expect(
            Self.error(document(w: 512, h: 512, op: 1_000_000)) == .limitExceeded(.frames(1_000_000, limit: 10_000)))
        let nested = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(Self.outcome(document(w: 64, h: 64, op: 30, layers: nested)) == .malformed(.lottie))
        // A size asked for past the limits is refused too.
        let small = DecodingLimits(maxSide: 1024, maxPixels: 1 << 20, maxFrames: 100, maxTotalDecodedBytes: 1 << 30)
        #expect(throws: CodecError.limitExceeded(.side(width: 4096, height: 4096, limit: 1024))) {
            _ = try AnimationDecoder(
                bytes: document(w: 64, h: 64, op: 30), limits: small, vectorSize: PixelSize(width: 4096, height: 4096))
        }
        // Frame rates that would make a frame show for more than 100 s or less than 1 ms.
        for rate in ["1e-14", "0.001", "5000"] {
            #expect(
                Self.outcome(Array(#"{"v":"5","fr":\#(rate),"ip":0,"op":30,"w":64,"h":64,"layers":[]}"#.utf8))
                    == .malformed(.lottie), "fr \(rate)")
        }
        // Repeaters: one of 100,000 copies, and three of 100 (a million together), are refused
        // before rlottie builds them; one of 10 is drawn.
        func repeaters(_ counts: [Int]) -> [UInt8] {
            let shapes =
                #"{"ty":"rc","p":{"a":0,"k":[0,0]},"s":{"a":0,"k":[4,4]},"r":{"a":0,"k":0}},"#
                + counts.map {
                    #"{"ty":"rp","c":{"a":0,"k":\#($0)},"o":{"a":0,"k":0},"m":1,"tr":{"ty":"tr","p":{"a":0,"k":[1,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},"so":{"a":0,"k":100},"eo":{"a":0,"k":100}}},"#
                }.joined()
                + #"{"ty":"fl","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100}}"#
            let layer =
                #"{"ty":4,"ind":1,"ip":0,"op":2,"st":0,"ks":{"o":{"a":0,"k":100},"r":{"a":0,"k":0},"p":{"a":0,"k":[8,8,0]},"a":{"a":0,"k":[0,0,0]},"s":{"a":0,"k":[100,100,100]}},"shapes":[\#(shapes)]}"#
            return Array(#"{"v":"5.5.2","fr":30,"ip":0,"op":2,"w":64,"h":64,"layers":[\#(layer)]}"#.utf8)
        }
        #expect(Self.outcome(repeaters([100_000])) == .malformed(.lottie))
        #expect(Self.outcome(repeaters([100, 100, 100])) == .malformed(.lottie))
        #expect(Self.outcome(repeaters([10])) == nil)
        // Precompositions each using the next twice: rlottie builds every use. With a shape
        // layer at the bottom of n levels, asset i holds E(i) = 2 (1 + E(i + 1)) layers and the
        // document 1 + E(0) = 3 x 2^n - 1: 12,287 at 12 levels (drawn), 24,575 at 13 (refused
        // before rlottie reads it; a few hundred bytes more would take gigabytes).
        func precompositions(levels: Int, references: (Int) -> [String]) -> [UInt8] {
            let transform =
                #""ks":{"o":{"a":0,"k":100},"r":{"a":0,"k":0},"p":{"a":0,"k":[0,0,0]},"a":{"a":0,"k":[0,0,0]},"s":{"a":0,"k":[100,100,100]}}"#
            func use(_ id: String, _ index: Int) -> String {
                #"{"ty":0,"refId":"\#(id)","ind":\#(index),"ip":0,"op":2,"st":0,"w":64,"h":64,\#(transform)}"#
            }
            let shape =
                #"{"ty":4,"ind":1,"ip":0,"op":2,"st":0,\#(transform),"shapes":[{"ty":"rc","p":{"a":0,"k":[32,32]},"s":{"a":0,"k":[8,8]},"r":{"a":0,"k":0}},{"ty":"fl","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100}}]}"#
            let assets =
                (0..<levels).map { level in
                    #"{"id":"a\#(level)","layers":[\#(references(level).enumerated().map { use($1, $0 + 1) }.joined(separator: ","))]}"#
                } + [#"{"id":"a\#(levels)","layers":[\#(shape)]}"#]
            return Array(
                #"{"v":"5.5.2","fr":30,"ip":0,"op":2,"w":64,"h":64,"assets":[\#(assets.joined(separator: ","))],"layers":[\#(use("a0", 1))]}"#
                    .utf8)
        }
        let twice = { (level: Int) in ["a\(level + 1)", "a\(level + 1)"] }
        #expect(Self.outcome(precompositions(levels: 12, references: twice)) == nil)
        #expect(
            Self.error(precompositions(levels: 13, references: twice))
                == .malformed(
                    format: .lottie,
                    reason: "its layers, each precomposition counted as often as it is used, come to more than 20000"))
        let tooMany = CodecError.malformed(
            format: .lottie,
            reason: "its layers, each precomposition counted as often as it is used, come to more than 20000")
        // As rlottie reads them: an asset's id may be a number; a repeated "layers" array adds to
        // the ones before; an object with an id and layers that is not one of the top level's
        // assets is no asset (it does not replace the one of its id).
        let text = String(decoding: precompositions(levels: 13, references: twice), as: UTF8.self)
        var numbered = text
        for level in (0...13).reversed() {
            numbered = numbered.replacingOccurrences(of: #""id":"a\#(level)""#, with: #""id":\#(level)"#)
                .replacingOccurrences(of: #""refId":"a\#(level)""#, with: #""refId":"\#(level)""#)
        }
        #expect(Self.error(Array(numbered.utf8)) == tooMany)
        let split = text.replacingOccurrences(
            of: #"{"id":"a1","layers":["#, with: #"{"id":"a1","layers":[],"layers":["#)
        #expect(split != text && Self.error(Array(split.utf8)) == tooMany)
        let decoy = text.replacingOccurrences(
            of: #""ip":0,"op":2,"st":0,"w":64,"h":64,"#,
            with: #""ip":0,"op":2,"st":0,"w":64,"h":64,"nm":{"id":"a1","layers":[]},"#)
        #expect(decoy != text && Self.error(Array(decoy.utf8)) == tooMany)
        // One that uses itself, and a chain of 200 (deeper than rlottie's builder should recurse).
        #expect(
            Self.error(precompositions(levels: 3, references: { ["a\($0)"] }))
                == .malformed(format: .lottie, reason: "the precomposition \"a0\" uses itself"))
        #expect(
            Self.error(precompositions(levels: 200, references: { ["a\($0 + 1)"] }))
                == .malformed(format: .lottie, reason: "precompositions nested more than 128 levels deep"))
        // Missing or impossible fields are named.
        for bad in [
            #"{"v":"5","fr":0,"ip":0,"op":30,"w":64,"h":64,"layers":[]}"#,
            #"{"v":"5","fr":30,"ip":10,"op":10,"w":64,"h":64,"layers":[]}"#,
            #"{"v":"5","fr":30,"ip":0,"op":30,"w":64,"h":64,"layers":{}}"#,
            #"{"v":"5","fr":30,"ip":0,"op":30,"w":-64,"h":64,"layers":[]}"#
        ] {
            #expect(Self.outcome(Array(bad.utf8)) == .malformed(.lottie), "\(bad)")
        }
        // An out point of two billion frames is named for its size, not as before the in point.
        #expect(
            Self.error(Array(#"{"v":"5","fr":30,"ip":0,"op":2e9,"w":64,"h":64,"layers":[]}"#.utf8))
                == .malformed(
                    format: .lottie,
                    reason: "in point 0.0 or out point 2000000000.0 is not under a billion frames from 0"))
    }
}

/// What libvpx is given for a VP9 block: exactly the frames whose headers were checked.
@Suite("WebM: VP9 blocks handed to libvpx")
struct VP9BlockTests {
    @Test("a block without a superframe index gets a one-frame index; one with an index is kept")
    func superframeIndex() throws {
        let frame: [UInt8] = [0x82, 0x49, 0x83, 0x42, 0x00, 0x01, 0x02, 0x03, 0x04]
        // Annex B: marker 0b110_11_000 (4-byte sizes, one frame), the size little-endian, the marker.
        let indexed = frame + [0xD8, 9, 0, 0, 0, 0xD8]
        #expect(VPXFrameHeadersProbe.forDecoding(frame) == indexed)
        #expect(VPXFrameHeadersProbe.forDecoding(indexed) == indexed)
        // A superframe of two frames (1-byte sizes 4 and 5) is kept as it is.
        let two: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8, 9] + [0xC1, 4, 5, 0xC1]
        #expect(VPXFrameHeadersProbe.forDecoding(two) == two)
    }
}

extension Gzip {
    /// How many bytes zlib inflates from `head`, the start of a gzip file (what it can before
    /// the input runs out or breaks).
    static func inflatedPrefixCount(_ head: [UInt8]) -> Int {
        var stream = z_stream()
        guard inflateInit2_(&stream, 16 + 15, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            return 0
        }
        defer { inflateEnd(&stream) }
        var input = head
        var output = [UInt8](repeating: 0, count: 1 << 20)
        return input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = UInt32(target.count)
                _ = inflate(&stream, Z_SYNC_FLUSH)
                return target.count - Int(stream.avail_out)
            }
        }
    }
}
