// libFuzzer entry points for the pack layers, built by scripts/fuzz.sh with
// `swiftc -sanitize=fuzzer,address` over the AnimationCodec, StickerPack and StickerRenderer
// sources (as separate modules).
//   FUZZ_CONTENTS: the bytes are a Contents.json (the first byte picks which of a catalog's
//                  three: the pack's, a sticker's or a sequence's), then load + validate.
//   FUZZ_PACK:     the bytes are an image file in a folder pack beside a good sticker, then
//                  load, validate, render a snapshot, encode it, and render a short APNG.
//   FUZZ_TRANSCRIPT: the bytes are a conversation script: parse it, then lay it out and draw
//                  it (text through FreeType and HarfBuzz) with the sample pack's first sticker.
//   FUZZ_XCODE:    the bytes are the project.pbxproj of a sticker pack app project (its
//                  Info.plists and catalog good), then load the folder as a pack + validate.
//                  LLVMFuzzerInitialize writes a good project.pbxproj into $STICKERKIT_FUZZ_SEEDS.
import AnimationCodec
import Foundation
import StickerPack
import StickerRenderer
import StickerTranscript

private let root: URL = {
    let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("stickers-fuzz-\(getpid())")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}()

private let goodPNG: [UInt8] = {
    var pixels = [UInt8](repeating: 0, count: 300 * 300 * 4)
    for p in stride(from: 0, to: pixels.count, by: 8) { pixels[p] = 200; pixels[p + 3] = 255 }
    return PNGEncoder.encode(premultiplied: pixels, width: 300, height: 300)
}()

private let limits = DecodingLimits(maxSide: 2048, maxPixels: 1 << 21, maxFrames: 64, maxTotalDecodedBytes: 32 << 20)

private func write(_ bytes: [UInt8], _ path: String) {
    let url = root.appendingPathComponent(path)
    try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    FileManager.default.createFile(atPath: url.path, contents: Data(bytes))
}

#if FUZZ_XCODE
    private let appSpec = StickerAppSpec(name: "Fuzz", bundleIdentifier: "com.example.fuzz", team: "ABCDE12345")

    /// The project around the fuzzed project file: its Info.plists and a catalog of one sticker.
    private let projectFolder: URL = {
        let folder = root.appendingPathComponent("X")
        try? XcodeProjectWriter.write(appSpec, to: folder)
        let sticker = CatalogWriter.Entry(
            name: "Good", accessibilityLabel: "Good", content: .file(name: "good.png", bytes: goodPNG))
        try? CatalogWriter.write(
            stickers: [sticker], gridSize: .small, icons: [], to: folder.appendingPathComponent(appSpec.catalogPath))
        return folder
    }()

    @_cdecl("LLVMFuzzerInitialize")
    public func fuzzInitialize(
        _ argc: UnsafeMutablePointer<CInt>?,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?
    ) -> CInt {
        if let seeds = ProcessInfo.processInfo.environment["STICKERKIT_FUZZ_SEEDS"],
            let file = XcodeProjectWriter.files(for: appSpec).first(where: { $0.path.hasSuffix("project.pbxproj") })
        {
            FileManager.default.createFile(atPath: seeds + "/project.pbxproj", contents: Data(file.bytes))
        }
        return 0
    }
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPack(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    #if FUZZ_CONTENTS
        let pack =
            #"{"properties":{"grid-size":"small"},"stickers":[{"filename":"A.sticker"},{"filename":"B.stickersequence"}]}"#
        let sticker = #"{"properties":{"filename":"a.png","accessibility-label":"A"}}"#
        let sequence =
            #"{"properties":{"duration":10,"duration-type":"fps","repetitions":1},"frames":[{"filename":"1.png"},{"filename":"2.png"}]}"#
        var files = [Array(pack.utf8), Array(sticker.utf8), Array(sequence.utf8)]
        files[Int(bytes[0]) % 3] = Array(bytes.dropFirst())
        write(files[0], "P.stickerpack/Contents.json")
        write(files[1], "P.stickerpack/A.sticker/Contents.json")
        write(files[2], "P.stickerpack/B.stickersequence/Contents.json")
        write(goodPNG, "P.stickerpack/A.sticker/a.png")
        write(goodPNG, "P.stickerpack/B.stickersequence/1.png")
        write(goodPNG, "P.stickerpack/B.stickersequence/2.png")
        if let loaded = try? PackLoader.load(path: root.appendingPathComponent("P.stickerpack").path) {
            _ = PackValidator(limits: limits).validate(loaded)
        }
    #elseif FUZZ_PACK
        write(bytes, "F/01-fuzzed.png")
        write(goodPNG, "F/02-good.png")
        guard let loaded = try? PackLoader.load(path: root.appendingPathComponent("F").path) else { return 0 }
        _ = PackValidator(limits: limits).validate(loaded)
        var options = RenderOptions()
        options.scale = 1
        options.style = .expanded
        options.limits = limits
        let renderer = BrowserRenderer(pack: loaded, options: options)
        if let image = try? renderer.snapshot(at: 0.37) {
            precondition(image.width == renderer.layout.pixelWidth && image.height == renderer.layout.pixelHeight)
            _ = SnapshotEncoder.png(image)
        }
        _ = try? SnapshotEncoder.apng(renderer, duration: min(0.5, max(0.001, renderer.longestLoop)))
    #elseif FUZZ_TRANSCRIPT
        guard let text = String(validating: bytes, as: UTF8.self), let parsed = try? ConversationScript.parse(text)
        else { return 0 }
        write(goodPNG, "T/blob.png")
        guard let pack = try? PackLoader.load(path: root.appendingPathComponent("T").path) else { return 0 }
        var options = TranscriptOptions()
        options.scale = 1
        options.view = ViewSize(width: 200, height: 300)
        options.limits = limits
        options.showAll = bytes.count % 2 == 0
        if let renderer = try? TranscriptRenderer(
            parsed.conversation, pack: pack, folder: root.path, lines: parsed.lines, options: options),
            let image = try? renderer.snapshot(at: 0.1)
        {
            precondition(image.width == renderer.pixelWidth && image.height == renderer.pixelHeight)
        }
    #elseif FUZZ_XCODE
        write(bytes, "X/\(appSpec.projectBundleName)/project.pbxproj")
        if let loaded = try? PackLoader.load(path: projectFolder.path) {
            _ = PackValidator(limits: limits).validate(loaded)
        }
    #endif
    return 0
}
