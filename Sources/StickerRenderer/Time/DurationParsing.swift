/// Reads a time given on the command line: `1.25s`, `1250ms` or a bare number of seconds.
public enum DurationParsing {
    /// The seconds `text` names (`1.5`, `1.5s`, `1500ms`), or `nil` when it is not a finite,
    /// non-negative decimal time (`0x10`, which Swift's `Double` reads as 16, is not one).
    public static func seconds(_ text: String) -> Double? {
        let t = text.lowercased().trimmingCharacters(in: " ")
        let number: Substring
        let scale: Double
        if t.hasSuffix("ms") {
            (number, scale) = (t.dropLast(2), 1000)
        } else if t.hasSuffix("s") {
            (number, scale) = (t.dropLast(), 1)
        } else {
            (number, scale) = (Substring(t), 1)
        }
        guard let value = decimal(number).map({ $0 / scale }), value.isFinite, value >= 0 else { return nil }
        return value
    }

    /// `text` as a number when it is written in decimal (``isDecimal(_:)``), else `nil`.
    public static func decimal(_ text: Substring) -> Double? {
        isDecimal(text) ? Double(text) : nil
    }

    /// Whether `text` is a number written in decimal, a sign allowed: `12`, `-7.5`, `.25`,
    /// `1e-3`. Not hexadecimal (`0x10`, `0x1p4`), which Swift's `Double` reads too.
    public static func isDecimal(_ text: Substring) -> Bool {
        let unsigned = text.first.map { "+-".contains($0) } == true ? text.dropFirst() : text
        return unsigned.first.map { $0.isASCII && ($0.isNumber || $0 == ".") } == true
            && unsigned.allSatisfy { $0.isASCII && ($0.isNumber || ".eE+-".contains($0)) }
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: Character) -> String {
        String(drop { $0 == set }.reversed().drop { $0 == set }.reversed())
    }
}
