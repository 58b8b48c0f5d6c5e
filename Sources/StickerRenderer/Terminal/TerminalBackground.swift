import Dispatch
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// The terminal's background colour, asked with OSC 11 (`ESC ] 11 ; ? ST`), which xterm, VTE,
/// kitty, iTerm2, Windows Terminal, tmux and most others answer with `rgb:RRRR/GGGG/BBBB`.
///
/// A device-attributes request (`ESC [ c`), which nearly every terminal answers, follows the
/// question: its reply marks the end, so a terminal that ignores OSC 11 costs one round trip,
/// not the whole timeout. A terminal that answers nothing costs the timeout (2 s: a terminal
/// on a busy machine may take more than a moment to answer, and a late answer is read as
/// typing).
public enum TerminalBackground {
    /// The question: OSC 11, then primary device attributes.
    static let query = "\u{1B}]11;?\u{1B}\\\u{1B}[c"

    /// Asks the controlling terminal (`/dev/tty`); nil when there is none, it does not answer
    /// within `timeout` seconds, or the answer cannot be read. Echo and line editing are off
    /// while waiting, and the terminal's settings are restored before returning.
    public static func ask(timeout: Double = 2) -> CellGrid.RGB? {
        TerminalQuery.roundTrip(query, timeout: timeout).flatMap(parse)
    }

    /// The colour in an OSC 11 reply (`ESC ] 11 ; rgb:R/G/B` ended by BEL or ST; each part
    /// 1-4 hex digits, scaled to 8 bits), wherever it sits among other replies.
    public static func parse(_ bytes: [UInt8]) -> CellGrid.RGB? {
        guard let start = find(Array("\u{1B}]11;rgb:".utf8), in: bytes) else { return nil }
        var parts: [UInt8] = []
        var digits = 0
        var value = 0
        var index = start + 9
        while index < bytes.count {
            let byte = bytes[index]
            if let digit = hexValue(byte) {
                guard digits < 4 else { return nil }
                value = value * 16 + digit
                digits += 1
            } else if byte == UInt8(ascii: "/") || byte == 0x07 || byte == 0x1B {
                guard digits > 0 else { return nil }
                let maximum = (1 << (4 * digits)) - 1
                parts.append(UInt8((value * 255 + maximum / 2) / maximum))
                digits = 0
                value = 0
                if byte != UInt8(ascii: "/") { break }
            } else {
                return nil
            }
            index += 1
        }
        guard parts.count == 3 else { return nil }
        return CellGrid.RGB(parts[0], parts[1], parts[2])
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return Int(byte - UInt8(ascii: "A")) + 10
        default: return nil
        }
    }

    /// Where `needle` first starts in `bytes`.
    private static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard needle.count <= bytes.count else { return nil }
        return (0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
