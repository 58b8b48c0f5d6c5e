import AnimationCodec
import FoundationEssentials
import StickerPack
import StickerRenderer

/// Plays a sticker for a few seconds with `stickers preview` and with chafa, at the same cell
/// size and colour mode, each writing to a pipe, and compares CPU time per second of
/// playback and bytes written per frame.
package enum PreviewBench {
    /// One player's figures.
    package struct Player: Sendable, Encodable {
        /// The command run.
        package var command: [String]
        /// CPU seconds (user + system) per second of playback, medians over the repeats.
        package var cpuPerSecond: Double
        /// Bytes written per frame shown.
        package var bytesPerFrame: Double
        /// Bytes written in all.
        package var bytes: Int
        /// Whether every run wrote the protocol's escapes (a peer built without a protocol
        /// falls back to text, and its figures are not that protocol's).
        package var drewProtocol = true
    }

    /// What the comparison measured.
    package struct Result: Sendable, Encodable {
        /// The sticker played.
        package var file: String
        /// Cells, columns x rows.
        package var columns: Int, rows: Int
        /// Seconds played per run.
        package var seconds: Double
        /// Frames the animation shows in that time (Messages' timing); both players' bytes are
        /// divided by it.
        package var frames: Int
        /// Ours.
        package var ours: Player
        /// chafa (nil when it is not installed).
        package var chafa: Player?
        /// The same playback with each terminal graphics protocol.
        package var graphics: [Graphics] = []
    }

    /// One graphics protocol: ours (the loop sent once, or sixel frames by our clock) against
    /// chafa's (`-f kitty|iterm|sixels`, every frame sent).
    package struct Graphics: Sendable, Encodable {
        /// `kitty`, `iterm2` or `sixel`.
        package var name: String
        /// Ours, `--graphics NAME --play`.
        package var ours: Player
        /// chafa with the matching `-f`.
        package var chafa: Player?
        /// timg with the matching `-p`, on a pseudo-terminal that reports its pixel size.
        package var timg: Player?
        /// The whole process to one picture (`--frame 0`), wall milliseconds, median.
        package var firstImageMilliseconds: Double
    }

    /// Runs both players `repeats` times on `file`.
    package static func run(
        file: String, columns: Int, rows: Int, seconds: Double, repeats: Int, colors: TerminalColors
    ) throws -> Result {
        let sticker = Sticker(name: "s", source: .file(URL(fileURLWithPath: file)))
        let animation = try StickerAnimation.load(sticker)
        let clock = StickerClock(delays: animation.delays, plays: animation.plays, policy: .apple)
        let frames = max(1, clock.changeTimes(until: seconds).count)
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        let ours = [
            me, "preview", file, "--play", "--width", "\(columns)", "--height", "\(rows)",
            "--duration", "\(seconds)", "--colors", colors.rawValue
        ]
        let chafaPath = "/usr/bin/chafa"
        let chafa = [
            chafaPath, "--animate", "on", "--duration", "\(seconds)", "--size", "\(columns)x\(rows)",
            "--symbols", "vhalf", "--colors", colors == .truecolor ? "full" : "256", file
        ]
        let hasChafa = FileManager.default.isExecutableFile(atPath: chafaPath)
        var ourRuns: [ChildProcess.Result] = []
        var chafaRuns: [ChildProcess.Result] = []
        for _ in 0..<repeats {
            ourRuns.append(try ChildProcess.run(ours))
            if hasChafa { chafaRuns.append(try ChildProcess.run(chafa)) }
        }
        func summary(_ command: [String], _ runs: [ChildProcess.Result]) -> Player {
            let cpu = median(runs.map { $0.cpuSeconds / seconds }) ?? 0
            let bytes = median(runs.map(\.bytes)) ?? 0
            return Player(
                command: command, cpuPerSecond: cpu, bytesPerFrame: Double(bytes) / Double(frames), bytes: bytes,
                drewProtocol: runs.allSatisfy(\.sawMarker))
        }
        var result = Result(
            file: file, columns: columns, rows: rows, seconds: seconds, frames: frames,
            ours: summary(ours, ourRuns), chafa: hasChafa ? summary(chafa, chafaRuns) : nil)
        let box = ["--width", "\(columns)", "--height", "\(rows)"]
        let timgPath = "/usr/bin/timg"
        let hasTimg = FileManager.default.isExecutableFile(atPath: timgPath)
        for (name, chafaFormat, timgFormat, introducer) in [
            ("kitty", "kitty", "k", "\u{1B}_G"), ("iterm2", "iterm", "i", "\u{1B}]1337;File="),
            ("sixel", "sixels", "s", "\u{1B}P")
        ] {
            let marker = Array(introducer.utf8)
            let ourGraphics = [me, "preview", file, "--graphics", name, "--play", "--duration", "\(seconds)"] + box
            let first = [me, "preview", file, "--graphics", name, "--frame", "0"] + box
            let theirGraphics = [
                chafaPath, "-f", chafaFormat, "--animate", "on", "--duration", "\(seconds)", "--size",
                "\(columns)x\(rows)", file
            ]
            var ourRuns: [ChildProcess.Result] = []
            var theirRuns: [ChildProcess.Result] = []
            var firstRuns: [ChildProcess.Result] = []
            // timg animates only where the terminal tells its pixel size: a pseudo-terminal that
            // does (cells of the 10 x 20 pixels ours assumes into a pipe).
            let timg = [timgPath, "-p\(timgFormat)", "-g\(columns)x\(rows)", "-t\(seconds)", file]
            var timgRuns: [ChildProcess.Result] = []
            for _ in 0..<repeats {
                ourRuns.append(try ChildProcess.run(ourGraphics, marker: marker))
                firstRuns.append(try ChildProcess.run(first))
                if hasChafa { theirRuns.append(try ChildProcess.run(theirGraphics, marker: marker)) }
                if hasTimg {
                    timgRuns.append(
                        try ChildProcess.runInTerminal(
                            timg, columns: columns, rows: rows, cell: (10, 20), marker: marker))
                }
            }
            result.graphics.append(
                Graphics(
                    name: name, ours: summary(ourGraphics, ourRuns),
                    chafa: hasChafa ? summary(theirGraphics, theirRuns) : nil,
                    timg: hasTimg ? summary(timg, timgRuns) : nil,
                    firstImageMilliseconds: (median(firstRuns.map(\.wallSeconds)) ?? 0) * 1000))
        }
        return result
    }

    /// The comparison as a short table.
    package static func text(_ r: Result) -> String {
        var lines = [
            "preview: \(r.file), \(r.columns)x\(r.rows) cells, \(r.seconds) s of playback, \(r.frames) frames shown"
        ]
        func row(_ name: String, _ p: Player) -> String {
            "  \(name)  CPU \(String(cFormat: "%.1f", p.cpuPerSecond * 1000)) ms per second of playback, \(String(cFormat: "%.0f", p.bytesPerFrame)) bytes per frame"
        }
        lines.append(row("stickers", r.ours))
        if let chafa = r.chafa {
            lines.append(row("chafa   ", chafa))
            lines.append(
                "  ratio    chafa / stickers: CPU \(String(cFormat: "%.1f", chafa.cpuPerSecond / max(r.ours.cpuPerSecond, 1e-9)))x, bytes \(String(cFormat: "%.1f", chafa.bytesPerFrame / max(r.ours.bytesPerFrame, 1e-9)))x"
            )
        } else {
            lines.append("  chafa    not installed (apt-get install chafa)")
        }
        for graphics in r.graphics {
            func bytes(_ p: Player) -> String {
                String(groupingThousands: p.bytes)
                    + (p.drewProtocol ? "" : " (no \(graphics.name) escapes: text instead)")
            }
            var line =
                "  \(graphics.name): stickers \(bytes(graphics.ours)) bytes, CPU \(String(cFormat: "%.1f", graphics.ours.cpuPerSecond * 1000)) ms/s, first image \(String(cFormat: "%.0f", graphics.firstImageMilliseconds)) ms"
            if let chafa = graphics.chafa {
                line += "; chafa \(bytes(chafa)) bytes, CPU \(String(cFormat: "%.1f", chafa.cpuPerSecond * 1000)) ms/s"
                if chafa.drewProtocol {
                    line +=
                        "; chafa / stickers: bytes \(String(cFormat: "%.1f", Double(chafa.bytes) / Double(max(graphics.ours.bytes, 1))))x, CPU \(String(cFormat: "%.1f", chafa.cpuPerSecond / max(graphics.ours.cpuPerSecond, 1e-9)))x"
                }
            }
            if let timg = graphics.timg {
                line +=
                    "; timg \(bytes(timg)) bytes, CPU \(String(cFormat: "%.1f", timg.cpuPerSecond * 1000)) ms/s"
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
