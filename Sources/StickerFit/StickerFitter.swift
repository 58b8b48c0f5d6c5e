import AnimationCodec
import FoundationEssentials
import StickerPack
import StickerPixels

/// Fits one sticker to a size class and a byte budget: exact steps first, and only when the
/// exact file is too large, the lossy candidate of the highest quality that fits.
///
/// 1. Exact: scale (premultiplied Lanczos 3) so the longer side is the size's side, pad to a
///    square, merge repeated frames, encode with ``AnimationEncoder``; the input file is kept
///    instead when nothing needed changing and it is smaller (a GIF stays a GIF that way).
/// 2. Lossy: ``QualitySearch`` finds, for each knob (an inter-frame tolerance, fewer bits a
///    colour channel, a palette of 256 down to 16 colours, a lower frame rate as low as needed
///    unless ``FitOptions/minimumFramesPerSecond`` says otherwise), the mildest setting that
///    fits, and keeps the one of highest PSNR; an opaque still may also be a JPEG, kept when its
///    PSNR is higher. It is made when it meets the quality floor (``FitOptions/meetsFloor(_:)``).
///    Then, if allowed, the next smaller size class.
/// 3. Otherwise a failure naming the best file under the floor or the smallest file reached,
///    and the options that make the sticker, each with the figures of the file its own fit
///    made (`StickerFitter+Suggestions.swift`).
public struct StickerFitter: Sendable {
    /// The budget and what may be given up.
    public var options: FitOptions

    /// Creates a fitter.
    public init(options: FitOptions = FitOptions()) {
        self.options = options
    }

    /// JPEG qualities tried for an opaque still, best first.
    static let jpegQualities = [92, 85, 75, 60, 45, 30, 20, 15, 10]

    /// Fits `sticker` to `size`; `label` is the accessibility label to write (default: the
    /// sticker's own, else one made from its name, ``Sticker/spokenLabel``).
    public func fit(_ sticker: Sticker, size: StickerSize, label: String? = nil) -> FittedSticker {
        let start = Date()
        let given = label ?? sticker.spokenLabel
        // Controls and bidirectional controls (from a file's name, say) give VoiceOver nothing
        // to read: left out of the label.
        let wanted = String(String.UnicodeScalarView(given.unicodeScalars.filter { !TerminalText.isActedOn($0) }))
        let limit = ValidationThresholds.default.maxDescriptionLength
        var result = FittedSticker(
            name: sticker.name, accessibilityLabel: Self.shortened(wanted, toUTF16: limit), sizeClass: size)
        result.earlierLoss = sticker.fitLoss
        result.bytesBefore = sticker.files.reduce(0) { total, url in
            total + (BoundedFile.size(url.path) ?? 0)
        }
        do {
            // A vector sticker is drawn at the size it is fitted to, not scaled from its own.
            if case .sequence(let sequence) = sticker.source {
                let animation = try StickerAnimation.load(sticker, limits: options.limits, vectorSide: size.pixels)
                result.framesBefore = animation.frameCount
                try fitSequence(animation, sequence: sequence, size: size, into: &result)
            } else {
                let input = try Input.read(sticker, limits: options.limits, vectorSide: size.pixels)
                result.framesBefore = input.frameCount
                // The input is read again only when it may be kept as it is: a square of a size's side.
                let keepable = input.width == input.height && sizes(from: size).contains { $0.pixels == input.width }
                let original =
                    keepable ? try BoundedFile.read(sticker.files[0].path, maxBytes: options.limits.maxFileBytes) : nil
                defer {
                    (result.inputDamage, result.notDrawn) = (input.damage.noted, input.damage.notDrawn)
                    result.soundLeftOut = input.damage.soundLeftOut
                }
                // A vector input is drawn at the size; a raster one scaled up over twice looks soft.
                let factor = Double(size.pixels) / Double(max(1, max(input.width, input.height)))
                if !input.format.isVector, factor > 2 { result.upscale = (factor * 10).rounded() / 10 }
                try fitFile(input, original: original, size: size, into: &result)
            }
        } catch {
            result.failure = "\(error)"
        }
        // The floor refuses what this fit's figures show; what they do not (a clip cut short,
        // a smaller size, parts not drawn, damaged input, an earlier fit's visible loss)
        // --strict refuses here.
        if options.strict, let loss = result.loss,
            !loss.unmeasured.isEmpty || (result.earlierLoss?.isVisible ?? false)
        {
            let carried = result.earlierLoss != nil && loss == result.earlierLoss
            result.failure =
                (carried ? "the input, from an earlier fit, was " : "") + loss.warning
                + "; --strict refuses it (without --strict it is made with this warning)"
            result.output = nil
        }
        if result.accessibilityLabel != wanted {
            result.steps.insert(
                FitStep(
                    .label,
                    "VoiceOver label shortened from \(wanted.utf16.count) to \(limit) characters, Messages' limit"),
                at: 0)
        }
        if wanted != given {
            let dropped = given.unicodeScalars.count - wanted.unicodeScalars.count
            result.steps.insert(
                FitStep(
                    .label,
                    "VoiceOver label: \(dropped == 1 ? "1 control character" : "\(dropped) control characters") left out"
                ),
                at: 0)
        }
        result.seconds = Date().timeIntervalSince(start)
        return result
    }

