import Foundation
import TestSupport
import Testing

/// JPEG files of kinds the corpus lacks (greyscale, Adobe CMYK, progressive), written by
/// Pillow and by ImageMagick into a temporary folder, and the corpus's baseline colour JPEG,
/// each with Pillow's decode of it (libjpeg-turbo in Pillow's own build) as browsers show it:
/// opaque RGB.
enum PillowJPEGReference {
    struct Sample: Sendable, CustomTestStringConvertible {
        /// The file name, which says the writer and the kind.
        var name: String
        var bytes: [UInt8]
        var width, height: Int
        /// Pillow's mode for the file: "L", "RGB" or "CMYK".
        var mode: String
        var isProgressive: Bool
        /// Opaque RGBA8, from Pillow's decode.
        var expected: [UInt8]
        var testDescription: String { name }
    }

    /// Writes the files into the folder `argv[1]`, copies the corpus JPEG `argv[2]` beside them,
    /// decodes each with Pillow and prints a line of metadata for each.
    /// The pictures: colour ramps with noise (and ink ramps with noise, for Pillow's CMYK), 67x45
    /// so the blocks and the 2x2 chroma subsampling end part-way at the right and bottom edges. CMYK pixels become RGB as Chromium and
    /// Firefox convert them (both read every CMYK JPEG as Adobe-inverted, which both writers
    /// store): with the stored, inverted values, R = C x K / 255 rounded down, likewise G from M
    /// and B from Y. Pillow has already un-inverted them (its Adobe marker handling), so the
    /// stored values are 255 minus Pillow's.
    static let script = #"""
        import json, shutil, subprocess, sys
        from pathlib import Path
        import numpy as np
        from PIL import Image

        out = Path(sys.argv[1])
        h, w = 45, 67
        y, x = np.mgrid[0:h, 0:w]
        ramps = np.stack([x * 255 // (w - 1), y * 255 // (h - 1), (x + y) * 3 % 256], -1)
        noise = np.random.default_rng(7).integers(-40, 40, (h, w, 3))
        picture = Image.fromarray(np.clip(ramps + noise, 0, 255).astype(np.uint8), "RGB")
        picture.save(out / "source.png")
        # Pillow's own RGB to CMYK leaves K at 0; this one has ink in all four planes.
        inks = np.stack([x * 255 // (w - 1), y * 255 // (h - 1), 255 - x * 255 // (w - 1), (x * 7 + y * 5) % 256], -1)
        inks = Image.fromarray(np.clip(inks + np.random.default_rng(8).integers(-30, 30, (h, w, 4)), 0, 255).astype(np.uint8), "CMYK")

        picture.convert("L").save(out / "pillow-greyscale.jpg", quality=90)
        inks.save(out / "pillow-cmyk.jpg", quality=90)
        picture.save(out / "pillow-progressive.jpg", quality=90, progressive=True)
        picture.convert("L").save(out / "pillow-progressive-greyscale.jpg", quality=90, progressive=True)
        inks.save(out / "pillow-progressive-cmyk.jpg", quality=90, progressive=True)
        for name, options in [("imagemagick-greyscale.jpg", ["-colorspace", "Gray"]),
                              ("imagemagick-cmyk.jpg", ["-colorspace", "CMYK"]),
                              ("imagemagick-progressive.jpg", ["-interlace", "Plane"])]:
            subprocess.run(["convert", str(out / "source.png")] + options + ["-quality", "90", str(out / name)], check=True)

        shutil.copy(sys.argv[2], out / "corpus-06-blob-card.jpg")

        for path in sorted(out.glob("*.jpg")):
            image = Image.open(path)
            if image.mode == "CMYK":
                assert "adobe" in image.info, f"{path.name}: no Adobe marker"
                stored = 255 - np.asarray(image).astype(np.uint32)
                rgb = (stored[..., :3] * stored[..., 3:] // 255).astype(np.uint8)
            else:
                rgb = np.asarray(image.convert("RGB"))
            (out / (path.name + ".rgb")).write_bytes(rgb.tobytes())
            print(json.dumps({"name": path.name, "width": image.width, "height": image.height, "mode": image.mode,
                              "progressive": bool(image.info.get("progressive"))}))
        """#

    /// The opaque RGBA8 of a file of raw RGB8 triples (what the scripts write Pillow's pixels as).
    static func opaqueRGBA(fromRGBFile url: URL) throws -> [UInt8] {
        let rgb = [UInt8](try Data(contentsOf: url))
        var rgba = [UInt8](repeating: 255, count: rgb.count / 3 * 4)
        for p in 0..<(rgb.count / 3) { rgba.replaceSubrange((4 * p)..<(4 * p + 3), with: rgb[(3 * p)..<(3 * p + 3)]) }
        return rgba
    }

    /// Every sample, or the reason none could be made.
    static func make() throws -> [Sample] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "stickerkit-jpeg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let listing = folder.appendingPathComponent("samples.jsonl")
        let status = try TestProcess.run(
            ["python3", "-c", script, folder.path, Fixtures.samplePack.appendingPathComponent("06-blob-card.jpg").path],
            standardOutput: listing)
        guard status == 0 else { throw CocoaError(.fileWriteUnknown) }
        let lines = try String(contentsOf: listing, encoding: .utf8).split(separator: "\n")
        return try lines.map { line in
            let meta = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            let name = meta["name"] as! String
            let rgba = try opaqueRGBA(fromRGBFile: folder.appendingPathComponent(name + ".rgb"))
            return Sample(
                name: name, bytes: [UInt8](try Data(contentsOf: folder.appendingPathComponent(name))),
                width: meta["width"] as! Int, height: meta["height"] as! Int, mode: meta["mode"] as! String,
                isProgressive: meta["progressive"] as! Bool, expected: rgba)
        }
    }
}
