import Foundation
import StickerPack
import Testing

/// Names and strings from files reach the terminal with every character it would act on
/// written visibly: a hostile file name cannot set the title, clear the screen or hide a line.
@Suite("Terminal safety", .timeLimit(.minutes(3)))
struct TerminalSafetyTests {
    /// File names a hostile pack might hold: a title-setting OSC, a C1 CSI, a right-to-left override.
    static let hostileNames = ["x\u{1B}]0;pwned\u{07}.jpg", "c1\u{9B}31m.jpg", "evil\u{202E}gpj.jpg"]

    static func pack() throws -> URL {
        let folder = CLITests.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let jpeg = try Data(contentsOf: CLITests.samplePack.appendingPathComponent("06-blob-card.jpg"))
        for name in hostileNames { try jpeg.write(to: folder.appendingPathComponent(name)) }
        return folder
    }

    /// Whether `text` holds a character a terminal acts on (newline and tab aside).
    static func actedOn(_ text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { scalar in
            switch scalar.value {
            case 0x09, 0x0A: false
            case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
            default: false
            }
        }
    }

    @Test("validate: hostile file names are shown escaped on stdout")
    func validateText() throws {
        let folder = try Self.pack()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CLITests.runExecutable(["validate", folder.path])
        #expect(Self.actedOn(result.stdout).isEmpty, "\(result.stdout.debugDescription)")
        #expect(Self.actedOn(result.stderr).isEmpty, "\(result.stderr.debugDescription)")
        #expect(result.stdout.contains(#"x\u{1B}]0;pwned\u{7}"#), "\(result.stdout)")
        #expect(result.stdout.contains(#"c1\u{9B}31m"#), "\(result.stdout)")
        #expect(result.stdout.contains(#"evil\u{202E}gpj"#), "\(result.stdout)")
    }

    @Test(
        "validate and fit: a file name holding a newline and a tab stays on its line, so it cannot forge one of the report's lines",
        arguments: [["validate"], ["fit", "--dry-run", "--level", "1"]])
    func newlineInName(command: [String]) throws {
        let folder = CLITests.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let jpeg = try Data(contentsOf: CLITests.samplePack.appendingPathComponent("06-blob-card.jpg"))
        try jpeg.write(to: folder.appendingPathComponent("ok\nFAILED: 7 errors, 0 warnings\tx.jpg"))
        let result = try CLITests.runExecutable([command[0], folder.path] + command.dropFirst())
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(!lines.contains { $0.hasPrefix("FAILED: 7") }, "\(result.stdout)")
        #expect(result.stdout.contains(#"ok\u{A}FAILED: 7 errors, 0 warnings\u{9}x"#), "\(result.stdout)")
    }

    @Test("validate --json: the names read back whole, with no C1 or bidirectional control in the bytes printed")
    func validateJSON() throws {
        let folder = try Self.pack()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CLITests.runExecutable(["validate", folder.path, "--json"])
        #expect(Self.actedOn(result.stdout).isEmpty, "\(result.stdout.debugDescription)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let messages = (report["findings"] as? [[String: Any]] ?? []).compactMap { $0["sticker"] as? String }
        for name in Self.hostileNames {
            let stem = String(name.dropLast(4))
            #expect(messages.contains(stem), "\(stem.debugDescription) in \(messages.map(\.debugDescription))")
        }
    }

    @Test("Errors: a missing file named with escapes, and a usage error naming a hostile folder, exit 1 and 64")
    func errors() throws {
        let missing = try CLITests.runExecutable(["info", "/nonexistent/\u{1B}[2J\u{1B}]0;t\u{07}.png"])
        #expect(missing.status == 1)
        #expect(Self.actedOn(missing.stderr).isEmpty, "\(missing.stderr.debugDescription)")
        #expect(missing.stderr.contains(#"\u{1B}[2J\u{1B}]0;t\u{7}.png"#), "\(missing.stderr)")

        let folder = try Self.pack()
        defer { try? FileManager.default.removeItem(at: folder) }
        let named = folder.deletingLastPathComponent().appendingPathComponent(
            folder.lastPathComponent + "-pack\u{1B}[2J")
        try FileManager.default.moveItem(at: folder, to: named)
        defer { try? FileManager.default.removeItem(at: named) }
        let usage = try CLITests.runExecutable([
            "filmstrip", named.path, "-o", NSTemporaryDirectory() + "strip-\(UUID().uuidString).png"
        ])
        #expect(usage.status == 64)
        #expect(Self.actedOn(usage.stderr).isEmpty, "\(usage.stderr.debugDescription)")
        #expect(usage.stderr.contains(#"pack\u{1B}[2J: 3 stickers; choose one with --sticker"#), "\(usage.stderr)")
    }

    @Test("Every line the commands print goes through TerminalOutput (the player's frames and the progress bar aside)")
    func oneWayOut() throws {
        let sources = CLITests.repoRoot.appendingPathComponent("Sources/StickerCLI")
        let allowed: Set<String> = ["TerminalOutput.swift", "ProgressBar.swift"]
        var offenders: [String] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted()
        where name.hasSuffix(".swift") && !allowed.contains(name) {
            let text = try String(contentsOf: sources.appendingPathComponent(name), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains("print(") || line.contains("standardError(") {
                offenders.append("\(name):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(offenders.isEmpty, "\(offenders.joined(separator: "\n"))")
    }
}