    /// `text` cut to at most `limit` UTF-16 code units (what Messages counts), whole characters
    /// only, ending in an ellipsis when cut.
    static func shortened(_ text: String, toUTF16 limit: Int) -> String {
        guard text.utf16.count > limit else { return text }
        var kept = ""
        var units = 1  // the ellipsis
        for character in text {
            units += character.utf16.count
            if units > limit { break }
            kept.append(character)
        }
        return kept + "\u{2026}"
    }

    /// The size classes to try, the asked-for one first.
    func sizes(from size: StickerSize) -> [StickerSize] {
        guard options.allowSmallerSize else { return [size] }
        return StickerSize.allCases.filter { $0.pixels <= size.pixels }.sorted { $0.pixels > $1.pixels }
    }

    /// A candidate file.
    struct Attempt {
        var bytes: [UInt8]
        var fileExtension: String
        var frames: Int
        var fidelity: Fidelity
        var size: StickerSize
        /// Frames per second over the loop (0 for a still).
        var framesPerSecond: Double
        /// Left at the search level (a failure's smallest file, never written).
        var atSearchLevel = false
    }

    /// A candidate with the steps that made it.
    typealias Candidate = (attempt: Attempt, steps: [FitStep])

    /// What fitting at one size, or at every size allowed, came to.
    enum Outcome {
        /// A file within the budget and above the quality floor.
        case made(Candidate)
        /// None: the best file within the budget, under the floor, if any; the smallest reached.
        case failed(belowFloor: Candidate?, smallest: Candidate?)
    }

    /// What `fitFile` works from: the input, the display times of the frames shown (trimmed by
    /// `--max-duration`), the input file (when it may be kept as it is) and the steps taken
    /// before any size.
    struct Source: Sendable {
        var input: Input
        var durations: [Double]
        var original: [UInt8]?
        var leadingSteps: [FitStep]
        /// The input frames shown, by index, when not every one of the first ``count`` is
        /// (``StickerFitter/source(_:input:original:maxDuration:maxFramesPerSecond:)``).
        var kept: [Int]?

        /// The frames shown.
        var count: Int { durations.count }
        /// The input's frames decoded to show them: the first through the last one shown; for a
        /// vector file (Lottie), whose frames are drawn one by one, only those shown.
        var decodedFrames: Int { input.format.isVector ? count : (kept?.last ?? (count - 1)) + 1 }

        /// Throws a limit error when the frames decoded to show these, at the input's size, take
        /// more than ``Input/decodeLimit`` (the codec's, or ``PackError/tooManyFittedFrameBytes(path:bytes:limit:)``
        /// where fit's own cap is the limit): what a fit decodes is held to
        /// the limit, not the whole file (a long clip's first seconds may fit).
        func checkDecodedBytes() throws(PackError) {
            let (product, overflow) = (input.width * input.height).multipliedReportingOverflow(by: decodedFrames * 4)
            let bytes = overflow ? Int.max : product
            guard bytes <= input.decodeLimit else {
                let path = input.sticker.files[0].path
                guard input.decodeLimit < FitOptions.maxDecodedBytes else {
                    // fit's own cap, which a higher --max-decoded does not raise.
                    throw .tooManyFittedFrameBytes(path: path, bytes: bytes, limit: input.decodeLimit)
                }
                throw .codec(path: path, .limitExceeded(.decodedBytes(bytes, limit: input.decodeLimit)))
            }
        }

        /// Seconds one loop of them takes.
        var totalSeconds: Double { durations.reduce(0, +) }

        /// The frames shown, scaled (premultiplied, with `filter`) so the longer side is `side`
        /// and centred on a square, and the steps that took (``forEachFitted(side:threads:filter:_:)``).
        func fitted(side: Int, threads: Int, filter: Resampler.Filter = .lanczos3) throws -> (
            frames: [[UInt8]], steps: [FitStep]
        ) {
            var frames: [[UInt8]] = []
            frames.reserveCapacity(count)
            let steps = try forEachFitted(side: side, threads: threads, filter: filter) { _, frame in
                frames.append(frame)
            }
            return (frames, steps)
        }

