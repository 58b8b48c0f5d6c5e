import AnimationCodec
import FoundationEssentials
import StickerPack
import StickerRenderer

/// Plays a sticker for a few seconds with `stickers preview` and with chafa, at the same cell
/// size and colour mode, each writing to a pipe, and compares CPU time per second of
/// playback and bytes written per frame.
public enum PreviewBench {
    /// One player's figures.
    public struct Player: Sendable, Encodable {
        /// The command run.
        public var command: [String]
        /// CPU seconds (user + system) per second of playback, medians over the repeats.
        public var cpuPerSecond: Double
        /// Bytes written per frame shown.
        public var bytesPerFrame: Double
        /// Bytes written in all.
        public var bytes: Int
    }

    /// What the comparison measured.
    public struct Result: Sendable, Encodable {
        /// The sticker played.
        public var file: String
        /// Cells, columns x rows.
        public var columns: Int, rows: Int
        /// Seconds played per run.
        public var seconds: Double
        /// Frames the animation shows in that time (Messages' timing); both players' bytes are
        /// divided by it.
        public var frames: Int
        /// Ours.
        public var ours: Player
        /// chafa (nil when it is not installed).
        public var chafa: Player?
    }

    /// Runs both players `repeats` times on `file`.
    public static func run(file: String, columns: Int, rows: Int, seconds: Double, repeats: Int, colors: TerminalColors) throws -> Result {
        let sticker = Sticker(name: "s", source: .file(URL(fileURLWithPath: file)))
        let animation = try StickerAnimation.load(sticker)
        let clock = StickerClock(delays: animation.delays, plays: animation.plays, policy: .apple)
        let frames = max(1, clock.changeTimes(until: seconds).count)
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        let ours = [me, "preview", file, "--play", "--width", "\(columns)", "--height", "\(rows)",
                    "--duration", "\(seconds)", "--colors", colors.rawValue]
        let chafaPath = "/usr/bin/chafa"
        let chafa = [chafaPath, "--animate", "on", "--duration", "\(seconds)", "--size", "\(columns)x\(rows)",
                     "--symbols", "vhalf", "--colors", colors == .truecolor ? "full" : "256", file]
        let hasChafa = FileManager.default.isExecutableFile(atPath: chafaPath)
        var ourRuns: [ChildProcess.Result] = [], chafaRuns: [ChildProcess.Result] = []
        for _ in 0..<repeats {
            ourRuns.append(try ChildProcess.run(ours))
            if hasChafa { chafaRuns.append(try ChildProcess.run(chafa)) }
        }
        func summary(_ command: [String], _ runs: [ChildProcess.Result]) -> Player {
            let cpu = median(runs.map { $0.cpuSeconds / seconds }) ?? 0
            let bytes = median(runs.map(\.bytes)) ?? 0
            return Player(command: command, cpuPerSecond: cpu, bytesPerFrame: Double(bytes) / Double(frames), bytes: bytes)
        }
        return Result(file: file, columns: columns, rows: rows, seconds: seconds, frames: frames,
                      ours: summary(ours, ourRuns), chafa: hasChafa ? summary(chafa, chafaRuns) : nil)
    }

    /// The comparison as a short table.
    public static func text(_ r: Result) -> String {
        var lines = ["preview: \(r.file), \(r.columns)x\(r.rows) cells, \(r.seconds) s of playback, \(r.frames) frames shown"]
        func row(_ name: String, _ p: Player) -> String {
            "  \(name)  CPU \(String(cFormat: "%.1f", p.cpuPerSecond * 1000)) ms per second of playback, \(String(cFormat: "%.0f", p.bytesPerFrame)) bytes per frame"
        }
        lines.append(row("stickers", r.ours))
        if let chafa = r.chafa {
            lines.append(row("chafa   ", chafa))
            lines.append("  ratio    chafa / stickers: CPU \(String(cFormat: "%.1f", chafa.cpuPerSecond / max(r.ours.cpuPerSecond, 1e-9)))x, bytes \(String(cFormat: "%.1f", chafa.bytesPerFrame / max(r.ours.bytesPerFrame, 1e-9)))x")
        } else {
            lines.append("  chafa    not installed (apt-get install chafa)")
        }
        return lines.joined(separator: "\n")
    }
}
