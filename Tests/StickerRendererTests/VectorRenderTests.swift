import AnimationCodec
import Foundation
import StickerPack
import StickerPixels
import StickerRenderer
import Testing

/// A Lottie sticker in the browser takes the place its own size gives it and is drawn at that
/// place's pixels: its edges stay as sharp as rlottie draws them, where a raster of the same
/// art scaled there spreads each edge over several pixels (and rings).
@Suite("Browser rendering: vector stickers drawn at their cell's pixels")
struct VectorRenderTests {
    /// 512 x 512, still: a 256 x 256 red square in the middle, on nothing.
    static let square = #"""
        {"v":"5.5.2","fr":30,"ip":0,"op":1,"w":512,"h":512,"layers":[{"ddd":0,"ind":1,"ty":4,"sr":1,"ip":0,"op":1,"st":0,"bm":0,
         "ks":{"o":{"a":0,"k":100},"r":{"a":0,"k":0},"a":{"a":0,"k":[0,0,0]},"s":{"a":0,"k":[100,100,100]},"p":{"a":0,"k":[256,256,0]}},
         "shapes":[{"ty":"rc","d":1,"p":{"a":0,"k":[0,0]},"s":{"a":0,"k":[256,256]},"r":{"a":0,"k":0}},
                   {"ty":"fl","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100},"r":1}]}]}
        """#

    @Test("a 512 px Lottie square in a small cell (216 px at 3x): red, white and at most one edge pixel between")
    func sharpEdges() throws {
        let files = RenderTests.Files()
        let lottie = files.write("square.json", Array(Self.square.utf8))
        // The same square as a 512 px PNG: the raster the browser scales to 216 px.
        var pixels = [UInt8](repeating: 0, count: 512 * 512 * 4)
        for y in 128..<384 {
            for x in 128..<384 {
                pixels.replaceSubrange((y * 512 + x) * 4..<(y * 512 + x) * 4 + 4, with: [255, 0, 0, 255])
            }
        }
        let raster = files.write("square.png", PNGEncoder.encode(premultiplied: pixels, width: 512, height: 512))
        var options = RenderOptions()
        options.scale = 3
        options.background = Background(named: "white")!
        options.size = .small
        func mixedPixels(_ url: URL) throws -> Int {
            let image = try BrowserRenderer(pack: RenderTests.pack([url]), options: options).snapshot(at: 0)
            // The row through the middle of the first red run: pixels neither white nor red.
            let rows = (0..<image.height).filter { y in
                (0..<image.width).contains { x in Self.rgb(image, x, y) == [255, 0, 0] }
            }
            let y = try #require(rows.isEmpty ? nil : rows[rows.count / 2])
            return (0..<image.width).filter { x in ![[255, 0, 0], [255, 255, 255]].contains(Self.rgb(image, x, y)) }
                .count
        }
        let vector = try mixedPixels(lottie)
        let scaled = try mixedPixels(raster)
        #expect(vector <= 2, "the vector's two edges: \(vector) mixed pixels")
        #expect(scaled > vector, "the scaled raster's edges spread: \(scaled) mixed pixels")
    }

    static func rgb(_ image: RGBAImage, _ x: Int, _ y: Int) -> [UInt8] {
        let offset = (y * image.width + x) * 4
        return Array(image.pixels[offset..<offset + 3])
    }
}
