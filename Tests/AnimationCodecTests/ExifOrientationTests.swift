import AnimationCodec
import Foundation
import TestSupport
import Testing

/// JPEGs carrying each EXIF orientation, in both TIFF byte orders, decode to what Pillow shows
/// once `ImageOps.exif_transpose` turns them upright, as browsers do (CSS `image-orientation:
/// from-image`); an orientation out of range (9) leaves the image as stored, as there.
@Suite("JPEG: EXIF orientation", .timeLimit(.minutes(2)))
struct ExifOrientationTests {
    /// Writes `o{N}-{le,be}.jpg` (and `o9-le.jpg`) into `argv[1]`: a 67x45 noisy ramp at quality
    /// 90 with an APP1 Exif segment whose first IFD holds only the orientation, and beside each
    /// the RGB Pillow shows after exif_transpose. Prints one JSON line a file.
    static let script = #"""
        import json, struct, sys
        from pathlib import Path
        import numpy as np
        from PIL import Image, ImageOps

        out = Path(sys.argv[1])
        h, w = 45, 67
        y, x = np.mgrid[0:h, 0:w]
        ramps = np.stack([x * 255 // (w - 1), y * 255 // (h - 1), (x + y) * 3 % 256], -1)
        noise = np.random.default_rng(5).integers(-40, 40, (h, w, 3))
        picture = Image.fromarray(np.clip(ramps + noise, 0, 255).astype(np.uint8), "RGB")

        def exif(orientation, order):
            tiff = (b"II" if order == "<" else b"MM") + struct.pack(order + "HI", 42, 8)
            tiff += struct.pack(order + "H", 1) + struct.pack(order + "HHIHH", 0x0112, 3, 1, orientation, 0)
            tiff += struct.pack(order + "I", 0)
            return b"Exif\x00\x00" + tiff

        cases = [(n, o) for n in range(1, 9) for o in ("<", ">")] + [(9, "<")]
        for orientation, order in cases:
            name = f"o{orientation}-{'le' if order == '<' else 'be'}.jpg"
            picture.save(out / name, quality=90, exif=exif(orientation, order))
            shown = ImageOps.exif_transpose(Image.open(out / name)).convert("RGB")
            (out / (name + ".rgb")).write_bytes(np.asarray(shown).tobytes())
            print(json.dumps({"name": name, "orientation": orientation, "width": shown.width, "height": shown.height}))
        """#

    struct Sample: Sendable, CustomTestStringConvertible {
        var name: String
        var orientation: Int
        var bytes: [UInt8]
        var width, height: Int
        /// Opaque RGBA8 as Pillow shows the file upright.
        var expected: [UInt8]
        var testDescription: String { name }
    }

    static let samples: [Sample] = (try? make()) ?? []

    static func make() throws -> [Sample] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "stickerkit-exif-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let listing = folder.appendingPathComponent("samples.jsonl")
        guard try TestProcess.run(["python3", "-c", script, folder.path], standardOutput: listing) == 0 else {
            throw CocoaError(.fileWriteUnknown)
        }
        return try String(contentsOf: listing, encoding: .utf8).split(separator: "\n").map { line in
            let meta = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            let name = meta["name"] as! String
            let rgba = try PillowJPEGReference.opaqueRGBA(fromRGBFile: folder.appendingPathComponent(name + ".rgb"))
            return Sample(
                name: name, orientation: meta["orientation"] as! Int,
                bytes: [UInt8](try Data(contentsOf: folder.appendingPathComponent(name))),
                width: meta["width"] as! Int, height: meta["height"] as! Int, expected: rgba)
        }
    }

    @Test("Pillow wrote all seventeen files")
    func samplesMade() { #expect(Self.samples.count == 17) }

    @Test("each decodes to Pillow's upright pixels exactly, its sides swapped for 5 to 8", arguments: samples)
    func matchesPillow(_ sample: Sample) throws {
        let decoder = try AnimationDecoder(bytes: sample.bytes)
        let swapped = (5...8).contains(sample.orientation)
        #expect((decoder.info.width, decoder.info.height) == (swapped ? (45, 67) : (67, 45)))
        #expect(decoder.info.width == sample.width && decoder.info.height == sample.height)
        let frame = try decoder.frame(at: 0)
        #expect(frame.width == sample.width && frame.height == sample.height)
        #expect(Reference.mismatches(frame.pixels, sample.expected) == 0)
    }

    @Test(
        "every prefix and every byte flip of the Exif segment decodes or throws, never crashes, at either orientation's size"
    )
    func hostileSegment() throws {
        let sample = try #require(Self.samples.first { $0.name == "o6-be.jpg" })
        // The APP1 segment: FF E1, its length (counting itself), then "Exif\0\0".
        let signature: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]
        let exif = try #require(
            (4..<(sample.bytes.count - 6)).first { Array(sample.bytes[$0..<($0 + 6)]) == signature })
        let start = exif - 4
        try #require(sample.bytes[start] == 0xFF && sample.bytes[start + 1] == 0xE1)
        let end = start + 2 + (Int(sample.bytes[start + 2]) << 8 | Int(sample.bytes[start + 3]))
        func check(_ bytes: [UInt8]) {
            guard let decoder = try? AnimationDecoder(bytes: bytes) else { return }
            #expect([67, 45].contains(decoder.info.width) && decoder.info.width * decoder.info.height == 67 * 45)
            if let frame = try? decoder.frame(at: 0) {
                #expect(frame.pixels.count == 67 * 45 * 4 && frame.width == decoder.info.width)
            }
        }
        for length in 0..<(end + 8) { check(Array(sample.bytes.prefix(length))) }
        for index in start..<end {
            for flip: UInt8 in [0x01, 0x80, 0xFF] {
                var bytes = sample.bytes
                bytes[index] ^= flip
                check(bytes)
            }
        }
    }
}
