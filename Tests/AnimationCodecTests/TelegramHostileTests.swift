import AnimationCodec
import Foundation
import Testing
import TestSupport

/// WebM and Lottie files cut short, corrupted, lying about their sizes or built to exhaust
/// memory: a typed error (or, for a corruption the formats cannot see, a whole decode), never
/// a crash, a hang or an allocation the limits did not allow.
@Suite("WebM and Lottie: prefixes, corruption, lying sizes, bombs", .timeLimit(.minutes(3)))
struct TelegramHostileTests {
    static func webm() throws -> [UInt8] {
        [UInt8](try Data(contentsOf: WebMTests.file(WebMTests.cases[0])))
    }

    /// Decodes every frame; the error's case, or nil when all decoded.
    static func outcome(_ bytes: [UInt8], limits: DecodingLimits = .default) -> CodecErrorCase? {
        do {
            let decoder = try AnimationDecoder(bytes: bytes, limits: limits)
            try decoder.forEachFrame(threads: 1) { frame throws(CodecError) in
                precondition(frame.pixels.count == decoder.info.width * decoder.info.height * 4)
            }
            return nil
        } catch {
            return CodecErrorCase(error)
        }
    }

    /// Where the EBML header ends: before it no prefix is recognisable as WebM.
    static func ebmlHeaderEnd(_ bytes: [UInt8]) -> Int {
        let sizeLength = bytes[4].leadingZeroBitCount + 1
        var size = Int(bytes[4] & (0xFF >> sizeLength))
        for index in 1 ..< sizeLength { size = size << 8 | Int(bytes[4 + index]) }
        return 4 + sizeLength + size
    }

    @Test("every prefix of a WebM: unrecognised inside the EBML header, truncated after it")
    func webmPrefixes() throws {
        let bytes = try Self.webm()
        let header = Self.ebmlHeaderEnd(bytes)
        for cut in 0 ..< bytes.count {
            let expected: CodecErrorCase = cut < header ? .unknownFormat : .truncated
            #expect(Self.outcome(Array(bytes.prefix(cut))) == expected, "cut at \(cut) of \(bytes.count)")
        }
        #expect(Self.outcome(bytes) == nil)
    }

    @Test("random corruption of a WebM: a typed error or a whole decode, never a crash")
    func webmCorruption() throws {
        let bytes = try Self.webm()
        var random = SplitMix(seed: 26)
        var failures = 0
        for _ in 0 ..< 400 {
            var damaged = bytes
            for _ in 0 ..< 1 + Int(random.next() % 4) {
                damaged[Int(random.next() % UInt64(bytes.count))] ^= UInt8(truncatingIfNeeded: random.next() | 1)
            }
            if Self.outcome(damaged) != nil { failures += 1 }
        }
        // Most flips land in the VP9 data, which libvpx often decodes anyway; some must fail.
        #expect(failures > 0)
    }

    @Test("lying EBML sizes: past the file is truncation, past the parent a malformed file")
    func webmLyingSizes() throws {
        let bytes = try Self.webm()
        // The Segment's size field (after its 4-byte ID) made 8 bytes of "2^50".
        let segment = Self.ebmlHeaderEnd(bytes)
        let sizeLength = bytes[segment + 4].leadingZeroBitCount + 1
        var lying = Array(bytes[..<(segment + 4)]) + [0x01, 0x04, 0, 0, 0, 0, 0, 0] + bytes[(segment + 4 + sizeLength)...]
        #expect(Self.outcome(lying) == .truncated)
        // The first Cluster's size made larger than what is left of the Segment.
        let clusterID: [UInt8] = [0x1F, 0x43, 0xB6, 0x75]
        let cluster = try #require((segment ..< bytes.count - 4).first { Array(bytes[$0 ..< $0 + 4]) == clusterID })
        lying = bytes
        let clusterSizeLength = lying[cluster + 4].leadingZeroBitCount + 1
        lying[cluster + 4 + clusterSizeLength - 1] &+= 0x7F  // past the Segment's end, which is the file's
        #expect([.truncated, .malformed(.webm)].contains(Self.outcome(lying)))
    }

