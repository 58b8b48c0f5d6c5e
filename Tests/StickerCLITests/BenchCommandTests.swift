import Foundation
import StickerCLI
import Testing

/// `stickers bench`: runs each decoder exactly --repeat times and reports our speed as a
/// ratio to the baselines, in text or JSON. Only the shape and consistency are tested here;
/// speed targets live in the benchmark itself, never in unit tests.
@Suite("stickers bench", .timeLimit(.minutes(1)))
struct BenchCommandTests {
    @Test("--json reports every file, totals per format and ratios consistent with the timings")
    func json() throws {
        let pack = CLITests.samplePack.path
        let result = try CLITests.runExecutable(["bench", pack + "/02-spinning-star.gif", pack + "/01-bouncing-blob.png",
                                                 "--repeat", "1", "--threads", "2", "--json"])
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
            #expect(measured["baselineAgrees"] as? Bool == true, "baseline and decoder disagree on \(measured["name"] ?? "")")
            #expect(entry["speedUp"] is Double)
            #expect(measured["parallelIdentical"] as? Bool == true, "2-thread frames differ on \(measured["name"] ?? "")")
        }
        let totals = try #require(document["totals"] as? [[String: Any]])
        #expect(Set(totals.compactMap { $0["format"] as? String }) == ["gif", "apng"])
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

    @Test("--render measures the expanded 3x browser and the same grid by montage (ImageMagick, which make deps installs)")
    func render() throws {
        let result = try CLITests.runExecutable(["bench", "--render", CLITests.samplePack.path, "--repeat", "1", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        // iPhone 15 expanded at 3x: 1179 x 2556 px, all six stickers in two rows of three.
        #expect(document["width"] as? Int == 1179 && document["height"] as? Int == 2556 && document["stickers"] as? Int == 6)
        let ours = try #require(document["oursMilliseconds"] as? Double)
        #expect(ours > 0)
        let montage = try #require(document["montageMilliseconds"] as? Double, "montage ran: make deps installs imagemagick")
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
            try FileManager.default.copyItem(at: inputs.appendingPathComponent(name), to: pack.appendingPathComponent(name))
        }
        let result = try CLITests.runExecutable(["bench", "--fit", pack.path, "--repeat", "1", "--threads", "2", "--json"])
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

    @Test("--preview plays a sticker with stickers preview and chafa (which make deps installs) and reports CPU and bytes per frame")
    func preview() throws {
        let gif = CLITests.samplePack.appendingPathComponent("04-party-popper.gif").path
        let result = try CLITests.runExecutable(["bench", "--preview", gif, "--repeat", "1", "--seconds", "1", "--cells", "40x20", "--json"])
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
    }
}
