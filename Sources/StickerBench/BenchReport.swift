import FoundationEssentials
import StickerPack

/// Formats bench results as a text table (per file, then per format) or JSON.
package enum BenchReport {
    /// Totals for one format: megapixels over seconds, summed across files.
    package struct Total: Sendable, Encodable {
        /// The format.
        package var format: String
        /// Files measured.
        package var files: Int
        /// Our single-thread MP/s.
        package var megapixelsPerSecond: Double
        /// The baseline's MP/s.
        package var baselineMegapixelsPerSecond: Double?
        /// Ours over the baseline.
        package var ratio: Double?
        /// Our MP/s with all threads.
        package var parallelMegapixelsPerSecond: Double?
        /// Parallel over single-thread.
        package var speedUp: Double?
    }

    /// Per-format totals, in the order formats first appear.
    package static func totals(_ results: [BenchResult]) -> [Total] {
        var order: [String] = []
        for result in results where !order.contains(result.format) { order.append(result.format) }
        return order.map { format in
            let group = results.filter { $0.format == format }
            let work = group.reduce(0) { $0 + $1.megapixels * Double($1.repeats) }
            let ours = group.reduce(0) { $0 + $1.seconds }
            let baselines = group.compactMap(\.baselineSeconds)
            let baseline: Double? = baselines.count == group.count ? baselines.reduce(0, +) : nil
            let parallels = group.compactMap(\.parallelSeconds)
            let parallel: Double? = parallels.count == group.count ? parallels.reduce(0, +) : nil
            return Total(
                format: format, files: group.count, megapixelsPerSecond: work / ours,
                baselineMegapixelsPerSecond: baseline.map { work / $0 }, ratio: baseline.map { $0 / ours },
                parallelMegapixelsPerSecond: parallel.map { work / $0 }, speedUp: parallel.map { ours / $0 })
        }
    }

    /// The text table.
    package static func text(_ results: [BenchResult], threads: Int, limits: (libdeflate: Double, zlib: Double)?)
        -> String
    {
        let baselineName: [String: String] = ["apng": "libpng", "png": "libpng", "gif": "giflib", "jpeg": "-"]
        var lines = [
            "file                                 fmt    WxH        frames   ms/file    MP/s  baseline  ratio"
                + (threads > 1 ? "  \(threads)-thr MP/s  speed-up" : "")
                + "   decomp  unfilt  conv+comp   peak MB  check"
        ]
        for r in results {
            var line = pad(r.name, 36) + " " + pad(r.format, 5) + " " + pad("\(r.width)x\(r.height)", 10) + " "
            line += lpad(String(r.frames), 6) + " " + lpad(fixed(r.seconds / Double(r.repeats) * 1000, 2), 9) + " "
            line +=
                lpad(fixed(r.megapixelsPerSecond, 1), 7) + " "
                + lpad(r.baselineMegapixelsPerSecond.map { fixed($0, 1) } ?? "-", 9) + " "
            line += lpad(r.ratio.map { fixed($0, 2) + "x" } ?? "-", 6)
            if threads > 1 {
                let parallel = r.parallelSeconds.map { r.megapixels * Double(r.repeats) / $0 }
                line +=
                    " " + lpad(parallel.map { fixed($0, 1) } ?? "-", 12) + " "
                    + lpad(r.speedUp.map { fixed($0, 2) + "x" } ?? "-", 9)
            }
            let total = max(r.phases.decompress + r.phases.unfilter + r.phases.convert, 1e-12)
            for share in [r.phases.decompress, r.phases.unfilter, r.phases.convert] {
                line += " " + lpad(fixed(share / total * 100, 0) + "%", 7)
            }
            line += " " + lpad(r.peakBytes.map { fixed(Double($0) / 1_048_576, 1) } ?? "-", 9)
            line += "  " + (r.baselineAgrees.map { $0 ? "ok" : "DIFFERS" } ?? "-")
            if let identical = r.parallelIdentical { line += identical ? "" : " PARALLEL-DIFFERS" }
            lines.append(line)
        }
        lines.append("")
        lines.append("totals (single thread; baseline = libpng per rebuilt frame / giflib DGifSlurp, plain compositor)")
        for t in totals(results) {
            var line =
                "  " + pad(t.format, 5) + " " + lpad(String(t.files), 3) + " files  " + fixed(t.megapixelsPerSecond, 1)
                + " MP/s"
            if let base = t.baselineMegapixelsPerSecond, let ratio = t.ratio {
                line += "   \(baselineName[t.format] ?? "baseline") \(fixed(base, 1)) MP/s   ratio \(fixed(ratio, 2))x"
            }
            if let parallel = t.parallelMegapixelsPerSecond, let speedUp = t.speedUp {
                line += "   \(threads) threads \(fixed(parallel, 1)) MP/s (\(fixed(speedUp, 2))x)"
            }
            lines.append(line)
        }
        let compared = results.compactMap(\.parallelIdentical)
        if !compared.isEmpty {
            lines.append(
                "parallel: every frame bit-identical to the serial decode (CRC-32 per frame) on "
                    + "\(compared.filter { $0 }.count) of \(compared.count) files")
        }
        if let limits {
            lines.append(
                "limits: bare inflate of the same PNG streams: libdeflate \(fixed(limits.libdeflate, 1)) MB/s, zlib \(fixed(limits.zlib, 1)) MB/s (output bytes)"
            )
        }
        return lines.joined(separator: "\n")
    }

    /// The JSON report.
    package static func json(_ results: [BenchResult], threads: Int, limits: (libdeflate: Double, zlib: Double)?) throws
        -> String
    {
        struct Document: Encodable {
            var threads: Int
            var files: [Entry]
            var totals: [Total]
            var inflateLimitsMBps: [String: Double]?
        }
        struct Entry: Encodable {
            var result: BenchResult
            var megapixelsPerSecond: Double
            var baselineMegapixelsPerSecond: Double?
            var ratio: Double?
            var speedUp: Double?
        }
        let document = Document(
            threads: threads,
            files: results.map {
                Entry(
                    result: $0, megapixelsPerSecond: $0.megapixelsPerSecond,
                    baselineMegapixelsPerSecond: $0.baselineMegapixelsPerSecond, ratio: $0.ratio, speedUp: $0.speedUp)
            },
            totals: totals(results),
            inflateLimitsMBps: limits.map { ["libdeflate": $0.libdeflate, "zlib": $0.zlib] })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(document), as: UTF8.self)
    }

    private static func fixed(_ value: Double, _ digits: Int) -> String { String(cFormat: "%.\(digits)f", value) }
}
