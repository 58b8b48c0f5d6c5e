/// The first `most` of `items` joined by `separator`, then how many more there are:
/// `a; b; c; and 2 more`, for a message that names a few of many.
package func firstFew(_ items: [String], most: Int = 3, separator: String = "; ") -> String {
    items.prefix(most).joined(separator: separator)
        + (items.count > most ? "\(separator)and \(items.count - most) more" : "")
}
