import FoundationEssentials
import StickerPack

/// Everything the commands print, but the terminal player's frames and the progress bar: text
/// lines with every character a terminal would act on written visibly (``TerminalText``), so a
/// file name, a catalog's string or a script's line cannot set the title, clear the screen or
/// hide a warning; JSON with the same characters as `\u` escapes.
enum TerminalOutput {
    /// Prints `text` and a newline on standard output.
    static func line(_ text: String) { standardOutput(TerminalText.escaped(text) + "\n") }

    /// Writes `text` and a newline on standard error.
    static func errorLine(_ text: String) { FileDescriptorOutput.standardError(TerminalText.escaped(text) + "\n") }

    /// Prints JSON text on standard output.
    static func json(text: String) { standardOutput(TerminalText.escapedJSON(text) + "\n") }

    /// Prints `value` as pretty JSON, keys sorted, on standard output.
    static func json<Value: Encodable>(_ value: Value) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        json(text: String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// Writes `text` on standard output as it comes (nothing is held in a buffer whose failure
    /// would go unseen); a failure is remembered (``FileDescriptorOutput/standardOutputError``).
    private static func standardOutput(_ text: String) { FileDescriptorOutput.standardOutput(Array(text.utf8)) }
}

/// Reports a sticker that could not be drawn.
func warn(_ message: String) {
    TerminalOutput.errorLine("warning: \(message)")
}
