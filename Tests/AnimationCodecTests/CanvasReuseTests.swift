import Testing

@testable import AnimationCodec

/// `forEachFrame(reusing:)`: decoding into memory the caller keeps. The buffer handed in is
/// full of garbage, so any pixel the decoder forgot to write shows; the expected pixels are
/// worked out by hand from the files, which are built byte by byte.
@Suite("Decoding into a caller's canvas")
struct CanvasReuseTests {
    static let side = 6

    /// A still: straight (200, 100, 50, 128) everywhere, premultiplied (100, 50, 25, 128).
    static func still() -> [UInt8] {
        var png = TestPNG()
        png.header(width: side, height: side)
        png.chunk("IDAT", TestPNG.zlibStored(TestPNG.solidRows(width: side, height: side, rgba: [200, 100, 50, 128])))
        png.chunk("IEND", [])
        return png.bytes
    }

    /// Two frames: opaque red over the canvas (disposed to background), then opaque blue in
    /// the 2x2 square at (1, 1) blended OVER the cleared canvas.
    static func animation(damagedSecondFrame: Bool = false) -> [UInt8] {
        var png = TestPNG()
        png.header(width: side, height: side)
        png.chunk("acTL", TestPNG.be32(2) + TestPNG.be32(0))
        png.chunk("fcTL", TestPNG.frameControl(sequence: 0, width: side, height: side, dispose: 1))
        png.chunk("IDAT", TestPNG.zlibStored(TestPNG.solidRows(width: side, height: side, rgba: [255, 0, 0, 255])))
        png.chunk("fcTL", TestPNG.frameControl(sequence: 1, width: 2, height: 2, x: 1, y: 1, blend: 1))
        let data = TestPNG.zlibStored(TestPNG.solidRows(width: 2, height: 2, rgba: [0, 0, 255, 255]))
        png.chunk("fdAT", TestPNG.be32(2) + (damagedSecondFrame ? [UInt8](repeating: 0xFF, count: data.count) : data))
        png.chunk("IEND", [])
        return png.bytes
    }

    static func address(_ bytes: [UInt8]) -> UnsafeRawPointer? { bytes.withUnsafeBytes { $0.baseAddress } }

    @Test("a still decodes into the caller's memory, every pixel written")
    func still() throws {
        let decoder = try AnimationDecoder(bytes: Self.still())
        var canvas = [UInt8](repeating: 0xAB, count: Self.side * Self.side * 4)
        let before = Self.address(canvas)
        var seen: [PremultipliedRGBA] = []
        try decoder.forEachFrame(threads: 1, reusing: &canvas) {
            seen.append($0.pixel(x: Self.side - 1, y: Self.side - 1))
        }
        #expect(seen == [PremultipliedRGBA(r: 100, g: 50, b: 25, a: 128)])
        #expect(Self.address(canvas) == before, "the memory handed in is the memory decoded into")
        #expect(
            canvas == [UInt8](repeating: 0, count: Self.side * Self.side).flatMap { _ in [100, 50, 25, 128] as [UInt8] }
        )
    }

    @Test("an animation reuses the caller's memory on one thread and on two", arguments: [1, 2])
    func animation(threads: Int) throws {
        let decoder = try AnimationDecoder(bytes: Self.animation())
        var canvas = [UInt8](repeating: 0xAB, count: Self.side * Self.side * 4)
        let before = Self.address(canvas)
        var frames: [[PremultipliedRGBA]] = []
        try decoder.forEachFrame(threads: threads, reusing: &canvas) { frame in
            frames.append((0..<(Self.side * Self.side)).map { frame.pixel(x: $0 % Self.side, y: $0 / Self.side) })
        }
        let red = PremultipliedRGBA(r: 255, g: 0, b: 0, a: 255)
        let blue = PremultipliedRGBA(r: 0, g: 0, b: 255, a: 255)
        let clear = PremultipliedRGBA(r: 0, g: 0, b: 0, a: 0)
        #expect(frames.count == 2)
        #expect(frames.first == [PremultipliedRGBA](repeating: red, count: Self.side * Self.side))
        let square = (0..<(Self.side * Self.side)).map { i in
            (1...2).contains(i % Self.side) && (1...2).contains(i / Self.side) ? blue : clear
        }
        #expect(frames.last == square)
        #expect(Self.address(canvas) == before)
        #expect(canvas[(1 * Self.side + 1) * 4 + 2] == 255 && canvas[3] == 0, "the canvas ends as the last frame")
    }

    @Test("memory of another size is replaced by a canvas of the right size")
    func otherSize() throws {
        let decoder = try AnimationDecoder(bytes: Self.still())
        var canvas = [UInt8](repeating: 7, count: 10)
        try decoder.forEachFrame(threads: 1, reusing: &canvas) { _ in }
        #expect(canvas.count == Self.side * Self.side * 4)
        #expect(canvas.prefix(4) == [100, 50, 25, 128])
    }

    @Test("after an error the caller still holds a canvas of the right size")
    func afterError() throws {
        // Frame 1's zlib data is not zlib; frame 0 is intact.
        let decoder = try AnimationDecoder(bytes: Self.animation(damagedSecondFrame: true))
        var canvas = [UInt8](repeating: 0xAB, count: Self.side * Self.side * 4)
        var frames = 0
        #expect(throws: CodecError.self) { try decoder.forEachFrame(threads: 1, reusing: &canvas) { _ in frames += 1 } }
        #expect(frames == 1)
        #expect(canvas.count == Self.side * Self.side * 4)
    }
}
