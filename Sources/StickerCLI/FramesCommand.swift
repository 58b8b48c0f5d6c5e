import AnimationCodec
import ArgumentParser
import FoundationEssentials
import StickerPack

/// `stickers frames FILE --out DIR --format png|ppm|rgba`: one file per displayed frame plus
/// `frames.json`.
public struct FramesCommand: ParsableCommand {
    /// Output encodings for frame dumps.
    public enum OutputFormat: String, EnumArgument, CaseIterable, Sendable {
        /// PNG with straight alpha.
        case png
        /// Binary PPM (P6): the frame over black.
        case ppm
        /// Raw premultiplied RGBA8, width*height*4 bytes, top row first.
        case rgba
    }

    /// Command name and help.
    public static let configuration = CommandConfiguration(
        commandName: "frames",
        abstract: "Write every displayed (composited) frame to a folder, plus frames.json.")

    /// The image to decode.
    @Argument(
        help: ArgumentHelp("The image file (format detected from its bytes).", valueName: "file"), completion: .file())
    public var file: String

    /// The folder to write.
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Output folder (created; the frames an earlier run listed in its frames.json are replaced, other files kept).",
            valueName: "dir"), completion: .directory)
    public var out: String

    /// The encoding of each frame.
    @Option(name: .long, help: "Frame encoding: png, ppm (over black) or rgba (raw premultiplied).")
    public var format: OutputFormat = .png

    /// The codec's limits.
    @OptionGroup(title: "Limits") var limits: LimitOptions<WholeFileDecodedHelp>

    /// How progress is shown.
    @OptionGroup var progress: ProgressOptions

    /// Creates the command (argument parsing fills it in).
    public init() {}

    /// Checks the options before any work.
    public func validate() throws {
        guard !out.isEmpty else { throw ValidationError(OutputFolder.emptyPathMessage) }
    }

    /// Runs the command. Frames are written to a hidden staging folder (``OutputFolder``) and
    /// moved into place only when every frame decoded, so a failure leaves nothing behind.
    public func run() throws {
        let decoder = try InputFile.decoder(for: file, limits: limits.limits)
        let info = decoder.info
        info.warnings.forEach(report)
        let staging = try OutputFolder(final: out, movedInByEntry: true)
        let bar = progress.bar("frames")
        defer { bar.finish() }
        do {
            var iterator = decoder.makeFrameIterator()
            while let frame = try iterator.next() {
                try staging.write(encode(frame), named: Self.fileName(frame.info.index, format))
                frame.warnings.forEach(report)
                bar.update(frame.info.index + 1, of: info.frames.count)
            }
            let metadata = AnimationMetadata(info) { Self.fileName($0, format) }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            try staging.write([UInt8](try encoder.encode(metadata)), named: "frames.json")
            let earlier = Self.framesOfEarlierRun(in: URL(fileURLWithPath: out))
            try staging.commit(removing: earlier.contains)
            TerminalOutput.line("wrote \(counted(info.frames.count, "frame")) and frames.json to \(out)")
        } catch let error as CodecError {
            staging.discard()
            throw CLIError(path: file, error)
        } catch let error as CLIError {
            staging.discard()
            throw error
        } catch {
            staging.discard()
            throw CLIError("\(out): cannot be written (\(errorReason(error)))")
        }
    }

    /// One line on stderr: `FILE: warning: ...`.
    private func report(_ warning: CodecWarning) {
        TerminalOutput.errorLine("\(file): warning: \(warning)")
    }

    /// The frame files an earlier run wrote into `folder`, as its `frames.json` lists them: only
    /// those are removed when this run does not write them again (files of the same pattern that
    /// some other tool wrote are left alone).
    static func framesOfEarlierRun(in folder: URL) -> Set<String> {
        struct Listing: Decodable {
            struct Entry: Decodable { var file: String? }
            var frames: [Entry]
        }
        let listing = folder.appendingPathComponent("frames.json")
        guard let data = try? BoundedFile.read(listing.path, maxBytes: 64 << 20),
            let earlier = try? JSONDecoder().decode(Listing.self, from: Data(data))
        else { return [] }
        return Set(earlier.frames.compactMap(\.file).filter(isFrameFile))
    }

    /// Whether `name` is a frame file this command writes in some format (`frame-0007.png`).
    static func isFrameFile(_ name: String) -> Bool {
        let parts = name.split(separator: ".")
        guard parts.count == 2, OutputFormat(rawValue: String(parts[1])) != nil, parts[0].hasPrefix("frame-") else {
            return false
        }
        let digits = parts[0].dropFirst("frame-".count)
        return digits.count >= 4 && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }

    static func fileName(_ index: Int, _ format: OutputFormat) -> String {
        let digits = String(index)
        return "frame-" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits + "." + format.rawValue
    }

    private func encode(_ frame: Frame) -> [UInt8] {
        switch format {
        case .png: return PNGEncoder.encode(premultiplied: frame.pixels, width: frame.width, height: frame.height)
        case .ppm:
            return PPMEncoder.encodeOverBlack(premultiplied: frame.pixels, width: frame.width, height: frame.height)
        case .rgba: return frame.pixels
        }
    }
}
