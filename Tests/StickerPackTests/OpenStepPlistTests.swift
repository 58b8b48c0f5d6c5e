import Foundation
import StickerPack
import Testing

/// The OpenStep property list reader that `validate` reads projects with: the format as
/// Xcode writes it (values worked out by hand), and bad input (every prefix, corrupted bytes,
/// nesting bombs, oversized files) refused with a typed error, never a crash or a hang.
@Suite("OpenStep property lists", .timeLimit(.minutes(3)))
struct OpenStepPlistTests {
    @Test("comments, bare and quoted strings, escapes, nested lists and dictionaries")
    func format() throws {
        let text = """
            // !$*UTF8*$!
            {
            \tarchiveVersion = 1; /* a comment */
            \tlist = (a, "b c", /* x */ "d\\"e\\\\f\\n", );
            \tempty = ( );
            \tnested = {key = "$(TARGET_NAME)"; "quoted key" = {}; };
            \tpath = wrapper.app-extension;
            \tunicode = "\\U00e9t\\U00e9";
            }
            """
        let value = try OpenStepPlist.parse(Array(text.utf8))
        let expected: OpenStepPlist = .dictionary([
            "archiveVersion": .string("1"),
            "list": .array([.string("a"), .string("b c"), .string("d\"e\\f\n")]),
            "empty": .array([]),
            "nested": .dictionary(["key": .string("$(TARGET_NAME)"), "quoted key": .dictionary([:])]),
            "path": .string("wrapper.app-extension"),
            "unicode": .string("été")
        ])
        #expect(value == expected)
    }

    @Test(
        "malformed text is a ParseError naming the line",
        arguments: [
            ("{ a = b; ", "line 1: expected a string before the end"),
            ("{ a = \"b; }", "line 1: a string is not closed"),
            ("{ a = b }", "line 1: expected ';'"),
            ("{\n a = b;\n} extra", "line 3: text after the property list"),
            ("{ a = (b c); }", "line 1: expected ',' or ')' in an array"),
            ("/* open", "line 1: a comment is not closed"),
            ("{ a = \"\\U00zz\"; }", "line 1: \\U needs four hexadecimal digits of a character"),
            ("{ a = ; }", "line 1: unexpected ';'"),
            ("", "line 1: expected a value before the end")
        ])
    func malformed(text: String, message: String) {
        #expect(throws: OpenStepPlist.ParseError.self) { try OpenStepPlist.parse(Array(text.utf8)) }
        do {
            _ = try OpenStepPlist.parse(Array(text.utf8))
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("a nesting bomb is refused at the depth limit, not by the stack")
    func nestingBomb() {
        for opener in ["(", "{a="] {
            let bomb = Array(String(repeating: opener, count: 200_000).utf8)
            do {
                _ = try OpenStepPlist.parse(bomb)
                Issue.record("a bomb of \(opener) parsed")
            } catch {
                #expect(error.reason == "nested deeper than \(OpenStepPlist.maxDepth)")
            }
        }
    }

    /// A project as the writer makes it.
    static func projectText() -> [UInt8] {
        let spec = StickerAppSpec(name: "Prefix Test", bundleIdentifier: "com.example.prefix", team: "ABCDE12345")
        return XcodeProjectWriter.files(for: spec).first { $0.path.hasSuffix("project.pbxproj") }!.bytes
    }

    @Test("every proper prefix of a project file is refused but its first byte (the closing brace is missing)")
    func prefixes() {
        let bytes = Self.projectText()
        #expect((try? OpenStepPlist.parse(bytes)) != nil)
        var parsed: [Int] = []
        for length in 0..<bytes.count where (try? OpenStepPlist.parse(Array(bytes[..<length]))) != nil {
            parsed.append(length)
        }
        // Only the whole text less its final newline is a property list, and "/" (the start of
        // the "// !$*UTF8*$!" line), which is a bare string.
        #expect(parsed == [1, bytes.count - 1])
    }

    @Test("corrupted project files are refused or read, and validated without a crash")
    func corruption() throws {
        let bytes = Self.projectText()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openstep-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = folder.appendingPathComponent("Prefix Test.xcodeproj")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        var state: UInt64 = 0x5EED
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        var refused = 0
        for _ in 0..<300 {
            var corrupt = bytes
            for _ in 0..<(1 + next() % 4) { corrupt[next() % corrupt.count] = UInt8(truncatingIfNeeded: next()) }
            try Data(corrupt).write(to: bundle.appendingPathComponent("project.pbxproj"))
            do {
                _ = XcodeProjectValidator.findings(for: try XcodeProject(bundle: bundle))
            } catch {
                guard case .invalidProject = error else {
                    Issue.record("a corrupt project threw \(error)")
                    continue
                }
                refused += 1
            }
        }
        #expect(refused > 0, "some corruptions break the syntax")
    }

    @Test("a project file over the limit is refused unread")
    func oversized() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openstep-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = folder.appendingPathComponent("Big.xcodeproj")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        let file = bundle.appendingPathComponent("project.pbxproj")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: UInt64(XcodeProject.maxBytes + 1))
        try handle.close()
        #expect(throws: PackError.self) { try XcodeProject(bundle: bundle) }
        do {
            _ = try XcodeProject(bundle: bundle)
        } catch {
            #expect(
                error.description
                    == "\(file.path): not an Xcode project (\(XcodeProject.maxBytes + 1) bytes; a project file is at most \(XcodeProject.maxBytes))"
            )
        }
    }
}
