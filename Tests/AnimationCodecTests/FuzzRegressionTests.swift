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
        // A Cluster timestamp of about 2^40 ticks at a TimestampScale of 16.7 ms: the time in
        // nanoseconds overflowed Int64; any time past 2^60 ns is refused.
        "webm-cluster-time-overflow.webm": .failed(.malformed(.webm)),
        // A 32 x 24 track whose keyframe declares 4096 x 4096: refused from the VP9 header,
        // before libvpx allocates for it.
        "webm-frame-larger-than-track.webm": DecodeOutcome(frameCount: 1, frameError: .malformed(.webm)),
        // "fr": 1e-14: a frame would show for 10^14 s, past Int; rates outside 0.01-1000 are refused.
        "lottie-tiny-frame-rate.json": .failed(.malformed(.lottie)),
        // A repeater of 100,000,000 copies in 669 bytes: rlottie would build every copy.
        "lottie-repeater-bomb.json": .failed(.malformed(.lottie))
    ]

    @Test("every regression input has a stated outcome")
    func everyInputHasAnOutcome() {
        #expect(!Self.inputs.isEmpty)
        #expect(Set(Self.inputs) == Set(Self.expected.keys))
    }

    @Test("each regression input ends in its stated outcome", .timeLimit(.minutes(3)), arguments: inputs)
    func regression(name: String) throws {
        let bytes = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent(name)))
        let expected = try #require(Self.expected[name], "no stated outcome for \(name)")
        #expect(DecodeOutcome.of(bytes).0 == expected)
    }
}
