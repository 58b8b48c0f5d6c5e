import ArgumentParser

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
}
