import Foundation
import Testing

/// Numbers past what any run can use are usage errors naming the range (exit 64, before any
/// work), where they had overflowed the arithmetic they fed (exit 132, nothing said) or asked
/// for exabytes.
@Suite("Option bounds", .timeLimit(.minutes(3)))
struct OptionBoundsTests {
    static let sticker = CLITests.samplePack.appendingPathComponent("02-spinning-star.gif").path

    @Test(
        "Each bound's message, exit 64, on every command that takes the option",
        arguments: [
            (["info", sticker, "--max-pixels", "4294967296G"], "--max-pixels must be 1 to 4G."),
            (["frames", sticker, "--out", "/nonexistent/x", "--max-pixels", "8G"], "--max-pixels must be 1 to 4G."),
            (["info", sticker, "--max-frames", "1000000000"], "--max-frames must be 1 to 1000000."),
            (["info", sticker, "--max-decoded", "2048G"], "--max-decoded must be 1 to 1024G."),
            (["info", sticker, "--max-file", "16384G"], "--max-file must be 1 to 4G."),
            (["fit", sticker, "--dry-run", "--threads", "9223372036854775807"], "--threads must be 1 to 256."),
            (["fit", sticker, "--dry-run", "--threads", "0"], "--threads must be 1 to 256."),
            (["fit", sticker, "--dry-run", "--max-duration", "1e-9"], "--max-duration must be 0.01 to 3600 seconds."),
            (["fit", sticker, "--dry-run", "--max-duration", "nan"], "--max-duration must be 0.01 to 3600 seconds."),
            (["fit", sticker, "--dry-run", "--max-duration", "-1s"], "--max-duration must be 0.01 to 3600 seconds."),
            (
                ["fit", sticker, "--dry-run", "--max-duration", "0x10"],
                "The value '0x10' is invalid for '--max-duration <time>'"
            ),
            (["preview", sticker, "--at", "0x10"], "--at 0x10 is not a time."),
            // Swift's Double(_:) reads hexadecimal: 0x14 would be a 20 dB floor, 0x0.8p0 SSIM 0.5.
            (
                ["fit", sticker, "--dry-run", "--min-psnr", "0x14"],
                "The value '0x14' is invalid for '--min-psnr <dB>'"
            ),
            (
                ["fit", sticker, "--dry-run", "--min-ssim", "0x0.8p0"],
                "The value '0x0.8p0' is invalid for '--min-ssim <ssim>'"
            ),
            (
                ["fit", sticker, "--dry-run", "--max-fps", "0x10"],
                "The value '0x10' is invalid for '--max-fps <fps>'"
            ),
            (
                ["fit", sticker, "--dry-run", "--min-fps", "0X1P3"],
                "The value '0X1P3' is invalid for '--min-fps <fps>'"
            ),
            (
                ["preview", sticker, "--speed", "0x2"],
                "The value '0x2' is invalid for '--speed <speed>'"
            ),
            (
                ["fit", sticker, "--dry-run", "--min-fps", "-1"],
                "--min-fps must be a positive number of frames per second."
            ),
            (["fit", sticker, "--dry-run", "--min-psnr", "nan"], "--min-psnr must be 0-100 dB."),
            (["fit", sticker, "--dry-run", "--min-ssim", "-0.5"], "--min-ssim must be 0-1."),
            (
                ["fit", sticker, "--dry-run", "--max-fps", "inf"],
                "--max-fps must be a positive number of frames per second, at most 1000."
            ),
            (
                ["render", sticker, "-o", "/nonexistent/x.png", "--at", "0x1p4"],
                "--at 0x1p4 is not a time (1.25s, 1250ms)."
            ),
            (["bench", "--ours-only", sticker, "--threads", "2305843009213693951"], "--threads must be 1 to 256."),
            (["bench", "--ours-only", sticker, "--repeat", "0"], "--repeat must be 1 to 100000."),
            (["preview", sticker, "--loops", "9223372036854775807"], "--loops must be 1 to 1000000."),
            (["preview", sticker, "--speed", "1e-17"], "--speed must be 0.001 to 1000."),
            (["preview", sticker, "--speed", "nan"], "--speed must be 0.001 to 1000.")
        ])
    func refused(_ arguments: [String], _ message: String) throws {
        let result = try CLITests.runExecutable(arguments)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderr.hasPrefix("Error: \(message)\n"), "\(arguments): \(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test(
        "--max-duration takes 0.5s, 500ms and 0.5 alike; --max-bytes takes 400K, 400KB and 0.4MB as 400,000 bytes (Apple's KB), 500KiB as 512,000, which is refused"
    )
    func spelledValues() throws {
        // The spinning star's loop is 16 frames of 60 ms (960 ms): half a second keeps 9 of them.
        for duration in ["0.5s", "500ms", "0.5", "0.5S"] {
            let result = try CLITests.runExecutable([
                "fit", Self.sticker, "--dry-run", "--json", "--level", "1", "--max-duration", duration
            ])
            #expect(result.status == 0, "\(duration): \(result.stderr)")
            let sticker = (try FitCommandTests.report(result.stdout)["stickers"] as? [[String: Any]])?.first ?? [:]
            #expect(sticker["framesAfter"] as? Int == 9, "\(duration): \(sticker)")
            #expect((sticker["givenUp"] as? [String]) == ["the first 0.50 s of 0.96 s"], "\(duration): \(sticker)")
        }
        for (bytes, expected) in [
            ("400K", 400_000), ("400KB", 400_000), ("400kB", 400_000), ("0.4MB", 400_000), ("499999", 499_999)
        ] {
            let result = try CLITests.runExecutable([
                "fit", Self.sticker, "--dry-run", "--json", "--level", "1", "--max-bytes", bytes
            ])
            #expect(result.status == 0, "\(bytes): \(result.stderr)")
            #expect(try FitCommandTests.report(result.stdout)["maxBytes"] as? Int == expected, "\(bytes)")
        }
        let kibibytes = try CLITests.runExecutable(["fit", Self.sticker, "--dry-run", "--max-bytes", "500KiB"])
        #expect(kibibytes.status == 64, "\(kibibytes.stderr)")
        #expect(
            kibibytes.stderr.hasPrefix("Error: --max-bytes 512000 is more than Messages takes"), "\(kibibytes.stderr)")
        for wrong in ["0.5B", "500 K", "1e3K", "0.0000001K"] {
            let result = try CLITests.runExecutable(["fit", Self.sticker, "--dry-run", "--max-bytes", wrong])
            #expect(result.status == 64, "\(wrong): \(result.stderr)")
        }
    }

    @Test("Floors written in decimal, with an exponent or a sign, are read as those numbers")
    func decimalFloors() throws {
        let result = try CLITests.runExecutable([
            "fit", Self.sticker, "--dry-run", "--json", "--level", "1", "--min-psnr", "1.5e1", "--min-ssim", ".25"
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try FitCommandTests.report(result.stdout)
        #expect(report["minPSNR"] as? Double == 15)
        #expect(report["minSSIM"] as? Double == 0.25)
        // The two rates, read as 30 and 2.5, the wrong way round: the message gives the numbers read.
        let rates = try CLITests.runExecutable([
            "fit", Self.sticker, "--dry-run", "--min-fps", "3E1", "--max-fps", "+2.5"
        ])
        #expect(rates.status == 64)
        #expect(rates.stderr.hasPrefix("Error: --min-fps 30.0 is above --max-fps 2.5.\n"), "\(rates.stderr)")
    }

    @Test("--max-decoded's help names fit's own 1 GiB cap where a command fits stickers, and only there")
    func decodedBytesHelp() throws {
        let cap = "a sticker is fitted from at most 1G of its frames, or this when lower"
        for (command, namesCap) in [
            ("fit", true), ("xcode", true), ("review", true), ("info", false), ("validate", false)
        ] {
            let result = try CLITests.runExecutable([command, "--help"])
            #expect(result.status == 0, "\(command): \(result.stderr)")
            // Help wraps at the terminal's width: compare with runs of white space as one space.
            let help = result.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(help.contains("--max-decoded <bytes>"), "\(command)")
            #expect(help.contains(cap) == namesCap, "\(command): \(help)")
        }
    }

    @Test("The bounds themselves are accepted")
    func accepted() throws {
        let info = try CLITests.runExecutable([
            "info", Self.sticker, "--max-pixels", "4G", "--max-frames", "1000000", "--max-decoded", "1024G",
            "--max-file", "4G"
        ])
        #expect(info.status == 0, "\(info.stderr)")
        let fit = try CLITests.runExecutable([
            "fit", Self.sticker, "--dry-run", "--level", "1", "--threads", "256", "--max-duration", "0.01"
        ])
        #expect(fit.status == 0 || fit.status == 1, "\(fit.stderr)")
        #expect(!fit.stderr.contains("Usage:"), "\(fit.stderr)")
    }
}
