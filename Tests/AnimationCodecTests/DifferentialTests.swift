import AnimationCodec
import Foundation
import TestSupport
import Testing

/// Animations made by independent encoders (Pillow, gifsicle, ImageMagick, apngasm) from
/// fixed seeds, across dispose / blend / transparency / interlace combinations, decoded by
/// us and compared with Pillow and ffmpeg wherever those two agree.
@Suite("Differential: independent encoders vs Pillow and ffmpeg", .timeLimit(.minutes(3)))
struct DifferentialTests {
    static let corpus: URL = {
        let dir = RunFolders.removedAtExit(
            FileManager.default.temporaryDirectory.appendingPathComponent("stickerkit-differential-\(getpid())"))
        try? FileManager.default.removeItem(at: dir)
        _ = try? ExternalReference.run([
            "python3", Fixtures.repoRoot.appendingPathComponent("Tests/Scripts/make_differential_corpus.py").path,
            dir.path
        ])
        return dir
    }()

    static let files: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []).sorted()

    @Test("the generator made files with every encoder")
    func generated() {
        for prefix in ["pillow-apng", "pillow-gif", "gifsicle", "imagemagick", "apngasm"] {
            #expect(Self.files.contains { $0.hasPrefix(prefix) }, "no \(prefix) files")
        }
        #expect(Self.files.count >= 100)
    }

    @Test("each generated animation agrees with the references", arguments: files)
    func agrees(name: String) throws {
        try DifferentialCheck.compare(Self.corpus.appendingPathComponent(name), minimumJudged: 0.5)
    }
}
