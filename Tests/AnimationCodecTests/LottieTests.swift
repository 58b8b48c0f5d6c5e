import AnimationCodec
import CLottie
import CZlib
import Foundation
import TestSupport
import Testing

/// Lottie documents written by hand: pixels worked out from the shapes' geometry, and every
/// frame equal to rlottie's own render of it called directly here.
@Suite("Lottie: hand-written documents, rlottie called directly", .timeLimit(.minutes(5)))
struct LottieTests {
    /// The moving red square (``LottieDocuments/movingSquare``).
    static let movingSquare = LottieDocuments.movingSquare

    /// A 64 x 64 document, 30 frames at 60 fps: a blue circle of radius 20 at the centre whose
    /// fill opacity falls linearly from 100% at frame 0 to 0% at frame 30.
    static let fadingCircle = """
        {"v":"5.5.2","fr":60,"ip":0,"op":30,"w":64,"h":64,"nm":"circle","ddd":0,"assets":[],
         "layers":[{"ddd":0,"ind":1,"ty":4,"nm":"circle","sr":1,"ip":0,"op":30,"st":0,"bm":0,"ao":0,
          "ks":{"o":{"a":0,"k":100},"r":{"a":0,"k":0},"a":{"a":0,"k":[0,0,0]},"s":{"a":0,"k":[100,100,100]},"p":{"a":0,"k":[32,32,0]}},
          "shapes":[{"ty":"el","nm":"e","d":1,"p":{"a":0,"k":[0,0]},"s":{"a":0,"k":[40,40]}},
                    {"ty":"fl","nm":"f","c":{"a":0,"k":[0,0,1,1]},"r":1,
                     "o":{"a":1,"k":[{"t":0,"s":[100],"e":[0],"i":{"x":[1],"y":[1]},"o":{"x":[0],"y":[0]}},{"t":30}]}}]}]}
        """

    static func gzip(_ text: String) -> [UInt8] { Gzip.compress(Array(text.utf8)) }

    static func pixel(_ frame: Frame, _ x: Int, _ y: Int) -> [UInt8] {
        let offset = (y * frame.width + x) * 4
        return Array(frame.pixels[offset..<offset + 4])
    }

    /// A 64 x 64 document of one text layer ("Hi", Bodymovin's text document), a shape layer
    /// whose rotation is an expression, and an effects group of type 5 (not a text layer).
    static let textAndExpression = """
        {"v":"5.5.2","fr":30,"ip":0,"op":30,"w":64,"h":64,"assets":[],
         "fonts":{"list":[{"fName":"Arial","fFamily":"Arial","fStyle":"Regular","ascent":75}]},
         "layers":[
          {"ddd":0,"ind":1,"ty":5,"nm":"t","sr":1,"ip":0,"op":30,"st":0,"bm":0,"ao":0,
           "ks":{"o":{"a":0,"k":100},"r":{"a":0,"k":0},"a":{"a":0,"k":[0,0,0]},"s":{"a":0,"k":[100,100,100]},"p":{"a":0,"k":[8,32,0]}},
           "t":{"d":{"k":[{"s":{"s":24,"f":"Arial","t":"Hi","j":0,"tr":0,"lh":28,"ls":0,"fc":[0,0,0]},"t":0}]},"p":{},"m":{"g":1,"a":{"a":0,"k":[0,0]}},"a":[]}},
          {"ddd":0,"ind":2,"ty":4,"nm":"square","sr":1,"ip":0,"op":30,"st":0,"bm":0,"ao":0,
           "ef":[{"ty":5,"nm":"controls","np":3,"ef":[{"ty":0,"nm":"slider","v":{"a":0,"k":1}}]}],
           "ks":{"o":{"a":0,"k":100},"r":{"a":0,"k":0,"x":"$bm_rt = time * 360;"},"a":{"a":0,"k":[0,0,0]},"s":{"a":0,"k":[100,100,100]},"p":{"a":0,"k":[32,32,0]}},
           "shapes":[{"ty":"rc","nm":"r","d":1,"p":{"a":0,"k":[0,0]},"s":{"a":0,"k":[20,20]},"r":{"a":0,"k":0}},
                     {"ty":"fl","nm":"f","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100},"r":1}]}]}
        """

