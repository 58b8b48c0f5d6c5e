import AnimationCodec
import TestSupport
import Testing

/// GIF frames whose rectangles grow and shrink from frame to frame, more frames than the
/// parallel decode's window holds, so each slot's index memory is reused by frames larger and
/// smaller than the one before it; checked pixel by pixel against canvases composited here.
@Suite("GIF frames of varying sizes")
struct GIFFrameSizesTests {
    static let (width, height) = (37, 23)
    static let palette: [(UInt8, UInt8, UInt8)] = [(255, 0, 0), (0, 200, 0), (0, 0, 180), (250, 250, 10)]

    /// Rectangles cycling through large and small sizes, one reaching past the canvas.
    static let rects: [(x: Int, y: Int, width: Int, height: Int)] = [
        (0, 0, width, height), (3, 2, 5, 3), (1, 1, 33, 20), (20, 10, 2, 2), (0, 5, 37, 9),
        (30, 18, 12, 9), (4, 4, 1, 17), (2, 0, 35, 23), (9, 9, 3, 1), (0, 0, width, height),
        (11, 3, 16, 16), (5, 5, 4, 4), (1, 2, 30, 19), (25, 1, 9, 21)
    ]

    /// Indexes 0-3 of a frame, from `seed`: mixed pixels and runs of one index.
    static func indexes(count: Int, seed: UInt64) -> [UInt8] {
        var generator = SplitMix(seed: seed)
        var indexes: [UInt8] = []
        while indexes.count < count {
            let index = UInt8(generator.next() % 4)
            let length = generator.next() % 3 == 0 ? 1 + Int(generator.next() % 24) : 1
            indexes.append(contentsOf: repeatElement(index, count: length))
        }
        return Array(indexes.prefix(count))
    }

    static let frames: [GIFBuilder.Image] = rects.enumerated().map { number, rect in
        GIFBuilder.Image(
            indexes: indexes(count: rect.width * rect.height, seed: UInt64(number) + 1),
            disposal: number % 3 == 2 ? 2 : 1, transparentIndex: number % 2 == 1 ? 3 : nil,
            interlaced: number % 4 == 3, rect: rect)
    }

    /// The canvases GIF's rules give: each frame drawn in its rectangle (clipped to the
    /// canvas), its transparent index leaving the pixel, disposal 2 clearing the rectangle.
    static func expectedCanvases() -> [[UInt8]] {
        var canvas = [UInt8](repeating: 0, count: width * height * 4)
        var canvases: [[UInt8]] = []
        for frame in frames {
            let rect = frame.rect!
            for y in 0..<rect.height {
                for x in 0..<rect.width {
                    let index = frame.indexes[y * rect.width + x]
                    let (canvasX, canvasY) = (rect.x + x, rect.y + y)
                    guard index != frame.transparentIndex, canvasX < width, canvasY < height else { continue }
                    let (r, g, b) = palette[Int(index)]
                    let at = (canvasY * width + canvasX) * 4
                    canvas.replaceSubrange(at..<at + 4, with: [r, g, b, 255])
                }
            }
            canvases.append(canvas)
            if frame.disposal == 2 {
                for y in rect.y..<min(rect.y + rect.height, height) {
                    for x in rect.x..<min(rect.x + rect.width, width) {
                        let at = (y * width + x) * 4
                        canvas.replaceSubrange(at..<at + 4, with: [0, 0, 0, 0])
                    }
                }
            }
        }
        return canvases
    }

    @Test("every frame equals its hand-composited canvas, on one to three threads", arguments: [1, 2, 3])
    func varyingSizes(threads: Int) throws {
        let gif = GIFBuilder(width: Self.width, height: Self.height, palette: Self.palette).animation(Self.frames)
        let decoder = try AnimationDecoder(bytes: gif)
        let expected = Self.expectedCanvases()
        // Twice through one canvas: the second decode reuses the first one's memory.
        var canvas: [UInt8] = []
        for _ in 0..<2 {
            var index = 0
            try decoder.forEachFrame(threads: threads, reusing: &canvas) { frame in
                let wrong = stride(from: 0, to: frame.pixels.count, by: 4).filter {
                    Array(frame.pixels[$0..<$0 + 4]) != Array(expected[index][$0..<$0 + 4])
                }.count
                #expect(wrong == 0, "frame \(index): \(wrong) pixels differ")
                #expect(frame.warnings.isEmpty, "frame \(index): \(frame.warnings)")
                index += 1
            }
            #expect(index == Self.frames.count)
        }
    }
}
