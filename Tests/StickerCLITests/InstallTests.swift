import Foundation
import TestSupport
import Testing

/// `make install` and `make uninstall` into a temporary DESTDIR, as a packager runs them, with
/// the executable the tests built: the program, a man page a command that `man -l` reads, and
/// completions, bash's answering `stickers fi<TAB>` with the two commands that start so.
@Suite("make install", .timeLimit(.minutes(5)))
struct InstallTests {
    /// Runs make in the repository with `arguments`.
    static func make(_ arguments: [String]) throws -> TestProcess.Output {
        try TestProcess.capture(["make", "-C", CLITests.repoRoot.path] + arguments)
    }

    /// swift-argument-parser's generate-manual, which `make test` builds before the suite
    /// (`make man-tool`): the test never builds it, so nothing here waits on a compiler.
    static let generateManual = CLITests.repoRoot.appendingPathComponent(".build-tools/release/generate-manual")

    @Test("install puts the program, man pages and completions under PREFIX in DESTDIR; uninstall removes them")
    func installAndUninstall() throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: Self.generateManual.path),
            "make man-tool builds generate-manual (make test does)")
        let destination = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: destination) }
        // The pages are written in the test's own folder (MAN_OUT), and -o man-tool takes the
        // built tool as it is.
        let common = [
            "DESTDIR=\(destination.path)", "PREFIX=/usr/local", "STICKERS=\(try PreviewTests.executable())",
            "MAN_OUT=\(destination.appendingPathComponent("pages").path)"
        ]
        let installed = try Self.make(["-o", "man-tool", "install"] + common)
        try #require(installed.status == 0, "\(installed.stdout)\(installed.stderr)")
        let prefix = destination.appendingPathComponent("usr/local")
        func path(_ relative: String) -> String { prefix.appendingPathComponent(relative).path }
        #expect(FileManager.default.isExecutableFile(atPath: path("bin/stickers")))
        // A page for the program and one for each command.
        let pages = try FileManager.default.contentsOfDirectory(atPath: path("share/man/man1")).sorted()
        for command in [
            "stickers", "stickers.fit", "stickers.validate", "stickers.render", "stickers.transcript", "stickers.review"
        ] {
            #expect(pages.contains(command + ".1"), "\(pages)")
        }
        // man reads the page: its name line and an option of the command.
        let page = try TestProcess.capture(
            ["man", "-l", path("share/man/man1/stickers.fit.1")],
            environment: ["MANWIDTH": "100", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
        #expect(page.status == 0, "\(page.stderr)")
        #expect(
            page.stdout.contains("stickers fit") && page.stdout.contains("--max-bytes"), "\(page.stdout.prefix(600))")
        // Each option's default, as --help gives it: --max-bytes is 499,999 (cli.md).
        let source = try String(contentsOfFile: path("share/man/man1/stickers.fit.1"), encoding: .utf8)
        #expect(
            source.contains("validate warns from 500,000 and refuses 512,000 or more. (default: 499999)"),
            "\(source.prefix(3000))")
        #expect(source.contains("lower levels finish sooner. (default: 12)"), "\(source.prefix(3000))")
        // Every "(default: X)" that --help prints is in the page too.
        let help = try TestProcess.capture([try PreviewTests.executable(), "help", "fit"]).stdout
        // (A default --help wraps onto the next line is one line in the page.)
        let given = help.matches(of: /\(default: [^)]*\)/).map {
            $0.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
        #expect(given.count >= 8 && given.allSatisfy { source.contains($0) }, "\(given)")
        // bash's completion function, given `stickers fi`, offers exactly filmstrip and fit.
        let bash = try TestProcess.capture([
            "bash", "-c",
            """
            source "$1"; COMP_WORDS=(stickers fi); COMP_CWORD=1; COMP_LINE="stickers fi"; COMP_POINT=${#COMP_LINE}
            _stickers stickers fi stickers; printf '%s\\n' "${COMPREPLY[@]}"
            """, "bash", path("share/bash-completion/completions/stickers")
        ])
        #expect(bash.status == 0, "\(bash.stderr)")
        #expect(bash.stdout.split(separator: "\n").sorted() == ["filmstrip", "fit"], "\(bash.stdout)")
        // And given a path's start, the paths that start so: `stickers info corpus/sa` in the
        // repository offers corpus/sample-pack; `-o corpus/Sa` offers corpus/Sample.xcstickers.
        for (words, expected) in [
            (["info", "corpus/sa"], "corpus/sample-pack"),
            (["render", "x.png", "-o", "corpus/Sa"], "corpus/Sample.xcstickers")
        ] {
            let line = (["stickers"] + words).joined(separator: " ")
            let path = try TestProcess.capture(
                [
                    "bash", "-c",
                    """
                    source "$1"; shift; COMP_WORDS=(stickers "$@"); COMP_CWORD=$#; COMP_LINE="\(line)"
                    COMP_POINT=${#COMP_LINE}; _stickers stickers "${@: -1}" "${@: -2:1}"; printf '%s\\n' "${COMPREPLY[@]}"
                    """, "bash", path("share/bash-completion/completions/stickers")
                ] + words, directory: CLITests.repoRoot)
            #expect(path.stdout.split(separator: "\n").contains { $0.hasPrefix(expected) }, "\(words): \(path.stdout)")
        }
        // zsh's and fish's scripts name the program's completion.
        let zsh = try String(contentsOfFile: path("share/zsh/site-functions/_stickers"), encoding: .utf8)
        let fish = try String(contentsOfFile: path("share/fish/vendor_completions.d/stickers.fish"), encoding: .utf8)
        #expect(
            zsh.hasPrefix("#compdef stickers") && fish.contains("complete -c 'stickers'"),
            "\(zsh.prefix(80)) \(fish.prefix(200))")

        let removed = try Self.make(["uninstall"] + common)
        #expect(removed.status == 0, "\(removed.stderr)")
        try FileManager.default.removeItem(at: destination.appendingPathComponent("pages"))
        let left =
            FileManager.default.enumerator(atPath: destination.path)?.compactMap { $0 as? String }.filter {
                var isDirectory: ObjCBool = false
                return FileManager.default.fileExists(
                    atPath: destination.appendingPathComponent($0).path, isDirectory: &isDirectory)
                    && !isDirectory.boolValue
            } ?? []
        #expect(left.isEmpty, "left behind: \(left)")
    }
}
