import StickerPack

extension FitPeerBench {
    /// The table `stickers bench --fit-peer` prints: per sticker a line for the input and one
    /// per tool, then each tool's totals and the speed ratio.
    package static func text(_ result: Result) -> String {
        let peerName = "sticker-convert" + (result.peerVersion.map { " " + $0 } ?? "")
        var lines = [
            "stickers fit (default options, \(result.size), \(result.side) px) vs \(peerName) (--preset \(result.peerPreset)) on \(result.inputs)",
            pad("sticker", 24) + pad("tool", 17) + lpad("bytes", 10) + lpad("PSNR", 11) + lpad("SSIM", 8)
                + lpad("frames", 8)
                + lpad("fps", 7) + lpad("loop", 9) + lpad("time", 10)
        ]
        for entry in result.stickers {
            let input = entry.input
            lines.append(
                pad(entry.name, 24) + pad("input", 17) + lpad(String(input.bytes), 10) + lpad("-", 11) + lpad("-", 8)
                    + lpad(input.frames.map(String.init) ?? "-", 8) + lpad(fps(input.framesPerSecond), 7)
                    + lpad(seconds(input.loopSeconds, "%.2f s"), 9) + lpad("-", 10))
            if let failure = input.failure { lines.append(pad("", 24) + "input does not decode: " + failure) }
            for (tool, output) in [("stickers fit", entry.ours), ("sticker-convert", entry.peer)] {
                lines.append(
                    pad("", 24) + pad(tool, 17) + lpad(output.bytes.map(String.init) ?? "-", 10)
                        + lpad(psnr(output), 11) + lpad(output.ssim.map { String(cFormat: "%.4f", $0) } ?? "-", 8)
                        + lpad(output.frames.map(String.init) ?? "-", 8) + lpad(fps(output.framesPerSecond), 7)
                        + lpad(seconds(output.loopSeconds, "%.2f s"), 9) + lpad(seconds(output.seconds, "%.1f s"), 10))
                if !output.produced { lines.append(pad("", 24 + 17) + "FAILED: " + (output.failure ?? "no output")) }
            }
        }
        for (tool, total) in [("stickers fit", result.ours), ("sticker-convert", result.peer)] {
            lines.append(
                pad(tool == "stickers fit" ? "total" : "", 24) + pad(tool, 17) + lpad(String(total.bytes), 10)
                    + "  \(total.produced) of \(total.produced + total.failed) made, lowest PSNR "
                    + (total.lowestPSNR.map { String(cFormat: "%.1f dB", $0) } ?? (total.produced > 0 ? "exact" : "-"))
                    + String(cFormat: ", whole run %.1f s", total.wallSeconds)
                    + (total.exitStatus == 0 ? "" : " (exit status \(total.exitStatus))"))
        }
        lines.append(
            String(cFormat: "speed ratio (sticker-convert wall / stickers fit wall): %.2fx", result.speedRatio))
        let measured = result.stickers.filter { $0.ours.peakResidentBytes != nil }
        if !measured.isEmpty {
            lines.append(
                "stickers fit's peak resident memory, each sticker alone (--dry-run), against its frames scaled to \(result.side) px:"
            )
            for entry in measured {
                let peak = Double(entry.ours.peakResidentBytes ?? 0)
                let scaled = Double(entry.ours.scaledFramesBytes ?? 0)
                lines.append(
                    pad("  " + entry.name, 24)
                        + String(cFormat: "%8.1f MB peak, %8.1f MB scaled frames", peak / 1e6, scaled / 1e6)
                        + (scaled > 0 ? String(cFormat: ", %.2fx", peak / scaled) : ""))
            }
        }
        let timed = result.stickers.filter { $0.ours.aloneSeconds != nil && $0.ours.strictSeconds != nil }
        if !timed.isEmpty {
            lines.append(
                "stickers fit on each sticker alone (--dry-run), and under --strict (refused under 30 dB or SSIM 0.90, with the options that make it proven):"
            )
            for entry in timed {
                let made = entry.ours.aloneSeconds ?? 0
                let strict = entry.ours.strictSeconds ?? 0
                lines.append(
                    pad("  " + entry.name, 24) + String(cFormat: "%6.2f s; --strict: ", made)
                        + (entry.ours.strictRefused == true ? "refused" : "made")
                        + String(cFormat: " in %6.2f s, %.2fx", strict, strict / max(made, 1e-9)))
            }
        }
        if !result.skipped.isEmpty {
            lines.append("not compared (sticker sequences): " + result.skipped.joined(separator: ", "))
        }
        lines.append(
            "PSNR and SSIM (8x8 windows, every channel): premultiplied RGBA, all channels, against each input decoded by StickerKit and scaled to \(result.side) px as fit scales it, "
                + "at every input frame's start time (Apple's timing); a shorter loop repeats, so a speed-up counts as error. "
                + "Bytes totals count the stickers each tool made within \(result.maxBytes) bytes. "
                + "Time: fit's report per sticker (stickers run in parallel); sticker-convert logs none, its whole run only."
        )
        if let kept = result.keptIn { lines.append("inputs and outputs kept in \(kept)") }
        return lines.joined(separator: "\n")
    }

    private static func psnr(_ output: Output) -> String {
        guard let maxError = output.maxError else { return "-" }
        return maxError == 0 ? "exact" : output.psnr.map { String(cFormat: "%.2f dB", $0) } ?? "-"
    }

    private static func fps(_ value: Double?) -> String {
        guard let value else { return "-" }
        return value == 0 ? "still" : String(cFormat: "%.1f", value)
    }

    private static func seconds(_ value: Double?, _ format: String) -> String {
        value.map { String(cFormat: format, $0) } ?? "-"
    }
}
