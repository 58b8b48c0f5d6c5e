import Foundation
import StickerCLI
import TestSupport
import Testing

/// `stickers bench`: runs each decoder exactly --repeat times and reports our speed as a
/// ratio to the baselines, in text or JSON. Only the shape and consistency are tested here;
/// speed targets live in the benchmark itself, never in unit tests.
@Suite("stickers bench", .timeLimit(.minutes(3)))
struct BenchCommandTests {
    @Test("--json reports every file, totals per format and ratios consistent with the timings")
    func json() throws {
        let pack = CLITests.samplePack.path
        let result = try CLITests.runExecutable([
            "bench", pack + "/02-spinning-star.gif", pack + "/01-bouncing-blob.png",
            "--repeat", "1", "--threads", "2", "--json"
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        let files = try #require(document["files"] as? [[String: Any]])
        #expect(files.count == 2)
        for entry in files {
            let measured = try #require(entry["result"] as? [String: Any])
            let seconds = try #require(measured["seconds"] as? Double)
            let baseline = try #require(measured["baselineSeconds"] as? Double)
            let ratio = try #require(entry["ratio"] as? Double)
            #expect(abs(ratio - baseline / seconds) < 1e-9 * max(1, ratio))
            #expect(measured["repeats"] as? Int == 1)
            #expect(
                measured["baselineAgrees"] as? Bool == true,
                "baseline and decoder disagree on \(measured["name"] ?? "")")
            #expect(entry["speedUp"] is Double)
            #expect(
                measured["parallelIdentical"] as? Bool == true, "2-thread frames differ on \(measured["name"] ?? "")")
        }
        let totals = try #require(document["totals"] as? [[String: Any]])
        #expect(Set(totals.compactMap { $0["format"] as? String }) == ["gif", "apng"])
    }

