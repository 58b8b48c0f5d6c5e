import FoundationEssentials

/// sticker-convert (https://github.com/laggykiller/sticker-convert, GPL), the tool people use to
/// port sticker packs to iMessage, run as a separate program: where it is installed, the
/// command line `stickers bench --fit-peer` gives it and what its log says of each sticker.
package enum StickerConvertPeer {
    /// The environment variable naming the virtualenv sticker-convert is installed in (read by
    /// `scripts/setup-sticker-convert.sh` too).
    package static let environmentVariable = "STICKER_CONVERT_VENV"

    /// The virtualenv `scripts/setup-sticker-convert.sh` makes by default, relative to the
    /// repository (git-ignored).
    package static let repositoryVirtualenv = ".build-peers/sticker-convert"

    /// Its preset for iMessage's regular (medium) stickers: 408 x 408 APNG under 500,000 bytes.
    package static let preset = "imessage_medium"

    /// sticker-convert is not where it was looked for.
    package struct Missing: Error, CustomStringConvertible {
        /// Every path tried, in order.
        package var searched: [String]

        /// What to do about it.
        package var description: String {
            "sticker-convert is not installed (looked for \(searched.joined(separator: ", "))). "
                + "Set it up with scripts/setup-sticker-convert.sh (a virtualenv at $\(environmentVariable), default \(repositoryVirtualenv)), "
                + "or name the program with --sticker-convert PATH."
        }
    }

    /// The executables tried, in order: `$STICKER_CONVERT_VENV/bin/sticker-convert`, the
    /// repository's virtualenv (from the working folder), `/opt/sticker-convert`, then `PATH`.
    package static func candidates(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        var paths: [String] = []
        if let venv = environment[environmentVariable], !venv.isEmpty { paths.append(venv + "/bin/sticker-convert") }
        let here = FileManager.default.currentDirectoryPath
        paths.append(here + "/" + repositoryVirtualenv + "/bin/sticker-convert")
        paths.append("/opt/sticker-convert/bin/sticker-convert")
        for folder in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") where !folder.isEmpty {
            paths.append("\(folder)/sticker-convert")
        }
        return paths
    }

    /// The program to run: `explicit` when given (and executable), else the first candidate
    /// that is executable.
    package static func locate(
        explicit: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(Missing) -> String {
        let paths = explicit.map { [$0] } ?? candidates(environment: environment)
        guard let found = paths.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw Missing(searched: paths)
        }
        return found
    }

    /// The command converting every file of `input` into `output`/NAME.png with the iMessage
    /// preset: no export, no questions, no progress bar, its own default process count.
    static func command(_ program: String, input: String, output: String) -> [String] {
        [program, "--no-confirm", "--no-progress", "--input-dir", input, "--output-dir", output, "--preset", preset]
    }

    /// Its version (the last line `--version` prints), or nil when it does not say.
    static func version(_ program: String, scratch: URL) -> String? {
        guard
            let run = try? ChildProcess.run(
                [program, "--version"], keepOutput: true,
                errorPath: scratch.appendingPathComponent("version.stderr").path),
            run.status == 0
        else { return nil }
        return String(decoding: run.output, as: UTF8.self).split(whereSeparator: \.isNewline).last.map(String.init)
    }

    /// The file sticker-convert writes for the input named `stem` + extension.
    static func outputName(stem: String) -> String { stem + ".png" }

    /// The log's failure line for the input `inputName` ("[F] Failed Compression NAME -> ..."),
    /// if it has one.
    static func failure(in log: String, inputName: String) -> String? {
        log.split(whereSeparator: \.isNewline)
            .first { $0.hasPrefix("[F]") && $0.contains(" \(inputName) ") }
            .map { String($0.dropFirst(4)) }
    }
}
