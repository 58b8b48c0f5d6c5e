import ArgumentParser

/// A number of bytes written plainly or with a unit, the decimal ones as Apple's "500 KB" is:
/// `499999`, `400K`, `400KB`, `0.4MB` (1000 and 1,000,000 bytes to the unit, letter case aside),
/// `500KiB`, `1MiB` (1024 and 1,048,576). A fraction must come to a whole number of bytes.
struct DecimalByteCount: ExpressibleByArgument, CustomStringConvertible {
    /// The bytes.
    let value: Int

    /// `value` bytes.
    init(_ value: Int) { self.value = value }

    init?(argument: String) {
        // A plain number, negative too, so the option's own check names what it takes.
        if let plain = Int(argument) {
            value = plain
            return
        }
        let units: [String: Int] = [
            "": 1, "k": 1000, "kb": 1000, "m": 1_000_000, "mb": 1_000_000, "kib": 1024, "mib": 1 << 20
        ]
        let number = argument.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        guard let scale = units[argument.dropFirst(number.count).lowercased()] else { return nil }
        let parts = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, let wholeValue = Int(whole) else { return nil }
        // The fraction in integers, so 0.4MB is 400,000 bytes exactly: digits / 10^count.
        let fraction = parts.count == 2 ? parts[1] : ""
        guard fraction.count <= 9, fraction.allSatisfy(\.isNumber) else { return nil }
        let denominator = (0..<fraction.count).reduce(1) { product, _ in product * 10 }
        let (scaledWhole, overflow) = wholeValue.multipliedReportingOverflow(by: scale)
        guard !overflow, let digits = fraction.isEmpty ? 0 : Int(fraction),
            (digits * scale) % denominator == 0
        else { return nil }
        let (total, overflowSum) = scaledWhole.addingReportingOverflow(digits * scale / denominator)
        guard !overflowSum else { return nil }
        value = total
    }

    /// The bytes, as the plain number.
    var description: String { String(value) }

    var defaultValueDescription: String { description }
}
