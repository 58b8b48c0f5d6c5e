import AnimationCodec
import Foundation
import Testing

/// Every input a fuzzer (scripts/fuzz.sh) found crashing, hanging or exhausting memory,
/// kept in Tests/FuzzRegressions/: each must now end in frames or a typed error, quickly.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    static let folder = Fixtures.repoRoot.appendingPathComponent("Tests/FuzzRegressions")
    static let inputs = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()

    @Test("each regression input decodes or fails cleanly", arguments: inputs)
    func regression(name: String) throws {
        let bytes = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent(name)))
        _ = TruncationSweepTests.decodeCompletely(bytes)
    }

    @Test("a GIF frame rectangle larger than the limits is a limit error, before any allocation")
    func hugeFrameRectangle() throws {
        let bytes = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent("gif-huge-frame-rect-oom.gif")))
        #expect {
            _ = try AnimationDecoder(bytes: bytes)
        } throws: { error in
            if case .limitExceeded = error as? CodecError { return true }
            return false
        }
    }
}
