import AnimationCodec
import Foundation
import TestSupport
import Testing

/// The GIF writer behind iTerm2's animations: what it writes decodes, in our decoder and in
/// Pillow's, to exactly the palette colours of the indexes given, with their delays and the
/// transparent index kept.
@Suite("GIF encoder")
struct GIFEncoderTests {
    /// `count` frames of `side` x `side` indexes from a seeded generator over `colors` colours
    /// (noise: the LZW table fills and is cleared many times), index 0 transparent.
    static func frames(side: Int, colors: Int, count: Int) -> [GIFEncoder.Frame] {
        var random = SplitMix(seed: 0x61F)
        return (0..<count).map { index in
            let palette = (0..<(3 * colors)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            // Runs as well as noise: a band of one index, then random indexes.
            let indexes = (0..<(side * side)).map { i in
                i < side * 8 ? UInt8(1) : UInt8(truncatingIfNeeded: random.next() % UInt64(colors))
            }
            return GIFEncoder.Frame(
                indexes: indexes, palette: palette, transparentIndex: 0, delayCentiseconds: 3 + index)
        }
    }

    /// The straight RGBA each frame should show.
    static func expected(_ frame: GIFEncoder.Frame) -> [UInt8] {
        frame.indexes.flatMap { index -> [UInt8] in
            index == frame.transparentIndex
                ? [0, 0, 0, 0]
                : [
                    frame.palette[3 * Int(index)], frame.palette[3 * Int(index) + 1], frame.palette[3 * Int(index) + 2],
                    255
                ]
        }
    }

    @Test("every index back from our decoder, 256 and 2 colours, with the delays and the plays", arguments: [256, 2])
    func roundTrip(colors: Int) throws {
        let frames = Self.frames(side: 150, colors: colors, count: 3)
        let file = GIFEncoder.encode(frames: frames, width: 150, height: 150, plays: 0)
        let decoder = try AnimationDecoder(bytes: file)
        #expect(decoder.info.frames.count == 3 && decoder.info.loopCount == 0)
        for (index, frame) in frames.enumerated() {
            // Opaque pixels are stored as they are when premultiplied.
            #expect(try decoder.frame(at: index).pixels == Self.expected(frame), "frame \(index)")
            #expect(decoder.info.frames[index].delay.seconds == Double(3 + index) / 100)
        }
    }

    @Test("Pillow reads the same pixels from a 618 x 618 file of noise")
    func pillow() throws {
        let frames = Self.frames(side: 618, colors: 256, count: 2)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gif-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let gif = folder.appendingPathComponent("noise.gif")
        try Data(GIFEncoder.encode(frames: frames, width: 618, height: 618, plays: 2)).write(to: gif)
        let script = """
            import sys
            from PIL import Image
            im = Image.open(sys.argv[1])
            print(im.info.get("loop"))
            for i in range(im.n_frames):
                im.seek(i)
                open(sys.argv[2] + "/%d.rgba" % i, "wb").write(im.convert("RGBA").tobytes())
            """
        let output = try TestProcess.capture(["python3", "-c", script, gif.path, folder.path])
        try #require(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == "1\n", "two plays: one repeat")
        for (index, frame) in frames.enumerated() {
            let pillow = [UInt8](try Data(contentsOf: folder.appendingPathComponent("\(index).rgba")))
            // Pillow gives a transparent pixel's colour as it likes; compare visibility and colour.
            let expected = Self.expected(frame)
            var mismatches = 0
            for pixel in 0..<(618 * 618) {
                let e = expected[(4 * pixel)..<(4 * pixel + 4)]
                let p = pillow[(4 * pixel)..<(4 * pixel + 4)]
                if e.last == 0 ? p.last != 0 : !e.elementsEqual(p) { mismatches += 1 }
            }
            #expect(mismatches == 0, "frame \(index)")
        }
    }
}
