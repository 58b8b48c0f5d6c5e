import AnimationCodec
import StickerRenderer
import Testing

/// The shared clock: which frame shows when, loops, plays and timing policies, by hand.
@Suite("Sticker clock")
struct ClockTests {
    @Test("Frames 100 / 200 / 300 ms, two plays, then rest on the last frame")
    func twoPlays() {
        let clock = StickerClock(durations: [0.1, 0.2, 0.3], plays: 2)
        let expected: [(Double, Int)] = [
            (0, 0), (0.099, 0), (0.1, 1), (0.299, 1), (0.3, 2), (0.599, 2), (0.6, 0), (0.75, 1),
            (1.19, 2), (1.2, 2), (5, 2), (1e9, 2), (-1, 0)
        ]
        for (time, frame) in expected { #expect(clock.frameIndex(at: time) == frame, "t = \(time)") }
        #expect(clock.loopDuration == 0.6 && clock.endTime == 1.2)
        #expect(clock.changeTimes(until: 10) == [0, 0.1, 0.3, 0.6, 0.7, 0.9])
    }

    @Test("Forever: the loop repeats")
    func forever() {
        let clock = StickerClock(durations: [0.1, 0.2, 0.3], plays: 0)
        #expect(clock.frameIndex(at: 1.3) == 1)  // 1.3 mod 0.6 = 0.1
        #expect(clock.frameIndex(at: 600.35) == 2)
        #expect(clock.endTime == nil)
        #expect(clock.changeTimes(until: 1.0) == [0, 0.1, 0.3, 0.6, 0.7, 0.9])
    }

    @Test("Timing policies: Apple and browsers show tiny delays for 100 ms")
    func policies() {
        let delays = [
            FrameDelay(numerator: 0, denominator: 100), FrameDelay(numerator: 1, denominator: 100),
            FrameDelay(numerator: 2, denominator: 100)
        ]
        #expect(StickerClock(delays: delays, plays: 0, policy: .apple).durations == [0.1, 0.1, 0.02])
        #expect(StickerClock(delays: delays, plays: 0, policy: .browser).durations == [0.1, 0.1, 0.02])
        #expect(StickerClock(delays: delays, plays: 0, policy: .raw).durations == [0, 0.01, 0.02])
        // Raw timing skips the zero-length first frame.
        #expect(StickerClock(delays: delays, plays: 0, policy: .raw).frameIndex(at: 0) == 1)
    }

    @Test("An APNG's longest delay (65,535 s) is kept: at 4,000 s the first frame still shows")
    func longestDelay() {
        let delays = [FrameDelay(numerator: 65_535, denominator: 1), FrameDelay(numerator: 65_535, denominator: 1)]
        let clock = StickerClock(delays: delays, plays: 0, policy: .raw)
        #expect(clock.durations == [65_535, 65_535] && clock.loopDuration == 131_070)
        #expect(clock.frameIndex(at: 4000) == 0 && clock.frameIndex(at: 65_535) == 1)
        #expect(clock.frameIndex(at: 131_070 + 4000) == 0)
    }

    @Test("A still image is frame 0 at every time and never changes")
    func still() {
        let clock = StickerClock(durations: [0.1], plays: 0)
        #expect(clock.frameIndex(at: 3) == 0 && !clock.isAnimated && clock.changeTimes(until: 5) == [0])
    }

    @Test("Times parse as decimal seconds or milliseconds; hexadecimal, infinite and not-a-number are no times")
    func parsing() {
        #expect(
            DurationParsing.seconds("1.25s") == 1.25 && DurationParsing.seconds("1250ms") == 1.25
                && DurationParsing.seconds("2") == 2)
        #expect(DurationParsing.seconds(".5") == 0.5 && DurationParsing.seconds("1e1s") == 10)
        for text in ["-1", "soon", "inf", "nan", "0x10", "0x1p4", "0X10s", "1.5.2", "", "s", "ms", "1 s"] {
            #expect(DurationParsing.seconds(text) == nil, "\(text)")
        }
    }
}
