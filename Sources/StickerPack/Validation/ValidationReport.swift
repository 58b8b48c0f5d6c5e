/// What `stickers validate` reports: a summary of every sticker and every finding.
public struct ValidationReport: Sendable, Hashable, Codable {
    /// The pack's name.
    public var pack: String
    /// The grid size the pack was checked against (the catalog's, else regular).
    public var gridSize: String
    /// Whether the catalog declared the grid size.
    public var gridSizeDeclared: Bool
    /// One summary per sticker, in browser order.
    public var stickers: [StickerSummary]
    /// Every finding, pack-level first, then sticker by sticker.
    public var findings: [ValidationFinding]

    /// The number of errors.
    public var errorCount: Int { findings.filter { $0.severity == .error }.count }
    /// The number of warnings.
    public var warningCount: Int { findings.filter { $0.severity == .warning }.count }
    /// Whether no error was found.
    public var passed: Bool { errorCount == 0 }

    private enum CodingKeys: String, CodingKey {
        case pack, gridSize, gridSizeDeclared, stickers, findings, errorCount, warningCount, passed
    }

    /// Creates a report.
    public init(
        pack: String, gridSize: String, gridSizeDeclared: Bool, stickers: [StickerSummary],
        findings: [ValidationFinding]
    ) {
        self.pack = pack
        self.gridSize = gridSize
        self.gridSizeDeclared = gridSizeDeclared
        self.stickers = stickers
        self.findings = findings
    }

    /// The report of a pack that could not be read at all: failed, `reason` its one finding.
    public static func unreadable(pack: String, reason: String) -> ValidationReport {
        ValidationReport(
            pack: pack, gridSize: StickerSize.regular.rawValue, gridSizeDeclared: false, stickers: [],
            findings: [ValidationFinding(.error, sticker: nil, rule: .pack, message: reason)])
    }

    /// Decodes a report written by ``encode(to:)``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        pack = try container.decode(String.self, forKey: .pack)
        gridSize = try container.decode(String.self, forKey: .gridSize)
        gridSizeDeclared = try container.decode(Bool.self, forKey: .gridSizeDeclared)
        stickers = try container.decode([StickerSummary].self, forKey: .stickers)
        findings = try container.decode([ValidationFinding].self, forKey: .findings)
    }

    /// Encodes the report with its counts and verdict.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(pack, forKey: .pack)
        try container.encode(gridSize, forKey: .gridSize)
        try container.encode(gridSizeDeclared, forKey: .gridSizeDeclared)
        try container.encode(stickers, forKey: .stickers)
        try container.encode(findings, forKey: .findings)
        try container.encode(errorCount, forKey: .errorCount)
        try container.encode(warningCount, forKey: .warningCount)
        try container.encode(passed, forKey: .passed)
    }
}

/// The measurements of one sticker (fields are `nil` when the file could not be read that far).
public struct StickerSummary: Sendable, Hashable, Codable {
    /// The sticker's name.
    public var name: String
    /// Its files (one, or a sequence's frames).
    public var files: [String]
    /// The sniffed format (`apng`, `gif`, `png`, `jpeg`; a sequence is `sequence`; also a format
    /// Messages does not take, such as `webp`, which is a `format` error).
    public var format: String?
    /// The files' total size in bytes.
    public var fileBytes: Int
    /// Canvas width in pixels; for a vector file (Lottie), the width it is drawn at in the
    /// pack (its longer side the pack's grid size), not its document's.
    public var width: Int?
    /// Canvas height in pixels (for a vector file, as drawn in the pack).
    public var height: Int?
    /// Frame count.
    public var frameCount: Int?
    /// One loop's length in milliseconds, stored delays.
    public var loopMilliseconds: Double?
    /// One loop's length in milliseconds as Messages shows it: a delay under the short-delay
    /// line (11 ms) shows for 100 ms. The stored length for most files.
    public var shownLoopMilliseconds: Double?
    /// Plays (0 = forever).
    public var plays: Int?
    /// Bytes all frames take decoded.
    public var decodedBytes: Int?
    /// What VoiceOver reads: the catalog's label, else the sticker's name; for a folder, the
    /// label `stickers fit` makes from the file's name (``Sticker/spokenLabel``).
    public var label: String?

    /// Creates a summary with only the name and files known.
    public init(name: String, files: [String], fileBytes: Int) {
        self.name = name
        self.files = files
        self.fileBytes = fileBytes
    }
}
