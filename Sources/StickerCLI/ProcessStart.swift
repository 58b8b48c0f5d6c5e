import ArgumentParser
import Dispatch

/// What the `stickers` executable does before it parses its command line, while nothing else
/// runs yet: parsing takes a few milliseconds of the main thread, during which libdispatch can
/// start the worker thread a render's first parallel step would otherwise wait for.
public enum ProcessStart {
    /// The commands that fill tens of megabytes of fresh pixel memory (see ``LargeImageHeap``).
    static let drawingCommands: [ParsableCommand.Type] = [RenderCommand.self, SheetCommand.self, FilmstripCommand.self]

    /// When the first argument names a drawing command: prepares the heap (it must happen
    /// before any thread starts), then has libdispatch start a worker thread that the
    /// command's parallel work will find ready. Other commands start as they are (a thread they do
    /// not need would only slow them). Advice only: a wrong guess costs nothing but
    /// the set-up, and every command parses and runs as before.
    public static func prepare(arguments: [String] = CommandLine.arguments) {
        guard let command = arguments.dropFirst().first,
            drawingCommands.contains(where: { $0.configuration.commandName == command })
        else { return }
        LargeImageHeap.prepare()
        DispatchQueue.global().async {}
    }
}
