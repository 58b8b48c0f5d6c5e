import AnimationCodec
import Foundation
import StickerPack
import TestSupport
import Testing

@testable import StickerFit

/// The delays fit writes keep every frame's start time: a 60 fps clip stays at 60 fps (1/60 s
/// a frame, not 17 ms, which would slow it by 2%), read back by Pillow; dropped frames get the
/// exact sum of what they stand for; a duration no 16-bit fraction holds is rounded with the
/// error carried, so start times never drift.
@Suite("fit: frame timing", .timeLimit(.minutes(3)))
struct FrameTimingTests {
    @Test(
        "--max-duration's cut drops a last frame Messages would hold for 100 ms (under 11 ms), and keeps one of 11 ms or more",
        arguments: [
            (0.205, [0.1, 0.1]), (0.2105, [0.1, 0.1]), (0.2115, [0.1, 0.1, 0.0115]), (0.211, [0.1, 0.1, 0.011]),
            (0.25, [0.1, 0.1, 0.05]),
            // A cut shorter than the first frame keeps that frame, cut; a cut of no time keeps it
            // whole: never an empty clip, never a frame of no time.
            (1e-12, [1e-12]), (0.0, [0.1]), (-1.0, [0.1])
        ])
    func cutLastFrame(seconds: Double, expected: [Double]) {
        let kept = FrameTimeline.durations([0.1, 0.1, 0.1], keepingFirst: seconds)
        #expect(kept.count == expected.count && zip(kept, expected).allSatisfy { abs($0 - $1) < 1e-9 }, "\(kept)")
    }

    @Test(
        "a frame rate is named alike on every line: hundredths, then tenths half away from zero (printf alone makes 15.25 15.2)",
        arguments: [
            (15.25, "15.3"), (6.25, "6.3"), (15.249, "15.3"), (15.244, "15.2"), (30.5 / 2, "15.3"), (7.45, "7.5"),
            (7.44, "7.4"), (30, "30.0"), (1000.0 / 33, "30.3"), (0.04, "0.0"), (0.05, "0.1")
        ])
    func frameRateFigure(rate: Double, expected: String) {
        #expect(FrameRateFigure.text(rate) == expected)
    }

    @Test("a 60 fps clip is written at 1/60 s a frame, as Pillow reads it")
    func sixtyFramesPerSecond() throws {
        let folder = try FitFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 12 distinct frames at 200 px, so fitting to small (300 px) scales and re-encodes them.
        let frames = (0..<12).map {
            FitFixtures.solid(width: 200, height: 200, UInt8(20 * $0), 90, UInt8(250 - 20 * $0))
        }
        let animation = frames.map {
            PNGEncoder.AnimationFrame(pixels: $0, delay: FrameDelay(numerator: 1, denominator: 60))
        }
        let input = folder.appendingPathComponent("sixty.png")
        try Data(PNGEncoder.encodeAnimation(animation, width: 200, height: 200, plays: 0)).write(to: input)

        let fitted = StickerFitter(options: FitFixtures.quickOptions()).fit(FitFixtures.sticker(input), size: .small)
        #expect(fitted.failure == nil)
        guard case .file(_, let bytes) = fitted.output else { Issue.record("no file written"); return }
        let shown = try Pillow.decode(try FitFixtures.write(bytes, to: folder.appendingPathComponent("fitted.png")))
        #expect(shown.frames.count == 12)
        for duration in shown.durationsMs { #expect(abs(duration - 1000.0 / 60) < 1e-6, "\(duration) ms") }
        #expect(abs(shown.durationsMs.reduce(0, +) - 200) < 1e-6)
    }

    @Test(
        "frames under 11 ms merge with the frames after them until 11 ms, shown as the longest; a short end joins the group before",
        arguments: [
            ([0.01, 0.01, 0.01, 0.01], [0, 2], [0.02, 0.02]),
            // A last frame of 1 ms (what is left of a WebM's segment) costs nothing else.
            ([0.033, 0.033, 0.033, 0.001], [0, 1, 2], [0.033, 0.033, 0.034]),
            // A frame shown for no time never stands for the one after it.
            ([0.033, 0, 0.033, 0.033], [0, 2, 3], [0.033, 0.033, 0.033]),
            ([0.011, 0.0105], [0], [0.0215]),
            ([0.004, 0.004, 0.004, 0.05], [0, 3], [0.012, 0.05])
        ])
    func shortFramesMerged(durations: [Double], kept: [Int], merged: [Double]) throws {
        let result = try #require(FrameTimeline.mergingShortFrames(durations))
        #expect(result.kept == kept)
        #expect(
            result.durations.count == merged.count && zip(result.durations, merged).allSatisfy { abs($0 - $1) < 1e-9 },
            "\(result.durations)")
        #expect(FrameTimeline.mergingShortFrames([0.011, 0.033]) == nil, "11 ms is not under 11 ms")
    }

