/// Text from files, folders and command lines made safe to show on a terminal.
///
/// A file name, a string in a catalog or a line of a conversation script can hold characters a
/// terminal acts on instead of showing: ESC and the other C0 controls (a title set, the screen
/// cleared, the cursor moved back over a warning), DEL, the C1 controls (U+009B is CSI to a
/// terminal that reads them), and the bidirectional overrides and isolates that reorder what
/// follows them on the line. Each of those is written as a visible escape, so a hostile name
/// shows as what it is. Newlines and tabs pass: reports are lines of text.
public enum TerminalText {
    /// `text` with every character a terminal acts on written as a Swift-style escape:
    /// `"a\u{1B}[2J"` shows as `a\u{1B}[2J`.
    public static func escaped(_ text: String) -> String {
        replacing(text, where: isActedOn, with: visibleEscape)
    }

    /// How ``escaped(_:)`` and ``oneLine(_:)`` write a character: `\u{1B}`.
    private static func visibleEscape(_ scalar: Unicode.Scalar) -> String {
        "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
    }

    /// `text` as one line: each character a terminal acts on written as ``escaped(_:)``
    /// writes it, newline and tab too. A name from a file (`ok⏎FAILED: 7 errors`) cannot then
    /// start a line of a report of its own.
    public static func oneLine(_ text: String) -> String {
        replacing(text, where: { isActedOn($0) || $0 == "\n" || $0 == "\t" }, with: visibleEscape)
    }

    /// JSON text with DEL, the C1 controls and the bidirectional controls inside its strings
    /// written as `\u` escapes, which read back as the same characters. (JSON's own encoding
    /// escapes the C0 controls already; outside strings JSON is ASCII, so every such character
    /// is inside one.)
    public static func escapedJSON(_ json: String) -> String {
        replacing(json, where: isActedOn) { scalar in
            let hex = String(scalar.value, radix: 16)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
    }

    /// `text` with each character `replaced` picks replaced by `escape` of it.
    private static func replacing(
        _ text: String, where replaced: (Unicode.Scalar) -> Bool, with escape: (Unicode.Scalar) -> String
    ) -> String {
        guard text.unicodeScalars.contains(where: replaced) else { return text }
        var shown = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if replaced(scalar) {
                shown.append(contentsOf: escape(scalar).unicodeScalars)
            } else {
                shown.append(scalar)
            }
        }
        return String(shown)
    }

    /// Whether a terminal acts on `scalar` rather than showing it (newline and tab excepted).
    public static func isActedOn(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A: false
        case 0x00...0x1F, 0x7F...0x9F: true
        // Bidirectional embeddings, overrides, isolates and marks.
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: true
        default: false
        }
    }
}
