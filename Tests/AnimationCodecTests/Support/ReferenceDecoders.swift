import AnimationCodec
import Foundation
import TestSupport

/// Independent decoders run as separate processes (Pillow, ffmpeg) through
/// `Tests/Scripts/reference_frames.py`, returning premultiplied canvases per frame.
enum ExternalReference: String, CaseIterable, Sendable {
    case pillow, ffmpeg

    struct Output {
        var width: Int
        var height: Int
        /// Premultiplied RGBA8 per displayed frame.
        var frames: [[UInt8]]
    }

    static let script = Fixtures.repoRoot.appendingPathComponent("Tests/Scripts/reference_frames.py")

    /// Whether the tool can run here (the Makefile installs both).
    var isAvailable: Bool {
        let probe = self == .pillow ? ["python3", "-c", "import PIL"] : ["ffmpeg", "-version"]
        return (try? Self.run(probe)) == 0
    }

    func decode(_ url: URL) throws -> Output {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent(
            "stickerkit-ref-\(rawValue)-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let status = try Self.run(["python3", Self.script.path, rawValue, url.path, out.path])
        guard status == 0 else { throw CocoaError(.fileReadUnknown) }
        let meta =
            try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("meta.json")))
            as! [String: Any]
        let count = meta["frames"] as! Int
        let frames = try (0..<count).map { index -> [UInt8] in
            let name = "frame-" + String(format: "%04d", index) + ".rgba"
            return Reference.premultiplied(straight: [UInt8](try Data(contentsOf: out.appendingPathComponent(name))))
        }
        return Output(width: meta["width"] as! Int, height: meta["height"] as! Int, frames: frames)
    }

    @discardableResult
    static func run(_ arguments: [String]) throws -> Int32 { try TestProcess.run(arguments) }
}

/// A test-side APNG renderer: its own chunk walk, libpng (the oracle) for each frame's
/// pixels, and a plain per-pixel compositor written from the APNG spec.
enum LibPNGAPNGReference {
    struct Control {
        var width, height, x, y: Int
        var dispose, blend: UInt8
    }

    static func render(_ bytes: [UInt8]) -> [[UInt8]]? {
        func be32(_ o: Int) -> Int {
            Int(bytes[o]) << 24 | Int(bytes[o + 1]) << 16 | Int(bytes[o + 2]) << 8 | Int(bytes[o + 3])
        }
        var offset = 8
        var ihdr: [UInt8] = []
        var extra: [(String, [UInt8])] = []
        var frames: [(Control, [UInt8])] = []
        var idat: [UInt8] = []
        var sawFrameBeforeIDAT = false
        while offset + 8 <= bytes.count {
            let length = be32(offset)
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let data = Array(bytes[(offset + 8)..<(offset + 8 + length)])
            switch type {
            case "IHDR": ihdr = data
            case "PLTE", "tRNS": extra.append((type, data))
            case "fcTL":
                let d = data
                func v(_ o: Int) -> Int { Int(d[o]) << 24 | Int(d[o + 1]) << 16 | Int(d[o + 2]) << 8 | Int(d[o + 3]) }
                frames.append(
                    (Control(width: v(4), height: v(8), x: v(12), y: v(16), dispose: d[24], blend: d[25]), []))
                if idat.isEmpty && frames.count == 1 { sawFrameBeforeIDAT = true }
            case "IDAT":
                idat += data
                if sawFrameBeforeIDAT { frames[0].1 += data }
            case "fdAT": frames[frames.count - 1].1 += data.dropFirst(4)
            default: break
            }
            offset += 12 + length
        }
        let canvasWidth = Int(ihdr[0]) << 24 | Int(ihdr[1]) << 16 | Int(ihdr[2]) << 8 | Int(ihdr[3])
        let canvasHeight = Int(ihdr[4]) << 24 | Int(ihdr[5]) << 16 | Int(ihdr[6]) << 8 | Int(ihdr[7])
        var canvas = [UInt8](repeating: 0, count: canvasWidth * canvasHeight * 4)
        var saved = canvas
        var previous: Control?
        var output: [[UInt8]] = []
        for (control, data) in frames {
            if let p = previous {
                if p.dispose == 1 {
                    for y in p.y..<(p.y + p.height) {
                        for x in p.x..<(p.x + p.width) { for c in 0..<4 { canvas[(y * canvasWidth + x) * 4 + c] = 0 } }
                    }
                } else if p.dispose == 2 {
                    canvas = saved
                }
            }
            if control.dispose == 2 { saved = canvas }
            var png = TestPNG()
            png.chunk("IHDR", TestPNG.be32(control.width) + TestPNG.be32(control.height) + Array(ihdr[8...]))
            for (type, payload) in extra { png.chunk(type, payload) }
            png.chunk("IDAT", data)
            png.chunk("IEND", [])
            guard let image = LibPNGOracle.decode(png.bytes) else { return nil }
            let layer = Reference.premultiplied(straight: image.rgba)
            for y in 0..<control.height {
                for x in 0..<control.width {
                    let s = (y * control.width + x) * 4
                    let d = ((control.y + y) * canvasWidth + control.x + x) * 4
                    let alpha = Double(layer[s + 3])
                    for c in 0..<4 {
                        if control.blend == 0 {
                            canvas[d + c] = layer[s + c]
                        } else {
                            let under = (Double(canvas[d + c]) * (255 - alpha) / 255).rounded(.toNearestOrAwayFromZero)
                            canvas[d + c] = UInt8(Int(layer[s + c]) + Int(under))
                        }
                    }
                }
            }
            output.append(canvas)
            previous = control
        }
        return output
    }
}
