/// One thing the validator found: which sticker, which rule, how bad, and the measured value.
public struct ValidationFinding: Sendable, Hashable, Codable, CustomStringConvertible {
    /// How serious a finding is.
    public enum Severity: String, Sendable, Hashable, Codable {
        /// Breaks one of Apple's rules: Messages refuses or mangles the sticker.
        case error
        /// Works, but probably not as intended.
        case warning
    }

    /// How serious it is.
    public var severity: Severity
    /// The sticker's name; `nil` for findings about the whole pack.
    public var sticker: String?
    /// The sticker's position in the pack (browser order, from 0), which tells apart stickers
    /// of one name; `nil` for findings about the whole pack or several stickers.
    public var stickerIndex: Int?
    /// The rule.
    public var rule: StickerRule
    /// One line for a person.
    public var message: String
    /// The measured value, as a string (`"523400 bytes"`, `"700x700 px"`).
    public var measured: String?
    /// The bound it was checked against.
    public var limit: String?

    /// Creates a finding.
    public init(
        _ severity: Severity, sticker: String?, rule: StickerRule, message: String,
        measured: String? = nil, limit: String? = nil
    ) {
        self.severity = severity
        self.sticker = sticker
        self.rule = rule
        self.message = message
        self.measured = measured
        self.limit = limit
    }

    /// `error [rule] sticker: message`.
    public var description: String {
        "\(severity.rawValue) [\(rule.rawValue)] \(sticker.map { "\($0): " } ?? "")\(message)"
    }
}
