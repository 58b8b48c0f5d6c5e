import FoundationEssentials

/// This build against another `stickers` binary (an older commit's, a release's): each decodes
/// the same files on one thread as its own `stickers bench --json` measures them, the two taking
/// turns file by file and round by round (who goes first alternating), so a slow patch of a
/// noisy machine falls on both alike. Per file: each side's MP/s in every round, and the
/// ratio of this build over the other with its spread over the rounds, where a memory or
/// scheduling slowdown that instruction counts do not see shows up.
package enum ABBench {
    /// One file's figures.
    package struct File: Sendable, Encodable {
        /// The file's name.
        package var name: String
        /// This build's MP/s, one a round.
        package var this: [Double]
        /// The other binary's MP/s, one a round.
        package var other: [Double]
        /// This over the other, one a round.
        package var ratios: [Double]
        /// The median ratio.
        package var medianRatio: Double
        /// The lowest and highest ratio of a round.
        package var lowRatio: Double, highRatio: Double
    }

    /// What the comparison measured.
    package struct Result: Sendable, Encodable {
        /// The other binary.
        package var against: String
        /// Rounds run.
        package var rounds: Int
        /// Decodes per run of each binary (its `--repeat`).
        package var repeats: Int
        /// Every file.
        package var files: [File]
    }

    /// What either binary's `bench --json` says of one file.
    private struct Report: Decodable {
        struct Entry: Decodable { var megapixelsPerSecond: Double }
        var files: [Entry]
    }

    /// A binary that could not be run or whose report could not be read.
    package struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        package var description: String
    }

    /// Runs `rounds` rounds over `files`: `this` and `other` each run
    /// `bench FILE --threads 1 --repeat REPEATS --json` in turn.
    package static func run(files: [String], this: String, other: String, rounds: Int, repeats: Int) throws -> Result {
        var ours = [[Double]](repeating: [], count: files.count)
        var theirs = [[Double]](repeating: [], count: files.count)
        for round in 0..<rounds {
            for (index, file) in files.enumerated() {
                // Who goes first alternates (the two may be the same file).
                for thisTurn in round % 2 == 0 ? [true, false] : [false, true] {
                    let speed = try measure(thisTurn ? this : other, file: file, repeats: repeats)
                    if thisTurn { ours[index].append(speed) } else { theirs[index].append(speed) }
                }
            }
        }
        let measured = files.indices.map { index -> File in
            let ratios = zip(ours[index], theirs[index]).map { $0 / $1 }
            return File(
                name: URL(fileURLWithPath: files[index]).lastPathComponent, this: ours[index], other: theirs[index],
                ratios: ratios, medianRatio: median(ratios) ?? 0, lowRatio: ratios.min() ?? 0,
                highRatio: ratios.max() ?? 0)
        }
        return Result(against: other, rounds: rounds, repeats: repeats, files: measured)
    }

    /// `binary`'s single-thread MP/s on `file`, as its own bench reports it.
    private static func measure(_ binary: String, file: String, repeats: Int) throws -> Double {
        let run = try ChildProcess.run(
            [binary, "bench", file, "--threads", "1", "--repeat", "\(repeats)", "--json"], keepOutput: true)
        guard run.status == 0,
            let report = try? JSONDecoder().decode(Report.self, from: Data(run.output)),
            let speed = report.files.first?.megapixelsPerSecond
        else {
            throw Failure(description: "\(binary) bench \(file): exit \(run.status), no report it could read")
        }
        return speed
    }

    /// The comparison as a table: each side's median MP/s and the ratio with its spread.
    package static func text(_ result: Result) -> String {
        var lines = [
            "against \(result.against): \(result.rounds) rounds, one thread, \(result.repeats) decodes a run, "
                + "taking turns (medians; ratio = this / other, [lowest-highest] of a round)"
        ]
        let width = max(4, result.files.map(\.name.count).max() ?? 4)
        func pad(_ text: String, _ count: Int) -> String {
            text + String(repeating: " ", count: max(0, count - text.count))
        }
        func fixed(_ value: Double, _ digits: Int) -> String { String(cFormat: "%.\(digits)f", value) }
        lines.append("  " + pad("file", width) + "   this MP/s  other MP/s  ratio")
        for file in result.files {
            lines.append(
                "  " + pad(file.name, width) + "  " + pad(fixed(median(file.this) ?? 0, 1), 10) + "  "
                    + pad(fixed(median(file.other) ?? 0, 1), 10) + "  " + fixed(file.medianRatio, 3) + "x ["
                    + fixed(file.lowRatio, 3) + "-" + fixed(file.highRatio, 3) + "]")
        }
        return lines.joined(separator: "\n")
    }
}
