import AnimationCodec
import StickerPack

extension StickerFitter {
    /// What would make a sticker that failed: each suggestion is the option's own fit, run on
    /// the same frames, and its figures are those of the file it wrote. A lower floor
    /// (`--min-psnr`, `--min-ssim`, or without `--strict`) makes the best file found under it;
    /// `--allow-smaller-size` the next size class; `--max-duration` the first 3 s (or 1.5 s) of
    /// a clip over 3 s; a lower `--min-fps` what the search makes without one.
    ///
    /// Each option's fit stops once no file at the floor is left to find (most refused
    /// stickers stay under it with every option, and then no file is written); a file it makes
    /// is the one the option makes (``QualitySearch/wantedPSNR``).
    func suggestions(_ source: Source, belowFloor: Candidate?, size: StickerSize) throws -> [String] {
        var found: [String] = []
        if let (attempt, _) = belowFloor, let lower = lowerFloorSuggestion(attempt) { found.append(lower) }
        // The options' own fits are independent, and each makes the very file that option
        // makes (with the threads its own run would have). They run side by side when the
        // frames they fit together are no more than the sticker's own, which the search that
        // refused it held (a long clip's first seconds, a smaller size), so refusing holds no
        // more frames than searching did; else one after the other. Either way they are named
        // in this order.
        let proofs = Proof.all(for: self, source: source, size: size)
        let share = proofs.reduce(0) { $0 + $1.share(of: source, size: size) }
        let named = ParallelWork.map(proofs, threads: share <= 1 ? options.threads : 1) { proof in
            Result { try self.prove(proof, source: source, size: size) }
        }
        for suggestion in named { if let text = try suggestion.get() { found.append(text) } }
        return found
    }

    /// The options that accept `attempt`, a file made under the floor: a lower `--min-psnr` or
    /// `--min-ssim`, or leaving out `--strict`, with its figures (the same search with a lower
    /// floor makes this very file: the floor only accepts or refuses). Nil when none would.
    func lowerFloorSuggestion(_ attempt: Attempt) -> String? {
        guard let psnr = attempt.fidelity.psnr else { return nil }
        var with: [String] = []
        var withoutStrict = false
        if psnr < options.psnrFloor {
            withoutStrict = options.strict
            if psnr < options.minimumPSNR {
                with.append(String(cFormat: "--min-psnr %.1f", (psnr * 10).rounded(.down) / 10))
            }
        }
        if let ssim = attempt.fidelity.ssim, ssim < options.ssimFloor {
            withoutStrict = withoutStrict || options.strict
            if ssim < options.minimumSSIM {
                with.append(String(cFormat: "--min-ssim %.2f", (ssim * 100).rounded(.down) / 100))
            }
        }
        let changes = [
            withoutStrict ? "without --strict" : nil, with.isEmpty ? nil : "with " + with.joined(separator: " ")
        ].compactMap { $0 }
        return changes.isEmpty ? nil : "made " + changes.joined(separator: " and ") + ": " + Self.figures(attempt)
    }

    /// An option whose own fit may make a refused sticker.
    enum Proof: Sendable {
        /// `--allow-smaller-size`: the next size class down.
        case smallerSize(StickerSize)
        /// `--max-duration`: the first 3 s, else the first 1.5 s, of a clip over 3 s.
        case maxDuration
        /// A lower `--min-fps`: the rate the search reaches without one.
        case lowerMinimumRate

        /// The options worth a fit for `fitter`'s refused `source`, in the order they are named.
        static func all(for fitter: StickerFitter, source: Source, size: StickerSize) -> [Proof] {
            var proofs: [Proof] = []
            // --strict refuses what a smaller size or a clip cut short gives up (the figures do
            // not measure it), so under it neither is named.
            let strict = fitter.options.strict
            let smaller = StickerSize.allCases.filter { $0.pixels < size.pixels }.max { $0.pixels < $1.pixels }
            if !strict, !fitter.options.allowSmallerSize, let smaller { proofs.append(.smallerSize(smaller)) }
            if !strict, fitter.options.maxDuration == nil, source.count > 1,
                !durations(within: source.totalSeconds).isEmpty
            {
                proofs.append(.maxDuration)
            }
            if fitter.options.minimumFramesPerSecond > 0, source.count > 1 { proofs.append(.lowerMinimumRate) }
            return proofs
        }

        /// The pixels of the frames this option's fit starts from, as a share of `source`'s
        /// frames at `size`: a smaller size's share of the area, the first seconds' share of
        /// the frames, or all of them.
        func share(of source: Source, size: StickerSize) -> Double {
            switch self {
            case .smallerSize(let smaller):
                let side = Double(smaller.pixels) / Double(size.pixels)
                return side * side
            case .maxDuration:
                guard let longest = Proof.durations(within: source.totalSeconds).first else { return 0 }
                let first =
                    (try? StickerFitter.source(
                        source.input.durations, input: source.input, original: nil, maxDuration: longest)) ?? source
                return Double(first.count) / Double(max(1, source.input.durations.count))
            case .lowerMinimumRate:
                return 1
            }
        }

        /// The first seconds `--max-duration` is tried with on a clip of `seconds`: 3 s, then
        /// 1.5 s, for a clip longer than 3 s by more than a quarter of a second. A clip of 3 s
        /// or so (Telegram's longest video sticker) is not cut: what is left is not the clip.
        static func durations(within seconds: Double) -> [Double] {
            seconds > 3.25 ? [3.0, 1.5] : []
        }
    }

    /// Runs `proof`'s fit of `source` and names the option with its file's figures, or nil
    /// when that option does not make the sticker either.
    func prove(_ proof: Proof, source: Source, size: StickerSize) throws -> String? {
        switch proof {
        case .smallerSize(let smaller):
            // The search `--allow-smaller-size` runs at the smaller size is this one.
            guard case .made(let made) = try make(source, size: smaller, asked: size, onlyAtFloor: true) else {
                return nil
            }
            return "made as \(smaller) (\(smaller.pixels) px) with --allow-smaller-size: " + Self.figures(made.attempt)
        case .maxDuration:
            for seconds in Proof.durations(within: source.totalSeconds) {
                let shorter = try Self.source(
                    source.input.durations, input: source.input, original: source.original, maxDuration: seconds,
                    maxFramesPerSecond: options.maximumFramesPerSecond)
                // Its frames must fit the decoding limit too.
                guard (try? shorter.checkDecodedBytes()) != nil else { continue }
                if case .made(let made) = try make(shorter, sizes: sizes(from: size), onlyAtFloor: true) {
                    return String(
                        cFormat: "made with --max-duration %g (the first %g s at their own speed): ", seconds, seconds)
                        + Self.figures(made.attempt)
                }
            }
            return nil
        case .lowerMinimumRate:
            // The rate the search reaches without a minimum, then that rate as the minimum.
            var free = self
            free.options.minimumFramesPerSecond = 0
            guard case .made(let made) = try free.make(source, sizes: sizes(from: size), onlyAtFloor: true),
                made.attempt.framesPerSecond < options.minimumFramesPerSecond
            else { return nil }
            var lower = self
            lower.options.minimumFramesPerSecond = (made.attempt.framesPerSecond * 10).rounded(.down) / 10
            guard lower.options.minimumFramesPerSecond > 0,
                case .made(let proven) = try lower.make(source, sizes: sizes(from: size))
            else { return nil }
            return String(cFormat: "made with --min-fps %.1f: ", lower.options.minimumFramesPerSecond)
                + Self.figures(proven.attempt)
        }
    }
}