        /// Hands each frame shown to `body` with its index, scaled as ``fitted(side:threads:filter:)``
        /// scales it, and returns the steps that took. The input is decoded anew and scaled a few
        /// frames at a time, so its frames at their own size are never all held: they would take
        /// more memory than the scaled ones, for as long as the sticker is fitted.
        func forEachFitted(
            side: Int, threads: Int, filter: Resampler.Filter = .lanczos3, _ body: (Int, [UInt8]) -> Void
        ) throws -> [FitStep] {
            let count = self.count
            let animation = try input.load()
            var steps: [FitStep] = []
            var batch: [[UInt8]] = []
            var made = 0
            let batchSize = 4 * min(max(1, threads), 1024)
            func scaleBatch() {
                let fitted = StickerGeometry.fit(
                    batch, width: animation.width, height: animation.height, side: side, threads: threads,
                    filter: filter)
                for frame in fitted.frames {
                    body(made, frame)
                    made += 1
                }
                steps = fitted.steps
                batch.removeAll(keepingCapacity: true)
            }
            func take(_ frame: Frame) {
                batch.append(frame.pixels)
                if batch.count == batchSize { scaleBatch() }
            }
            let wanted = kept ?? Array(0..<count)
            if input.format.isVector, kept != nil {
                // Each frame drawn alone: those left out (by --max-fps, or merged for being under
                // 11 ms) are never drawn.
                for index in wanted {
                    let frame = try animation.frame(at: index)
                    input.damage.note(frame.warnings)
                    take(frame)
                }
            } else {
                var nextWanted = 0
                try animation.forEachFrame(threads: threads, count: decodedFrames) { index, frame in
                    guard nextWanted < wanted.count else { return }
                    input.damage.note(frame.warnings)
                    guard wanted[nextWanted] == index else { return }
                    nextWanted += 1
                    take(frame)
                }
            }
            if !batch.isEmpty { scaleBatch() }
            return steps
        }
    }

    private func fitFile(
        _ input: Input, original: [UInt8]?, size: StickerSize, into result: inout FittedSticker
    ) throws {
        let durations = input.durations
        let source = try Self.source(
            durations, input: input, original: original, maxDuration: options.maxDuration,
            maxFramesPerSecond: options.maximumFramesPerSecond)
        result.framesPerSecondBefore = FrameTimeline.framesPerSecond(durations)
        do {
            try source.checkDecodedBytes()
        } catch {
            // Over the limit: its first seconds, when they fit it, are fitted to prove the option.
            // As the search's own suggestions: not under --strict or --lossless (which refuse
            // a clip cut short), and not where frames were dropped first (the proof would be
            // judged on the frames kept only).
            let proof =
                !options.strict && options.allowLossy && options.maxDuration == nil && source.kept == nil
                    && source.count > 1
                ? (try? prove(.maxDuration, source: source, size: size)) ?? nil : nil
            result.failure = "\(error)" + (proof.map { "; " + $0 } ?? "")
            return
        }
        // Where frames were dropped first (--max-fps, or frames under 11 ms), the search measured
        // the frames kept; a file is judged against every frame, the dropped ones too, as a
        // lower rate the search chose is.
        let maxFPSStepTaken = source.leadingSteps.contains { $0.kind == .maxFrameRate }
        let capped = maxFPSStepTaken ? options.maximumFramesPerSecond : nil
        func judged(_ candidate: Candidate) throws -> Candidate {
            guard source.kept != nil else { return candidate }
            var judged = candidate
            judged.attempt.fidelity = try fidelityAgainstEveryFrame(judged.attempt, of: input)
            return judged
        }
        switch try make(source, sizes: sizes(from: size)) {
        case .made(let made):
            let made = try judged(made)
            if source.kept != nil, !options.meetsFloor(made.attempt.fidelity) {
                record(made, into: &result)
                result.failure =
                    (capped.map { String(cFormat: "with --max-fps %g ", $0) } ?? "") + "the file made is "
                    + Self.figures(made.attempt) + " against every frame of the input, under the quality floor of "
                    + floorText + (lowerFloorSuggestion(made.attempt).map { "; " + $0 } ?? "")
                return
            }
            record(made, into: &result)
            result.output = .file(name: result.name + "." + made.attempt.fileExtension, bytes: made.attempt.bytes)
        case .failed(let found, let smallest):
            let belowFloor = try found.map(judged)
            guard let shownCandidate = belowFloor ?? smallest else { return }
            record(shownCandidate, into: &result)
            let (attempt, steps) = shownCandidate
            var message: String
            if belowFloor != nil {
                message =
                    "the best file within \(String(groupingThousands: options.maxBytes)) bytes is \(Self.figures(attempt)), "
                    + "under the quality floor of " + floorText
            } else {
                message =
                    "cannot fit in \(options.maxBytes) bytes: the smallest reached is \(attempt.bytes.count) bytes"
                    + " (\(attempt.size), \(counted(attempt.frames, "frame"))\(steps.contains { $0.isLossy } ? ", after every lossy step allowed" : ", lossless")"
                    + "\(attempt.atSearchLevel ? ", compressed at the search level: the strongest, at most a quarter smaller, could not bring it under" : ""))"
            }
            // Where frames were dropped first, the other options' fits would be judged on the
            // kept frames only: the lower floor (the same file, so proven) is what is named.
            let suggestions =
                !options.allowLossy
                ? []
                : source.kept != nil
                    ? (belowFloor.flatMap { lowerFloorSuggestion($0.attempt) }.map { [$0] } ?? [])
                    : try suggestions(source, belowFloor: belowFloor, size: size)
            if !suggestions.isEmpty {
                message += "; " + suggestions.joined(separator: "; ")
            } else if !options.allowLossy {
                message += "; without --lossless it may fit"
            }
            result.failure = message
        }
    }

