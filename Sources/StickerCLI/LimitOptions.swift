import AnimationCodec
import ArgumentParser
import StickerFit

/// What a command's `--max-decoded` help says: most commands decode whole files, while fit
/// holds a sticker's decoded frames to a lower cap of its own.
protocol DecodedBytesHelp {
    /// The option's help text.
    static var maxDecodedHelp: String { get }
}

/// `--max-decoded` of a command that decodes whole files.
enum WholeFileDecodedHelp: DecodedBytesHelp {
    static let maxDecodedHelp = "Most bytes all decoded frames of a file may add up to (frames x W x H x 4)."
}

/// `--max-decoded` of the commands that fit stickers, review among them (``FitOptions/maxDecodedBytes``).
enum FitDecodedHelp: DecodedBytesHelp {
    static let maxDecodedHelp =
        "Most bytes all decoded frames of a file may add up to (frames x W x H x 4); a sticker is fitted from at most \(ScaledCount(FitOptions.maxDecodedBytes)) of its frames, or this when lower."
}

/// `--max-side`, `--max-pixels`, `--max-frames`, `--max-decoded` and `--max-file`: the codec's
/// ``DecodingLimits`` for every command that reads images. Each defaults to the library's.
/// Each takes the next word as its value, so `--max-pixels -5` is named as not positive rather
/// than read as a missing value. `Help` words `--max-decoded`'s help for the command.
struct LimitOptions<Help: DecodedBytesHelp>: ParsableArguments {
    @Option(
        name: .customLong("max-side"), parsing: .unconditional,
        help: ArgumentHelp("Longest canvas or frame side, in pixels.", valueName: "px"))
    var maxSide = DecodingLimits.default.maxSide

    @Option(
        name: .customLong("max-pixels"), parsing: .unconditional,
        help: ArgumentHelp(
            "Largest canvas or frame area, in pixels (suffixes K, M, G: powers of 1024).", valueName: "n"))
    var maxPixels = ScaledCount(DecodingLimits.default.maxPixels)

    @Option(
        name: .customLong("max-frames"), parsing: .unconditional,
        help: ArgumentHelp("Most frames a file may declare.", valueName: "n"))
    var maxFrames = DecodingLimits.default.maxFrames

    @Option(
        name: .customLong("max-decoded"), parsing: .unconditional,
        help: ArgumentHelp(Help.maxDecodedHelp, valueName: "bytes"))
    var maxDecoded = ScaledCount(DecodingLimits.default.maxTotalDecodedBytes)

    @Option(
        name: .customLong("max-file"), parsing: .unconditional,
        help: ArgumentHelp("Largest image file read; larger files are refused unread.", valueName: "bytes"))
    var maxFile = ScaledCount(DecodingLimits.default.maxFileBytes)

    func validate() throws {
        for (name, value) in [
            ("--max-side", maxSide), ("--max-pixels", maxPixels.value), ("--max-frames", maxFrames),
            ("--max-decoded", maxDecoded.value), ("--max-file", maxFile.value)
        ] where value <= 0 {
            throw ValidationError("\(name) must be positive.")
        }
        try OptionBounds.check(maxFrames, in: OptionBounds.maxFrames, "--max-frames")
        try OptionBounds.check(maxPixels.value, in: OptionBounds.maxPixels, "--max-pixels")
        try OptionBounds.check(maxDecoded.value, in: OptionBounds.maxDecoded, "--max-decoded")
        try OptionBounds.check(maxFile.value, in: OptionBounds.maxFile, "--max-file")
    }

    /// The limits these options describe.
    var limits: DecodingLimits {
        DecodingLimits(
            maxSide: maxSide, maxPixels: maxPixels.value, maxFrames: maxFrames,
            maxTotalDecodedBytes: maxDecoded.value, maxFileBytes: maxFile.value)
    }
}

/// A count written plainly or with a binary suffix: `500000`, `512K`, `64M`, `4G`.
struct ScaledCount: ExpressibleByArgument, CustomStringConvertible {
    let value: Int

    init(_ value: Int) { self.value = value }

    init?(argument: String) {
        let shifts: [Character: Int] = ["K": 10, "M": 20, "G": 30]
        var digits = Substring(argument)
        var shift = 0
        if let last = digits.last?.uppercased().first, let found = shifts[last] {
            shift = found
            digits = digits.dropLast()
        }
        guard let number = Int(digits), number >= 0, number <= Int.max >> shift else { return nil }
        value = number << shift
    }

    var description: String {
        for (suffix, shift) in [("G", 30), ("M", 20), ("K", 10)] where value >= 1 << shift && value % (1 << shift) == 0
        {
            return "\(value >> shift)\(suffix)"
        }
        return String(value)
    }

    var defaultValueDescription: String { description }
}
