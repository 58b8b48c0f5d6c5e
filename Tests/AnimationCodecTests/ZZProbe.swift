import AnimationCodec
import Foundation
import Testing

@Test func zzProbe() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    for name in ["01-bouncing-blob.png", "02-spinning-star.gif", "03-beating-heart.png", "04-party-popper.gif", "05-still-blob.png", "06-blob-card.jpg"] {
        let bytes = [UInt8](try Data(contentsOf: root.appendingPathComponent("corpus/sample-pack/" + name)))
        let start = Date()
        let decoder = try AnimationDecoder(bytes: bytes)
        var it = decoder.makeFrameIterator()
        var n = 0
        while let _ = try it.next() { n += 1 }
        let full = Date().timeIntervalSince(start)
        // 200 prefixes
        let s2 = Date()
        for k in 0..<200 {
            let cut = bytes.count * k / 200
            if let d = try? AnimationDecoder(bytes: Array(bytes.prefix(cut))) {
                var i = d.makeFrameIterator()
                while let _ = try? i.next() {}
            }
        }
        print("PROBE", name, bytes.count, n, "frames", String(format: "%.1f ms full, %.2f ms/prefix", full * 1000, Date().timeIntervalSince(s2) * 1000 / 200))
    }
}
