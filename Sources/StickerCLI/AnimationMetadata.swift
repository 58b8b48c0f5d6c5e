import AnimationCodec

/// The JSON shape of a file's metadata, shared by `info --json` and `frames.json`.
///
/// `loopCount` is the value as stored (`null` when none); `plays` is how many times a
/// browser plays the animation (0 = forever); `delayMs` is the stored delay, unclamped.
struct AnimationMetadata: Encodable {
    struct FrameEntry: Encodable {
        var index: Int
        var delayMs: Double
        var delayNumerator: Int
        var delayDenominator: Int
        var x: Int
        var y: Int
        var width: Int
        var height: Int
        var dispose: String
        var blend: String
        var gifDisposal: Int?
        var interlaced: Bool
        var file: String?
    }

    var format: String
    var width: Int
    var height: Int
    var frameCount: Int
    var loopCount: Int?
    var plays: Int
    var fileSize: Int
    var durationMs: Double
    var warnings: [String]
    var details: [String: String]
    var frames: [FrameEntry]

    init(_ info: AnimationInfo, fileName: ((Int) -> String)? = nil) {
        format = info.format.rawValue
        width = info.width
        height = info.height
        frameCount = info.frameCount
        loopCount = info.loopCount
        plays = info.plays
        fileSize = info.fileSize
        // To the nanosecond: 30 frames of 1/30 s are 1000 ms, not the sum's 999.9999999999999.
        durationMs = (info.totalDurationMilliseconds * 1e6).rounded() / 1e6
        warnings = info.warnings.map(\.message)
        var details = info.details
        if let color = info.colorChunks {
            if let gamma = color.gamma { details["gAMA"] = String(gamma) }
            if let chromaticities = color.chromaticities {
                details["cHRM"] = chromaticities.map(String.init).joined(separator: ",")
            }
            if let intent = color.sRGBIntent { details["sRGB"] = String(intent) }
            if let name = color.iccProfileName { details["iCCP"] = name }
        }
        self.details = details
        frames = info.frames.map { frame in
            FrameEntry(
                index: frame.index, delayMs: frame.delay.milliseconds,
                delayNumerator: frame.delay.numerator, delayDenominator: frame.delay.denominator,
                x: frame.rect.x, y: frame.rect.y, width: frame.rect.width, height: frame.rect.height,
                dispose: frame.dispose.rawValue, blend: frame.blend.rawValue,
                gifDisposal: frame.gifDisposal.map { Int($0.rawValue) }, interlaced: frame.isInterlaced,
                file: fileName?(frame.index))
        }
    }

    private enum CodingKeys: String, CodingKey {
        case format, width, height, frameCount, loopCount, plays, fileSize, durationMs, warnings, details, frames
    }

    /// Writes `loopCount: null` explicitly, as the contract asks.
    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(format, forKey: .format)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        try container.encode(frameCount, forKey: .frameCount)
        if let loopCount {
            try container.encode(loopCount, forKey: .loopCount)
        } else {
            try container.encodeNil(forKey: .loopCount)
        }
        try container.encode(plays, forKey: .plays)
        try container.encode(fileSize, forKey: .fileSize)
        try container.encode(durationMs, forKey: .durationMs)
        try container.encode(warnings, forKey: .warnings)
        try container.encode(details, forKey: .details)
        try container.encode(frames, forKey: .frames)
    }
}
