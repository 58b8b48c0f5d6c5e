import AnimationCodec
import Foundation
import TestSupport
import Testing

/// Where ThorVG is installed.
enum ThorVG {
    /// The virtualenv's Python with thorvg-python ($STICKERKIT_THORVG_PYTHON, else
    /// .build-peers/thorvg), or nil when there is none.
    static let python: String? = {
        let path =
            ProcessInfo.processInfo.environment["STICKERKIT_THORVG_PYTHON"]
            ?? Fixtures.repoRoot.appendingPathComponent(".build-peers/thorvg/bin/python").path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }()
}

/// Lottie against a second engine: ThorVG (PyPI thorvg-python, the dotLottie renderer), which
/// shares no code with rlottie, the library our decoder draws with. Same frame count (op - ip),
/// every frame close: the two engines anti-alias edges and round gradients differently, so the
/// bound is a PSNR, not exact bytes. `make test` installs ThorVG in .build-peers/thorvg.
@Suite(
    "Lottie against ThorVG, a second engine", .timeLimit(.minutes(5)),
    .enabled(if: ThorVG.python != nil, "ThorVG is not installed: make peer-deps puts it in .build-peers/thorvg"))
struct ThorVGOracleTests {
    static let folder = RunFolders.removedAtExit(
        FileManager.default.temporaryDirectory.appendingPathComponent("thorvg-\(UUID().uuidString)"))

    /// A document, where it comes from, and the lowest PSNR any frame may have against ThorVG's.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var floor: Double
        var testDescription: String { "\(name) (every frame at least \(floor) dB)" }
    }

    /// The hand-written documents (one from an in point before frame 0, three with track mattes;
    /// edges anti-aliased differently: 30.7 dB measured at worst),
    /// the demo's spinner and the fit corpus's party sticker (Telegram's .tgs form, gzip).
    static let cases = [
        Case(name: "square.json", floor: 28), Case(name: "circle.json", floor: 28), Case(name: "early.json", floor: 28),
        Case(name: "spinner.tgs", floor: 28), Case(name: "party.tgs", floor: 45), Case(name: "matte.json", floor: 28),
        Case(name: "matte-inverted.json", floor: 28), Case(name: "matte-precomposition.json", floor: 28)
    ]

    /// Writes every case's file into ``folder`` once.
    static let written: Result<Void, any Error> = Result {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(LottieDocuments.movingSquare.utf8).write(to: folder.appendingPathComponent("square.json"))
        try Data(LottieTests.fadingCircle.utf8).write(to: folder.appendingPathComponent("circle.json"))
        try Data(LottieDocuments.earlyInPoint.utf8).write(to: folder.appendingPathComponent("early.json"))
        try Data(LottieDocuments.trackMatte(matteType: 1).utf8).write(to: folder.appendingPathComponent("matte.json"))
        try Data(LottieDocuments.trackMatte(matteType: 2).utf8).write(
            to: folder.appendingPathComponent("matte-inverted.json"))
        try Data(LottieDocuments.trackMatteInPrecomposition.utf8).write(
            to: folder.appendingPathComponent("matte-precomposition.json"))
        let script = """
            import gzip, json, sys
            sys.path.insert(0, sys.argv[1] + "/corpus"); sys.path.insert(0, sys.argv[1] + "/Benchmarks")
            import make_telegram_stickers, make_fit_corpus
            for name, document in [("spinner.tgs", make_telegram_stickers.spinner()), ("party.tgs", make_fit_corpus.lottie_party(256, 90, 30))]:
                open(sys.argv[2] + "/" + name, "wb").write(gzip.compress(json.dumps(document).encode()))
            """
        let status = try TestProcess.run(["python3", "-c", script, Fixtures.repoRoot.path, folder.path])
        try #require(status == 0, "the corpus scripts could not write the documents")
    }

    @Test("same frame count as ours, every frame close to ThorVG's", arguments: cases)
    func againstThorVG(_ testCase: Case) throws {
        try Self.written.get()
        let python = try #require(ThorVG.python)
        let file = Self.folder.appendingPathComponent(testCase.name)
        let out = Self.folder.appendingPathComponent(testCase.name + ".thorvg")
        let status = try TestProcess.run([
            python, Fixtures.repoRoot.appendingPathComponent("Tests/Scripts/thorvg_frames.py").path, file.path, out.path
        ])
        try #require(status == 0, "thorvg_frames.py failed on \(testCase.name)")
        let meta = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("meta.json")))
                as? [String: Any])
        let decoder = try AnimationDecoder(bytes: [UInt8](try Data(contentsOf: file)))
        #expect(
            meta["frames"] as? Int == decoder.frameCount,
            "ThorVG \(meta["frames"] ?? "?") frames, ours \(decoder.frameCount)")
        #expect(meta["width"] as? Int == decoder.info.width && meta["height"] as? Int == decoder.info.height)
        var iterator = decoder.makeFrameIterator()
        var index = 0
        while let frame = try iterator.next(), index < (meta["frames"] as? Int ?? 0) {
            let straight = [UInt8](
                try Data(contentsOf: out.appendingPathComponent(String(format: "frame-%04d.rgba", index))))
            try #require(straight.count == frame.pixels.count)
            let psnr = Self.psnr(Reference.premultiplied(straight: straight), frame.pixels)
            #expect(psnr >= testCase.floor, "frame \(index): \(psnr) dB")
            index += 1
        }
        #expect(index == decoder.frameCount && index > 0)
    }

    /// PSNR over every channel, alpha included (infinite for equal buffers).
    static func psnr(_ a: [UInt8], _ b: some Collection<UInt8>) -> Double {
        var squared = 0.0
        for (x, y) in zip(a, b) { let d = Double(x) - Double(y); squared += d * d }
        let mse = squared / Double(a.count)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }
}