    /// What `attempt` shows against every frame of `input` at their start times (the first
    /// `--max-duration` seconds of them), scaled as the fit scales them, one at a time.
    private func fidelityAgainstEveryFrame(_ attempt: Attempt, of input: Input) throws -> Fidelity {
        let everyFrame = Self.trimmed(input.durations, input: input, original: nil, maxDuration: options.maxDuration)
        let side = attempt.size.pixels
        return try Fidelity.measure(
            attempt.bytes, againstFramesShownFor: everyFrame.durations, side: side, limits: outputLimits
        ) { body in
            _ = try everyFrame.forEachFitted(side: side, threads: options.threads, body)
        }
    }

    /// The limits fit's own files are decoded under to be measured: the caller's, but for the
    /// bytes of all frames together (a written file is decoded a frame at a time, and its frames
    /// are no more than those the input was held to: `--max-decoded` bounds the input).
    private var outputLimits: DecodingLimits { options.limits.withoutTotalDecodedBytes }

    /// The floors in force, as the report names them: `20 dB (--min-psnr)`.
    private var floorText: String {
        var parts = [String(cFormat: "%g dB", options.psnrFloor)]
        if options.ssimFloor > 0 { parts.append(String(cFormat: "SSIM %g", options.ssimFloor)) }
        return parts.joined(separator: " and ")
            + (options.strict ? " (--strict)" : " (--min-psnr" + (options.ssimFloor > 0 ? ", --min-ssim)" : ")"))
    }

    /// `412,118 bytes, 24.1 dB, SSIM 0.812, 21 frames at 7.5 fps`: a file's figures.
    static func figures(_ attempt: Attempt) -> String {
        var text = "\(String(groupingThousands: attempt.bytes.count)) bytes"
        if let psnr = attempt.fidelity.psnr { text += String(cFormat: ", %.1f dB", psnr) } else { text += ", exact" }
        if let ssim = attempt.fidelity.ssim { text += String(cFormat: ", SSIM %.3f", ssim) }
        if attempt.framesPerSecond > 0 {
            text += ", \(attempt.frames) frames at \(FrameRateFigure.text(attempt.framesPerSecond)) fps"
        }
        return text
    }

    /// The frames to fit, from the input's own `durations`: all of them, or with `maxDuration`
    /// the first seconds of an animation that is longer, and with `maxFramesPerSecond` at most
    /// as many frames, evenly spread, as the loop shows at that rate (with `validate`'s slack,
    /// never fewer than two) when it shows more once repeats merge (each a lossy step, named).
    /// Then a frame shown for under 11 ms (a video's or a Lottie file's, timed as stored), which
    /// Messages would show for 100 ms, is merged with the frames after it until they last 11 ms
    /// or more (``FrameTimeline/mergingShortFrames(_:)``; a lossy step, named).
    static func source(
        _ durations: [Double], input: Input, original: [UInt8]?, maxDuration: Double?,
        maxFramesPerSecond: Double? = nil
    ) throws -> Source {
        try mergingShortFrames(
            capped(
                trimmed(durations, input: input, original: original, maxDuration: maxDuration),
                maxFramesPerSecond: maxFramesPerSecond))
    }

    /// `source` with at most as many frames as its loop shows at `maxFramesPerSecond`.
    private static func capped(_ source: Source, maxFramesPerSecond: Double?) throws -> Source {
        guard let maxFramesPerSecond, source.count > 2 else { return source }
        // The most frames the loop may show at that rate, with the slack `validate` gives
        // millisecond delays (30 fps stored as 33 ms frames), and never fewer than two.
        let rate = min(ValidationThresholds.tolerated(framesPerSecond: maxFramesPerSecond), 1000)
        let allowed = max(2, Int(min(source.totalSeconds * rate, Double(source.count)).rounded(.down)))
        // Counted as the file will show them, once repeats are merged: a clip that holds a
        // frame is not slowed down for the frames that only repeat it.
        guard source.count > allowed, try source.input.distinctFrames(amongFirst: source.count) > allowed else {
            return source
        }
        let before = FrameTimeline.framesPerSecond(source.durations)
        // Keeping frames ⌊k × step⌋ keeps ⌈count / step⌉ of them: at most `allowed`.
        let step = Double(source.count) / Double(allowed)
        var slower = source
        slower.kept = FrameTimeline.keptIndices(count: source.count, step: step)
        slower.durations = FrameTimeline.durations(source.durations, keepingEvery: step)
        slower.original = nil
        slower.leadingSteps.append(
            FitStep(
                .maxFrameRate,
                "\(FrameRateFigure.text(before)) -> \(FrameRateFigure.text(FrameTimeline.framesPerSecond(slower.durations))) fps, "
                    + String(
                        cFormat: "%ld -> %ld frames, the loop's length kept (--max-fps %g)", source.count, slower.count,
                        maxFramesPerSecond),
                isLossy: true))
        return slower
    }

