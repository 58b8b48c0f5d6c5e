extension String {
    /// The longest start of the string within `limit` UTF-8 bytes, cut between characters; when
    /// even the first character is longer (a letter with a hundred combining marks), cut
    /// between its scalars, so the result is never empty for a non-empty string and a positive
    /// limit that holds its first scalar.
    public func prefix(utf8Bytes limit: Int) -> String {
        guard utf8.count > limit else { return self }
        var cut = Substring(self)
        while cut.utf8.count > limit { cut = cut.dropLast() }
        guard cut.isEmpty else { return String(cut) }
        var scalars = String.UnicodeScalarView()
        var bytes = 0
        for scalar in unicodeScalars {
            bytes += String(scalar).utf8.count
            guard bytes <= limit else { break }
            scalars.append(scalar)
        }
        return String(scalars)
    }
}
