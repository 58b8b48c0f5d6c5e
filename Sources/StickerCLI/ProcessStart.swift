import ArgumentParser
import Dispatch

/// What the `stickers` executable does before it parses its command line, while nothing else
/// runs yet: parsing takes 2-3 ms of the main thread, and a render's first parallel step used
/// to wait about 1 ms more for libdispatch to start its first worker thread.
public enum ProcessStart {
    /// The commands that fill tens of megabytes of fresh pixel memory (see ``LargeImageHeap``).
    static let drawingCommands: [ParsableCommand.Type] = [RenderCommand.self, SheetCommand.self, FilmstripCommand.self]

    /// When the first argument names a drawing command: prepares the heap (it must happen
    /// before any thread starts), then has libdispatch start a worker thread that the
    /// command's parallel work will find ready. Other commands start as they are (a needless
    /// thread made `stickers info` 0.2 ms slower). Advice only: a wrong guess costs nothing but
    /// the set-up, and every command parses and runs as before.
    public static func prepare(arguments: [String] = CommandLine.arguments) {
        guard let command = arguments.dropFirst().first,
              drawingCommands.contains(where: { $0.configuration.commandName == command }) else { return }
        LargeImageHeap.prepare()
        DispatchQueue.global().async {}
    }
}