    /// `source` with each frame under 11 ms merged with the frames after it.
    private static func mergingShortFrames(_ source: Source) -> Source {
        guard let merged = FrameTimeline.mergingShortFrames(source.durations) else {
            return source
        }
        let short = source.durations.filter(FrameTimeline.isHeldLonger).count
        var merging = source
        merging.kept = merged.kept.map { source.kept?[$0] ?? $0 }
        merging.durations = merged.durations
        merging.original = nil
        merging.leadingSteps.append(
            FitStep(
                .frameRate,
                "\(FrameRateFigure.text(FrameTimeline.framesPerSecond(source.durations))) -> \(FrameRateFigure.text(FrameTimeline.framesPerSecond(merged.durations))) fps"
                    + ", \(source.count) -> \(counted(merged.durations.count, "frame")), the loop's length kept: \(counted(short, "frame")) under 11 ms, which Messages shows for 100 ms, merged with the frames after them",
                isLossy: true))
        return merging
    }

    /// ``source(_:input:original:maxDuration:maxFramesPerSecond:)`` before any frame rate cap.
    private static func trimmed(_ durations: [Double], input: Input, original: [UInt8]?, maxDuration: Double?)
        -> Source
    {
        let lengthened = input.lengthenedFrames
        let full = Source(
            input: input, durations: durations, original: original,
            leadingSteps: lengthened == 0
                ? []
                : [
                    FitStep(
                        .shortDelays,
                        String(
                            cFormat:
                                "%ld of %ld frames stored under 11 ms, which Messages (and browsers, at 10 ms or less) shows for 100 ms each: made as shown, the loop %.2f s where its delays add up to %.2f s",
                            lengthened, durations.count, durations.reduce(0, +),
                            input.storedDurations.reduce(0, +)))
                ])
        guard let maxDuration, full.count > 1, full.totalSeconds > maxDuration + 1e-9 else { return full }
        var trimmed = full
        trimmed.durations = FrameTimeline.durations(durations, keepingFirst: maxDuration)
        trimmed.original = nil
        trimmed.leadingSteps += [
            FitStep(
                .maxDuration,
                String(
                    cFormat: "the first %.2f s of %.2f s kept at their own speed, %ld -> %ld frames",
                    trimmed.totalSeconds, full.totalSeconds, full.count, trimmed.count), isLossy: true)
        ]
        return trimmed
    }

    /// Fits `source` at each of `sizes` in turn: the first file within the budget and above
    /// the floor is made. The first size's search finds its best file even under the floor
    /// (what a lower floor would make), unless `onlyAtFloor`; the smaller sizes' searches stop
    /// once no file at the floor is left to find. A file made with `onlyAtFloor` is the one
    /// made without it (``QualitySearch/wantedPSNR``).
    func make(_ source: Source, sizes: [StickerSize], onlyAtFloor: Bool = false) throws -> Outcome {
        var belowFloor: Candidate?
        var smallest: Candidate?
        let asked = sizes[0]
        for target in sizes {
            switch try make(source, size: target, asked: asked, onlyAtFloor: onlyAtFloor || target != asked) {
            case .made(let made):
                return .made(made)
            case .failed(let below, let small):
                // The first size's best under the floor is what a lower floor would make.
                if belowFloor == nil { belowFloor = below }
                if let small { smallest = pick(smallest, small) }
            }
        }
        return .failed(belowFloor: belowFloor, smallest: smallest)
    }

