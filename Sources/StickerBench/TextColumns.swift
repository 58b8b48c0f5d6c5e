/// `text` padded with spaces on the right to `width` characters (the bench's tables).
func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}

/// `text` padded with spaces on the left to `width` characters (numbers in the bench's tables).
func lpad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
}
