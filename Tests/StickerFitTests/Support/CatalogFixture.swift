import Foundation
import StickerPack
import Testing

/// An Xcode sticker catalog written by hand (Contents.json as Xcode lays it out) holding one
/// sticker for each exact branch of `fit` at the small size (300 px):
///
/// | Sticker | Input | Steps `fit` takes |
/// |---|---|---|
/// | Wide | 120 x 79 PNG, soft edges, labelled | scale, pad, encode |
/// | Blink | 300 x 300 APNG, 7 frames with repeats, no label | merge-repeats, encode |
/// | Beat | sequence of three 150 x 100 stills (the first two equal), 0.9 s fixed, 2 repetitions | scale, pad, encode |
/// | Photo | 300 x 300 noisy JPEG from Pillow | keep-original |
struct CatalogFixture {
    /// The `.xcstickers` folder.
    var catalog: URL
    /// Input files by sticker name, in play order.
    var inputs: [String: [URL]]

    static let names = ["Wide", "Blink", "Beat", "Photo"]
    static let labels = ["Wide": "A wide shape", "Beat": "A beating shape"]
    /// Frames of each input, counted when drawing them.
    static let inputFrames = ["Wide": 1, "Blink": 7, "Beat": 3, "Photo": 1]
    /// The sequence's timing.
    static let beatDuration = 0.9, beatRepetitions = 2
    /// The sequence's still size.
    static let beatWidth = 150, beatHeight = 100

    /// The sequence's stills: the soft artwork, the same again, and the artwork mirrored.
    static func beatStills() -> [[UInt8]] {
        let art = FitFixtures.softArtwork(width: beatWidth, height: beatHeight)
        var mirrored = art
        for y in 0..<beatHeight {
            for x in 0..<beatWidth {
                let from = (y * beatWidth + (beatWidth - 1 - x)) * 4
                let to = (y * beatWidth + x) * 4
                mirrored[to..<to + 4] = art[from..<from + 4]
            }
        }
        return [art, art, mirrored]
    }

    /// Writes the catalog into `folder`.
    static func make(in folder: URL) throws -> CatalogFixture {
        let catalog = folder.appendingPathComponent("Input.xcstickers")
        let pack = catalog.appendingPathComponent("Sticker Pack.stickerpack")
        try FileManager.default.createDirectory(at: pack, withIntermediateDirectories: true)
        let info = #""info" : {"author" : "xcode", "version" : 1}"#
        try json(#"{\#(info)}"#, in: catalog)
        try json(
            #"{\#(info), "properties" : {"grid-size" : "small"}, "stickers" : [{"filename" : "Wide.sticker"}, "#
                + #"{"filename" : "Blink.sticker"}, {"filename" : "Beat.stickersequence"}, {"filename" : "Photo.sticker"}]}"#,
            in: pack)
        var inputs: [String: [URL]] = [:]

        func sticker(_ name: String, file: String, label: String?) throws -> URL {
            let folder = pack.appendingPathComponent(name + ".sticker")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let labelMember = label.map { #", "accessibility-label" : "\#($0)""# } ?? ""
            try json(#"{\#(info), "properties" : {"filename" : "\#(file)"\#(labelMember)}}"#, in: folder)
            inputs[name] = [folder.appendingPathComponent(file)]
            return folder.appendingPathComponent(file)
        }
        try FitFixtures.writePNG(
            FitFixtures.softArtwork(width: 120, height: 79), width: 120, height: 79,
            to: sticker("Wide", file: "wide.png", label: labels["Wide"]))
        let side = StickerSize.small.pixels
        let on = FitFixtures.solid(width: side, height: side, 240, 220, 30)
        let off = FitFixtures.solid(width: side, height: side, 20, 20, 60)
        try FitFixtures.writeAPNG(
            [on, on, off, off, off, on, off], milliseconds: [100, 100, 50, 50, 50, 200, 40], width: side, height: side,
            to: sticker("Blink", file: "blink.png", label: nil))
        try FitFixtures.writeWithPillow(
            FitFixtures.noisyPhoto(width: side, height: side, amplitude: 20, seed: 3), width: side, height: side,
            format: "JPEG", quality: 80, to: sticker("Photo", file: "photo.jpg", label: nil))

        let sequence = pack.appendingPathComponent("Beat.stickersequence")
        try FileManager.default.createDirectory(at: sequence, withIntermediateDirectories: true)
        let frameNames = ["beat-a.png", "beat-b.png", "beat-c.png"]
        for (name, still) in zip(frameNames, beatStills()) {
            try FitFixtures.writePNG(
                still, width: beatWidth, height: beatHeight, to: sequence.appendingPathComponent(name))
        }
        try json(
            #"{\#(info), "properties" : {"accessibility-label" : "\#(labels["Beat"]!)", "duration" : \#(beatDuration), "#
                + #""duration-type" : "fixed", "repetitions" : \#(beatRepetitions)}, "#
                + #""frames" : [\#(frameNames.map { #"{"filename" : "\#($0)"}"# }.joined(separator: ", "))]}"#,
            in: sequence)
        inputs["Beat"] = frameNames.map { sequence.appendingPathComponent($0) }
        return CatalogFixture(catalog: catalog, inputs: inputs)
    }

    private static func json(_ text: String, in folder: URL) throws {
        try Data((text + "\n").utf8).write(to: folder.appendingPathComponent("Contents.json"))
    }

    /// A `Contents.json` parsed, for comparing with an expected tree.
    static func contents(_ folder: URL) throws -> NSDictionary {
        try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("Contents.json")))
                as? NSDictionary)
    }
}
