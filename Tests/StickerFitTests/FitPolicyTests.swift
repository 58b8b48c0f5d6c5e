import AnimationCodec
import Foundation
import StickerPack
import TestSupport
import Testing

@testable import StickerFit

/// What `fit` makes by default and what it refuses: a clip is made at whatever frame rate its
/// best file needs, down to the quality floor; loss under the warning line is reported; a
/// refusal names options that make the sticker, each with the figures of the file it makes.
@Suite("fit: the quality floor, the loss warning and suggestions that hold", .timeLimit(.minutes(3)))
struct FitPolicyTests {
    static let side = StickerSize.small.pixels

    /// A lit disc drifting right with grain of ±`grain`, `frames` frames of `milliseconds`
    /// each, written as an APNG at the small size (so the file is its own reference).
    static func writeClip(
        frames: Int, milliseconds: Int, grain: Int, seed: UInt64, in folder: URL, name: String = "clip",
        side: Int = side
    ) throws -> ([[UInt8]], URL) {
        let pixels = GrainyClip.frames(side: side, frames: frames, grain: grain, seed: seed)
        let url = try FitFixtures.writeAPNG(
            pixels, milliseconds: Array(repeating: milliseconds, count: frames), width: side, height: side,
            to: folder.appendingPathComponent(name + ".png"))
        return (pixels, url)
    }

    static func fit(
        _ url: URL, maxBytes: Int, size: StickerSize = .small, _ change: (inout FitOptions) -> Void = { _ in }
    ) -> FittedSticker {
        var options = FitFixtures.quickOptions(maxBytes: maxBytes)
        change(&options)
        return StickerFitter(options: options).fit(FitFixtures.sticker(url), size: size)
    }

    /// `412,118 bytes, 24.1 dB`: how a suggestion states a file's size and PSNR.
    static func figures(_ fitted: FittedSticker) -> String {
        "\(String(groupingThousands: fitted.bytesAfter)) bytes, "
            + String(format: "%.1f dB", fitted.fidelity.psnr ?? .infinity)
    }

    /// 24 frames at 24 fps, grain ±12, at 90,000 bytes: at its own rate, even 16 colours with a
    /// wide tolerance is over (about 7 KB a frame), so only a lower rate fits.
    static let budget = 90_000

