import Foundation
import Testing

/// Where the third-party conformance suites are, and the trait that skips a test when one it
/// needs is missing.
///
/// The suites are not part of the repository (`scripts/get-conformance.sh` gets and verifies
/// them). They are looked for at `$STICKERKIT_CONFORMANCE`, else `../shared/conformance` beside
/// the repository, else `.conformance/` inside it (where the script puts them by default).
/// With `STICKERKIT_REQUIRE_CONFORMANCE=1` (CI, where the suites are known to be present)
/// nothing is skipped: a missing suite fails its tests instead.
public enum ConformanceSuites {
    /// Every suite the tests use, by folder name.
    public static let all = [
        "apng-philip-taylor", "gif-peterdn", "gif-pillow", "image-gif-tests",
        "pngsuite", "stickers-blobfox", "wuffs-testdata"
    ]

    /// The repository's root, found from this file's path.
    public static let repoRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The folder holding the suites (which may not exist).
    public static let root: URL = {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["STICKERKIT_CONFORMANCE"], !path.isEmpty {
            return URL(fileURLWithPath: path, relativeTo: repoRoot).standardizedFileURL
        }
        let beside = repoRoot.deletingLastPathComponent().appendingPathComponent("shared/conformance")
        let inside = repoRoot.appendingPathComponent(".conformance")
        return FileManager.default.fileExists(atPath: beside.path) ? beside : inside
    }()

    /// Whether a missing suite is a failure rather than a skip.
    public static let required = ProcessInfo.processInfo.environment["STICKERKIT_REQUIRE_CONFORMANCE"] == "1"

    /// Whether `suite`'s folder is there.
    public static func isPresent(_ suite: String) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: root.appendingPathComponent(suite).path, isDirectory: &isFolder)
            && isFolder.boolValue
    }

    /// The suites that are not there.
    public static var missing: [String] { all.filter { !isPresent($0) } }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only when every one of `suites` is present (always, when they are
    /// required); otherwise it is skipped with a comment naming what is missing.
    public static func needs(_ suites: String...) -> Self { needs(suites) }

    /// ``needs(_:)-(String...)`` for a list.
    public static func needs(_ suites: [String]) -> Self {
        let missing = suites.filter { !ConformanceSuites.isPresent($0) }
        return .enabled(
            if: ConformanceSuites.required || missing.isEmpty,
            "needs the conformance suite(s) \(missing.joined(separator: ", ")): scripts/get-conformance.sh gets them")
    }
}
