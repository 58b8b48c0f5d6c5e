import StickerPack

/// Text made safe for HTML: the five characters with a meaning in markup become entities, so a
/// sticker name or a finding can never open a tag or close an attribute; the characters a
/// terminal acts on are written as the terminal's reports write them (`\u{202E}`), so a
/// bidirectional override cannot show a name reversed (`evil\u{202E}gnp.exe` as `exe.png`).
enum HTMLText {
    /// `text` escaped for element content and double-quoted attribute values.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            // Controls (tab too; a newline shows as a space) and bidirectional controls, by number.
            case _ where TerminalText.isActedOn(scalar) || scalar == "\t":
                out += TerminalText.oneLine(String(scalar))
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `text` escaped (``escape(_:)``), each span between a pair of backticks (a command, an
    /// option: `` `stickers fit` ``) as code; text with an odd number of backticks is kept as it is.
    static func escapeWithCode(_ text: String) -> String {
        let parts = escape(text).split(separator: "`", omittingEmptySubsequences: false)
        guard parts.count > 1, parts.count % 2 == 1 else { return escape(text) }
        return parts.enumerated().map { $0.offset % 2 == 1 ? "<code>\($0.element)</code>" : String($0.element) }
            .joined()
    }

    /// An `id` (and URL fragment) for `name`: ASCII letters, digits and hyphens only, so it is
    /// the same in every browser and needs no escaping; `used` keeps ids unique within a page.
    static func identifier(_ name: String, prefix: String, used: inout Set<String>) -> String {
        var slug = ""
        var lastWasHyphen = true
        for byte in name.utf8 {
            let isAlphanumeric =
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            if isAlphanumeric {
                slug.unicodeScalars.append(Unicode.Scalar(byte >= 0x41 && byte <= 0x5A ? byte + 32 : byte))
                lastWasHyphen = false
            } else if !lastWasHyphen {
                slug += "-"
                lastWasHyphen = true
            }
        }
        slug = String(slug.prefix(60))
        while slug.hasSuffix("-") { slug.removeLast() }
        let base = prefix + (slug.isEmpty ? "x" : slug)
        var candidate = base
        var counter = 2
        while used.contains(candidate) {
            candidate = "\(base)-\(counter)"
            counter += 1
        }
        used.insert(candidate)
        return candidate
    }
}
