/// Finder's order for file names, without a locale: letter case aside, a run of ASCII digits by
/// its value (`sticker2` before `sticker10`; digits before letters), other characters by their
/// lowercased Unicode scalars (so an accented letter comes after every unaccented one); names
/// equal so (`b01` and `b1`, `a.png` and `A.png`) in the order of their UTF-8 bytes. It is the
/// browser order of a folder pack: `sticker1` to `sticker12` show as numbered.
enum FileNameOrder {
    /// Whether `first` comes before `second`.
    static func areInIncreasingOrder(_ first: String, _ second: String) -> Bool {
        let order = compare(first, second)
        return order != 0 ? order < 0 : Array(first.utf8).lexicographicallyPrecedes(Array(second.utf8))
    }

    /// Negative, zero or positive as `first` comes before, with or after `second`, letter case
    /// and leading zeros aside.
    private static func compare(_ first: String, _ second: String) -> Int {
        let a = Array(first.lowercased().unicodeScalars)
        let b = Array(second.lowercased().unicodeScalars)
        var (i, j) = (0, 0)
        while i < a.count && j < b.count {
            guard isDigit(a[i]) && isDigit(b[j]) else {
                if a[i] != b[j] { return a[i].value < b[j].value ? -1 : 1 }
                (i, j) = (i + 1, j + 1)
                continue
            }
            // Two runs of digits: by value, so without their leading zeros, the longer is larger.
            let (runA, runB) = (digitRun(a, from: i), digitRun(b, from: j))
            (i, j) = (runA.upperBound, runB.upperBound)
            let valueA = a[runA].drop { $0 == "0" }
            let valueB = b[runB].drop { $0 == "0" }
            if valueA.count != valueB.count { return valueA.count < valueB.count ? -1 : 1 }
            for (digitA, digitB) in zip(valueA, valueB) where digitA != digitB {
                return digitA.value < digitB.value ? -1 : 1
            }
        }
        // One name is the start of the other: the shorter first.
        let (restA, restB) = (a.count - i, b.count - j)
        return restA == restB ? 0 : restA < restB ? -1 : 1
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

    /// The run of digits of `scalars` starting at `start`.
    private static func digitRun(_ scalars: [Unicode.Scalar], from start: Int) -> Range<Int> {
        var end = start
        while end < scalars.count && isDigit(scalars[end]) { end += 1 }
        return start..<end
    }
}
