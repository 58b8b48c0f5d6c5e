import ArgumentParser
import StickerPack

#if canImport(Glibc)
    import Glibc
#endif

/// The `stickers` command: decode, inspect and dump animated stickers.
public struct StickersCommand: ParsableCommand {
    /// The root only configures; each job is a subcommand.
    public static let configuration = CommandConfiguration(
        commandName: "stickers",
        abstract:
            "Decode, check and render animated stickers (APNG, GIF, PNG, JPEG; WebP, WebM and Lottie to convert) as the Messages sticker browser shows them.",
        version: "0.1.0",
        subcommands: [
            InfoCommand.self, FramesCommand.self, ValidateCommand.self, RenderCommand.self, SheetCommand.self,
            FilmstripCommand.self, PreviewCommand.self, TranscriptCommand.self, ReviewCommand.self, FitCommand.self,
            XcodeCommand.self, BenchCommand.self
        ])

    /// Creates the command (argument parsing fills it in).
    public init() {}

    /// Parses the command line and runs the subcommand it names. A usage error the subcommand
    /// finds while running (a `--duration` past what a snapshot holds, a pack that needs
    /// `--sticker`) is reported as a parsing error is: the message, that subcommand's usage
    /// line, and exit status 64. (ArgumentParser's own `main` would print the top-level usage.)
    /// Errors, which quote file names and what files hold, are shown with every character a
    /// terminal would act on written visibly (``TerminalText``).
    public static func main() {
        if let misuse = versionMisuse(Array(CommandLine.arguments.dropFirst())) {
            TerminalOutput.errorLine("Error: \(misuse)")
            Glibc.exit(ExitCode.validationFailure.rawValue)
        }
        var command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            fail(error)
        }
        do {
            try command.run()
        } catch let error as ValidationError {
            let subcommand = type(of: command)
            // The layout of ArgumentParser's parsing errors: continuation lines hang under "Usage: ".
            let usage = usageString(for: subcommand).split(separator: "\n", omittingEmptySubsequences: false)
                .joined(separator: "\n       ")
            let name = subcommand.configuration.commandName ?? subcommand._commandName
            TerminalOutput.errorLine(
                "Error: \(error.message)\nUsage: \(usage)\n  See 'stickers \(name) --help' for more information.")
            Glibc.exit(ExitCode.validationFailure.rawValue)
        } catch {
            fail(error)
        }
        if let failure = standardOutputFailure() {
            TerminalOutput.errorLine("Error: \(failure)")
            Glibc.exit(ExitCode.failure.rawValue)
        }
    }

    /// Why what the command printed on standard output did not all reach it (`> meta.json` on
    /// a full disk), or `nil` when it did. A pipe's reader that went away is not a failure: it
    /// chose to read no more (and a command that stops for it has already been ended by the
    /// signal).
    static func standardOutputFailure() -> String? {
        guard let code = FileDescriptorOutput.standardOutputError, code != EPIPE else { return nil }
        return "standard output: what the command printed could not all be written (\(String(cString: strerror(code))))"
    }

    /// Why `arguments` misuse `--version`, which prints the tool's version on any command and
    /// does nothing else: given with anything but a command's name (`xcode ... --version 1.2`,
    /// meant as the app's version), it would print that and exit 0 with nothing done.
    static func versionMisuse(_ arguments: [String]) -> String? {
        let options = Array(arguments.prefix { $0 != "--" })
        // Help asked for is shown; `--app-version --version` gives the app that version.
        guard let at = options.firstIndex(of: "--version"), !options.contains(where: ["help", "--help", "-h"].contains),
            at == 0 || options[at - 1] != "--app-version"
        else { return nil }
        let others = arguments.filter { $0 != "--version" }
        let commands = configuration.subcommands.compactMap { $0.configuration.commandName }
        if others.isEmpty || (others.count == 1 && commands.contains(others[0])) { return nil }
        let command = others.first.flatMap { commands.contains($0) ? "stickers \($0)" : nil } ?? "stickers"
        let appVersion =
            others.first == XcodeCommand.configuration.commandName ? "; the app's version is --app-version" : ""
        return
            "--version prints the tool's version and nothing else, so \(command) was not run: leave --version out\(appVersion)"
    }

    /// Ends the process for `error` as ArgumentParser's `exit(withError:)` does (help and the
    /// version on standard output, exit 0), but with an error's message shown safely.
    private static func fail(_ error: any Error) -> Never {
        let code = exitCode(for: error)
        guard code != .success else { exit(withError: error) }
        let message = fullMessage(for: error)
        if !message.isEmpty { TerminalOutput.errorLine(message) }
        Glibc.exit(code.rawValue)
    }
}
