import Foundation
import Testing

@testable import StickerPack

/// Text shown safely on a terminal: the escapes written out by hand.
@Suite("Terminal text")
struct TerminalTextTests {
    @Test(
        "ESC, BEL, CR, DEL, the C1 controls and the bidirectional controls are shown as escapes; newline and tab pass")
    func escaped() {
        #expect(TerminalText.escaped("x\u{1B}]0;pwned\u{07}.png") == #"x\u{1B}]0;pwned\u{7}.png"#)
        #expect(TerminalText.escaped("ok\rFAIL") == #"ok\u{D}FAIL"#)
        #expect(TerminalText.escaped("a\u{7F}b\u{9B}31m") == #"a\u{7F}b\u{9B}31m"#)
        #expect(TerminalText.escaped("evil\u{202E}gnp.exe") == #"evil\u{202E}gnp.exe"#)
        #expect(TerminalText.escaped("\u{2066}x\u{2069}\u{200F}") == #"\u{2066}x\u{2069}\u{200F}"#)
        #expect(TerminalText.escaped("\u{0}") == #"\u{0}"#)
        #expect(TerminalText.escaped("line one\n\tline two") == "line one\n\tline two")
        #expect(TerminalText.escaped("café 😀 ü\u{A0}") == "café 😀 ü\u{A0}")
        #expect(TerminalText.escaped("") == "")
    }

    @Test("JSON: DEL, C1 and bidirectional controls as \\u escapes that read back as the same text")
    func escapedJSON() throws {
        let text = "a\u{9B}b\u{7F}c\u{202E}d é"
        let encoded = String(decoding: try JSONEncoder().encode([text]), as: UTF8.self)
        let shown = TerminalText.escapedJSON(encoded)
        #expect(shown == #"["a\u009bb\u007fc\u202ed é"]"#)
        #expect(try JSONDecoder().decode([String].self, from: Data(shown.utf8)) == [text])
    }
}