    @Test(
        "a 100 fps Lottie file (10 ms frames, timed as stored) is made at 50 fps: frames of 20 ms, the 1 s loop kept, the dropped frames named"
    )
    func videoFramesUnderElevenMilliseconds() throws {
        let folder = try FitFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The moving square at 100 frames a second: 100 frames, each a step further.
        let document = LottieDocuments.movingSquare
            .replacingOccurrences(of: "\"fr\":30,\"ip\":0,\"op\":30", with: "\"fr\":100,\"ip\":0,\"op\":100")
            .replacingOccurrences(of: "\"ip\":0,\"op\":30,\"st\"", with: "\"ip\":0,\"op\":100,\"st\"")
            .replacingOccurrences(of: "{\"t\":30}", with: "{\"t\":100}")
        let input = folder.appendingPathComponent("fast.json")
        try Data(document.utf8).write(to: input)

        let fitted = StickerFitter(options: FitFixtures.quickOptions()).fit(FitFixtures.sticker(input), size: .small)
        #expect(fitted.failure == nil)
        #expect(abs(fitted.framesPerSecondBefore - 100) < 1e-6)
        let dropped = try #require(fitted.steps.first { $0.kind == .frameRate && $0.detail.contains("11 ms") })
        #expect(dropped.isLossy && dropped.detail.hasPrefix("100.0 -> 50.0 fps, 100 -> 50 frames"), "\(dropped.detail)")
        guard case .file(_, let bytes) = fitted.output else { Issue.record("no file written"); return }
        // Messages shows a frame under 11 ms for 100 ms: every frame read back lasts 20 ms.
        let shown = try Pillow.decode(try FitFixtures.write(bytes, to: folder.appendingPathComponent("fitted.png")))
        #expect(shown.frames.count == 50)
        for duration in shown.durationsMs { #expect(abs(duration - 20) < 1e-6, "\(duration) ms") }
    }

    @Test(
        "an APNG's frames stored at 10 ms are made as Messages shows them (100 ms), and the step says so with the loop's two lengths"
    )
    func imageFramesUnderElevenMilliseconds() throws {
        let folder = try FitFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let frames = (0..<6).map {
            FitFixtures.solid(width: 200, height: 200, UInt8(40 * $0), 90, UInt8(250 - 40 * $0))
        }
        let input = try FitFixtures.writeAPNG(
            frames, milliseconds: [10, 20, 10, 20, 10, 20], width: 200, height: 200,
            to: folder.appendingPathComponent("short.png"))

        let fitted = StickerFitter(options: FitFixtures.quickOptions()).fit(FitFixtures.sticker(input), size: .small)
        #expect(fitted.failure == nil)
        let note = try #require(fitted.steps.first { $0.kind == .shortDelays })
        #expect(!note.isLossy)
        #expect(note.detail.hasPrefix("3 of 6 frames stored under 11 ms"), "\(note.detail)")
        #expect(note.detail.hasSuffix("the loop 0.36 s where its delays add up to 0.09 s"), "\(note.detail)")
        guard case .file(_, let bytes) = fitted.output else { Issue.record("no file written"); return }
        let shown = try Pillow.decode(try FitFixtures.write(bytes, to: folder.appendingPathComponent("fitted.png")))
        #expect(shown.durationsMs.map { $0.rounded() } == [100, 20, 100, 20, 100, 20])
    }

    @Test("two of every three frames of 60 fps: 1/60 s and 1/30 s, alternately")
    func droppedFramesKeepTheirTime() {
        let frames = (0..<6).map { [UInt8](repeating: UInt8($0), count: 4) }
        let timeline = FrameTimeline(frames: frames, durations: Array(repeating: 1.0 / 60, count: 6)).keepingEvery(1.5)
        let delays = timeline.delays.map { ($0.numerator, $0.denominator) }
        #expect(delays.count == 4)
        #expect(delays.elementsEqual([(1, 60), (1, 30), (1, 60), (1, 30)], by: ==))
    }

    @Test(
        "whole milliseconds stay milliseconds; other fractions are exact",
        arguments: [
            (0.040, 40, 1000), (1.0 / 24, 1, 24), (1.0 / 30, 1, 30), (7.0 / 90, 7, 90), (2.0, 2000, 1000)
        ])
    func exactFractions(seconds: Double, numerator: Int, denominator: Int) {
        let delay = FrameTimeline(frames: [[0, 0, 0, 0]], durations: [seconds]).delays[0]
        #expect(delay.numerator == numerator && delay.denominator == denominator)
    }

    @Test("a duration no 16-bit fraction holds never lets start times drift")
    func carriedRounding() {
        // π/100 s is within a nanosecond of no fraction with both terms under 65,536 (checked
        // on its convergents with Python's fractions); 100 frames of it.
        let duration = Double.pi / 100
        let delays = FrameTimeline(
            frames: Array(repeating: [0, 0, 0, 0], count: 100), durations: Array(repeating: duration, count: 100)
        ).delays
        #expect(delays.first?.numerator == 314 && delays.first?.denominator == 10_000)
        var stored = 0.0
        for (index, delay) in delays.enumerated() {
            #expect(delay.denominator <= 65_535 && delay.numerator <= 65_535)
            stored += delay.seconds
            let exact = Double(index + 1) * duration
            #expect(abs(stored - exact) <= 0.5 / 10_000 + 1e-12, "frame \(index): \(stored) against \(exact)")
        }
        // Frames of 100.00005 s: too long for tenths of milliseconds or milliseconds in 16 bits,
        // so hundredths, with the rounding still carried.
        let long = FrameTimeline(
            frames: Array(repeating: [0, 0, 0, 0], count: 3), durations: Array(repeating: 100.000_05, count: 3)
        ).delays
        var longStored = 0.0
        for (index, delay) in long.enumerated() {
            #expect(delay.denominator == 100 && delay.numerator <= 65_535, "\(delay)")
            longStored += delay.seconds
            #expect(abs(longStored - Double(index + 1) * 100.000_05) <= 0.005 + 1e-9)
        }
    }
}