    /// Fits `source` at one size: exact first, then the lossy search; with `onlyAtFloor`, the
    /// search writes no file under the quality floor (the outcome is then `.failed` with no
    /// file under the floor).
    func make(_ source: Source, size target: StickerSize, asked size: StickerSize, onlyAtFloor: Bool) throws
        -> Outcome
    {
        let input = source.input
        let format = input.format
        var steps = source.leadingSteps
        if target != size {
            steps.append(FitStep(.smallerSize, "\(size) -> \(target) (\(target.pixels) px)", isLossy: true))
        }
        let (scaled, geometry) = try source.fitted(side: target.pixels, threads: options.threads)
        steps += geometry
        let reference = FrameTimeline(frames: scaled, durations: source.durations)
        let merged = reference.mergingRepeats()
        // The lossy search also tries the frames scaled with a softer filter (when scaled),
        // decoded again when first asked for (nil if that fails: the search keeps to Lanczos 3).
        let isScaled = geometry.contains { $0.kind == .scale }
        let threads = options.threads
        let softer: (() -> QualitySearch.StartFrames?)? =
            !isScaled
            ? nil
            : {
                // Repeats merged as they come, as `mergingRepeats` merges them; each frame kept
                // as its patch against the Lanczos frame of the same instant.
                var frames = PatchedFrames(bases: reference.frames)
                var merging = FrameTimeline.RepeatMerging()
                let made = try? source.forEachFitted(side: target.pixels, threads: threads, filter: .bicubic) {
                    index, frame in
                    if merging.add(frame, shownFor: reference.durations[index]) { frames.append(frame, against: index) }
                }
                return made == nil ? nil : QualitySearch.StartFrames(frames: frames, durations: merging.durations)
            }
        if merged.count < reference.count {
            steps.append(
                FitStep(.mergeRepeats, "\(reference.count) -> \(counted(merged.count, "frame")), delays summed"))
        }
        let original = source.original ?? []
        // A damaged input is written anew from what decodes, never kept as it is.
        let unchanged =
            source.original != nil && geometry.isEmpty && merged.count == reference.count && format.isMessagesFormat
            && source.input.damage.noted.isEmpty
        // A quick estimate first: an exact file far over the budget is not planned, only reported.
        let estimate = quickEstimate(merged, side: target.pixels)
        if options.allowLossy, isFarOverBudget(estimate), !(unchanged && original.count <= options.maxBytes) {
            steps.append(
                FitStep(
                    .encode,
                    "\(merged.count > 1 ? "APNG" : "PNG"), exact: estimated at \(String(groupingThousands: estimate)) bytes, "
                        + "far over the budget (not written)"))
            return try makeLossy(
                merged: merged, softer: softer, reference: reference, plays: input.plays,
                exactIsPalette: PNGColorModel.smallest(for: merged.frames).isPalette, exactSearchLevelBytes: nil,
                size: target, steps: steps, smallest: nil, onlyAtFloor: onlyAtFloor)
        }
        // Planning compresses every frame at the search level on the way; the strongest
        // level (rarely a tenth smaller, several times slower) runs only when it could fit, or
        // under --lossless, where this file is the only one and a failure's figure is its size.
        let planned = plan(merged, plays: input.plays)
        let couldFit = planned.searchLevelBytes <= options.maxBytes * 5 / 4 || !options.allowLossy
        let couldBeatOriginal = !unchanged || planned.searchLevelBytes <= original.count * 5 / 4
        let level: Int32? = couldFit && couldBeatOriginal ? options.compressionLevel : nil
        let encoded = planned.encode(level: level, threads: options.threads)
        var attempt = Attempt(
            bytes: encoded.bytes, fileExtension: "png", frames: merged.count, fidelity: .exact, size: target,
            framesPerSecond: merged.framesPerSecond, atSearchLevel: level == nil)
        let levelName = level.map { "level \($0)" } ?? "search level (the strongest could not fit or beat the input)"
        var step = FitStep(
            .encode, "\(merged.count > 1 ? "APNG" : "PNG"), \(encoded.colorModel), \(levelName)",
            bytesAfter: encoded.bytes.count)
        if unchanged && original.count <= encoded.bytes.count {
            attempt.bytes = original
            attempt.fileExtension = format.fileExtension
            attempt.atSearchLevel = false
            step = FitStep(
                .keepOriginal,
                "the \(format) input is \(original.count < encoded.bytes.count ? "smaller than" : "as small as") the re-encoded \(merged.count > 1 ? "APNG" : "PNG") (\(encoded.bytes.count) bytes)",
                bytesAfter: original.count)
        }
        steps.append(step)
        if attempt.bytes.count <= options.maxBytes { return .made((attempt, steps)) }
        guard options.allowLossy else { return .failed(belowFloor: nil, smallest: (attempt, steps)) }
        return try makeLossy(
            merged: merged, softer: softer, reference: reference, plays: input.plays,
            exactIsPalette: encoded.colorModel.isPalette,
            exactSearchLevelBytes: planned.searchLevelBytes, size: target, steps: steps, smallest: (attempt, steps),
            onlyAtFloor: onlyAtFloor)
    }

