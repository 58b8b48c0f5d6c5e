import Foundation
import StickerPack
import StickerReview
import TestSupport

/// The packs of ReviewFixtures.py, drawn once per test run, and reviews of them written once.
enum ReviewFixtures {
    static let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The folder holding good/ and bad/.
    static func packs() throws -> URL { try drawn.get() }

    /// A new empty temporary folder, removed at exit.
    static func temporaryFolder(_ name: String) -> URL {
        let url = RunFolders.removedAtExit(
            FileManager.default.temporaryDirectory.appendingPathComponent(
                "stickers-review-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"))
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Reviews `paths` (packs) into a new folder with `options`; the folder.
    static func review(_ paths: [String], options: ReviewOptions = fastOptions, name: String) throws -> (
        folder: URL, summaries: [PackSummary]
    ) {
        let folder = temporaryFolder(name)
        let packs = try paths.map { try PackLoader.load(path: $0) }
        let folders = ReviewWriter.packFolders(packs.map(\.name), in: folder)
        let targets = zip(packs, zip(paths, folders)).map { ReviewTarget(pack: $0, path: $1.0, folder: $1.1) }
        let reviews = try PackReviewer(options: options).review(targets)
        let summaries = try ReviewWriter.write(reviews, folders: folders, in: folder, singleFile: options.singleFile)
        return (folder, summaries)
    }

    /// Options that keep the tests quick: the fit dry run at a fast level, 1x drawings.
    static var fastOptions: ReviewOptions {
        var options = ReviewOptions()
        options.fitLevel = 1
        options.scale = 1
        options.threads = 2
        return options
    }

    /// The sample pack of the repository, and its catalog (whose stickers have labels).
    static var samplePack: String { repoRoot.appendingPathComponent("corpus/sample-pack").path }
    static var sampleCatalog: String { repoRoot.appendingPathComponent("corpus/Sample.xcstickers").path }

    private static let drawn: Result<URL, any Error> = Result {
        let folder = temporaryFolder("packs")
        let script = repoRoot.appendingPathComponent("Tests/StickerReviewTests/ReviewFixtures.py").path
        let status = try TestProcess.run(["python3", script, folder.path])
        guard status == 0 else {
            throw HeadlessChromium.Failure(description: "ReviewFixtures.py exited with \(status)")
        }
        return folder
    }
}
