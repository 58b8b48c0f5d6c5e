import AnimationCodec
import Foundation
import StickerPack
import Testing

@testable import StickerFit

/// The fit reads its input file again each time it decodes the frames (the file's bytes are
/// not held through the search), so a file replaced in between is caught, not mixed in.
@Suite("fit: reading the input again", .timeLimit(.minutes(1)))
struct InputRereadTests {
    static func frames(_ count: Int, side: Int) -> [[UInt8]] {
        (0..<count).map { index in
            (0..<side * side).flatMap { pixel in [UInt8(truncatingIfNeeded: pixel + index * 40), 0x40, 0x80, 0xFF] }
        }
    }

    @Test("read again unchanged, the file decodes to the frames it holds")
    func unchanged() throws {
        let folder = try FitFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let frames = Self.frames(3, side: 16)
        let url = try FitFixtures.writeAPNG(
            frames, milliseconds: [100, 200, 300], width: 16, height: 16, to: folder.appendingPathComponent("a.png"))
        let input = try StickerFitter.Input.read(FitFixtures.sticker(url), limits: .default, vectorSide: 16)
        #expect(input.frameCount == 3 && input.width == 16 && input.height == 16)
        #expect(input.durations == [0.1, 0.2, 0.3])
        let animation = try input.load()
        for index in 0..<3 { #expect(try animation.frame(at: index).pixels == frames[index]) }
    }

    @Test("a file replaced by one of other frames between the reads is an error naming it")
    func replaced() throws {
        let folder = try FitFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("a.png")
        _ = try FitFixtures.writeAPNG(
            Self.frames(3, side: 16), milliseconds: [100, 100, 100], width: 16, height: 16, to: url)
        let input = try StickerFitter.Input.read(FitFixtures.sticker(url), limits: .default, vectorSide: 16)
        _ = try FitFixtures.writeAPNG(
            Self.frames(2, side: 16), milliseconds: [100, 100], width: 16, height: 16, to: url)
        #expect(throws: PackError.changedWhileRead(path: url.path)) { try input.load() }
        // Same frame count, other timing: also another file.
        _ = try FitFixtures.writeAPNG(
            Self.frames(3, side: 16), milliseconds: [100, 100, 200], width: 16, height: 16, to: url)
        #expect(throws: PackError.changedWhileRead(path: url.path)) { try input.load() }
    }
}