    /// The lossy candidates at one size: the quality search's file and, for an opaque still, a
    /// JPEG; the one of highest PSNR that fits and meets the floor is made. Otherwise the best
    /// under the floor and the smallest file reached (or `smallest`, the exact file) are returned;
    /// with `onlyAtFloor`, a search that found files only under the floor returns neither.
    private func makeLossy(
        merged: FrameTimeline, softer: (() -> QualitySearch.StartFrames?)?, reference: FrameTimeline, plays: Int,
        exactIsPalette: Bool, exactSearchLevelBytes: Int?, size target: StickerSize, steps: [FitStep],
        smallest exact: Candidate?, onlyAtFloor: Bool
    ) throws -> Outcome {
        var fitting: [Candidate] = []
        var search = QualitySearch(
            merged: merged, softerMerged: softer, reference: reference, plays: plays, side: target.pixels,
            options: options, exactIsPalette: exactIsPalette, exactSearchLevelBytes: exactSearchLevelBytes,
            wantedPSNR: onlyAtFloor ? options.psnrFloor : nil)
        if let found = search.run(minimumFramesPerSecond: options.minimumFramesPerSecond) {
            search.letGoOfKeptFrames()
            fitting.append(try lossyAttempt(found, reference: reference, merged: merged, size: target, steps: steps))
        }
        if merged.count == 1, RGBAImage(width: target.pixels, height: target.pixels, pixels: merged.frames[0]).isOpaque
        {
            // JPEG qualities best first: the first that fits is the best JPEG.
            for quality in Self.jpegQualities {
                guard
                    let jpeg = JPEGEncoder.encode(
                        opaque: merged.frames[0], width: target.pixels, height: target.pixels, quality: quality)
                else { break }
                guard jpeg.count <= options.maxBytes else { continue }
                let fidelity = try Fidelity.measure(jpeg, against: reference, limits: outputLimits)
                fitting.append(
                    (
                        Attempt(
                            bytes: jpeg, fileExtension: "jpg", frames: 1, fidelity: fidelity, size: target,
                            framesPerSecond: 0),
                        steps + [
                            FitStep(
                                .jpeg, "quality \(quality)", isLossy: true, bytesAfter: jpeg.count,
                                maxError: fidelity.maxError, psnr: fidelity.psnr)
                        ]
                    ))
                break
            }
        }
        var smallest = exact
        // Files fit but none at the floor: the smallest file is of no use to a caller that wants one at it.
        if fitting.isEmpty, !search.stoppedBelowFloor,
            let (reached, atSearchLevel) = search.smallest(minimumFramesPerSecond: options.minimumFramesPerSecond)
        {
            var candidate = try lossyAttempt(reached, reference: reference, merged: merged, size: target, steps: steps)
            candidate.attempt.atSearchLevel = atSearchLevel
            // Predictions said no candidate fits, but the strongest one written does: keep it.
            if candidate.attempt.bytes.count <= options.maxBytes && !atSearchLevel {
                fitting.append(candidate)
            } else {
                smallest = pick(smallest, candidate)
            }
        }
        func rank(_ candidate: Candidate) -> Double { candidate.attempt.fidelity.psnr ?? .infinity }
        if let best = fitting.filter({ options.meetsFloor($0.attempt.fidelity) }).max(by: { rank($0) < rank($1) }) {
            return .made(best)
        }
        return .failed(belowFloor: fitting.max { rank($0) < rank($1) }, smallest: smallest)
    }

    /// The exact file's size estimated quickly: libdeflate level 1 on the first frame and on
    /// ``QualitySearch/sampledPairs`` pairs of consecutive frames spread over the clip.
    private func quickEstimate(_ merged: FrameTimeline, side: Int) -> Int {
        let frames = merged.frames
        let pairs = QualitySearch.sampledPositions(count: frames.count).map {
            (before: frames[$0 - 1], after: frames[$0])
        }
        return AnimationEncoder.estimatedBytes(
            first: frames[0], pairs: pairs, frameCount: frames.count, width: side, height: side, level: 1,
            threads: options.threads)
    }

    /// Whether an exact file of `estimate` bytes is surely over twice the budget (a real encode
    /// comes to at least half the estimate), so it is not worth planning.
    private func isFarOverBudget(_ estimate: Int) -> Bool { estimate / 2 > options.maxBytes * 2 }

    /// One compared candidate for the search's step: its recipe, its PSNR and how far it went
    /// (written files show what they measured, the others what was predicted).
    static func describe(_ candidate: QualitySearch.Compared) -> String {
        let figure = candidate.psnr.map { String(cFormat: " %.1f dB", $0) } ?? " exact"
        let outcome: String
        switch candidate.outcome {
        case .chosen: outcome = "chosen"
        case .written: outcome = "written"
        case .predicted: outcome = "predicted"
        case .overBudget: outcome = "predicted, over the budget when written"
        case .noLongerFits: outcome = "predicted at first, not once a written file corrected the estimates"
        }
        return candidate.recipe.summary + figure + " (" + outcome + ")"
    }

