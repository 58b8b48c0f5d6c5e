/// `count` and `noun`, the noun plural (an added "s") unless the count is one: "1 sticker",
/// "3 stickers", for messages and summaries.
package func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