    @Test(
        "text layers and expressions, which rlottie does not draw, are named in notDrawn warnings; eased keyframes and effects are not"
    )
    func notDrawn() throws {
        let warnings = try AnimationDecoder(bytes: Array(Self.textAndExpression.utf8)).info.warnings
        #expect(warnings.map(\.kind) == [.notDrawn, .notDrawn], "\(warnings)")
        #expect(warnings.first?.message.hasPrefix("1 text layer left out") == true, "\(warnings)")
        #expect(warnings.last?.message.hasPrefix("1 expression ignored") == true, "\(warnings)")
        // Keyframes whose easing holds "x" arrays, and no text: nothing to say.
        #expect(try AnimationDecoder(bytes: Self.gzip(Self.fadingCircle)).info.warnings.isEmpty)
        #expect(try AnimationDecoder(bytes: Array(Self.movingSquare.utf8)).info.warnings.isEmpty)
    }

    @Test("sniffed from the bytes: plain JSON and gzip (.tgs) alike, never from a name")
    func sniffing() {
        #expect(ImageFormat.sniff(Array(Self.movingSquare.utf8)) == .lottie)
        #expect(ImageFormat.sniff(Self.gzip(Self.movingSquare)) == .lottie)
        // JSON that is not Lottie, and a gzip of anything else, are not.
        #expect(ImageFormat.sniff(Array(#"{"name":"pack","stickers":[1,2,3],"info":{}}"#.utf8)) == nil)
        #expect(ImageFormat.sniff(Self.gzip("hello, this is plain text")) == nil)
        #expect(ImageFormat.lottie.isMessagesFormat == false)
    }

    /// The moving square with its top-level keys sorted, as a writer that sorts keys gives it:
    /// `assets` first, here a precomposition with a 6,000-character name, so `fr`, `ip`, `op`,
    /// `w` and `h` come past the first 4,096 bytes.
    static let sortedKeys: String = {
        let square = movingSquare
        // The layers' array: what follows "layers": up to the document's closing brace.
        let layers = String(
            square[square.range(of: "\"layers\":")!.upperBound...].trimmingCharacters(in: .whitespacesAndNewlines)
                .dropLast())
        let padding = String(repeating: "a", count: 6000)
        return #"{"assets":[{"id":"pad","nm":"\#(padding)","layers":[]}],"ddd":0,"fr":30,"h":64,"ip":0,"layers":"#
            + layers + #","nm":"square","op":30,"v":"5.5.2","w":64}"#
    }()

