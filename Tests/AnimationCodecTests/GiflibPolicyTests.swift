import AnimationCodec
import Testing

/// The documented GIF policies (docs/formats.md, "Behaviour, where formats leave room") that
/// ``GIF89aCompositor`` and ``GiflibOracle`` follow where giflib itself decides nothing or
/// decides otherwise, and that no conformance file exercises: each on a file made for it
/// (``GIFBuilder``), where our frames must equal giflib's canvases and the pixels the rule
/// gives, worked out by hand.
@Suite("giflib oracle: documented policies")
struct GiflibPolicyTests {
    static let red: [UInt8] = [255, 0, 0, 255], green: [UInt8] = [0, 255, 0, 255], blue: [UInt8] = [0, 0, 255, 255]

    /// Checks `bytes` against giflib, then our last frame against `expected`.
    static func check(_ bytes: [UInt8], name: String, lastFrame expected: [UInt8]) throws {
        try GiflibAgreement.check(bytes, name: name)
        let decoder = try AnimationDecoder(bytes: bytes)
        #expect(try decoder.frame(at: decoder.frameCount - 1).pixels == expected, "\(name)")
    }

    @Test(
        "several Graphic Control Extensions before an image: the last applies (giflib's DGifSavedExtensionToGCB takes the first)"
    )
    func lastGraphicControlWins() throws {
        let builder = GIFBuilder(width: 2, height: 1, palette: [(255, 0, 0), (0, 255, 0)])
        var bytes = builder.animation([.init(indexes: [0, 1], disposal: 1)])
        // A first GCE making index 1 transparent, before the builder's own (no transparency).
        let own = try #require(bytes.indices.first { bytes[$0] == 0x21 && bytes[$0 + 1] == 0xF9 })
        bytes.insert(contentsOf: [0x21, 0xF9, 4, 0x01, 0, 0, 1, 0], at: own)
        try Self.check(bytes, name: "two GCEs", lastFrame: Self.red + Self.green)
    }

    @Test("disposal 4 restores the previous canvas, as Chromium and Firefox read it (GIF89a reserves it)")
    func disposalFourRestores() throws {
        let builder = GIFBuilder(width: 2, height: 1, palette: [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)])
        let bytes = builder.animation([
            .init(indexes: [0, 0], disposal: 1),
            .init(indexes: [1, 1], disposal: 4),
            // Index 3 is transparent: the first pixel shows what disposal 4 left.
            .init(indexes: [3, 2], disposal: 1, transparentIndex: 3)
        ])
        try Self.check(bytes, name: "disposal 4", lastFrame: Self.red + Self.blue)
    }

    @Test("a palette index past the colour table draws nothing, as in Chromium")
    func indexPastTable() throws {
        // A two-entry table; the second image's first index is 2.
        let builder = GIFBuilder(width: 2, height: 1, palette: [(255, 0, 0), (0, 255, 0)])
        let bytes = builder.animation([.init(indexes: [0, 0], disposal: 1), .init(indexes: [2, 1], disposal: 1)])
        try Self.check(bytes, name: "index past the table", lastFrame: Self.red + Self.green)
    }

    /// A frame whose colour table has all 256 entries and no transparent index draws every
    /// pixel over what the frame before kept, one thread and two, vector blocks and the tail
    /// alike (36 pixels a row); with a two-entry table (the test above) an index past it still
    /// draws nothing.
    @Test("a full colour table without a transparent index draws every pixel over a kept frame", arguments: [1, 2])
    func fullTableDrawsEveryPixel(threads: Int) throws {
        let palette: [(UInt8, UInt8, UInt8)] = (0..<256).map { (entry: Int) in
            (UInt8(entry), UInt8(255 - entry), UInt8(entry / 2))
        }
        let (width, height) = (36, 4)
        let builder = GIFBuilder(width: width, height: height, palette: palette)
        let second = (0..<(width * height)).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let bytes = builder.animation([
            .init(indexes: [UInt8](repeating: 9, count: width * height), disposal: 1, minimumCodeSize: 8),
            .init(indexes: second, disposal: 1, minimumCodeSize: 8)
        ])
        let expected: [UInt8] = second.flatMap { index -> [UInt8] in [index, 255 - index, index / 2, 255] }
        try Self.check(bytes, name: "full table", lastFrame: expected)
        let frames = try AnimationDecoder(bytes: bytes).decodeAllFrames(threads: threads)
        #expect(frames.last?.pixels == expected)
    }
}
