import AnimationCodec
import Dispatch
import Foundation
import StickerPack
import StickerRenderer
import Testing

/// The terminal player against a recording terminal: frames at each change, loops, speed,
/// the screen entered and restored, and the wall-clock bound.
@Suite("Terminal player")
struct PlayerTests {
    final class RecordingTerminal: TerminalDevice {
        var writes: [String] = []
        func size() -> (columns: Int, rows: Int)? { (20, 10) }
        func write(_ text: String) { writes.append(text) }
    }

    /// A 2-frame APNG (red, blue), 50 ms each, looping forever.
    static func source() throws -> StickerPreviewSource {
        var writer = APNGWriter(width: 8, height: 8, frameCount: 2, plays: 0)
        for color: [UInt8] in [[255, 0, 0, 255], [0, 0, 255, 255]] {
            writer.append(
                premultiplied: Array((0..<64).flatMap { _ in color }), x: 0, y: 0, width: 8, height: 8,
                delay: FrameDelay(numerator: 50, denominator: 1000))
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("player-\(UUID().uuidString).png")
        try Data(writer.finish()).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let animation = try StickerAnimation.load(Sticker(name: "a", source: .file(url)))
        return StickerPreviewSource(animation: animation, timing: .raw, background: nil)
    }

    @Test("--loops 3: six frames at 50 ms steps, 0.3 s of playback, the screen entered first and restored last")
    func loops() throws {
        let terminal = RecordingTerminal()
        let clock = SteppedClock()
        let player = TerminalPlayer(
            source: try Self.source(), terminal: terminal, colors: .truecolor,
            limits: TerminalPlayer.Limits(loops: 3), clock: clock)
        let (ending, statistics) = try player.play()
        #expect(ending == .finished)
        #expect(statistics.frames == 6, "red, blue three times: \(statistics.frames)")
        #expect(abs(clock.now - 0.3) < 1e-9, "three loops of 100 ms: \(clock.now) s")
        #expect(terminal.writes.first == ANSIWriter.Control.enter && terminal.writes.last == ANSIWriter.Control.leave)
        let frames = terminal.writes.filter { $0.hasPrefix(ANSIWriter.Control.beginFrame) }
        #expect(frames.count == 6 && frames.allSatisfy { $0.hasSuffix(ANSIWriter.Control.endFrame) })
        // 8 x 8 pixels in 20 x 10 cells: 8 columns x 4 rows from column 7, row 4.
        #expect(frames[0].contains("\u{1B}[4;7H") && frames[1].contains("48;2;0;0;255"))
    }

    @Test("--speed 3 plays the same loops in a third of the time; --duration bounds playback")
    func speedAndDuration() throws {
        let fastClock = SteppedClock()
        let fast = TerminalPlayer(
            source: try Self.source(), terminal: RecordingTerminal(), colors: .truecolor,
            limits: TerminalPlayer.Limits(loops: 6, speed: 3), clock: fastClock)
        let (fastEnding, fastStats) = try fast.play()
        #expect(fastEnding == .finished && fastStats.frames == 12, "\(fastStats.frames) frames")
        #expect(abs(fastClock.now - 0.2) < 1e-9, "0.6 s of media at 3x: \(fastClock.now) s")

        let boundedClock = SteppedClock()
        let bounded = TerminalPlayer(
            source: try Self.source(), terminal: RecordingTerminal(), colors: .truecolor,
            limits: TerminalPlayer.Limits(duration: 0.25), clock: boundedClock)
        let (ending, stats) = try bounded.play()
        #expect(ending == .finished && abs(boundedClock.now - 0.25) < 1e-9, "\(boundedClock.now) s")
        #expect(stats.frames == 5, "frames at 0, 50, 100, 150 and 200 ms: \(stats.frames)")
    }

    @Test("On the wall clock, playback waits for each frame's delay")
    func wallClock() throws {
        // Only a lower bound: a slow or busy machine can take longer, never shorter.
        let start = DispatchTime.now().uptimeNanoseconds
        let player = TerminalPlayer(
            source: try Self.source(), terminal: RecordingTerminal(), colors: .truecolor,
            limits: TerminalPlayer.Limits(loops: 2))
        let (ending, statistics) = try player.play()
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        #expect(ending == .finished && statistics.frames >= 1)
        #expect(wall >= 0.2, "two loops of 100 ms: \(wall) s")
    }
}
