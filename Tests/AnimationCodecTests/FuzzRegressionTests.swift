import AnimationCodec
import Foundation
import Testing

/// Every input a fuzzer (scripts/fuzz.sh) found crashing, hanging or exhausting memory,
/// kept in Tests/FuzzRegressions/: each must now end in its stated outcome, quickly.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    static let folder = Fixtures.repoRoot.appendingPathComponent("Tests/FuzzRegressions")
    static let inputs = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()

    /// What each input must decode to, worked out from its bytes.
    static let expected: [String: DecodeOutcome] = [
        // A 100 x 100 screen whose image descriptor declares 48350 x 4091 (0xBCDE x 0x0FFB):
        // about 198 Mpx, over the 64 Mpx area limit, refused before any allocation.
        "gif-huge-frame-rect-oom.gif": .failed(.limitExceeded),
    ]

    @Test("every regression input has a stated outcome")
    func everyInputHasAnOutcome() {
        #expect(!Self.inputs.isEmpty)
        #expect(Set(Self.inputs) == Set(Self.expected.keys))
    }

    @Test("each regression input ends in its stated outcome", .timeLimit(.minutes(1)), arguments: inputs)
    func regression(name: String) throws {
        let bytes = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent(name)))
        let expected = try #require(Self.expected[name], "no stated outcome for \(name)")
        #expect(DecodeOutcome.of(bytes).0 == expected)
    }
}
