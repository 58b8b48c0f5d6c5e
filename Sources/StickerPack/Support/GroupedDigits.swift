extension String {
    /// `value` with its thousands grouped by commas, as reports print byte counts: `441,207`.
    public init(groupingThousands value: Int) {
        var digits = String(value.magnitude)
        var groups: [Substring] = []
        while digits.count > 3 {
            groups.insert(digits.suffix(3), at: 0)
            digits.removeLast(3)
        }
        groups.insert(Substring(digits), at: 0)
        self = (value < 0 ? "-" : "") + groups.joined(separator: ",")
    }
}
