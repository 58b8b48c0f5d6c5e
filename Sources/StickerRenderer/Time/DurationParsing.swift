/// Reads a time given on the command line: `1.25s`, `1250ms` or a bare number of seconds.
public enum DurationParsing {
    /// The seconds `text` names, or `nil` when it is not a finite, non-negative time.
    public static func seconds(_ text: String) -> Double? {
        let t = text.lowercased().trimmingCharacters(in: " ")
        let value: Double?
        if t.hasSuffix("ms") {
            value = Double(t.dropLast(2)).map { $0 / 1000 }
        } else if t.hasSuffix("s") {
            value = Double(t.dropLast())
        } else {
            value = Double(t)
        }
        guard let value, value.isFinite, value >= 0 else { return nil }
        return value
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: Character) -> String {
        String(drop { $0 == set }.reversed().drop { $0 == set }.reversed())
    }
}
