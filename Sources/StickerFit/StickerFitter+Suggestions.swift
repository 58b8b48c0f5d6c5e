import StickerPack

extension StickerFitter {
    /// What would make a sticker that failed: each suggestion is the option's own fit, run on
    /// the same frames, and its figures are those of the file it wrote. A lower floor
    /// (`--min-psnr`, `--min-ssim`, or without `--strict`) makes the best file found under it;
    /// `--allow-smaller-size` the next size class; `--max-duration` the first 3 s (or 1.5 s) of
    /// a longer clip; a lower `--min-fps` what the search makes without one.
    ///
    /// Each option's fit stops once no file at the floor is left to find (most refused
    /// stickers stay under it with every option, and then no file is written); a file it makes
    /// is the one the option makes (``QualitySearch/wantedPSNR``).
    func suggestions(_ source: Source, belowFloor: Candidate?, size: StickerSize) throws -> [String] {
        var found: [String] = []
        if let (attempt, _) = belowFloor, let psnr = attempt.fidelity.psnr {
            // The same search with a lower floor makes this very file (the floor only accepts or refuses).
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
            if !changes.isEmpty {
                found.append("made " + changes.joined(separator: " and ") + ": " + Self.figures(attempt))
            }
        }
        if !options.allowSmallerSize,
            let smaller = StickerSize.allCases.filter({ $0.pixels < size.pixels }).max(by: { $0.pixels < $1.pixels }),
            // The search `--allow-smaller-size` runs at the smaller size is this one.
            case .made(let made) = try make(source, size: smaller, asked: size, onlyAtFloor: true)
        {
            found.append(
                "made as \(smaller) (\(smaller.pixels) px) with --allow-smaller-size: " + Self.figures(made.attempt))
        }
        if options.maxDuration == nil, source.count > 1 {
            let full = source.totalSeconds
            for seconds in [3.0, 1.5] where seconds < full - 0.25 {
                let shorter = Self.source(
                    source.durations, input: source.input, original: source.original, maxDuration: seconds)
                if case .made(let made) = try make(shorter, sizes: sizes(from: size), onlyAtFloor: true) {
                    found.append(
                        String(
                            cFormat: "made with --max-duration %g (the first %g s at their own speed): ", seconds,
                            seconds) + Self.figures(made.attempt))
                    break
                }
            }
        }
        if options.minimumFramesPerSecond > 0, source.count > 1 {
            // The rate the search reaches without a minimum, then that rate as the minimum.
            var free = self
            free.options.minimumFramesPerSecond = 0
            if case .made(let made) = try free.make(source, sizes: sizes(from: size), onlyAtFloor: true),
                made.attempt.framesPerSecond < options.minimumFramesPerSecond
            {
                var lower = self
                lower.options.minimumFramesPerSecond = (made.attempt.framesPerSecond * 10).rounded(.down) / 10
                if lower.options.minimumFramesPerSecond > 0,
                    case .made(let proven) = try lower.make(source, sizes: sizes(from: size))
                {
                    found.append(
                        String(cFormat: "made with --min-fps %.1f: ", lower.options.minimumFramesPerSecond)
                            + Self.figures(proven.attempt))
                }
            }
        }
        return found
    }

}
