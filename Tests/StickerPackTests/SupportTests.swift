import Foundation
import Testing

@testable import StickerPack

/// What replaced Foundation-only APIs (the product links only FoundationEssentials): printf
/// formatting, whole writes to a descriptor, bounded reads, error reasons and the
/// untyped JSON of Contents.json files, each against values worked out by hand.
@Suite("Support without Foundation")
struct SupportTests {
    @Test("printf formatting: fixed decimals, padded integers, hex bytes, several arguments")
    func cFormat() {
        #expect(String(cFormat: "%.2f", 3.14159) == "3.14")
        #expect(
            String(cFormat: "%.1f -> %.1f fps, %ld -> %ld frames", 60.0, 30.0, 48, 24)
                == "60.0 -> 30.0 fps, 48 -> 24 frames")
        #expect(String(cFormat: "frame%03ld", 7) == "frame007")
        #expect(String(cFormat: "%02X", UInt8(10)) == "0A")
        #expect(String(cFormat: "%6.1fx", 12.25) == "  12.2x")  // ties go to even, as printf does
        #expect(String(cFormat: "") == "")
        #expect(String(cFormat: "%ld of %ld fitted in %.2f s", 5, 6, 1.5) == "5 of 6 fitted in 1.50 s")
    }

    @Test("Bounded reads: a file's head and size; nothing for a folder or a missing file")
    func boundedFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("support-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("f.bin").path
        try Data((0..<40).map { UInt8($0) }).write(to: URL(fileURLWithPath: file))
        #expect(BoundedFile.head(file, count: 16) == (0..<16).map { UInt8($0) })
        #expect(BoundedFile.head(file, count: 100).count == 40)
        #expect(BoundedFile.size(file) == 40)
        #expect(
            BoundedFile.size(folder.path) == nil
                && BoundedFile.head(folder.appendingPathComponent("none").path, count: 4).isEmpty)
        #expect(FileDescriptorOutput.write([], to: 2))
    }

    @Test("A FIFO with no writer, or a device, is refused at once, never waited on: head, read and a folder's listing")
    func fifoIsNotWaitedOn() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("support-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("waits.png").path
        try #require(mkfifo(fifo, 0o644) == 0)
        // Opening a FIFO for reading blocks until a writer comes: none ever does here, so a
        // wait would hang this test (its suite's time limit would name it).
        #expect(BoundedFile.head(fifo, count: 16).isEmpty)
        #expect(BoundedFile.sniffedFormat(fifo) == nil)
        #expect(throws: PackError.unreadable(path: fifo)) { try BoundedFile.read(fifo, maxBytes: 1000) }
        #expect(throws: PackError.unreadable(path: "/dev/zero")) { try BoundedFile.read("/dev/zero", maxBytes: 1000) }
        #expect(throws: PackError.missingFile(path: folder.appendingPathComponent("none").path)) {
            try BoundedFile.read(folder.appendingPathComponent("none").path, maxBytes: 1000)
        }
    }

    @Test("Error reasons: the system's text for a POSIX error beneath a file error")
    func reasons() {
        do {
            try Data([1]).write(to: URL(fileURLWithPath: "/proc/no-such-folder/x"))
            Issue.record("the write should have failed")
        } catch {
            #expect(errorReason(error) == "No such file or directory")
        }
    }

    @Test("Untyped JSON: objects, arrays, strings, numbers, booleans and null, read and written as Xcode does")
    func json() throws {
        let value = try JSONValue.parse(Array(#"{"b": [1, 2.5, "x/y", true, null], "a": {"n": -3}}"#.utf8))
        #expect(
            value
                == .object([
                    "b": .array([.int(1), .double(2.5), .string("x/y"), .bool(true), .null]),
                    "a": .object(["n": .int(-3)])
                ]))
        let tree = try #require(value.untyped as? [String: Any])
        let array = try #require(tree["b"] as? [Any])
        #expect(
            array[0] as? Double == 1 && array[1] as? Double == 2.5 && array[2] as? String == "x/y"
                && array[3] as? Bool == true)
        #expect((tree["a"] as? [String: Any])?["n"] as? Double == -3)
        let written = try JSONValue(
            untyped: ["version": 1, "author": "xcode", "list": [["filename": "a/b.png"]]] as [String: Any]
        ).xcodeJSON()
        #expect(
            String(decoding: written, as: UTF8.self) == """
                {
                  "author" : "xcode",
                  "list" : [
                    {
                      "filename" : "a/b.png"
                    }
                  ],
                  "version" : 1
                }

                """)
        #expect(throws: (any Error).self) { try JSONValue.parse(Array("{".utf8)) }
    }
}

/// The loss record `fit` writes into a sticker's `Contents.json` and `validate` reads back.
@Suite("Fit loss record")
struct FitLossRecordTests {
    @Test("read back from Contents.json, the warning says what fit's report said, PSNRs near a rounding edge included")
    func roundTrip() throws {
        let figures: [(psnr: Double, ssim: Double)] = [
            (25.2549, 0.87971), (25.2451, 0.8), (25.04996, 0.95), (29.99996, 0.95), (35, 0.89995), (18.05, 0.5)
        ]
        for (psnr, ssim) in figures {
            let written = FitLoss(psnr: psnr, ssim: ssim, givenUp: ["64 colours"])
            let read = try #require(FitLoss(contentsValue: written.contentsValue))
            #expect(read.warning == written.warning, "\(psnr), \(ssim)")
            #expect(read.isVisible == written.isVisible && read.isVisible, "\(psnr), \(ssim): under 30 dB or SSIM 0.90")
            #expect(read.warning.contains(String(format: "%.1f dB", psnr)), "\(read.warning)")
        }
    }

    @Test("a loss the figures do not measure (a clip cut short) is visible at any PSNR, and read back")
    func unmeasured() throws {
        let cut = "the first 3.00 s of 12.00 s"
        let written = FitLoss(psnr: 41.04, ssim: 0.97, givenUp: [cut, "256 colours"], unmeasured: [cut])
        let read = try #require(FitLoss(contentsValue: written.contentsValue))
        #expect(read == written && read.isVisible && !read.isUnderWarningLine)
        #expect(
            read.warning
                == "made with loss the figures do not measure: \(cut) (what was kept: 41.0 dB, SSIM 0.970: 256 colours)"
        )
        // A record without the key (an older catalog) reads as nothing unmeasured.
        var older = written.contentsValue
        older["unmeasured"] = nil
        #expect(FitLoss(contentsValue: older)?.isVisible == false)
    }
}