    @Test(
        "a clip that needs a low frame rate is made by default under 10 fps, the loop kept, with a warning naming the rate given up"
    )
    func madeByDefault() throws {
        let folder = try FitFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (frames, url) = try Self.writeClip(frames: 24, milliseconds: 1000 / 24, grain: 12, seed: 11, in: folder)
        let fitted = Self.fit(url, maxBytes: Self.budget)
        #expect(fitted.failure == nil, "\(fitted.failure ?? "")")
        guard case .file(_, let bytes) = fitted.output else { return }
        #expect(bytes.count <= Self.budget)
        #expect(fitted.framesPerSecond < 10 && fitted.framesPerSecond > 0, "\(fitted.framesPerSecond) fps")
        // The input's own rate, as the report states it: 24 frames over 24 x 41 ms.
        #expect(abs(fitted.framesPerSecondBefore - 24 / 0.984) < 1e-6, "\(fitted.framesPerSecondBefore) fps before")
        let psnr = try #require(fitted.fidelity.psnr)
        #expect(psnr >= FitOptions.defaultMinimumPSNR)

        // Pillow's frames at every input frame's start time: the loop keeps its length and the
        // PSNR is the reported one.
        let shown = try Pillow.decode(try FitFixtures.write(bytes, to: folder.appendingPathComponent("fitted.png")))
        var starts: [Double] = []
        var total = 0.0
        for duration in shown.durationsMs { starts.append(total); total += duration }
        #expect(abs(total - Double(24 * (1000 / 24))) < 1e-6, "the loop keeps its length: \(total) ms")
        let instants: [[UInt8]] = (0..<frames.count).map { index in
            let time = Double(index * (1000 / 24))
            return shown.frames[starts.lastIndex { $0 <= time + 1e-6 }!]
        }
        let measured = PixelDifference(Array(frames.joined()), Array(instants.joined()))
        #expect(abs(measured.psnr - psnr) <= 0.1, "Pillow sees \(measured.psnr) dB, the report \(psnr) dB")

        // Under 30 dB: a warning naming the rate given up, in the report and its JSON.
        let loss = try #require(fitted.loss)
        #expect(psnr < FitLoss.warningPSNR && loss.isVisible)
        // 24 frames of 41 ms is 24.4 fps; Pillow counts the frames kept over the same loop.
        let expectedRate = String(format: "frame rate %.1f -> %.1f fps", 24 / 0.984, Double(shown.frames.count) / 0.984)
        #expect(loss.givenUp.contains { $0.hasPrefix(expectedRate) }, "\(loss.givenUp) lacks \(expectedRate)")
        let entry = FitReport.Entry(fitted)
        #expect(
            entry.warning?.contains(expectedRate) == true
                && entry.warning?.contains(String(format: "%.1f dB", psnr)) == true,
            "\(entry.warning ?? "no warning")")
    }

    @Test("--strict refuses it and names the option that makes it, with the figures of the file that option makes")
    func strictRefuses() throws {
        let folder = try FitFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (_, url) = try Self.writeClip(frames: 24, milliseconds: 1000 / 24, grain: 12, seed: 11, in: folder)
        let strict = Self.fit(url, maxBytes: Self.budget) { $0.strict = true }
        #expect(!strict.succeeded)
        let failure = try #require(strict.failure)
        #expect(failure.contains("under the quality floor of 30 dB and SSIM 0.9 (--strict)"), "\(failure)")
        let made = Self.fit(url, maxBytes: Self.budget)
        #expect(made.succeeded)
        #expect(
            failure.contains("made without --strict: " + Self.figures(made)),
            "\(failure)\n-- the default run: \(Self.figures(made))")
    }

    @Test(
        "--min-fps above what the clip needs refuses it, naming the --min-fps that makes it; run, that option makes the file named"
    )
    func minimumRateSuggestionHolds() throws {
        let folder = try FitFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (_, url) = try Self.writeClip(frames: 24, milliseconds: 1000 / 24, grain: 12, seed: 11, in: folder)
        let refused = Self.fit(url, maxBytes: Self.budget) { $0.minimumFramesPerSecond = 12 }
        let failure = try #require(refused.failure)
        #expect(refused.output == nil)
        let match = try #require(
            failure.firstMatch(of: /made with --min-fps ([0-9.]+): ([0-9,]+ bytes, [0-9.]+ dB)/), "\(failure)")
        let rate = try #require(Double(String(match.1)))
        #expect(rate < 12)
        let made = Self.fit(url, maxBytes: Self.budget) { $0.minimumFramesPerSecond = rate }
        #expect(made.succeeded, "\(made.failure ?? "")")
        #expect(Self.figures(made) == String(match.2))
        #expect(made.framesPerSecond >= rate - 1e-9)
    }

    @Test(
        "a floor the asked-for size misses and a smaller size meets names --allow-smaller-size with that file's figures; run, it makes that file; one it also misses names it not, and the option refuses too"
    )
    func smallerSizeSuggestionHolds() throws {
        let folder = try FitFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 408 px, grain ±12, 150,000 bytes: about 22 dB at 408 px and 27.6 dB at 300 px.
        let (_, url) = try Self.writeClip(
            frames: 24, milliseconds: 1000 / 24, grain: 12, seed: 11, in: folder, side: StickerSize.regular.pixels)
        let budget = 150_000
        let refused = Self.fit(url, maxBytes: budget, size: .regular) { $0.minimumPSNR = 25 }
        let failure = try #require(refused.failure)
        let match = try #require(
            failure.firstMatch(of: /made as small \(300 px\) with --allow-smaller-size: ([0-9,]+ bytes, [0-9.]+ dB)/),
            "\(failure)")
        let made = Self.fit(url, maxBytes: budget, size: .regular) {
            $0.minimumPSNR = 25; $0.allowSmallerSize = true
        }
        #expect(made.succeeded, "\(made.failure ?? "")")
        #expect(made.sizeClass == .small)
        #expect(Self.figures(made) == String(match.1))
        let madePSNR = try #require(made.fidelity.psnr)

        // A floor over what the smaller size makes: not named, and the option refuses it as well.
        let higher = (madePSNR + 1).rounded(.up)
        let stillRefused = Self.fit(url, maxBytes: budget, size: .regular) { $0.minimumPSNR = higher }
        let stillFailure = try #require(stillRefused.failure)
        #expect(!stillFailure.contains("--allow-smaller-size"), "\(stillFailure)")
        let allowed = Self.fit(url, maxBytes: budget, size: .regular) {
            $0.minimumPSNR = higher; $0.allowSmallerSize = true
        }
        #expect(!allowed.succeeded, "made at \(Self.figures(allowed)) under a floor of \(higher) dB")
    }

    @Test(
        "--min-psnr above the best file refuses it, naming the --min-psnr that makes it; run, that makes the file named"
    )
    func qualityFloorSuggestionHolds() throws {
        let folder = try FitFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (_, url) = try Self.writeClip(frames: 24, milliseconds: 1000 / 24, grain: 12, seed: 11, in: folder)
        let refused = Self.fit(url, maxBytes: Self.budget) { $0.minimumPSNR = 40 }
        let failure = try #require(refused.failure)
        let match = try #require(
            failure.firstMatch(of: /made with --min-psnr ([0-9.]+): ([0-9,]+ bytes, [0-9.]+ dB)/), "\(failure)")
        let floor = try #require(Double(String(match.1)))
        #expect(floor < 40)
        let made = Self.fit(url, maxBytes: Self.budget) { $0.minimumPSNR = floor }
        #expect(made.succeeded, "\(made.failure ?? "")")
        #expect(Self.figures(made) == String(match.2))
    }

    @Test("--max-duration keeps the first seconds at their own speed, each frame where it was")
    func maxDurationKeepsTheStart() throws {
        let folder = try FitFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 30 distinct frames of 100 ms (3 s), no grain: small enough to stay exact.
        let (frames, url) = try Self.writeClip(frames: 30, milliseconds: 100, grain: 0, seed: 1, in: folder)
        let fitted = Self.fit(url, maxBytes: 500_000) { $0.maxDuration = 1.05 }
        #expect(fitted.failure == nil, "\(fitted.failure ?? "")")
        guard case .file(_, let bytes) = fitted.output else { return }
        #expect(fitted.steps.first?.kind == .maxDuration && fitted.steps.first?.isLossy == true)
        #expect(
            fitted.loss?.givenUp.first?.hasPrefix("the first 1.05 s of 3.00 s") == true, "\(fitted.loss?.givenUp ?? [])"
        )
        // The frames kept are exact, but the clip's end is gone: a warning the figures cannot give,
        // which --strict refuses.
        #expect(fitted.fidelity.psnr == nil && fitted.loss?.isVisible == true)
        #expect(fitted.loss?.unmeasured == ["the first 1.05 s of 3.00 s"], "\(fitted.loss?.unmeasured ?? [])")
        let strict = Self.fit(url, maxBytes: 500_000) {
            $0.maxDuration = 1.05
            $0.strict = true
        }
        #expect(!strict.succeeded)
        #expect(
            strict.failure
                == "made with loss the figures do not measure: the first 1.05 s of 3.00 s (what was kept is exact); --strict refuses it (without --strict it is made with this warning)",
            "\(strict.failure ?? "")")
        let shown = try Pillow.decode(try FitFixtures.write(bytes, to: folder.appendingPathComponent("short.png")))
        // Frames 0-10 start where they did; the eleventh is cut to end at 1.05 s.
        #expect(shown.durationsMs == Array(repeating: 100, count: 10) + [50], "\(shown.durationsMs)")
        #expect(shown.frames == Array(frames.prefix(11)), "the first eleven frames, exact")
        // Cut 5 ms into the eleventh frame: that sliver would play for 100 ms, so it is left out.
        let sliver = Self.fit(url, maxBytes: 500_000) { $0.maxDuration = 1.005 }
        guard case .file(_, let sliverBytes) = sliver.output else {
            Issue.record("not made: \(sliver.failure ?? "")"); return
        }
        let cut = try Pillow.decode(try FitFixtures.write(sliverBytes, to: folder.appendingPathComponent("cut.png")))
        #expect(cut.durationsMs == Array(repeating: 100, count: 10), "\(cut.durationsMs)")
        #expect(cut.frames == Array(frames.prefix(10)))
    }

    @Test(
        "--max-fps keeps one frame in every rate/N, each shown for the frames it stands for: the loop keeps its length")
    func maxFrameRate() throws {
        let folder = try FitFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 20 distinct frames of 100 ms (10 fps, 2 s), no grain: small enough to stay exact.
        let (frames, url) = try Self.writeClip(frames: 20, milliseconds: 100, grain: 0, seed: 3, in: folder)
        let fitted = Self.fit(url, maxBytes: 500_000) { $0.maximumFramesPerSecond = 5 }
        guard case .file(_, let bytes) = fitted.output else {
            Issue.record("not made: \(fitted.failure ?? "")"); return
        }
        #expect(fitted.steps.first?.kind == .maxFrameRate && fitted.steps.first?.isLossy == true)
        #expect(fitted.loss?.givenUp.first == "frame rate 10.0 -> 5.0 fps", "\(fitted.loss?.givenUp ?? [])")
        let shown = try Pillow.decode(try FitFixtures.write(bytes, to: folder.appendingPathComponent("slow.png")))
        #expect(shown.durationsMs == Array(repeating: 200, count: 10), "\(shown.durationsMs)")
        #expect(shown.frames == stride(from: 0, to: 20, by: 2).map { frames[$0] }, "every other frame, exact")
        // A clip already at or under the cap is left as it is.
        let same = Self.fit(url, maxBytes: 500_000) { $0.maximumFramesPerSecond = 10 }
        #expect(!same.steps.contains { $0.kind == .maxFrameRate } && same.framesAfter == 20)
        // A cap of 0.1 fps would leave a still: two frames are kept, 1 s each. (Two frames
        // standing for twenty are under the quality floor, so the floor is lowered to see them.)
        let two = Self.fit(url, maxBytes: 500_000) {
            $0.maximumFramesPerSecond = 0.1
            $0.minimumPSNR = 0
        }
        guard case .file(_, let twoBytes) = two.output else { Issue.record("not made"); return }
        let both = try Pillow.decode(try FitFixtures.write(twoBytes, to: folder.appendingPathComponent("two.png")))
        #expect(both.durationsMs == [1000, 1000] && both.frames == [frames[0], frames[10]], "\(both.durationsMs)")
        // 20 frames of 50 ms (20 fps) whose first ten repeat one picture: 11 pictures a second
        // once merged, under a cap of 15, so nothing is dropped.
        let held = Array(repeating: frames[0], count: 10) + Array(frames[10..<20])
        let heldURL = try FitFixtures.writeAPNG(
            held, milliseconds: Array(repeating: 50, count: 20), width: Self.side, height: Self.side,
            to: folder.appendingPathComponent("held.png"))
        let kept = Self.fit(heldURL, maxBytes: 500_000) { $0.maximumFramesPerSecond = 15 }
        #expect(!kept.steps.contains { $0.kind == .maxFrameRate } && kept.framesAfter == 11, "\(kept.steps)")
    }

    @Test(
        "--max-fps: the file is judged against every frame, the dropped ones too; a loss under 30 dB is stated, one under the floor refused naming the --min-psnr that makes it"
    )
    func maxFrameRateLossMeasured() throws {
        let folder = try FitFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 20 solid grey frames of 100 ms at the small size (10 fps): the even ones 60, 60, 100,
        // 100, ... by pairs, each odd one `step` lighter than the frame before it. At --max-fps 5
        // the even frames are kept, each shown for the odd frame after it too: half the frames
        // are off by `step` in R, G and B and none in alpha, a mean square error of
        // step² x 3/8 over every sample.
        func clip(step: Int) throws -> URL {
            let frames = (0..<20).map { index -> [UInt8] in
                let grey = UInt8(60 + 40 * ((index / 2) % 2) + (index % 2) * step)
                return [UInt8]((0..<(Self.side * Self.side)).flatMap { _ in [grey, grey, grey, 255] })
            }
            return try FitFixtures.writeAPNG(
                frames, milliseconds: Array(repeating: 100, count: 20), width: Self.side, height: Self.side,
                to: folder.appendingPathComponent("grey-\(step).png"))
        }
        func expectedPSNR(step: Int) -> Double { 10 * log10(255.0 * 255 / (Double(step * step) * 3 / 8)) }
        // Off by 20: 26.37 dB, made, with the loss stated; an error under --strict.
        let mild = try clip(step: 20)
        let made = Self.fit(mild, maxBytes: 500_000) { $0.maximumFramesPerSecond = 5 }
        #expect(made.failure == nil, "\(made.failure ?? "")")
        #expect(abs((made.fidelity.psnr ?? 0) - expectedPSNR(step: 20)) < 0.01, "\(made.fidelity)")
        #expect(made.loss?.givenUp.first == "frame rate 10.0 -> 5.0 fps", "\(made.loss?.givenUp ?? [])")
        let strict = Self.fit(mild, maxBytes: 500_000) {
            $0.maximumFramesPerSecond = 5
            $0.strict = true
        }
        #expect(
            strict.output == nil && strict.failure?.contains("made without --strict") == true, "\(strict.failure ?? "")"
        )
        // Off by 90: 13.30 dB, under the 20 dB floor: refused, naming --min-psnr 13.2, which makes it.
        let harsh = try clip(step: 90)
        let refused = Self.fit(harsh, maxBytes: 500_000) { $0.maximumFramesPerSecond = 5 }
        let floor = String(format: "--min-psnr %.1f", (expectedPSNR(step: 90) * 10).rounded(.down) / 10)
        #expect(
            refused.output == nil && refused.failure?.contains("made with \(floor)") == true, "\(refused.failure ?? "")"
        )
        // Only what was proven is suggested: the lower floor is the last thing said.
        #expect(
            refused.failure?.split(separator: "; ").last?.contains("made with \(floor)") == true,
            "\(refused.failure ?? "")")
        let lowered = Self.fit(harsh, maxBytes: 500_000) {
            $0.maximumFramesPerSecond = 5
            $0.minimumPSNR = (expectedPSNR(step: 90) * 10).rounded(.down) / 10
        }
        #expect(lowered.failure == nil && abs((lowered.fidelity.psnr ?? 0) - expectedPSNR(step: 90)) < 0.01)
    }

    @Test("a clip too long to be made whole suggests --max-duration; that option makes the file named")
    func maxDurationSuggestionHolds() throws {
        let folder = try FitFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 8 s of heavy grain at 12 fps, 96 frames: under the floor whole, made in its first 3 s.
        let (_, url) = try Self.writeClip(frames: 96, milliseconds: 1000 / 12, grain: 40, seed: 21, in: folder)
        let refused = Self.fit(url, maxBytes: 200_000) { $0.minimumPSNR = 24 }
        let failure = try #require(refused.failure)
        #expect(refused.output == nil)
        let match = try #require(
            failure.firstMatch(of: /made with --max-duration ([0-9.]+) [^:]*: ([0-9,]+ bytes, [0-9.]+ dB)/),
            "\(failure)")
        let seconds = try #require(Double(String(match.1)))
        let made = Self.fit(url, maxBytes: 200_000) {
            $0.minimumPSNR = 24; $0.maxDuration = seconds
        }
        #expect(made.succeeded, "\(made.failure ?? "")")
        #expect(Self.figures(made) == String(match.2))
    }

    @Test(
        "a refusal's options are fitted side by side and named in order; each, run, makes the file named, and one thread names the same"
    )
    func suggestionsSideBySide() throws {
        let folder = try FitFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 8 s of grain ±12 at 12 fps, 408 px, at 150,000 bytes: under 25 dB whole at 408 px,
        // made at 300 px and made in its first seconds.
        let (_, url) = try Self.writeClip(
            frames: 96, milliseconds: 1000 / 12, grain: 12, seed: 11, in: folder, side: StickerSize.regular.pixels)
        let budget = 150_000
        let floor = 25.0
        // The two options' frames together are fewer than the clip's: 300 px is (300 / 408)^2 of
        // its area, and the first 3 s are 37 of its 96 frames of 83 ms (the 37th starts at
        // 2.988 s), so they are fitted side by side.
        var options = FitFixtures.quickOptions(maxBytes: budget)
        options.minimumPSNR = floor
        let input = try StickerFitter.Input.read(
            FitFixtures.sticker(url), limits: options.limits, vectorSide: StickerSize.regular.pixels)
        let source = try StickerFitter.source(input.durations, input: input, original: nil, maxDuration: nil)
        let proofs = StickerFitter.Proof.all(for: StickerFitter(options: options), source: source, size: .regular)
        let shares = proofs.map { $0.share(of: source, size: .regular) }
        #expect(shares.count == 2 && abs(shares[0] - 300.0 * 300 / (408 * 408)) < 1e-12 && shares[1] == 37.0 / 96)
        let refused = Self.fit(url, maxBytes: budget, size: .regular) { $0.minimumPSNR = floor }
        #expect(refused.output == nil)
        let failure = try #require(refused.failure)
        let smaller = try #require(
            failure.firstMatch(of: /made as small \(300 px\) with --allow-smaller-size: ([0-9,]+ bytes, [0-9.]+ dB)/),
            "\(failure)")
        let shorter = try #require(
            failure.firstMatch(of: /made with --max-duration ([0-9.]+) [^:]*: ([0-9,]+ bytes, [0-9.]+ dB)/),
            "\(failure)")
        #expect(smaller.range.upperBound <= shorter.range.lowerBound, "named out of order: \(failure)")

        let madeSmaller = Self.fit(url, maxBytes: budget, size: .regular) {
            $0.minimumPSNR = floor; $0.allowSmallerSize = true
        }
        #expect(madeSmaller.succeeded && madeSmaller.sizeClass == .small, "\(madeSmaller.failure ?? "")")
        #expect(Self.figures(madeSmaller) == String(smaller.1))
        let seconds = try #require(Double(String(shorter.1)))
        let madeShorter = Self.fit(url, maxBytes: budget, size: .regular) {
            $0.minimumPSNR = floor; $0.maxDuration = seconds
        }
        #expect(madeShorter.succeeded, "\(madeShorter.failure ?? "")")
        #expect(Self.figures(madeShorter) == String(shorter.2))

        // One thread fits the options one after the other, and every fit the same.
        let serial = Self.fit(url, maxBytes: budget, size: .regular) {
            $0.minimumPSNR = floor; $0.threads = 1
        }
        #expect(serial.failure == failure)
    }

    @Test("--max-duration is offered for a clip over 3 s (3 s, then 1.5 s), never to cut a clip of 3 s or less")
    func maxDurationOnlyForLongClips() throws {
        #expect(StickerFitter.Proof.durations(within: 2.0).isEmpty)
        #expect(StickerFitter.Proof.durations(within: 3.25).isEmpty)
        #expect(StickerFitter.Proof.durations(within: 3.3) == [3.0, 1.5])
        #expect(StickerFitter.Proof.durations(within: 12) == [3.0, 1.5])
        let folder = try FitFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 2.4 s and 4.8 s: 24 and 48 frames of 100 ms.
        for (frames, offered) in [(24, false), (48, true)] {
            let (_, url) = try Self.writeClip(
                frames: frames, milliseconds: 100, grain: 12, seed: 11, in: folder, name: "clip-\(frames)")
            let options = FitFixtures.quickOptions()
            let input = try StickerFitter.Input.read(
                FitFixtures.sticker(url), limits: options.limits, vectorSide: Self.side)
            let source = try StickerFitter.source(input.durations, input: input, original: nil, maxDuration: nil)
            let proofs = StickerFitter.Proof.all(for: StickerFitter(options: options), source: source, size: .small)
            let names = proofs.map { "\($0)" }
            #expect(names.contains("maxDuration") == offered, "\(frames) frames: \(names)")
        }
    }

    @Test(
        "the gradient GIF (Pillow's dithered palette, 618x400, 20 frames) is made in exact colours within 5% under the budget"
    )
    func gradientUsesTheBudget() throws {
        let folder = try FitFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let gif = folder.appendingPathComponent("gradient.gif")
        let script = FitFixtures.scripts.appendingPathComponent("pillow_fixtures.py")
        try #require(try TestProcess.run(["python3", script.path, "gradient-gif", "618", "400", "20", gif.path]) == 0)
        var options = FitFixtures.quickOptions()
        options.compressionLevel = 12
        let fitted = StickerFitter(options: options).fit(FitFixtures.sticker(gif), size: .regular)
        #expect(fitted.failure == nil, "\(fitted.failure ?? "")")
        guard case .file(_, let bytes) = fitted.output else { return }
        #expect(bytes.count <= 500_000 && bytes.count >= 475_000, "\(bytes.count) bytes")
        #expect(!fitted.isLossy && fitted.fidelity.psnr == nil, "exact colours: \(fitted.steps)")
        // Pillow reads the file as RGB with a colour key: three bytes a pixel, not a palette.
        let output = try FitFixtures.write(bytes, to: folder.appendingPathComponent("fitted.png"))
        let facts = try #require(try Pillow.facts([output]).first)
        #expect(facts.frames == 20 && facts.width == 408 && facts.minAlpha == 0)
        #expect(bytes[25] == 2, "IHDR colour type 2 (RGB), with a tRNS key for the transparent padding")

        // At 400,000 bytes the exact file is over by a fifth: every colour is kept with one bit
        // less a channel (at most 1 off, as Pillow sees the two files), not a 256-colour palette.
        options.maxBytes = 400_000
        let milder = StickerFitter(options: options).fit(FitFixtures.sticker(gif), size: .regular)
        guard case .file(_, let milderBytes) = milder.output else {
            Issue.record("not made: \(milder.failure ?? "")"); return
        }
        #expect(
            milderBytes.count <= 400_000 && milderBytes[25] == 2,
            "\(milderBytes.count) bytes, colour type \(milderBytes[25])")
        #expect(
            milder.steps.contains { $0.kind == .precision } && !milder.steps.contains { $0.kind == .palette },
            "\(milder.steps)")
        let exactFrames = try Pillow.decode(output).frames
        let milderFrames = try Pillow.decode(
            try FitFixtures.write(milderBytes, to: folder.appendingPathComponent("milder.png"))
        ).frames
        let difference = PixelDifference(Array(exactFrames.joined()), Array(milderFrames.joined()))
        #expect(
            difference.maxError == 1 && difference.psnr > 50, "max error \(difference.maxError), \(difference.psnr) dB")
        #expect(milder.fidelity.maxError == difference.maxError)
    }
}
