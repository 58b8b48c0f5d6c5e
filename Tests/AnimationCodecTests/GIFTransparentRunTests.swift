import AnimationCodec
import TestSupport
import Testing

/// Runs of a GIF frame's transparent index, which the drawing passes over eight at a time,
/// checked pixel by pixel against canvases computed here from the indexes the file was built
/// from: runs of every length at every alignment, on an odd-width canvas, drawn OVER a canvas,
/// onto a cleared one, interlaced, and with the same index not transparent; serial and
/// parallel decodes alike.
@Suite("GIF transparent runs")
struct GIFTransparentRunTests {
    static let (width, height) = (45, 19)
    static let palette: [(UInt8, UInt8, UInt8)] = [(255, 0, 0), (0, 200, 0), (0, 0, 180), (250, 250, 10)]
    /// The index the frames mark transparent (a colour of its own where a frame does not).
    static let clear: UInt8 = 3

    /// Rows of runs: transparent runs of 1-20 pixels between opaque runs of 1-12 of indexes 0-2,
    /// so runs start at every offset and cross every 8-pixel boundary.
    static func runs(seed: UInt64) -> [UInt8] {
        var generator = SplitMix(seed: seed)
        var indexes: [UInt8] = []
        var transparent = seed % 2 == 0
        while indexes.count < width * height {
            let length = transparent ? 1 + Int(generator.next() % 20) : 1 + Int(generator.next() % 12)
            for _ in 0..<length { indexes.append(transparent ? clear : UInt8(generator.next() % 3)) }
            transparent.toggle()
        }
        return Array(indexes.prefix(width * height))
    }

    /// Longer runs of one index each: transparent runs of 1-40 pixels between runs of 1-40 of a
    /// single index 0-2, so whole 16-pixel blocks of one index, transparent or not, start at
    /// every offset.
    static func uniformRuns(seed: UInt64) -> [UInt8] {
        var generator = SplitMix(seed: seed)
        var indexes: [UInt8] = []
        var transparent = seed % 2 == 0
        while indexes.count < width * height {
            let length = 1 + Int(generator.next() % 40)
            let index = transparent ? clear : UInt8(generator.next() % 3)
            indexes.append(contentsOf: repeatElement(index, count: length))
            transparent.toggle()
        }
        return Array(indexes.prefix(width * height))
    }

    /// The premultiplied pixel of palette `index`.
    static func color(_ index: UInt8) -> [UInt8] {
        let (r, g, b) = palette[Int(index)]
        return [r, g, b, 255]
    }

    /// `frames`' canvases composited by GIF's rules, pixel by pixel (full-screen frames only).
    static func expectedCanvases(_ frames: [GIFBuilder.Image]) -> [[UInt8]] {
        var canvas = [UInt8](repeating: 0, count: width * height * 4)
        var canvases: [[UInt8]] = []
        for frame in frames {
            for (pixel, index) in frame.indexes.enumerated() where index != frame.transparentIndex {
                canvas.replaceSubrange(pixel * 4..<pixel * 4 + 4, with: color(index))
            }
            canvases.append(canvas)
            if frame.disposal == 2 { canvas = [UInt8](repeating: 0, count: width * height * 4) }
        }
        return canvases
    }

    static let frames: [GIFBuilder.Image] = [
        // Opaque art first, kept: the next frame is drawn OVER it.
        .init(indexes: runs(seed: 1).map { $0 == clear ? 1 : $0 }, disposal: 1),
        .init(indexes: runs(seed: 2), disposal: 2, transparentIndex: clear),
        // Onto the cleared canvas: the frame replaces it, transparent pixels stored as zero.
        .init(indexes: runs(seed: 3), disposal: 1, transparentIndex: clear),
        // The same index drawn as a colour where it is not transparent.
        .init(indexes: runs(seed: 4), disposal: 1, transparentIndex: nil, interlaced: true),
        .init(indexes: runs(seed: 5), disposal: 1, transparentIndex: clear, interlaced: true),
        .init(indexes: runs(seed: 6), disposal: 2, transparentIndex: clear),
        .init(indexes: runs(seed: 7), disposal: 1, transparentIndex: clear, interlaced: true),
        // Long runs of one index: drawn OVER the frame before, then onto a cleared canvas, then
        // with no transparent index (index 0's runs, and the others', are colours).
        .init(indexes: uniformRuns(seed: 8), disposal: 2, transparentIndex: clear),
        .init(indexes: uniformRuns(seed: 9), disposal: 1, transparentIndex: clear),
        .init(indexes: uniformRuns(seed: 10), disposal: 1, transparentIndex: nil),
        .init(indexes: uniformRuns(seed: 11), disposal: 1, transparentIndex: 0, interlaced: true)
    ]

    @Test("every frame equals its hand-composited canvas, serial and parallel", arguments: [1, 2])
    func runsComposite(threads: Int) throws {
        let gif = GIFBuilder(width: Self.width, height: Self.height, palette: Self.palette).animation(Self.frames)
        let decoder = try AnimationDecoder(bytes: gif)
        let expected = Self.expectedCanvases(Self.frames)
        var index = 0
        try decoder.forEachFrame(threads: threads) { frame in
            let wrong = stride(from: 0, to: frame.pixels.count, by: 4).filter {
                Array(frame.pixels[$0..<$0 + 4]) != Array(expected[index][$0..<$0 + 4])
            }.count
            #expect(wrong == 0, "frame \(index): \(wrong) pixels differ")
            #expect(frame.warnings.isEmpty)
            index += 1
        }
        #expect(index == Self.frames.count)
    }
}