    @Test("a track that lies about its size: the frame headers are checked before libvpx")
    func webmLyingTrackSize() throws {
        let bytes = try Self.webm()
        // PixelWidth (B0) and PixelHeight (BA) inside Tracks, one-byte values, set to 255.
        let tracksID: [UInt8] = [0x16, 0x54, 0xAE, 0x6B]
        let tracks = try #require((0 ..< bytes.count - 4).first { Array(bytes[$0 ..< $0 + 4]) == tracksID })
        var lying = bytes
        for id: UInt8 in [0xB0, 0xBA] {
            let at = try #require((tracks ..< bytes.count - 3).first { bytes[$0] == id && bytes[$0 + 1] == 0x81 })
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
        #expect(Self.outcome(lying, limits: small) == .limitExceeded)
        #expect(Self.outcome(bytes, limits: DecodingLimits(maxSide: 4096, maxPixels: 1 << 20, maxFrames: 3, maxTotalDecodedBytes: 1 << 30)) == .limitExceeded)
    }

    @Test("every prefix of a .tgs and of its JSON: unrecognised or truncated")
    func lottiePrefixes() {
        let json = Array(LottieTests.movingSquare.utf8)
        let tgs = Gzip.compress(json)
        for (name, bytes) in [("tgs", tgs), ("json", json)] {
            var recognised = 0
            for cut in 0 ..< bytes.count {
                let outcome = Self.outcome(Array(bytes.prefix(cut)))
                #expect(outcome == .unknownFormat || outcome == .truncated, "\(name) cut at \(cut): \(String(describing: outcome))")
                if outcome == .truncated { recognised += 1 }
            }
            // Once four of Lottie's keys are in, every prefix is a truncated Lottie file.
            #expect(recognised > bytes.count / 2, "\(name): \(recognised) of \(bytes.count) prefixes recognised")
            #expect(Self.outcome(bytes) == nil)
        }
    }

    @Test("random corruption of Lottie JSON and .tgs: a typed error or a whole render")
    func lottieCorruption() {
        let json = Array(LottieTests.fadingCircle.utf8)
        var random = SplitMix(seed: 27)
        var failures = 0
        for round in 0 ..< 300 {
            var damaged = json
            for _ in 0 ..< 1 + Int(random.next() % 3) {
                damaged[Int(random.next() % UInt64(json.count))] = UInt8(truncatingIfNeeded: random.next())
            }
            let bytes = round % 2 == 0 ? damaged : Gzip.compress(damaged)
            if Self.outcome(bytes) != nil { failures += 1 }
        }
        #expect(failures > 0)
        // A flipped byte inside the gzip stream is caught by inflate or its CRC.
        var tgs = Gzip.compress(json)
        tgs[tgs.count / 2] ^= 0xFF
        #expect([.corruptCompressedData, .truncated].contains(Self.outcome(tgs)))
    }

    @Test("a gzip bomb is refused by its inflated size, before it is all in memory")
    func gzipBomb() {
        let head = #"{"v":"5.5.2","fr":30,"ip":0,"op":30,"w":64,"h":64,"layers":["#
        let bomb = Gzip.compress(Array(head.utf8) + [UInt8](repeating: 0x20, count: 8 << 20) + Array("]}".utf8))
        #expect(bomb.count < 64 << 10)
        #expect(ImageFormat.sniff(bomb) == .lottie)
        let limits = DecodingLimits(maxSide: 4096, maxPixels: 1 << 22, maxFrames: 1000, maxTotalDecodedBytes: 1 << 30, maxFileBytes: 1 << 20)
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
        #expect(Self.outcome(document(w: 100_000, h: 100_000, op: 30)) == .limitExceeded)
        #expect(Self.outcome(document(w: 512, h: 512, op: 1_000_000)) == .limitExceeded)
        let nested = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(Self.outcome(document(w: 64, h: 64, op: 30, layers: nested)) == .malformed(.lottie))
        // A size asked for past the limits is refused too.
        let small = DecodingLimits(maxSide: 1024, maxPixels: 1 << 20, maxFrames: 100, maxTotalDecodedBytes: 1 << 30)
        #expect(throws: CodecError.self) {
            _ = try AnimationDecoder(bytes: document(w: 64, h: 64, op: 30), limits: small, vectorSize: PixelSize(width: 4096, height: 4096))
        }
        // Frame rates that would make a frame show for more than 100 s or less than 1 ms.
        for rate in ["1e-14", "0.001", "5000"] {
            #expect(Self.outcome(Array(#"{"v":"5","fr":\#(rate),"ip":0,"op":30,"w":64,"h":64,"layers":[]}"#.utf8)) == .malformed(.lottie), "fr \(rate)")
        }
        // Repeaters: one of 100,000 copies, and three of 100 (a million together), are refused
        // before rlottie builds them; one of 10 is drawn.
        func repeaters(_ counts: [Int]) -> [UInt8] {
            let shapes = #"{"ty":"rc","p":{"a":0,"k":[0,0]},"s":{"a":0,"k":[4,4]},"r":{"a":0,"k":0}},"#
                + counts.map { #"{"ty":"rp","c":{"a":0,"k":\#($0)},"o":{"a":0,"k":0},"m":1,"tr":{"ty":"tr","p":{"a":0,"k":[1,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},"so":{"a":0,"k":100},"eo":{"a":0,"k":100}}},"# }.joined()
                + #"{"ty":"fl","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100}}"#
            let layer = #"{"ty":4,"ind":1,"ip":0,"op":2,"st":0,"ks":{"o":{"a":0,"k":100},"r":{"a":0,"k":0},"p":{"a":0,"k":[8,8,0]},"a":{"a":0,"k":[0,0,0]},"s":{"a":0,"k":[100,100,100]}},"shapes":[\#(shapes)]}"#
            return Array(#"{"v":"5.5.2","fr":30,"ip":0,"op":2,"w":64,"h":64,"layers":[\#(layer)]}"#.utf8)
        }
        #expect(Self.outcome(repeaters([100_000])) == .malformed(.lottie))
        #expect(Self.outcome(repeaters([100, 100, 100])) == .malformed(.lottie))
        #expect(Self.outcome(repeaters([10])) == nil)
        // Missing or impossible fields are named.
        for bad in [#"{"v":"5","fr":0,"ip":0,"op":30,"w":64,"h":64,"layers":[]}"#,
                    #"{"v":"5","fr":30,"ip":10,"op":10,"w":64,"h":64,"layers":[]}"#,
                    #"{"v":"5","fr":30,"ip":0,"op":30,"w":64,"h":64,"layers":{}}"#,
                    #"{"v":"5","fr":30,"ip":0,"op":30,"w":-64,"h":64,"layers":[]}"#] {
            #expect(Self.outcome(Array(bad.utf8)) == .malformed(.lottie), "\(bad)")
        }
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