    @Test(
        "top-level keys past the first 4,096 bytes (sorted keys, a large asset first): Lottie from the whole file, plain and gzip"
    )
    func keysPastTheHead() throws {
        let document = Array(Self.sortedKeys.utf8)
        try #require(document.count > ImageFormat.sniffLength + 2000)
        for bytes in [document, Self.gzip(Self.sortedKeys)] {
            #expect(ImageFormat.sniff(bytes) == .lottie)
            let decoder = try AnimationDecoder(bytes: bytes)
            #expect(decoder.frameCount == 30 && decoder.info.width == 64)
            // Frame 15: the square's centre at (32, 32), as in the document with its keys first.
            let frame = try decoder.frame(at: 15)
            #expect(Self.pixel(frame, 32, 32) == [255, 0, 0, 255] && Self.pixel(frame, 16, 32) == [0, 0, 0, 0])
        }
        // The first 4,096 bytes alone do not say: a head of a file is not recognised, and may be Lottie.
        let head = Array(document.prefix(ImageFormat.sniffLength))
        #expect(ImageFormat.sniff(head) == nil && ImageFormat.mayBeLottie(head))
        // JSON as long that is not Lottie stays unrecognised, however much of it is read.
        let other = Array(
            (#"{"aaa":"\#(String(repeating: "b", count: 6000))","name":"pack","stickers":[1,2],"info":{}}"#).utf8)
        #expect(ImageFormat.sniff(other) == nil)
    }

    @Test(
        "strings are UTF-8 (RFC 8259 section 8.1, RFC 3629): well-formed sequences of every length read, every ill-formed one is malformed"
    )
    func utf8InStrings() throws {
        /// The moving square with `name` as its layer's name.
        func named(_ name: [UInt8]) -> [UInt8] {
            let document = Array(Self.movingSquare.utf8)
            let marker = Array(#""nm":"square","sr""#.utf8)
            let at = try! #require(
                (0...(document.count - marker.count)).first { Array(document[$0..<$0 + marker.count]) == marker })
            return Array(document[..<(at + 6)]) + name + Array(document[(at + 12)...])
        }
        // é, €, U+1F600 and U+10FFFF, the largest code point.
        for good: [UInt8] in [[0xC3, 0xA9], [0xE2, 0x82, 0xAC], [0xF0, 0x9F, 0x98, 0x80], [0xF4, 0x8F, 0xBF, 0xBF]] {
            #expect(try AnimationDecoder(bytes: named(Array("a".utf8) + good)).info.frames.count == 30, "\(good)")
        }
        // A lone continuation byte, an overlong '/', an overlong 3-byte form, a surrogate,
        // past U+10FFFF, a lead byte that never starts a sequence, a sequence cut by the quote.
        for bad: [UInt8] in [
            [0x80], [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xFF], [0xE2, 0x82]
        ] {
            #expect(
                "\(bad)", performing: { _ = try AnimationDecoder(bytes: named(Array("a".utf8) + bad)) },
                throws: { error in
                    guard case CodecError.malformed(format: .lottie, let reason) = error else { return false }
                    return reason.contains("not UTF-8")
                })
        }
    }

    @Test("a moving square: inside, outside and the frame rate, worked out by hand")
    func movingSquare() throws {
        for bytes in [Array(Self.movingSquare.utf8), Self.gzip(Self.movingSquare)] {
            let decoder = try AnimationDecoder(bytes: bytes)
            #expect(decoder.info.format == .lottie)
            #expect(decoder.info.width == 64 && decoder.info.height == 64)
            #expect(decoder.frameCount == 30)
            #expect(decoder.info.plays == 0)
            #expect(decoder.info.frames.allSatisfy { abs($0.delay.milliseconds - 1000.0 / 30) < 0.001 })
            let frames = try decoder.decodeAllFrames()
            let red: [UInt8] = [255, 0, 0, 255]
            let clear: [UInt8] = [0, 0, 0, 0]
            // Frame t: the centre is at x = 16 + 32 t / 30, the square 8 px either side.
            for (t, inside, outside) in [
                (0, [(10, 26), (22, 38), (16, 32)], [(5, 32), (27, 32), (16, 21), (16, 43)]),
                (15, [(26, 26), (38, 38), (32, 32)], [(21, 32), (43, 32), (16, 32), (48, 32)]),
                (29, [(41, 26), (53, 38), (47, 32)], [(36, 32), (58, 32), (16, 32)])
            ] {
                for (x, y) in inside { #expect(Self.pixel(frames[t], x, y) == red, "frame \(t) at (\(x), \(y))") }
                for (x, y) in outside { #expect(Self.pixel(frames[t], x, y) == clear, "frame \(t) at (\(x), \(y))") }
            }
        }
    }

    @Test(
        "an in point before frame 0: frame i is document frame i - 10, clear until the layer starts, then the square moves (rlottie alone draws every frame at the in point)"
    )
    func inPointBeforeZero() throws {
        for bytes in [Array(LottieDocuments.earlyInPoint.utf8), Self.gzip(LottieDocuments.earlyInPoint)] {
            let decoder = try AnimationDecoder(bytes: bytes)
            #expect(decoder.frameCount == 40)
            let frames = try decoder.decodeAllFrames(threads: 2)
            let red: [UInt8] = [255, 0, 0, 255]
            // Frames 0-9 are document frames -10 to -1, before the layer's in point: clear.
            for t in [0, 5, 9] {
                #expect(frames[t].pixels.allSatisfy { $0 == 0 }, "frame \(t)")
            }
            // From frame 10 (document frame 0) the centre is at x = 16 + 32 (t - 10) / 30.
            for t in [10, 25, 39] {
                let centre = 16 + 32 * (t - 10) / 30
                #expect(Self.pixel(frames[t], centre, 32) == red, "frame \(t)")
                #expect(Self.pixel(frames[t], centre - 12, 32) == [0, 0, 0, 0], "frame \(t)")
                #expect(Self.pixel(frames[t], centre + 12, 32) == [0, 0, 0, 0], "frame \(t)")
            }
            // Drawn alone, a frame is the same.
            #expect(try decoder.frame(at: 25).pixels == frames[25].pixels)
        }
    }

    @Test(
        "a track matte shows the matted layer only inside the matte (alpha) or outside it (inverted), at the top level and inside a precomposition, with no warning",
        arguments: ["alpha", "inverted", "in a precomposition"])
    func trackMatte(kind: String) throws {
        let inverted = kind == "inverted"
        let document =
            kind == "in a precomposition"
            ? LottieDocuments.trackMatteInPrecomposition : LottieDocuments.trackMatte(matteType: inverted ? 2 : 1)
        let decoder = try AnimationDecoder(bytes: Array(document.utf8))
        #expect(decoder.info.warnings.isEmpty, "\(decoder.info.warnings)")
        for frame in [try decoder.frame(at: 0), try decoder.frame(at: 29)] {
            // The band is rows 20-43; the matte square columns 16-47 (both on whole pixels).
            var shown = 0
            for y in 0..<64 {
                for x in 0..<64 {
                    let pixel = Self.pixel(frame, x, y)
                    let inBand = (20..<44).contains(y)
                    let inSquare = (16..<48).contains(x) && (16..<48).contains(y)
                    if inBand && inSquare != inverted {
                        // rlottie blends a matte a few levels short of opaque (251 of 255).
                        #expect(
                            pixel[0] == 0 && pixel[1] == 0 && pixel[2] >= 245 && pixel[3] >= 245,
                            "(\(x), \(y)): \(pixel)")
                        shown += 1
                    } else {
                        #expect(pixel == [0, 0, 0, 0], "(\(x), \(y)): \(pixel)")
                    }
                }
            }
            // 32 x 24 inside the square, 2 x 16 x 24 outside it.
            #expect(shown == 768)
        }
    }

    @Test("a track matte over a solid layer, which rlottie draws nothing of, is named in a notDrawn warning")
    func trackMatteOverSolid() throws {
        let decoder = try AnimationDecoder(bytes: Array(LottieDocuments.trackMatteOverSolid.utf8))
        let warnings = decoder.info.warnings
        #expect(warnings.map(\.kind) == [.notDrawn], "\(warnings)")
        #expect(
            warnings.first?.message.hasPrefix("1 matted solid or image layer may be left out") == true, "\(warnings)")
        // What rlottie draws of it: nothing, as the warning says.
        #expect(try decoder.frame(at: 0).pixels.allSatisfy { $0 == 0 })
    }

    @Test(
        "frame(at:) draws a Lottie frame alone: the square where the hand-worked geometry puts it, the same pixels as in order"
    )
    func frameAlone() throws {
        let decoder = try AnimationDecoder(bytes: Array(Self.movingSquare.utf8))
        let frames = try decoder.decodeAllFrames(threads: 1)
        let red: [UInt8] = [255, 0, 0, 255]
        // Frame 15 first, then an earlier one: each owes nothing to the frames before it.
        for t in [15, 29, 0, 7] {
            let alone = try decoder.frame(at: t)
            #expect(alone.info.index == t)
            // The centre at x = 16 + 32 t / 30; the square 8 px either side.
            let centre = 16 + 32 * t / 30
            #expect(Self.pixel(alone, centre, 32) == red, "frame \(t)")
            #expect(Self.pixel(alone, centre - 12, 32) == [0, 0, 0, 0], "frame \(t)")
            #expect(alone.pixels == frames[t].pixels, "frame \(t)")
        }
    }

    @Test(
        "a frame's delay is exact in lowest terms when the fraction fits APNG's 16 bits, else in tenths of milliseconds",
        arguments: [
            ("120", 1, 120), ("29.97", 100, 2997), ("23.976", 125, 2997), ("30", 1, 30), ("12.3456", 625, 7716),
            ("12.34567", 810, 10_000)
        ])
    func exactDelays(rate: String, numerator: Int, denominator: Int) throws {
        let document = #"{"v":"5.5.2","fr":\#(rate),"ip":0,"op":2,"w":8,"h":8,"layers":[]}"#
        let delay = try AnimationDecoder(bytes: Array(document.utf8)).info.frames[0].delay
        #expect(delay.numerator == numerator && delay.denominator == denominator, "\(delay)")
    }

    @Test("a fading circle: premultiplied blue at the opacity of each instant, clear outside")
    func fadingCircle() throws {
        let decoder = try AnimationDecoder(bytes: Array(Self.fadingCircle.utf8))
        #expect(decoder.frameCount == 30)
        // Exactly a 60th of a second (not 16,667 µs): 60 frames add up to one second.
        #expect(decoder.info.frames.allSatisfy { $0.delay.numerator == 1 && $0.delay.denominator == 60 })
        let frames = try decoder.decodeAllFrames()
        for t in [0, 15, 27] {
            // Opacity 1 - t / 30, as 8-bit alpha; premultiplied blue equals it.
            let alpha = 255 * (1 - Double(t) / 30)
            for (x, y) in [(32, 32), (20, 32), (32, 45)] {
                let pixel = Self.pixel(frames[t], x, y)
                #expect(pixel[0] == 0 && pixel[1] == 0, "frame \(t) at (\(x), \(y)): \(pixel)")
                #expect(abs(Double(pixel[3]) - alpha) <= 1.5, "frame \(t): alpha \(pixel[3]), expected \(alpha)")
                #expect(pixel[2] == pixel[3], "frame \(t): premultiplied blue \(pixel[2]) equals alpha \(pixel[3])")
            }
            // Outside the radius (corners, and 24 px from the centre).
            for (x, y) in [(2, 2), (61, 61), (32, 8), (56, 32)] {
                #expect(Self.pixel(frames[t], x, y) == [0, 0, 0, 0], "frame \(t) at (\(x), \(y))")
            }
        }
    }

    @Test("drawn at the size asked for: the square's geometry scales with it")
    func vectorSize() throws {
        let decoder = try AnimationDecoder(
            bytes: Array(Self.movingSquare.utf8), vectorSize: PixelSize(width: 128, height: 128))
        #expect(decoder.info.width == 128 && decoder.info.height == 128)
        let frame = try decoder.frame(at: 15)
        // At frame 15 the square covers 48..80 in both axes at twice the scale.
        for (x, y) in [(50, 50), (77, 77), (64, 64)] { #expect(Self.pixel(frame, x, y) == [255, 0, 0, 255]) }
        for (x, y) in [(45, 64), (83, 64), (64, 45), (64, 83)] { #expect(Self.pixel(frame, x, y) == [0, 0, 0, 0]) }
    }

    @Test(
        "a 4096 px document of 180 frames (12 GB at its own size): read, its frames refused at that size, and drawn at 128 px by its longer side, its geometry scaled"
    )
    func largeDocumentDrawnSmall() throws {
        // 4096^2 x 4 x 180 bytes = 12,079,595,520, over the default 4 GiB.
        let document = LottieDocuments.largeMovingSquare
        // Read at its own size, its facts are known, and drawing a frame there is refused.
        let asItIs = try AnimationDecoder(bytes: Array(document.utf8))
        #expect(asItIs.info.width == 4096 && asItIs.frameCount == 180)
        #expect(throws: CodecError.limitExceeded(.decodedBytes(12_079_595_520, limit: 4 << 30))) {
            _ = try asItIs.frame(at: 0)
        }
        #expect(throws: CodecError.limitExceeded(.decodedBytes(12_079_595_520, limit: 4 << 30))) {
            _ = try asItIs.decodeAllFrames(threads: 2)
        }
        // Drawn smaller from there, it draws.
        let drawn = try asItIs.drawingVectors(at: PixelSize(width: 128, height: 128))
        #expect(
            try drawn.frame(at: 90).pixels
                == (try AnimationDecoder(bytes: Array(document.utf8), vectorSide: 128).frame(at: 90).pixels))
        let decoder = try AnimationDecoder(bytes: Array(document.utf8), vectorSide: 128)
        #expect(decoder.info.width == 128 && decoder.info.height == 128 && decoder.frameCount == 180)
        // At frame 90 the centre is at (2048, 2048): at 128 px a 32 px square over 48..80.
        let frame = try decoder.frame(at: 90)
        for (x, y) in [(50, 50), (77, 77), (64, 64)] { #expect(Self.pixel(frame, x, y) == [255, 0, 0, 255]) }
        for (x, y) in [(45, 64), (83, 64), (64, 45), (64, 83)] { #expect(Self.pixel(frame, x, y) == [0, 0, 0, 0]) }
        // A wide document keeps its aspect: 4096 x 2048 drawn 128 x 64; the size asked for is
        // still held to the limits.
        let wide = document.replacingOccurrences(of: #""h":4096"#, with: #""h":2048"#)
        let drawnWide = try AnimationDecoder(bytes: Array(wide.utf8), vectorSide: 128)
        #expect(drawnWide.info.width == 128 && drawnWide.info.height == 64)
        let small = DecodingLimits(maxSide: 1024, maxPixels: 1 << 20, maxFrames: 1000, maxTotalDecodedBytes: 1 << 30)
        #expect(throws: CodecError.limitExceeded(.side(width: 2000, height: 2000, limit: 1024))) {
            _ = try AnimationDecoder(bytes: Array(document.utf8), limits: small, vectorSide: 2000)
        }
    }

    @Test("every frame equals rlottie's own render called directly, at two sizes")
    func equalsRlottie() throws {
        for (document, size) in [(Self.movingSquare, 64), (Self.fadingCircle, 64), (Self.fadingCircle, 97)] {
            let decoder = try AnimationDecoder(
                bytes: Array(document.utf8), vectorSize: PixelSize(width: size, height: size))
            let ours = try decoder.decodeAllFrames(threads: 2)
            // A key of its own: rlottie caches documents by key.
            let animation = try #require(lottie_animation_from_data(document, "test-\(UUID().uuidString)", ""))
            defer { lottie_animation_destroy(animation) }
            #expect(lottie_animation_get_totalframe(animation) == ours.count)
            var buffer = [UInt32](repeating: 0, count: size * size)
            for (index, frame) in ours.enumerated() {
                for i in buffer.indices { buffer[i] = 0 }
                lottie_animation_render(animation, index, &buffer, size, size, size * 4)
                // rlottie: premultiplied 0xAARRGGBB words; ours: R, G, B, A bytes.
                let expected = buffer.flatMap { word -> [UInt8] in
                    [UInt8(word >> 16 & 0xFF), UInt8(word >> 8 & 0xFF), UInt8(word & 0xFF), UInt8(word >> 24)]
                }
                #expect(frame.pixels == expected, "frame \(index) at \(size) px")
            }
        }
    }
}

/// gzip (RFC 1952) by zlib's deflate with a gzip wrapper, for test files.
enum Gzip {
    static func compress(_ input: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        precondition(
            deflateInit2_(
                &stream, 9, Z_DEFLATED, 16 + 15, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
                Int32(MemoryLayout<z_stream>.size)) == Z_OK)
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(input.count))) + 64)
        var input = input
        let written = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = UInt32(target.count)
                precondition(deflate(&stream, Z_FINISH) == Z_STREAM_END)
                return target.count - Int(stream.avail_out)
            }
        }
        return Array(output.prefix(written))
    }
}
