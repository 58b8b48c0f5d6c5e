import Foundation
import TestSupport
import Testing

/// `scripts/get-conformance.sh --from DIR`: copies the suites and installs only what matches
/// the checked-in manifests. (Its download path needs the internet, which CI does not have.)
@Suite("scripts/get-conformance.sh", .timeLimit(.minutes(3)))
struct ConformanceScriptTests {
    static let script = CLITests.repoRoot.appendingPathComponent("scripts/get-conformance.sh").path

    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let output = try TestProcess.capture(["/bin/bash", script] + arguments)
        return (output.status, output.stdout + output.stderr)
    }

    @Test(
        "--from copies every suite and verifies it; a damaged copy installs nothing of that suite",
        .needs(ConformanceSuites.all))
    func copyAndVerify() throws {
        let folder = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = folder.appendingPathComponent("good")
        let copied = try Self.run(["--from", ConformanceSuites.root.path, "--into", good.path])
        #expect(copied.status == 0, "\(copied.output)")
        for suite in ConformanceSuites.all {
            #expect(FileManager.default.fileExists(atPath: good.appendingPathComponent(suite).path), "\(suite)")
        }
        #expect(try Self.run(["--check", good.path]).status == 0)

        // One changed byte in one file of the source: that suite fails and is not installed.
        let license = good.appendingPathComponent("gif-peterdn/LICENSE")
        var bytes = [UInt8](try Data(contentsOf: license))
        bytes[0] ^= 1
        try Data(bytes).write(to: license)
        #expect(try Self.run(["--check", good.path]).status != 0)
        let damaged = folder.appendingPathComponent("damaged")
        let result = try Self.run(["--from", good.path, "--into", damaged.path])
        #expect(result.status != 0 && result.output.contains("gif-peterdn: does not match"), "\(result.output)")
        #expect(!FileManager.default.fileExists(atPath: damaged.appendingPathComponent("gif-peterdn").path))
        #expect(
            FileManager.default.fileExists(atPath: damaged.appendingPathComponent("pngsuite/png/basn0g01.png").path))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: damaged.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty, "no staging folder left: \(leftovers)")
    }
}
