import Testing

@testable import AnimationCodec

/// A frame drawn over a rectangle that was just cleared (the empty canvas before frame 0, or
/// the previous frame disposed to background over the same rectangle) is drawn as SOURCE
/// without clearing first. These GIFs, built byte by byte, check the cases where that could
/// show stale pixels: frames that stop short, frames that cannot be decoded, transparent
/// indexes. The expected canvases are worked out here from the GIF rules alone.
@Suite("Frames over cleared rectangles")
struct ClearedRectangleTests {
    static let red = PremultipliedRGBA(r: 255, g: 0, b: 0, a: 255)
    static let green = PremultipliedRGBA(r: 0, g: 255, b: 0, a: 255)
    static let clear = PremultipliedRGBA(r: 0, g: 0, b: 0, a: 0)
    /// Index 1 red, 2 green, 3 (the transparent index where one is set) blue.
    static func builder(_ side: Int) -> GIFBuilder {
        GIFBuilder(width: side, height: side, palette: [(0, 0, 0), (255, 0, 0), (0, 255, 0), (0, 0, 255)])
    }

    /// Rows in the order an interlaced image stores them.
    static func storedRowOrder(height: Int) -> [Int] {
        [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { stride(from: $0.0, to: height, by: $0.1) }
    }

    @Test(
        "a frame replacing a cleared rectangle that stops short leaves the rest transparent",
        arguments: [false, true], [1, 2])
    func stopsShort(interlaced: Bool, threads: Int) throws {
        let side = 8
        // Frame 1: green, with a transparent diagonal; only 20 pixels of it are coded.
        let pattern = (0..<(side * side)).map { $0 % (side + 1) == 0 ? UInt8(3) : 2 }
        let gif = Self.builder(side).animation([
            .init(indexes: [UInt8](repeating: 1, count: side * side), disposal: 2),
            .init(indexes: pattern, keptPixels: 20, disposal: 2, transparentIndex: 3, interlaced: interlaced),
            .init(indexes: [UInt8](repeating: 1, count: side * side), disposal: 1)
        ])
        let frames = try AnimationDecoder(bytes: gif).decodeAllFrames(threads: threads)
        #expect(frames.count == 3)
        let rows = interlaced ? Self.storedRowOrder(height: side) : Array(0..<side)
        for y in 0..<side {
            for x in 0..<side {
                let storedPosition = rows.firstIndex(of: y)! * side + x
                let coded = storedPosition < 20
                let expected = coded && pattern[y * side + x] == 2 ? Self.green : Self.clear
                #expect(frames[0].pixel(x: x, y: y) == Self.red)
                #expect(frames[1].pixel(x: x, y: y) == expected, "frame 1 at (\(x), \(y))")
                #expect(frames[2].pixel(x: x, y: y) == Self.red)
            }
        }
        #expect(frames[1].warnings.contains { $0.kind == .missingPixelData })
    }

    /// Frames that replace the whole canvas are drawn whole by the parallel decode's workers
    /// from three threads on (on two the compositing thread draws them), and their memory becomes the canvas while the old canvas goes back to a worker: more
    /// frames than the window, so memory goes round several times, with frames kept by the
    /// caller and frames not kept (whose memory is written again).
    @Test("whole-canvas GIF frames drawn by workers arrive intact and in order, kept or not", arguments: [1, 2, 3, 4])
    func wholeCanvasFrames(threads: Int) throws {
        let side = 16
        let count = 13
        let blue = PremultipliedRGBA(r: 0, g: 0, b: 255, a: 255)
        let colors = [Self.red, Self.green, blue]
        // Frame k: index (x + y + k) % 3 + 1; every fourth frame has blue (3) transparent.
        let images = (0..<count).map { k in
            GIFBuilder.Image(
                indexes: (0..<(side * side)).map { UInt8(($0 % side + $0 / side + k) % 3 + 1) },
                disposal: 2, transparentIndex: k % 4 == 1 ? 3 : nil)
        }
        func expected(_ k: Int, _ x: Int, _ y: Int) -> PremultipliedRGBA {
            let index = (x + y + k) % 3 + 1
            return k % 4 == 1 && index == 3 ? Self.clear : colors[index - 1]
        }
        let decoder = try AnimationDecoder(bytes: Self.builder(side).animation(images))
        var canvas = [UInt8](repeating: 0xAB, count: side * side * 4)
        var seen: [[PremultipliedRGBA]] = []
        try decoder.forEachFrame(threads: threads, reusing: &canvas) { frame in
            seen.append((0..<(side * side)).map { frame.pixel(x: $0 % side, y: $0 / side) })
        }
        let kept = try decoder.decodeAllFrames(threads: threads)
        #expect(seen.count == count && kept.count == count)
        for k in 0..<min(count, seen.count, kept.count) {
            for y in 0..<side {
                for x in 0..<side {
                    #expect(seen[k][y * side + x] == expected(k, x, y), "frame \(k) at (\(x), \(y)), not kept")
                    #expect(kept[k].pixel(x: x, y: y) == expected(k, x, y), "frame \(k) at (\(x), \(y)), kept")
                }
            }
        }
        // The caller's canvas ends as the last frame.
        #expect(canvas.count == side * side * 4)
        #expect(PremultipliedRGBA(r: canvas[0], g: canvas[1], b: canvas[2], a: canvas[3]) == expected(count - 1, 0, 0))
    }

    /// Layer memory is not zeroed before a GIF frame is drawn into it: the draw itself must
    /// write every pixel, clearing what short or undecodable data never reaches. The memory
    /// handed in is full of garbage, so any pixel left unwritten shows.
    @Test(
        "a GIF layer drawn into used memory writes every pixel, short and undecodable frames too",
        arguments: [false, true])
    func layerInUsedMemory(interlaced: Bool) throws {
        let side = 8
        let gif = Self.builder(side).animation([
            .init(
                indexes: [UInt8](repeating: 1, count: side * side), keptPixels: 20, disposal: 2, interlaced: interlaced),
            .init(indexes: [UInt8](repeating: 2, count: side * side), disposal: 2, minimumCodeSize: 12)
        ])
        let decoder = try AnimationDecoder(bytes: gif)
        let rows = interlaced ? Self.storedRowOrder(height: side) : Array(0..<side)
        for index in 0..<2 {
            var storage = [UInt8](repeating: 0xAB, count: side * side * 4)
            let layer = try decoder.source.decodeLayer(
                index, bytes: decoder.bytes, scratch: DecodeScratch(), storage: &storage)
            for y in 0..<side {
                for x in 0..<side {
                    let coded = index == 0 && rows.firstIndex(of: y)! * side + x < 20
                    let o = (y * side + x) * 4
                    let pixel = PremultipliedRGBA(
                        r: layer.pixels[o], g: layer.pixels[o + 1], b: layer.pixels[o + 2], a: layer.pixels[o + 3])
                    #expect(pixel == (coded ? Self.red : Self.clear), "frame \(index) at (\(x), \(y))")
                }
            }
        }
    }

    @Test("a frame that cannot be decoded over a cleared rectangle shows it cleared", arguments: [1, 2])
    func undecodable(threads: Int) throws {
        let side = 6
        let gif = Self.builder(side).animation([
            .init(indexes: [UInt8](repeating: 1, count: side * side), disposal: 2),
            .init(indexes: [UInt8](repeating: 2, count: side * side), disposal: 2, minimumCodeSize: 12)
        ])
        let frames = try AnimationDecoder(bytes: gif).decodeAllFrames(threads: threads)
        #expect(frames[0].pixels.allSatisfy { $0 == 0 } == false)
        #expect(frames[1].pixels.allSatisfy { $0 == 0 })
        #expect(frames[1].warnings.contains { $0.kind == .invalidLZWCode })
    }

    @Test("a first frame that stops short is transparent past its last pixel, in reused memory too")
    func firstFrameStopsShort() throws {
        let side = 64
        let full = Self.builder(side).animation([.init(indexes: [UInt8](repeating: 1, count: side * side), disposal: 1)]
        )
        let short = Self.builder(side).animation([
            .init(indexes: [UInt8](repeating: 2, count: side * side), keptPixels: 100, disposal: 1)
        ])
        for _ in 0..<5 {
            // Freed red canvases are likely to be handed out again for the next one.
            let red = try AnimationDecoder(bytes: full).frame(at: 0)
            #expect(red.pixel(x: side - 1, y: side - 1) == Self.red)
            for threads in [1, 2] {
                let frame = try AnimationDecoder(bytes: short).decodeAllFrames(threads: threads)[0]
                for i in 0..<(side * side) {
                    let pixel = frame.pixel(x: i % side, y: i / side)
                    if pixel != (i < 100 ? Self.green : Self.clear) {
                        Issue.record("pixel \(i) is \(pixel)")
                        return
                    }
                }
            }
        }
    }
}