    @Test("over several turns each figure is the median of the turns' own, the ratios paired within a turn")
    func turns() throws {
        let gif = CLITests.samplePack.appendingPathComponent("04-party-popper.gif").path
        let result = try CLITests.runExecutable(["bench", gif, "--repeat", "25", "--threads", "2", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        let entry = try #require((document["files"] as? [[String: Any]])?.first)
        let measured = try #require(entry["result"] as? [String: Any])
        let turns = try #require(measured["turns"] as? [String: [Double]])
        let ours = try #require(turns["ours"])
        let parallel = try #require(turns["parallel"])
        let baseline = try #require(turns["baseline"])
        // 25 decodes: turns of 10, 10 and 5.
        #expect(ours.count == 3 && parallel.count == 3 && baseline.count == 3)
        func upperMedian(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        func close(_ a: Double?, _ b: Double) -> Bool { a.map { abs($0 - b) <= 1e-9 * max(1, b) } ?? false }
        #expect(close(measured["seconds"] as? Double, upperMedian(ours) * 25))
        #expect(close(measured["parallelSeconds"] as? Double, upperMedian(parallel) * 25))
        #expect(close(entry["ratio"] as? Double, upperMedian(zip(baseline, ours).map { $0 / $1 })))
        #expect(close(entry["speedUp"] as? Double, upperMedian(zip(ours, parallel).map { $0 / $1 })))
    }

    @Test("text output names both baselines; bad arguments fail with a message")
    func textAndErrors() throws {
        let gif = CLITests.samplePack.appendingPathComponent("04-party-popper.gif").path
        let text = try CLITests.runExecutable(["bench", gif, "--repeat", "1", "--threads", "1"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("giflib"))
        let bad = try CLITests.runExecutable(["bench", gif, "--repeat", "0"])
        #expect(bad.status != 0)
        let missing = try CLITests.runExecutable(["bench", "/nonexistent/folder"])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("no such file"))
    }

    @Test(
        "a folder's images are found by their bytes; a baseline that gave up early has no ratio; --ours-only --json is JSON; bad --seconds and --cells are usage errors"
    )
    func filesRatiosAndUsage() throws {
        let folder = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // A PNG under a name no image has, and a note that is no image.
        try FileManager.default.copyItem(
            at: CLITests.samplePack.appendingPathComponent("05-still-blob.png"),
            to: folder.appendingPathComponent("blob.dat"))
        try Data("notes".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        let found = try CLITests.runExecutable(["bench", "--ours-only", folder.path, "--repeat", "1", "--json"])
        #expect(found.status == 0, "\(found.stderr)")
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(found.stdout.utf8)) as? [[String: Any]])
        #expect(
            decoded.map { ($0["file"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } } == ["blob.dat"])
        #expect(decoded.first?["frames"] as? Int == 1)

        // The first 1,000 bytes of a GIF: giflib gives up on it, ours shows what is there.
        let gif = try Data(contentsOf: CLITests.samplePack.appendingPathComponent("02-spinning-star.gif"))
        let cut = folder.appendingPathComponent("cut.gif")
        try gif.prefix(1000).write(to: cut)
        let bench = try CLITests.runExecutable(["bench", cut.path, "--repeat", "1", "--threads", "1", "--json"])
        #expect(bench.status == 0, "\(bench.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(bench.stdout.utf8)) as? [String: Any])
        let file = try #require((document["files"] as? [[String: Any]])?.first)
        let result = try #require(file["result"] as? [String: Any])
        #expect(result["baselineAgrees"] as? Bool == false && file["ratio"] == nil, "\(bench.stdout)")
        #expect((document["totals"] as? [[String: Any]])?.first?["ratio"] == nil)

        for option in [["--seconds", "0"], ["--seconds", "nan"], ["--cells", "0x0"], ["--cells", "60"]] {
            let refused = try CLITests.runExecutable(["bench", "--preview", cut.path] + option)
            #expect(refused.status == 64, "\(option): \(refused.stderr)")
        }
    }

    @Test(
        "--render measures the expanded 3x browser and the same grid by montage (ImageMagick, which make deps installs)"
    )
    func render() throws {
        let result = try CLITests.runExecutable([
            "bench", "--render", CLITests.samplePack.path, "--repeat", "1", "--json"
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        // iPhone 15 expanded at 3x: 1179 x 2556 px, all six stickers in two rows of three.
        #expect(
            document["width"] as? Int == 1179 && document["height"] as? Int == 2556 && document["stickers"] as? Int == 6
        )
        let ours = try #require(document["oursMilliseconds"] as? Double)
        #expect(ours > 0)
        let montage = try #require(
            document["montageMilliseconds"] as? Double, "montage ran: make deps installs imagemagick")
        #expect(montage > 0)
        let ratio = try #require(document["ratio"] as? Double)
        #expect(abs(ratio - montage / ours) < 1e-9 * max(1, ratio))
        // The same render as a whole process of this executable (its start-up included).
        let process = try #require(document["processMilliseconds"] as? Double)
        #expect(process > 0)
        let processRatio = try #require(document["processRatio"] as? Double)
        #expect(abs(processRatio - montage / process) < 1e-9 * max(1, processRatio))
        let command = try #require(document["montageCommand"] as? [String])
        #expect(command.contains("-tile") && command.contains("3x") && command.contains("306x306+41+24"))
    }

    @Test("--fit encodes each sticker as fit does and with apngasm, from the same frames, and times fit as a process")
    func fit() throws {
        let inputs = try FitCommandTests.inputs()
        defer { try? FileManager.default.removeItem(at: inputs) }
        let pack = inputs.appendingPathComponent("pack")
        try FileManager.default.createDirectory(at: pack, withIntermediateDirectories: true)
        for name in ["dot.png", "too-big.gif"] {
            try FileManager.default.copyItem(
                at: inputs.appendingPathComponent(name), to: pack.appendingPathComponent(name))
        }
        let result = try CLITests.runExecutable([
            "bench", "--fit", pack.path, "--repeat", "1", "--threads", "2", "--json"
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        let stickers = try #require(document["stickers"] as? [[String: Any]])
        #expect(stickers.compactMap { $0["name"] as? String } == ["dot", "too-big"])
        #expect(stickers.compactMap { $0["frames"] as? Int } == [1, 6])
        for entry in stickers {
            let ours = try #require(entry["oursBytes"] as? Int)
            #expect(ours > 0)
            let theirs = try #require(entry["apngasmBytes"] as? Int, "apngasm ran: make deps installs it")
            #expect(theirs > 0)
            #expect(entry["apngasmAgrees"] as? Bool == true, "apngasm was given the same frames")
            let ratio = try #require(entry["sizeRatio"] as? Double)
            #expect(abs(ratio - Double(theirs) / Double(ours)) < 1e-9)
        }
        #expect((document["fitProcessMilliseconds"] as? Double ?? 0) > 0)
    }

    @Test(
        "--preview plays a sticker with stickers preview and chafa (which make deps installs) and reports CPU and bytes per frame"
    )
    func preview() throws {
        let gif = CLITests.samplePack.appendingPathComponent("04-party-popper.gif").path
        let result = try CLITests.runExecutable([
            "bench", "--preview", gif, "--repeat", "1", "--seconds", "1", "--cells", "40x20", "--json"
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        #expect(document["columns"] as? Int == 40 && document["rows"] as? Int == 20)
        // 100 ms frames: changes at 0, 0.1, ..., 0.7, then the 1.5 s frame: 8 in the first second.
        #expect(document["frames"] as? Int == 8)
        let ours = try #require(document["ours"] as? [String: Any])
        #expect((ours["bytes"] as? Int ?? 0) > 0 && (ours["cpuPerSecond"] as? Double ?? -1) >= 0)
        #expect((ours["command"] as? [String])?.contains("--play") == true)
        let chafa = try #require(document["chafa"] as? [String: Any], "chafa ran: make deps installs it")
        #expect((chafa["bytes"] as? Int ?? 0) > 0 && (chafa["cpuPerSecond"] as? Double ?? -1) >= 0)
        #expect((chafa["command"] as? [String])?.contains("vhalf") == true, "the same half-block cells as ours")
        // Each graphics protocol beside chafa's: kitty and iTerm2 send the loop once, chafa every
        // frame (bytes do not depend on the machine's speed).
        let graphics = try #require(document["graphics"] as? [[String: Any]])
        #expect(graphics.compactMap { $0["name"] as? String } == ["kitty", "iterm2", "sixel"])
        for entry in graphics {
            let ours = (entry["ours"] as? [String: Any])?["bytes"] as? Int ?? 0
            let theirs = (entry["chafa"] as? [String: Any])?["bytes"] as? Int ?? 0
            #expect(ours > 0 && theirs > 0 && (entry["firstImageMilliseconds"] as? Double ?? 0) > 0, "\(entry)")
            if entry["name"] as? String != "sixel" { #expect(ours < theirs, "\(entry)") }
            // Each player's output is checked for the protocol's escapes: ours and chafa's have them.
            #expect((entry["ours"] as? [String: Any])?["drewProtocol"] as? Bool == true, "\(entry)")
            #expect((entry["chafa"] as? [String: Any])?["drewProtocol"] as? Bool == true, "\(entry)")
        }
        // A timg built without sixel (Debian 12's 1.4.5 lists no sixel among its features) draws
        // text for -ps: its row says so instead of passing text off as sixels.
        let timgVersion = try TestProcess.capture(["timg", "--version"])
        if timgVersion.status == 0, !timgVersion.stdout.lowercased().contains("sixel"),
            let sixel = graphics.first(where: { $0["name"] as? String == "sixel" }),
            let timg = sixel["timg"] as? [String: Any]
        {
            #expect(timg["drewProtocol"] as? Bool == false, "\(timg)")
        }
    }

    @Test(
        "--review times the pack's review and 50 one-sticker packs made from it on one core and two; --review with --render is refused"
    )
    func review() throws {
        let result = try CLITests.runExecutable([
            "bench", "--review", try OptionFixtures.path("seven"), "--repeat", "1", "--json"
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(document["packs"] as? Int == 50 && document["packTargetMilliseconds"] as? Double == 2000)
        let one = try #require(document["oneCoreMilliseconds"] as? Double)
        let two = try #require(document["twoCoreMilliseconds"] as? Double)
        #expect(one > 0 && two > 0 && (document["packMilliseconds"] as? Double ?? 0) > 0)
        #expect(abs((document["speedup"] as? Double ?? 0) - one / two) < 1e-9)
        let both = try CLITests.runExecutable(["bench", "--review", "--render"])
        #expect(both.status == 64 && both.stderr.contains("--review"))
    }
}

/// `stickers bench --fit-peer`: `stickers fit` and sticker-convert on the same two flat-colour
/// stickers drawn with Pillow. Every figure of the report is checked against the files the
/// tools wrote, read by Pillow, and against the reference worked out by hand (a flat colour
/// scaled is that colour, centred on transparency).
@Suite("stickers bench --fit-peer", .timeLimit(.minutes(3)))
struct FitPeerBenchTests {
    /// The four colours of the animation, straight RGBA, 750 ms each (a 3 s loop).
    static let colours: [[UInt8]] = [[255, 0, 0, 255], [0, 0, 255, 128], [0, 160, 0, 255], [255, 255, 0, 255]]

    /// `colour` premultiplied (rounded to nearest), on the 408 px square: a 4:3 input scales to
    /// 408 x 306, centred (rows 51-356), transparent above and below.
    static func expectedFrame(_ colour: [UInt8]) -> [UInt8] {
        let alpha = Double(colour[3])
        let premultiplied = colour.prefix(3).map { UInt8((Double($0) * alpha / 255).rounded()) } + [colour[3]]
        var frame = [UInt8](repeating: 0, count: 408 * 408 * 4)
        for row in 51..<357 {
            for x in 0..<408 {
                frame.replaceSubrange((row * 408 + x) * 4..<(row * 408 + x) * 4 + 4, with: premultiplied)
            }
        }
        return frame
    }

    /// The largest channel difference and PSNR (nil: exact) of `file` as Pillow decodes it,
    /// against `reference` at each of its frame's start times, the file's loop repeating.
    static func fidelity(of file: URL, against reference: [(frame: [UInt8], seconds: Double)]) throws -> (
        frames: Int, loop: Double, maxError: Int, psnr: Double?
    ) {
        let decoded = try FitCommandTests.pillow(file)
        let shown = decoded.durationsMs.map { ($0 < 11 ? 100 : $0) / 1000 }
        let loop = shown.reduce(0, +)
        var worst = 0
        var squares = 0.0
        var samples = 0.0
        var start = 0.0
        for (frame, seconds) in reference {
            var index = 0
            if decoded.frames.count > 1 {
                let time = start.truncatingRemainder(dividingBy: loop)
                var end = 0.0
                index = decoded.frames.count - 1
                for (k, duration) in shown.enumerated() {
                    end += duration
                    if time < end - 1e-9 { index = k; break }
                }
            }
            let other = decoded.frames[index]
            try #require(other.count == frame.count, "\(file.lastPathComponent) is not 408x408")
            for i in 0..<frame.count {
                let d = Int(frame[i]) - Int(other[i])
                worst = max(worst, abs(d))
                squares += Double(d * d)
            }
            samples += Double(frame.count)
            start += seconds
        }
        return (decoded.frames.count, loop, worst, squares == 0 ? nil : 10 * log10(255 * 255 / (squares / samples)))
    }

    @Test(
        "every figure matches the files each tool wrote and the hand-made reference; totals and speed ratio add up",
        .enabled(
            if: BenchCommand.installedStickerConvert != nil,
            "sticker-convert is not installed: scripts/setup-sticker-convert.sh installs it (at $STICKER_CONVERT_VENV, default .build-peers/sticker-convert)"
        ))
    func fitPeer() throws {
        let folder = CLITests.temporaryDirectory()
        let keep = CLITests.temporaryDirectory()
        defer { for url in [folder, keep] { try? FileManager.default.removeItem(at: url) } }
        let inputs = folder.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        let draw = """
            import sys
            from PIL import Image
            colours = \(Self.colours)
            frames = [Image.new("RGBA", (64, 48), tuple(c)) for c in colours]
            frames[0].save(sys.argv[1] + "/anim.png", save_all=True, append_images=frames[1:], duration=750, loop=0)
            Image.new("RGBA", (40, 30), tuple(colours[2])).save(sys.argv[1] + "/still.png")
            """
        try #require(
            try FitCommandTests.run(["python3", "-c", draw, inputs.path]) == 0, "Pillow could not draw the inputs")

        let peer = try #require(BenchCommand.installedStickerConvert)
        let result = try CLITests.runExecutable([
            "bench", "--fit-peer", inputs.path, "--sticker-convert", peer, "--keep", keep.path,
            "--threads", "2", "--json"
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try FitCommandTests.report(result.stdout)
        let stickers = try #require(document["stickers"] as? [[String: Any]])
        #expect(stickers.compactMap { $0["name"] as? String } == ["anim", "still"])
        let references: [String: [(frame: [UInt8], seconds: Double)]] = [
            "anim": Self.colours.map { (Self.expectedFrame($0), 0.75) },
            // A still has no delay: Messages shows it for 100 ms a loop.
            "still": [(Self.expectedFrame(Self.colours[2]), 0.1)]
        ]
        var sums: [String: Int] = ["ours": 0, "peer": 0]
        for sticker in stickers {
            let name = try #require(sticker["name"] as? String)
            let reference = try #require(references[name])
            let input = try #require(sticker["input"] as? [String: Any])
            #expect(input["frames"] as? Int == reference.count, "\(name)")
            #expect(
                abs((input["loopSeconds"] as? Double ?? 0) - reference.reduce(0) { $0 + $1.seconds }) < 1e-9, "\(name)")
            for (tool, folder) in [
                ("ours", keep.appendingPathComponent("stickers-fit.xcstickers")),
                ("peer", keep.appendingPathComponent("sticker-convert"))
            ] {
                let output = try #require(sticker[tool] as? [String: Any])
                #expect(output["produced"] as? Bool == true, "\(name), \(tool): \(output["failure"] ?? "")")
                let file = folder.appendingPathComponent(try #require(output["file"] as? String))
                let bytes = try Data(contentsOf: file).count
                #expect(output["bytes"] as? Int == bytes, "\(name), \(tool): the bytes are the file's")
                sums[tool, default: 0] += bytes
                let pillow = try Self.fidelity(of: file, against: reference)
                #expect(output["frames"] as? Int == pillow.frames, "\(name), \(tool)")
                #expect(abs((output["loopSeconds"] as? Double ?? -1) - pillow.loop) < 1e-6, "\(name), \(tool)")
                let fps = pillow.frames > 1 ? Double(pillow.frames) / pillow.loop : 0
                #expect(abs((output["framesPerSecond"] as? Double ?? -1) - fps) < 1e-6, "\(name), \(tool)")
                #expect(output["maxError"] as? Int == pillow.maxError, "\(name), \(tool)")
                if let expected = pillow.psnr {
                    let psnr = try #require(output["psnr"] as? Double, "\(name), \(tool): PSNR \(expected) expected")
                    #expect(abs(psnr - expected) < 1e-6, "\(name), \(tool)")
                } else {
                    #expect(output["psnr"] == nil, "\(name), \(tool): exact expected")
                }
            }
            // fit's exact steps keep flat colours as they are; its report says so too.
            let ours = try #require(sticker["ours"] as? [String: Any])
            #expect(ours["maxError"] as? Int == 0 && ours["reportedPSNR"] == nil, "\(name)")
            #expect((ours["seconds"] as? Double ?? 0) > 0, "fit's report gives each sticker's time")
            // Alone and under --strict: an exact sticker is made either way.
            #expect((ours["aloneSeconds"] as? Double ?? 0) > 0 && (ours["strictSeconds"] as? Double ?? 0) > 0)
            #expect(ours["strictRefused"] as? Bool == false, "\(name): exact, so made under --strict")
        }
        let ours = try #require(document["ours"] as? [String: Any])
        let peerTotal = try #require(document["peer"] as? [String: Any])
        #expect(ours["bytes"] as? Int == sums["ours"] && peerTotal["bytes"] as? Int == sums["peer"])
        #expect(ours["produced"] as? Int == 2 && peerTotal["produced"] as? Int == 2)
        let oursWall = try #require(ours["wallSeconds"] as? Double)
        let peerWall = try #require(peerTotal["wallSeconds"] as? Double)
        let ratio = try #require(document["speedRatio"] as? Double)
        #expect(oursWall > 0 && abs(ratio - peerWall / oursWall) < 1e-9 * max(1, ratio))
        #expect((peerTotal["command"] as? [String])?.suffix(2) == ["--preset", "imessage_medium"])
    }

    @Test("without sticker-convert: a non-zero exit and how to set it up")
    func missingPeer() throws {
        let result = try CLITests.runExecutable([
            "bench", "--fit-peer", CLITests.samplePack.path, "--sticker-convert", "/nonexistent/sticker-convert"
        ])
        #expect(result.status != 0)
        #expect(
            result.stderr.contains("/nonexistent/sticker-convert")
                && result.stderr.contains("scripts/setup-sticker-convert.sh"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test(
        "--ours-only decodes each file with ours alone, --repeat times: the frames it printed are the files' frames times the repeats"
    )
    func oursOnly() throws {
        let result = try CLITests.runExecutable(["bench", "--ours-only", CLITests.samplePack.path, "--repeat", "3"])
        #expect(result.status == 0, "\(result.stderr)")
        // Frames as Pillow counts them: 12, 16, 10 and 8 in the animations, 1 in each still.
        #expect(
            result.stdout.split(separator: "\n") == [
                "01-bouncing-blob.png 36", "02-spinning-star.gif 48", "03-beating-heart.png 30",
                "04-party-popper.gif 24",
                "05-still-blob.png 3", "06-blob-card.jpg 3"
            ], "\(result.stdout)")
    }

    @Test(
        "--against takes turns with another binary: each file's MP/s a round on both sides and their ratios; against itself the ratios sit around 1"
    )
    func against() throws {
        let star = CLITests.samplePack.appendingPathComponent("02-spinning-star.gif").path
        let me = try PreviewTests.executable()
        let result = try CLITests.runExecutable([
            "bench", star, "--against", me, "--rounds", "3", "--repeat", "2", "--json"
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(document["rounds"] as? Int == 3 && document["against"] as? String == me)
        let files = try #require(document["files"] as? [[String: Any]])
        #expect(files.count == 1 && files.first?["name"] as? String == "02-spinning-star.gif")
        let this = files.first?["this"] as? [Double] ?? []
        let other = files.first?["other"] as? [Double] ?? []
        let ratios = files.first?["ratios"] as? [Double] ?? []
        #expect(this.count == 3 && other.count == 3 && this.allSatisfy { $0 > 0 } && other.allSatisfy { $0 > 0 })
        #expect(ratios.count == 3 && zip(ratios, zip(this, other)).allSatisfy { abs($0 - $1.0 / $1.1) < 1e-9 })
        // The same binary: no ratio can be far from 1 unless the machine is very busy, so this only
        // checks they are finite and positive.
        #expect(ratios.allSatisfy { $0.isFinite && $0 > 0 })
        let refused = try CLITests.runExecutable(["bench", "--render", "--against", me])
        #expect(refused.status == 64 && refused.stderr.contains("--against"))
        let missing = try CLITests.runExecutable(["bench", star, "--against", "/no/such/stickers"])
        #expect(missing.status == 1 && missing.stderr.contains("/no/such/stickers"))
    }

    @Test(
        "the instruction guard counts a file's decodes under cachegrind, writes them with --update for this CPU's features, fails when they rise over what is recorded for them and not when they fall or are another CPU's",
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/valgrind"),
            "needs valgrind: make test installs it"))
    func instructionGuard() throws {
        let folder = CLITests.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = CLITests.repoRoot.appendingPathComponent("scripts/instruction-guard.py").path
        let thresholds = folder.appendingPathComponent("instructions.json")
        let base = [
            "python3", script, "--stickers", try PreviewTests.executable(), "--thresholds", thresholds.path, "--only",
            "05-still-blob.png"
        ]
        // Another CPU's counts, recorded first, are kept by --update.
        let otherCPU = "sse4_2 imaginary_feature"
        let otherCounts: [String: Any] = [
            "tolerance": 0.02, "instructionsPerDecodeByCPUFeatures": [otherCPU: ["05-still-blob.png": 1]]
        ]
        try JSONSerialization.data(withJSONObject: otherCounts).write(to: thresholds)
        let update = try TestProcess.capture(base + ["--update"])
        try #require(update.status == 0, "\(update.stdout) \(update.stderr)")
        let recorded = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: thresholds)) as? [String: Any])
        let byFeatures = try #require(recorded["instructionsPerDecodeByCPUFeatures"] as? [String: [String: Int]])
        #expect(byFeatures[otherCPU] == ["05-still-blob.png": 1], "\(byFeatures)")
        let features = try #require(byFeatures.keys.first { $0 != otherCPU })
        let count = try #require(byFeatures[features]?["05-still-blob.png"])
        // A 408 x 408 PNG: at least a few instructions a pixel, and well under a thousand.
        #expect(count > 408 * 408 && count < 1000 * 408 * 408, "\(count)")
        #expect(try TestProcess.capture(base).status == 0, "the same counts pass")
        func record(_ counts: [String: [String: Int]]) throws {
            let file: [String: Any] = ["tolerance": 0.02, "instructionsPerDecodeByCPUFeatures": counts]
            try JSONSerialization.data(withJSONObject: file).write(to: thresholds)
        }
        try record([features: ["05-still-blob.png": Int(Double(count) * 0.9)]])
        let rose = try TestProcess.capture(base)
        #expect(rose.status != 0 && rose.stderr.contains("05-still-blob.png"), "\(rose.stdout) \(rose.stderr)")
        try record([features: ["05-still-blob.png": Int(Double(count) * 1.1)]])
        let fell = try TestProcess.capture(base)
        #expect(fell.status == 0 && fell.stdout.contains("fell"), "\(fell.stdout) \(fell.stderr)")
        // Counts of another CPU's features only: reported, never failed on.
        try record([otherCPU: ["05-still-blob.png": count / 2]])
        let elsewhere = try TestProcess.capture(base)
        #expect(
            elsewhere.status == 0 && elsewhere.stdout.contains("reported, not compared"),
            "\(elsewhere.stdout) \(elsewhere.stderr)")
    }

    @Test("scripts/wuffs-bench.sh never downloads: without a wuffs 0.4 checkout it fails and says how to clone one")
    func wuffsScriptNeedsACheckout() throws {
        let script = CLITests.repoRoot.appendingPathComponent("scripts/wuffs-bench.sh").path
        let result = try TestProcess.capture(["bash", script, "/no/such/wuffs"])
        #expect(result.status == 1, "\(result.stdout) \(result.stderr)")
        #expect(
            result.stderr.contains("release/c/wuffs-v0.4.c")
                && result.stderr.contains("git clone --depth 1 --branch v0.4.0-alpha.9 https://github.com/google/wuffs"),
            "\(result.stderr)")
    }
}
