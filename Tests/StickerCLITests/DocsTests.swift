import Foundation
import StickerCLI
import TestSupport
import Testing

/// The documentation says what the executable does: every command line of the README runs on
/// the sample pack and exits 0, and docs/cli.md names every option of every command, exactly as
/// `scripts/make-cli-docs.py` writes it from the commands' own help.
@Suite("docs")
struct DocsTests {
    static let repoRoot = CLITests.repoRoot

    /// The `stickers` executable built beside the tests.
    static func executable() throws -> URL {
        let built = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
            "stickers")
        return try #require(
            FileManager.default.isExecutableFile(atPath: built.path) ? built : nil,
            "no stickers executable beside the tests")
    }

    /// Runs a shell command line in `directory` with the built executable first on PATH; stdout
    /// and stderr go to files (a pipe read after the other could fill and stall the child).
    static func shell(_ line: String, in directory: URL) throws -> (status: Int32, stderr: String) {
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] =
            try executable().deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        let output = try TestProcess.capture(["/bin/sh", "-c", line], environment: environment, directory: directory)
        return (output.status, output.stderr)
    }

    /// The `stickers ...` lines of the README's `sh` blocks, comments included (the shell drops them).
    static func readmeCommandLines() throws -> [String] {
        let readme = try String(contentsOf: repoRoot.appendingPathComponent("README.md"), encoding: .utf8)
        var lines: [String] = []
        var inShellBlock = false
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inShellBlock = !inShellBlock && line == "```sh"; continue }
            if inShellBlock && line.hasPrefix("stickers ") { lines.append(String(line)) }
        }
        return lines
    }

    @Test("the README shows a command line for every command")
    func readmeTour() throws {
        let commands = Set(try Self.readmeCommandLines().map { $0.split(separator: " ")[1] })
        let subcommands = StickersCommand.configuration.subcommands.compactMap { $0.configuration.commandName }
        #expect(subcommands.count == 12)
        #expect(commands == Set(subcommands.map { Substring($0) }))
    }

    @Test("every command line in the README runs on the sample pack and exits 0", .timeLimit(.minutes(3)))
    func readmeCommandsRun() throws {
        let lines = try Self.readmeCommandLines()
        try #require(!lines.isEmpty)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "stickers-readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("corpus"),
            withDestinationURL: Self.repoRoot.appendingPathComponent("corpus"))
        for line in lines {
            let result = try Self.shell(line, in: folder)
            #expect(result.status == 0, "\(line)\n\(result.stderr)")
        }
        // The outputs the tour names exist and are what they claim to be.
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47]
        for name in [
            "compact.png", "expanded.apng", "backgrounds.png", "Stickers.xcstickers/Contents.json",
            "star-frames/frames.json"
        ] {
            let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(name)))
            #expect(bytes.count > 4 && (name.hasSuffix("json") || Array(bytes.prefix(4)) == png), "\(name)")
        }
        let project = try String(
            contentsOf: folder.appendingPathComponent("StickerApp/My Stickers.xcodeproj/project.pbxproj"),
            encoding: .utf8)
        #expect(project.hasPrefix("// !$*UTF8*$!") && project.contains("messages-sticker-pack"))
        let review = try String(contentsOf: folder.appendingPathComponent("review/index.html"), encoding: .utf8)
        #expect(review.hasPrefix("<!DOCTYPE html>") && review.contains("Passes Apple's rules"))
    }

    @Test("docs/cli.md is what scripts/make-cli-docs.py writes from the commands' help", .timeLimit(.minutes(3)))
    func cliReferenceUpToDate() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "stickers-cli-docs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = Self.repoRoot.appendingPathComponent("scripts/make-cli-docs.py").path
        let result = try Self.shell(
            "python3 '\(script)' --check --stickers '\(try Self.executable().path)'", in: folder)
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test("docs/cli.md names every option of every command in that command's section", .timeLimit(.minutes(3)))
    func everyOptionDocumented() throws {
        let dump = Data(try TestProcess.capture([try Self.executable().path, "--experimental-dump-help"]).stdout.utf8)
        let root = try #require(
            (try JSONSerialization.jsonObject(with: dump) as? [String: Any])?["command"] as? [String: Any])
        let commands = try #require(root["subcommands"] as? [[String: Any]]).filter {
            $0["commandName"] as? String != "help"
        }
        #expect(commands.count == 12)
        let reference = try String(contentsOf: Self.repoRoot.appendingPathComponent("docs/cli.md"), encoding: .utf8)
        for command in commands {
            let name = try #require(command["commandName"] as? String)
            let heading = "\n## stickers \(name)\n"
            let start = try #require(reference.range(of: heading), "no section for \(name)")
            let rest = reference[start.upperBound...]
            let section = rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)]
            for argument in command["arguments"] as? [[String: Any]] ?? []
            where argument["shouldDisplay"] as? Bool != false {
                // The --help and --version flags belong to every command and are described once at
                // the top (xcode's --version option, the app's version, is documented with it).
                let preferred = (argument["preferredName"] as? [String: String])?["name"]
                if argument["kind"] as? String == "flag" && (preferred == "help" || preferred == "version") { continue }
                for spelling in argument["names"] as? [[String: String]] ?? [] {
                    let option = (spelling["kind"] == "short" ? "-" : "--") + spelling["name"]!
                    #expect(section.contains("`\(option)`"), "stickers \(name) \(option) is not in docs/cli.md")
                }
            }
        }
    }
}