    /// A file the lossy search wrote, measured by decoding it, with its steps.
    private func lossyAttempt(
        _ found: QualitySearch.Found, reference: FrameTimeline, merged: FrameTimeline, size: StickerSize,
        steps: [FitStep]
    ) throws -> Candidate {
        let fidelity = try Fidelity.measure(found.bytes, against: reference, limits: outputLimits)
        var lossySteps =
            steps
            + found.recipe.steps(
                framesPerSecond: merged.framesPerSecond, frames: merged.count, dithered: options.dither)
        let compared = found.compared.map(Self.describe)
        let detail =
            compared.count > 1
            ? "best of \(compared.count), the chosen first: " + compared.joined(separator: "; ")
            : "chosen: " + found.recipe.summary
        lossySteps.append(
            FitStep(
                .search, detail, isLossy: true, bytesAfter: found.bytes.count, maxError: fidelity.maxError,
                psnr: fidelity.psnr))
        let rate = found.frames > 1 ? merged.framesPerSecond / found.recipe.frameStep : 0
        return (
            Attempt(
                bytes: found.bytes, fileExtension: "png", frames: found.frames, fidelity: fidelity, size: size,
                framesPerSecond: rate), lossySteps
        )
    }

    private func encode(_ timeline: FrameTimeline, plays: Int, level: Int32) -> AnimationEncoder.Encoded {
        plan(timeline, plays: plays).encode(level: level, threads: options.threads)
    }

    private func plan(_ timeline: FrameTimeline, plays: Int) -> PlannedAnimation {
        let side = Int(Double(timeline.frames[0].count / 4).squareRoot())
        return AnimationEncoder.plan(
            frames: timeline.frames, delays: timeline.delays, width: side, height: side, plays: plays,
            options: .init(compressionLevel: options.compressionLevel, threads: options.threads))
    }

    /// Records `candidate`'s steps and figures in `result`: the file made, or a failure's best
    /// or smallest file.
    private func record(_ candidate: Candidate, into result: inout FittedSticker) {
        let attempt = candidate.attempt
        result.steps = candidate.steps
        result.bytesAfter = attempt.bytes.count
        result.framesAfter = attempt.frames
        result.fidelity = attempt.fidelity
        result.sizeClass = attempt.size
        result.framesPerSecond = attempt.framesPerSecond
    }

    private func pick(_ current: Candidate?, _ candidate: Candidate) -> Candidate {
        guard let current else { return candidate }
        return candidate.0.bytes.count < current.0.bytes.count ? candidate : current
    }

    /// A sequence stays a sequence: each still is fitted on its own (every file is under the
    /// budget), and the timing is kept.
    private func fitSequence(
        _ animation: StickerAnimation, sequence: StickerSequence, size: StickerSize,
        into result: inout FittedSticker
    ) throws {
        var files: [(name: String, bytes: [UInt8])] = []
        var worst = Fidelity.exact
        var steps: [FitStep] = []
        // What the decoders worked around in the stills, reported as an animation's is.
        let damage = InputDamage()
        damage.note(animation.fileWarnings)
        defer { (result.inputDamage, result.notDrawn) = (damage.noted, damage.notDrawn) }
        for index in 0..<animation.frameCount {
            let still = try animation.frame(at: index)
            damage.note(still.warnings)
            let (scaled, geometry) = StickerGeometry.fit(
                [still.pixels], width: still.width, height: still.height,
                side: size.pixels, threads: options.threads)
            if index == 0 { steps += geometry }
            let reference = FrameTimeline(frames: scaled, durations: [1])
            var bytes = encode(reference, plays: 1, level: options.compressionLevel).bytes
            var fidelity = Fidelity.exact
            if bytes.count > options.maxBytes && options.allowLossy {
                let quantized = FrameTimeline(
                    frames: PaletteQuantizer(dither: options.dither).quantize(scaled, width: size.pixels),
                    durations: [1])
                bytes = encode(quantized, plays: 1, level: options.compressionLevel).bytes
                fidelity = try Fidelity.measure(bytes, against: reference, limits: outputLimits)
                steps.append(
                    FitStep(
                        .palette, "frame \(index + 1): at most 256 colours", isLossy: true, bytesAfter: bytes.count,
                        maxError: fidelity.maxError, psnr: fidelity.psnr))
            }
            if bytes.count > options.maxBytes {
                result.failure =
                    "frame \(index + 1) of the sequence cannot fit in \(options.maxBytes) bytes: the smallest reached is \(bytes.count) bytes"
            }
            worst = worst.worse(fidelity)
            files.append((result.name + String(cFormat: "-%02ld.png", index + 1), bytes))
        }
        steps.append(
            FitStep(
                .encode, "\(files.count) PNG frames, sequence timing kept",
                bytesAfter: files.reduce(0) { $0 + $1.bytes.count }))
        result.steps = steps
        result.bytesAfter = files.reduce(0) { $0 + $1.bytes.count }
        result.framesAfter = files.count
        result.fidelity = worst
        if result.failure == nil { result.output = .sequence(frames: files, sequence: sequence) }
    }
}

extension ImageFormat {
    /// The file extension `fit` writes this format with.
    var fileExtension: String {
        switch self {
        case .png, .apng: return "png"
        case .gif: return "gif"
        case .jpeg: return "jpg"
        case .webp: return "webp"
        case .webm: return "webm"
        case .lottie: return "tgs"
        }
    }
}
