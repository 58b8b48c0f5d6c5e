import AnimationCodec
import CMalloc
import StickerPack
import StickerPixels

#if canImport(Glibc)
    import Glibc
#endif

/// The lossy search: the highest quality whose file fits the budget, not the first candidate
/// that passes.
///
/// Each family of ``LossyRecipe``s turns one knob from mild to strong (an inter-frame
/// tolerance; the tolerance over a 256-colour palette; fewer colours; a lower frame rate).
/// Within a family the mildest recipe that fits is found by interpolation on predicted sizes:
/// a quick estimate from a sample of the frames
/// (`SampledSizeEstimate`)
/// scaled by the ratio of a real encode to its estimate, measured on this sticker. The
/// families' winners are compared by PSNR against the exact frames at every instant, and only
/// the best one is written at the strongest level; each real encode corrects the ratio and the
/// family is searched again, until the file fits within a few percent of the budget.
struct QualitySearch {
    /// The exact scaled frames, repeats merged: what the recipes start from.
    let merged: FrameTimeline
    /// The same frames scaled with the softer bicubic filter, repeats merged, when the sticker
    /// is scaled at all: what the recipes with ``LossyRecipe/softerScaling`` start from.
    private var softerMerged: StartFrames? {
        mutating get {
            if softerFrames == nil, let makeSofter { softerFrames = makeSofter() ?? StartFrames(merged) }
            return softerFrames
        }
    }
    /// Makes ``softerMerged`` the first time a softer recipe is asked for, and again if asked
    /// after they were let go (kept as patches against the Lanczos frames, a photograph's take
    /// as much memory as the clip's, and a clip searched only at lower frame rates never needs
    /// them).
    private let makeSofter: (() -> StartFrames?)?
    private var softerFrames: StartFrames?
    /// Whether there are softer-scaled frames to search (the sticker is scaled).
    private var hasSofter: Bool { makeSofter != nil }
    /// The exact scaled frames as shown: what quality is measured against.
    let reference: FrameTimeline
    let plays: Int
    let side: Int
    let options: FitOptions
    /// Whether the exact frames already fit in a palette (then a 256-colour palette gains nothing).
    let exactIsPalette: Bool
    /// The exact file's bytes at the search level, when it was planned: it measures the quick
    /// estimate's ratio for the mild recipes nearest it (a softer filter, a small tolerance).
    let exactSearchLevelBytes: Int?
    /// The PSNR under which no file is wanted, when the caller needs one at the quality floor
    /// or none (a smaller size tried after the asked-for one, an option's proof); `nil`: the
    /// best file is wanted whatever its PSNR. The search runs as it would without it, up to the
    /// first candidate to write that shows more than ``floorMargin`` under it, and stops there.
    /// Up to that point every step is the same, so a file it made at the floor is the very file
    /// the search without it makes: with that file written, a candidate so far under it would
    /// not be written either.
    let wantedPSNR: Double?
    /// Whether the search stopped at a candidate under ``wantedPSNR``.
    private(set) var stoppedBelowFloor = false

    /// Predicted strongest-level bytes over the quick estimate, for palette and for full-colour
    /// files: measured by planning the first recipe of each kind predicted, corrected by every plan.
    private var levelRatios: [RatioKind: Double] = [:]
    /// Strongest-level bytes over search-level bytes; corrected by every strongest-level file.
    private var strongestRatio = 0.88
    private var estimates: [LossyRecipe: Int] = [:]
    /// Each palette chosen, by size and scaling.
    private var palettes: [QuantizedKey: [SIMD4<Double>]] = [:]
    /// The last palette's remapper and the frames it mapped, by index, as palette codes (a
    /// quarter of their pixels' bytes): a palette family's recipes ask for the same palette
    /// again (tolerances over it, other frame rates), and each palette's frames cost up to the
    /// whole clip's in memory, so only one palette's are kept.
    private var paletteFrames:
        (key: ColouredKey, remapper: PaletteQuantizer.Remapper, frames: [Int: PaletteQuantizer.Remapper.Indexes])?
    /// The palette histogram of the exact frames (`false`) and of the softer-scaled ones (`true`).
    private var histograms: [Bool: PaletteQuantizer.Histogram] = [:]
    /// Frame step -> the PSNR of the exact frames thinned so (``bound(frameStep:)``).
    private var bounds: [Double: Double] = [:]
    /// (Reference frame, exact frame shown in its place) -> their squared differences summed.
    private var pairSquares: [SIMD2<Int>: UInt64] = [:]

    /// Files whose strongest-level bytes relate alike to their quick estimate: palette or full
    /// colour, and full colour with fewer levels a channel (which libdeflate's strongest levels
    /// compress markedly better than its level 1 does).
    private struct RatioKind: Hashable {
        var palette: Bool
        var reducedPrecision: Bool
    }

    /// A palette's frames: its size and which scaling they start from.
    private struct QuantizedKey: Hashable {
        var colors: Int
        var softerScaling: Bool
    }

    /// Frames mapped to a palette, after their precision was lowered to `precision` bits.
    private struct ColouredKey: Hashable {
        var palette: QuantizedKey
        var precision: Int
    }

    init(
        merged: FrameTimeline, softerMerged: (() -> StartFrames?)? = nil, reference: FrameTimeline, plays: Int,
        side: Int,
        options: FitOptions, exactIsPalette: Bool, exactSearchLevelBytes: Int? = nil, wantedPSNR: Double? = nil
    ) {
        self.exactSearchLevelBytes = exactSearchLevelBytes
        self.wantedPSNR = wantedPSNR
        self.merged = merged
        self.makeSofter = softerMerged
        self.reference = reference
        self.plays = plays
        self.side = side
        self.options = options
        self.exactIsPalette = exactIsPalette
    }

    /// Lets go of what is kept for candidates to come (the softer-scaled frames, the last
    /// palette's codes), each as large as the clip's frames or a quarter of them, once the
    /// search's file is found and only measuring it is left. Made again if asked for.
    mutating func letGoOfKeptFrames() {
        softerFrames = nil
        paletteFrames = nil
    }

    /// `plan`'s file at the strongest level; the ratio of the two levels corrected by it.
    private mutating func write(_ plan: PlannedAnimation) -> [UInt8] {
        // The softer-scaled frames are let go while a file is written (its plan holds what it
        // needs; the strongest level's compressors come on top), and made again, the same,
        // should another softer candidate follow.
        softerFrames = nil
        let bytes = plan.encode(level: options.compressionLevel, threads: options.threads).bytes
        // At the near-optimal levels (10-12) the encoder has let its compressors go (megabytes
        // each, which the search's own levels do not use); glibc would keep their pages, and
        // those of the frames freed since.
        malloc_trim(0)
        strongestRatio = Double(bytes.count) / Double(max(1, plan.searchLevelBytes))
        return bytes
    }

    /// A file the search wrote.
    struct Found {
        var recipe: LossyRecipe
        var bytes: [UInt8]
        var frames: Int
        var fidelity: Fidelity
        /// What was compared: each family's winner, this file's first, then by the PSNR listed.
        var compared: [Compared] = []
    }

    /// One family's winner as the search compared it.
    struct Compared {
        /// How far a candidate went.
        enum Outcome: Equatable {
            /// Written, and this search's file.
            case chosen
            /// Written and under the budget, but another file shows more.
            case written
            /// Predicted to fit and never written: another file was already better.
            case predicted
            /// Predicted to fit, but no setting of its family came under the budget written.
            case overBudget
            /// Predicted to fit at first, but no longer once a written file corrected the estimates.
            case noLongerFits
        }

        /// The recipe: the one written where it was, else the one predicted to fit.
        var recipe: LossyRecipe
        /// Its PSNR (`nil`: exact), measured on the file where it was written, else predicted.
        var psnr: Double?
        var outcome: Outcome
    }

    /// `recipe`'s file, `bytes`, showing frames already measured.
    private func found(_ recipe: LossyRecipe, _ shown: Shown, _ bytes: [UInt8]) -> Found {
        Found(recipe: recipe, bytes: bytes, frames: shown.frames, fidelity: shown.fidelity)
    }

    /// What a candidate's frames show, kept in place of the frames while its plan waits to be
    /// written (the frames take as much memory as the clip's).
    private struct Shown {
        var frames: Int
        var fidelity: Fidelity
    }

    /// `recipe`'s plan and what its frames show. The frames are made one at a time, three
    /// times or more (measured, counted for the colour model, planned) rather than held: they take as
    /// much memory as the clip's, and making them again from the frames' palette codes costs
    /// little next to planning them.
    private mutating func measuredPlan(_ recipe: LossyRecipe) -> (plan: PlannedAnimation, shown: Shown) {
        let (plan, shown) = planned(recipe, measuring: true)
        return (plan, shown!)
    }

    /// `recipe`'s plan, and with `measuring` what its frames show (``measuredPlan(_:)``).
    private mutating func planned(_ recipe: LossyRecipe, measuring: Bool) -> (plan: PlannedAnimation, shown: Shown?) {
        let thinned = thinnedDurations(recipe)
        // Which frames repeat the one before: merged into it, their times summed
        // (``FrameTimeline/mergingRepeats()``).
        var repeats: [Bool] = []
        var merging = FrameTimeline.RepeatMerging()
        func note(_ position: Int, _ frame: [UInt8]) {
            repeats.append(!merging.add(frame, shownFor: thinned[position]))
        }
        let fidelity = measuring ? fidelity(recipe, note) : nil
        if !measuring { forEachFrame(recipe, note) }
        let durations = merging.durations
        merging = FrameTimeline.RepeatMerging()  // the last frame let go before planning
        let plan = plan(delays: FrameDelay.stored(durations: durations)) { body in
            forEachFrame(recipe) { position, frame in
                if !repeats[position] { body(frame) }
            }
        }
        return (plan, fidelity.map { Shown(frames: durations.count, fidelity: $0) })
    }

    /// Every colour kept with fewer levels, 7 bits a channel down to 4: between the exact
    /// colours and a palette.
    static let precisionFamily = [7, 6, 5, 4].map { LossyRecipe(colors: nil, precision: $0) }

    /// Palette sizes tried, most colours first.
    static let paletteSizes = [256, 224, 192, 160, 128, 112, 96, 80, 64, 56, 48, 40, 32, 28, 24, 20, 16]

    /// The families searched with frame rates down to `minimumFramesPerSecond`: at every
    /// frame rate allowed (all frames first), the tolerance over a 256-colour palette and fewer
    /// colours; at the full rate, the tolerance alone; and every knob at once as the last resort.
    func families(minimumFramesPerSecond: Double) -> [[LossyRecipe]] {
        let animated = merged.count > 1
        let fullPalette: Int? = exactIsPalette ? nil : 256
        let fewer = Self.paletteSizes.filter { !exactIsPalette || $0 < 256 }
        guard animated else {
            let softer =
                !hasSofter
                ? [] : [[LossyRecipe(softerScaling: true)] + fewer.map { LossyRecipe(softerScaling: true, colors: $0) }]
            let precise = exactIsPalette ? [] : [Self.precisionFamily]
            return precise + [fewer.map { LossyRecipe(colors: $0) }] + softer
        }
        let steps = [1.0] + frameSteps(minimumFramesPerSecond: minimumFramesPerSecond)
        var families: [[LossyRecipe]] = [(1...48).map { LossyRecipe(colors: nil, tolerance: $0) }]
        if !exactIsPalette { families.append(Self.precisionFamily) }
        for step in steps {
            families.append(
                (0...48).map { LossyRecipe(colors: fullPalette, tolerance: $0, frameStep: step) }.filter {
                    $0 != LossyRecipe()
                })
            families.append(fewer.map { LossyRecipe(colors: $0, tolerance: 2, frameStep: step) })
        }
        families.append(
            steps.flatMap { step in [64, 32, 16].map { LossyRecipe(colors: $0, tolerance: 16, frameStep: step) } })
        if hasSofter {
            // The softer filter at the full rate: exact, then with a growing tolerance; over a
            // 256-colour palette; and with fewer colours.
            families.append((0...48).map { LossyRecipe(softerScaling: true, colors: nil, tolerance: $0) })
            families.append((0...48).map { LossyRecipe(softerScaling: true, colors: 256, tolerance: $0) })
            families.append(fewer.map { LossyRecipe(softerScaling: true, colors: $0, tolerance: 2) })
        }
        return families.filter { !$0.isEmpty }
    }

    /// Every frame step over 1 that keeps the rate at or above `minimumFramesPerSecond` and at
    /// least two frames.
    func frameSteps(minimumFramesPerSecond: Double) -> [Double] {
        let rate = merged.framesPerSecond
        guard merged.count > 1, rate > 0 else { return [] }
        // Whole steps to 8; half steps up to 4 (two of every three, five or seven frames), where
        // most clips land; four of every five and three of every four frames, so a clip just
        // over the budget at its full rate loses a fifth or a quarter of its frames rather than
        // a third (party-60fps-3s: 48 fps at 33.0 dB instead of 40 fps at 30.9 dB); past 8, a
        // step about a fifth longer than the last (10, 12, 15, 19, 24, ...), so a long clip
        // that needs a slide show's rate costs a few steps, not one per frame.
        var steps = [1.25, 4.0 / 3, 1.5, 2, 2.5, 3, 3.5, 4, 5, 6, 7, 8]
        while let last = steps.last, last < Double(merged.count) / 2 { steps.append((last * 1.25).rounded()) }
        // A step that keeps every frame of a short clip (four of every five of 4) is no step,
        // and one that keeps a single frame is a still, not an animation.
        return steps.filter {
            let kept = FrameTimeline.keptIndices(count: merged.count, step: $0).count
            return kept < merged.count && kept >= 2
        }.prefix { rate / $0 >= minimumFramesPerSecond - 1e-9 }.map { $0 }
    }

    /// The frames `recipe` gives, all of them at once, repeats merged: what the search measures
    /// and plans frame by frame (``fidelity(_:_:)``, ``measuredPlan(_:)``), whole.
    mutating func timeline(_ recipe: LossyRecipe) -> FrameTimeline {
        let durations = thinnedDurations(recipe)
        var frames: [[UInt8]] = []
        forEachFrame(recipe) { _, frame in frames.append(frame) }
        return FrameTimeline(frames: frames, durations: durations).mergingRepeats()
    }

    /// The display times of the frames `recipe` keeps of those it starts from (the Lanczos or
    /// the softer ones): the frames its frame rate drops are dropped, and the times of those
    /// kept lengthened to stand for them.
    private mutating func thinnedDurations(_ recipe: LossyRecipe) -> [Double] {
        FrameTimeline.durations(startFrames(recipe).durations, keepingEvery: recipe.frameStep)
    }

    /// The frames `recipe` starts from: the softer-scaled ones for a softer recipe, else the
    /// Lanczos ones.
    private mutating func startFrames(_ recipe: LossyRecipe) -> StartFrames {
        recipe.softerScaling ? softerMerged ?? StartFrames(merged) : StartFrames(merged)
    }

    /// Frames a recipe starts from, repeats merged, and their display times: the Lanczos-scaled
    /// frames themselves, or the softer-scaled ones as patches against them (``PatchedFrames``).
    struct StartFrames {
        var frames: PatchedFrames
        var durations: [Double]
        var count: Int { durations.count }

        /// `timeline`'s frames and times, its frames held as they are.
        init(_ timeline: FrameTimeline) {
            frames = PatchedFrames(timeline.frames)
            durations = timeline.durations
        }

        /// `frames`, shown for `durations`.
        init(frames: PatchedFrames, durations: [Double]) {
            self.frames = frames
            self.durations = durations
        }
    }

    /// Makes `recipe`'s frames one at a time, in order, each handed to `body` with its position
    /// among the frames kept. Frames are dropped first, so only the frames kept are coloured
    /// (colouring is pixel by pixel: the same pixels as colouring every frame and dropping
    /// after); each is coloured and held against the one before as it comes, so neither the
    /// coloured frames nor the held ones need all be held at once.
    private mutating func forEachFrame(_ recipe: LossyRecipe, _ body: (Int, [UInt8]) -> Void) {
        let start = startFrames(recipe)
        var previous: [UInt8]?
        for (position, index) in FrameTimeline.keptIndices(count: start.count, step: recipe.frameStep).enumerated() {
            let frame = coloured(index, recipe, from: start)
            let held = previous.map { InterframeTolerance.held(frame, over: $0, tolerance: recipe.tolerance) } ?? frame
            body(position, held)
            previous = held
        }
    }

    /// What `recipe`'s frames show against the reference (``Fidelity/compare(_:_:)`` of its
    /// ``timeline(_:)``), measured as the frames are made: each frame is compared with every
    /// reference frame that starts while it is shown and let go, so a candidate's frames are
    /// never all held just to rank it. Each frame is also handed to `alsoTo`, with its position
    /// among the frames kept.
    mutating func fidelity(_ recipe: LossyRecipe, _ alsoTo: (Int, [UInt8]) -> Void = { _, _ in }) -> Fidelity {
        let thinned = thinnedDurations(recipe)
        let reference = reference
        // The reference frames each kept frame is shown for (a shorter loop comes round again).
        let shownFor = FrameTimeline.referenceFramesShown(
            durations: thinned, atStartsOf: reference.durations)
        var worst = 0
        var squares = 0.0
        var samples = 0.0
        forEachFrame(recipe) { position, frame in
            alsoTo(position, frame)
            for index in shownFor[position] {
                let (sum, largest) = Fidelity.squaredDifferences(reference.frames[index], frame)
                // Whole numbers under 2^53: summed exactly in any order.
                squares += Double(sum)
                worst = max(worst, largest)
                samples += Double(frame.count)
            }
        }
        guard squares > 0 else { return .exact }
        return Fidelity(maxError: worst, psnr: Fidelity.psnr(squares: squares, samples: samples))
    }

    /// Frame `index` of `start` with `recipe`'s colours (its precision or its palette, chosen
    /// from all of `start`'s frames); before any tolerance.
    private mutating func coloured(_ index: Int, _ recipe: LossyRecipe, from start: StartFrames) -> [UInt8] {
        var frame = start.frames[index]
        if recipe.precision < 8 { frame = ColorPrecision.apply([frame], bits: recipe.precision)[0] }
        guard let colors = recipe.colors else { return frame }
        let palette = QuantizedKey(colors: colors, softerScaling: recipe.softerScaling)
        let key = ColouredKey(palette: palette, precision: recipe.precision)
        if paletteFrames?.key != key { paletteFrames = (key, remapper(palette, from: start), [:]) }
        if let known = paletteFrames!.frames[index] { return paletteFrames!.remapper.pixels(known) }
        let mapped = paletteFrames!.remapper.indexes(frame)
        paletteFrames!.frames[index] = mapped
        return paletteFrames!.remapper.pixels(mapped)
    }

    /// A remapper to the palette `key` names, chosen from all of `start`'s frames.
    private mutating func remapper(_ key: QuantizedKey, from start: StartFrames) -> PaletteQuantizer.Remapper {
        let quantizer = PaletteQuantizer(maxColors: key.colors, dither: options.dither)
        let palette =
            palettes[key]
            ?? {
                let histogram = histograms[key.softerScaling] ?? PaletteQuantizer.histogram(of: start.frames)
                histograms[key.softerScaling] = histogram
                return quantizer.palette(histogram)
            }()
        palettes[key] = palette
        return PaletteQuantizer.Remapper(quantizer, width: side, palette: palette)
    }

    /// The plan of the frames `frames` makes (the same each time it is called), shown for `delays`.
    private func plan(delays: [FrameDelay], _ frames: (_ body: ([UInt8]) -> Void) -> Void) -> PlannedAnimation {
        AnimationEncoder.plan(
            streaming: frames, delays: delays, width: side, height: side, plays: plays, options: planOptions)
    }

    /// Plans with a greedy search level (libdeflate 4): the choices differ little from the
    /// default search level's, at about half the time, and the file is written at the strongest.
    private var planOptions: AnimationEncoder.Options {
        .init(compressionLevel: options.compressionLevel, searchLevel: 4, threads: options.threads)
    }

    /// Pairs of consecutive frames an animation's estimate samples.
    static let sampledPairs = 8
    /// The most frames before each sampled pair that the inter-frame tolerance is carried over
    /// (as many as the tolerance, up to this), so a pixel held for a few frames is held in the
    /// sample too: a wide tolerance holds pixels longer.
    static let toleranceWindow = 8

    /// The second frames of the ``sampledPairs`` pairs of consecutive frames an estimate of
    /// `count` frames samples (all of them when there are no more), spread evenly from frame 1.
    static func sampledPositions(count: Int) -> [Int] {
        let pairs = min(sampledPairs, count - 1)
        return (0..<max(0, pairs)).map { 1 + $0 * (count - 1) / pairs }
    }

    /// The quick estimate of `recipe`'s file (made once, then remembered). An animation's is
    /// made from its first frame and ``sampledPairs`` pairs of consecutive frames spread over
    /// it, each with up to ``toleranceWindow`` frames before it: only those frames are coloured
    /// and held, not the whole clip. The pairs are made twice rather than all held (on a short
    /// clip they are nearly all of its frames): once for their colours, only as long as they can
    /// change the colour model, then as many at a time as there are threads, for their sizes.
    private mutating func estimate(_ recipe: LossyRecipe) -> Int {
        if let known = estimates[recipe] { return known }
        let start = startFrames(recipe)
        let kept = FrameTimeline.keptIndices(count: start.count, step: recipe.frameStep)
        let positions = Self.sampledPositions(count: kept.count)
        let before = min(recipe.tolerance, Self.toleranceWindow)
        // The pair ending at `position`; `nil` when it came out equal (a frame merged into the
        // one before, so not a change). The window's frames are coloured one at a time as the
        // tolerance reaches them.
        func changedPair(_ position: Int) -> (before: [UInt8], after: [UInt8])? {
            let first = max(0, position - 1 - before)
            let pair = InterframeTolerance.lastTwo(count: position - first + 1, tolerance: recipe.tolerance) {
                coloured(kept[first + $0], recipe, from: start)
            }
            return pair.before == pair.after ? nil : pair
        }
        var sample = SampledSizeEstimate(width: side, height: side, level: 1, threads: options.threads)
        let first = coloured(kept[0], recipe, from: start)
        sample.countColors(first)
        for position in positions where sample.needsColors {
            guard let pair = changedPair(position) else { continue }
            sample.countColors(pair.before)
            sample.countColors(pair.after)
        }
        sample.measureFirst(first)
        var changes = 0
        for batch in stride(from: 0, to: positions.count, by: max(1, options.threads)) {
            let pairs = positions[batch..<min(batch + max(1, options.threads), positions.count)].compactMap(changedPair)
            changes += pairs.count
            sample.measure(pairs)
        }
        let frameCount =
            positions.isEmpty
            ? 1 : 1 + Int((Double((kept.count - 1) * changes) / Double(positions.count)).rounded())
        let bytes = sample.bytes(frameCount: frameCount)
        estimates[recipe] = bytes
        return bytes
    }

    private func usesPalette(_ recipe: LossyRecipe) -> Bool { recipe.colors != nil || exactIsPalette }

    private func ratioKind(_ recipe: LossyRecipe) -> RatioKind {
        RatioKind(palette: usesPalette(recipe), reducedPrecision: !usesPalette(recipe) && recipe.precision < 8)
    }

    private mutating func predicted(_ recipe: LossyRecipe) -> Int {
        let kind = ratioKind(recipe)
        if levelRatios[kind] == nil {
            let planned = planned(recipe, measuring: false).plan.searchLevelBytes
            levelRatios[kind] = Double(planned) * strongestRatio / Double(max(1, estimate(recipe)))
        }
        return Int(Double(estimate(recipe)) * levelRatios[kind]!)
    }

    /// Whether `recipe`'s quick estimate alone says it is over the budget, before any plan
    /// has measured the estimate's ratio for its kind: a plan has come to 0.7-1.0 times the
    /// estimate on every clip measured, so 0.6 of it over the budget is over.
    private mutating func surelyOver(_ recipe: LossyRecipe) -> Bool {
        levelRatios[ratioKind(recipe)] == nil
            && Double(estimate(recipe)) * 0.6 * strongestRatio > Double(options.maxBytes)
    }

    /// The mildest recipe of `family` predicted to fit (the strongest is tried first); `nil`
    /// when even the strongest is predicted over.
    private mutating func mildestFitting(_ family: [LossyRecipe]) -> Int? {
        guard let strongest = family.indices.last, !surelyOver(family[strongest]),
            predicted(family[strongest]) <= options.maxBytes
        else { return nil }
        return mildestPredictedToFit(family, from: 0, fitting: strongest)
    }

    /// The mildest recipe of `family` from `lowest` on that is predicted to fit, where
    /// `fitting` is (``firstFitting(limit:from:fitting:value:)`` over predicted bytes).
    private mutating func mildestPredictedToFit(_ family: [LossyRecipe], from lowest: Int, fitting: Int) -> Int {
        Self.firstFitting(limit: Double(options.maxBytes), from: lowest, fitting: fitting) {
            Double(predicted(family[$0]))
        }
    }

    /// The smallest index from `lowest` to `fitting` whose `value` is at most `limit`, for
    /// values that fall as the index grows, `value(fitting)` being at most `limit`. Predicted
    /// bytes fall about evenly in their logarithm as a knob grows stronger, so each guess
    /// interpolates the logarithms between the nearest indexes known over and under the limit
    /// (or extrapolates from the last two under it while none is known over) to the first index
    /// past the crossing, whose milder neighbour is then the next guess; a guess that left more
    /// than half the range is followed by a halving. A family of 48 settings takes three to five
    /// values rather than the seven of bisection.
    static func firstFitting(limit: Double, from lowest: Int, fitting: Int, value: (Int) -> Double) -> Int {
        let target = log(limit)
        func logValue(_ index: Int) -> Double { log(max(1, value(index))) }
        var under = (index: fitting, value: logValue(fitting))
        var over: (index: Int, value: Double)?
        var previous: (index: Int, value: Double)?
        var halve = true
        while true {
            let low = (over?.index ?? lowest - 1) + 1
            let high = under.index - 1
            guard low <= high else { return under.index }
            var guess = (low + high + 1) / 2
            if !halve, let over, over.value > under.value {
                let fraction = (over.value - target) / (over.value - under.value)
                guess = over.index + Int((fraction * Double(under.index - over.index)).rounded(.up))
            } else if !halve, let previous, previous.index > under.index, previous.value < under.value {
                let slope = (under.value - previous.value) / Double(previous.index - under.index)
                guess = under.index - Int(((target - under.value) / slope).rounded(.down))
            }
            guess = min(max(guess, low), high)
            let guessed = (index: guess, value: logValue(guess))
            if guessed.value <= target {
                previous = under
                under = guessed
            } else {
                over = guessed
            }
            let left = under.index - ((over?.index ?? lowest - 1) + 1)
            halve = !halve && left * 2 > high - low + 1
        }
    }

    /// The best file under the budget with frame rates down to `minimumFramesPerSecond`, or `nil`.
    ///
    /// Families are searched best bound first: a family at a lower frame rate can at best show
    /// what dropping those frames alone shows (its colours and tolerance only lose more), so
    /// once a winner is at least that good, the family is not searched.
    mutating func run(minimumFramesPerSecond: Double) -> Found? {
        let exactKind = RatioKind(palette: exactIsPalette, reducedPrecision: false)
        if let exact = exactSearchLevelBytes, levelRatios[exactKind] == nil {
            // The exact file's plan calibrates its own kind: a ratio measured on a far stronger
            // recipe (a tolerance of 48) mispredicts the mild ones by a fifth either way.
            levelRatios[exactKind] = Double(exact) * strongestRatio / Double(max(1, estimate(LossyRecipe())))
        }
        let families = families(minimumFramesPerSecond: minimumFramesPerSecond)
        typealias Winner = (family: Int, index: Int, psnr: Double?)
        func rank(_ psnr: Double?) -> Double { psnr ?? .infinity }
        // Higher PSNR first (nil: exact); ties to the family listed first (the gentler kind of loss).
        func better(_ a: Winner, _ b: Winner) -> Bool {
            rank(a.psnr) > rank(b.psnr) || (rank(a.psnr) == rank(b.psnr) && a.family < b.family)
        }
        let order = searchOrder(families)
        // Families at frame rates where even the strongest recipe (16 colours, tolerance 16) is
        // predicted over the budget are not searched: fewer colours or a wider tolerance at
        // that rate would be needed, and no family has them.
        let feasible = firstFeasibleStep(minimumFramesPerSecond: minimumFramesPerSecond)
        var searched = Set(order.filter { families[$0].allSatisfy { $0.frameStep < feasible } })
        var waiting: [Winner] = []
        var compared: [Winner] = []
        // Family -> the file its settling wrote under the budget (`nil`: none did).
        var settled: [Int: (recipe: LossyRecipe, psnr: Double?)?] = [:]
        // Families no longer predicted to fit once a written file corrected the estimates.
        var noLongerFitting = Set<Int>()
        var result: Found?
        // What a candidate must be predicted above to be written after the best file so far.
        var resultRank = -Double.infinity
        // What a candidate must show to be written at all.
        let wanted = wantedPSNR.map { $0 - Self.floorMargin } ?? -.infinity
        while true {
            // Search every family that could still beat the best candidate (written or waiting).
            for number in order where !searched.contains(number) {
                let floor = max(resultRank, waiting.map { rank($0.psnr) }.max() ?? -.infinity)
                guard floor < bound(frameStep: families[number][0].frameStep) else { continue }
                searched.insert(number)
                guard let index = mildestFitting(families[number]) else { continue }
                let winner = (number, index, fidelity(families[number][index]).psnr)
                waiting.append(winner)
                compared.append(winner)
            }
            // Write the best candidate; one whose real file comes out over the budget gives way
            // to the next, and the families it kept from being searched are searched after all.
            guard let best = waiting.indices.min(by: { better(waiting[$0], waiting[$1]) }),
                rank(waiting[best].psnr) > resultRank
            else { break }
            if rank(waiting[best].psnr) < wanted {
                stoppedBelowFloor = true
                break
            }
            let winner = waiting.remove(at: best)
            // The softer-scaled frames are let go while a candidate of the Lanczos frames is
            // planned and written (they take as much memory as the clip's; made again, the same,
            // should a softer candidate be searched again after it).
            if !families[winner.family][0].softerScaling { softerFrames = nil }
            // The file written may be of a stronger setting than the one predicted to fit (and
            // so of a lower PSNR): candidates predicted clearly above what it shows are written
            // too, and the best file is kept.
            let found = settle(families[winner.family], from: winner.index)
            // Stored as a value even when nil (none fitted): assigning nil would remove the entry.
            settled.updateValue(found.map { ($0.recipe, $0.fidelity.psnr) }, forKey: winner.family)
            if let found {
                if result.map({ rank(found.fidelity.psnr) > rank($0.fidelity.psnr) }) ?? true { result = found }
                resultRank = rank(result!.fidelity.psnr) + Self.writtenMargin
            }
            // Settling corrected the estimate's ratios: the waiting candidates are found again
            // with them (their estimates are remembered), so none is written on a stale
            // prediction.
            waiting = waiting.compactMap { candidate in
                guard let index = mildestFitting(families[candidate.family]) else {
                    noLongerFitting.insert(candidate.family)
                    return nil
                }
                guard index != candidate.index else { return candidate }
                let updated = (
                    candidate.family, index,
                    fidelity(families[candidate.family][index]).psnr
                )
                if let listed = compared.firstIndex(where: { $0.family == candidate.family }) {
                    compared[listed] = updated
                }
                return updated
            }
        }
        // Each family as it ended, listed by the PSNR shown (measured where written).
        let listed = compared.map { winner -> (family: Int, compared: Compared) in
            let predicted = families[winner.family][winner.index]
            let entry: Compared
            switch settled[winner.family] {
            case .some(.some(let written)):
                let chosen = written.recipe == result?.recipe
                entry = Compared(recipe: written.recipe, psnr: written.psnr, outcome: chosen ? .chosen : .written)
            case .some(.none):
                entry = Compared(recipe: predicted, psnr: winner.psnr, outcome: .overBudget)
            case .none:
                let outcome: Compared.Outcome = noLongerFitting.contains(winner.family) ? .noLongerFits : .predicted
                entry = Compared(recipe: predicted, psnr: winner.psnr, outcome: outcome)
            }
            return (winner.family, entry)
        }
        .sorted { a, b in better((a.family, 0, a.compared.psnr), (b.family, 0, b.compared.psnr)) }
        .map(\.compared)
        result?.compared = listed.filter { $0.outcome == .chosen } + listed.filter { $0.outcome != .chosen }
        return result
    }

    /// How far above the best file written (in dB of PSNR) another candidate must be predicted
    /// to be written too: a prediction is of the mildest setting predicted to fit, and a few
    /// tenths of a dB are within what settling it to the budget takes away.
    static let writtenMargin = 0.3

    /// How far under ``wantedPSNR`` a candidate may be shown and still be written: the file
    /// written may be of a milder setting than the one predicted to fit (and so of a higher
    /// PSNR), by a step or two of its knob, a few tenths of a dB. (A file made at the floor is
    /// the same with any margin; a smaller one stops sooner and misses more of the files that
    /// land over their prediction.)
    static let floorMargin = 1.0

    /// The mildest frame step (1: all frames) at which 16 colours with a tolerance of 16 is
    /// predicted to fit, by bisection over the steps (bytes fall as the step grows); the last
    /// step when none is.
    private mutating func firstFeasibleStep(minimumFramesPerSecond: Double) -> Double {
        let steps = [1.0] + frameSteps(minimumFramesPerSecond: minimumFramesPerSecond)
        guard merged.count > 1, steps.count > 1 else { return 1 }
        func fits(_ step: Double) -> Bool {
            let recipe = LossyRecipe(colors: 16, tolerance: 16, frameStep: step)
            return !surelyOver(recipe) && predicted(recipe) <= options.maxBytes
        }
        var low = 0
        var high = steps.count - 1
        while low < high {
            let middle = (low + high) / 2
            if fits(steps[middle]) { high = middle } else { low = middle + 1 }
        }
        return steps[low]
    }

    /// The order families are searched in: by their first recipe's frame step, all frames
    /// first, the listed order kept within a step.
    private func searchOrder(_ families: [[LossyRecipe]]) -> [Int] {
        families.indices.sorted { (families[$0][0].frameStep, $0) < (families[$1][0].frameStep, $1) }
    }

    /// The highest PSNR a recipe keeping one frame in every `frameStep` can reach: that of the
    /// exact frames so thinned (infinite for all frames). Remembered per step; the squared
    /// differences of each pair of a reference frame and the exact frame shown in its place
    /// are remembered too, since the steps share most pairs.
    private mutating func bound(frameStep: Double) -> Double {
        guard frameStep > 1 else { return .infinity }
        if let known = bounds[frameStep] { return known }
        let kept = FrameTimeline.keptIndices(count: merged.count, step: frameStep)
        let thinned = merged.keepingEvery(frameStep)
        var squares = 0.0
        var samples = 0.0
        let shownAt = FrameTimeline.indicesShown(durations: thinned.durations, atStartsOf: reference.durations)
        for (index, position) in shownAt.enumerated() {
            let shown = kept[position]
            let pair = SIMD2(index, shown)
            let sum =
                pairSquares[pair]
                ?? {
                    let sum = Fidelity.squaredDifferences(reference.frames[index], merged.frames[shown]).sum
                    pairSquares[pair] = sum
                    return sum
                }()
            squares += Double(sum)
            samples += Double(reference.frames[index].count)
        }
        let psnr = squares > 0 ? Fidelity.psnr(squares: squares, samples: samples) : .infinity
        bounds[frameStep] = psnr
        return psnr
    }

    /// Writes the best candidate of `family` at the strongest level, starting at `start`.
    /// Candidates are planned (at the greedy search level) until one is predicted to fit within
    /// 5% of the budget, or its milder neighbour is planned over it; only then is it compressed
    /// at the strongest level. Every plan corrects the estimate's ratio (and the family is
    /// searched again with it), every strongest-level file the search level's ratio.
    private mutating func settle(_ family: [LossyRecipe], from start: Int) -> Found? {
        var index = start
        // Index -> predicted strongest-level bytes, and once written, the real ones.
        var planned: [Int: Int] = [:]
        // The last plan predicted under the budget and not written, kept for writing it later.
        var pending: (index: Int, shown: Shown, plan: PlannedAnimation)?
        // The last plan predicted just over the budget (within 12%), kept to be written when
        // its stronger neighbour is chosen.
        var justOver: (index: Int, shown: Shown, plan: PlannedAnimation)?
        for _ in 0..<8 {
            let recipe = family[index]
            let (plan, seen) = measuredPlan(recipe)
            levelRatios[ratioKind(recipe)] =
                Double(plan.searchLevelBytes) * strongestRatio / Double(max(1, estimate(recipe)))
            let predictedBytes = Int(Double(plan.searchLevelBytes) * strongestRatio)
            planned[index] = predictedBytes
            let milderOver = index == 0 || (planned[index - 1].map { $0 > options.maxBytes } ?? false)
            if predictedBytes <= options.maxBytes && (predictedBytes >= options.maxBytes * 95 / 100 || milderOver) {
                // A milder neighbour only predicted just over is written first: the strongest
                // level's ratio to the search level varies by a tenth from one sticker to the
                // next, so only writing it tells (a gradient at 7 bits: predicted 414,000 bytes
                // for 400,000, written 367,758).
                if let over = justOver, over.index == index - 1 {
                    let bytes = write(over.plan)
                    if bytes.count <= options.maxBytes { return found(family[over.index], over.shown, bytes) }
                    planned[over.index] = bytes.count
                    justOver = nil
                }
                let bytes = write(plan)
                if bytes.count <= options.maxBytes { return found(recipe, seen, bytes) }
                planned[index] = bytes.count
            } else if predictedBytes <= options.maxBytes {
                pending = (index, seen, plan)
            } else if predictedBytes <= options.maxBytes * 112 / 100 {
                justOver = (index, seen, plan)
            }
            // The next candidate: searched again between the nearest planned over the budget and
            // the nearest predicted under it, with the corrected ratios.
            let over = planned.filter { $0.value > options.maxBytes }.keys.max() ?? -1
            let under = planned.filter { $0.value <= options.maxBytes }.keys.min() ?? family.count
            guard over + 1 < family.count else { return nil }
            let low = over + 1
            var high = min(under, family.count - 1)
            if low > high { return nil }
            if predicted(family[high]) <= options.maxBytes {
                high = mildestPredictedToFit(family, from: low, fitting: high)
            }
            if planned[high] != nil && high == under && high > 0 && planned[high - 1] == nil {
                // Predictions say the milder neighbour is over, but only its plan can say that
                // the file lands as close under the budget as the knob allows: plan it.
                index = high - 1
                continue
            }
            if planned[high] != nil && high == under {
                // Only the recipe already predicted to fit is left: write it (planned already
                // when it is the last one planned under the budget).
                index = high
                let (plan, shown) =
                    pending.flatMap { $0.index == index ? ($0.plan, $0.shown) : nil } ?? measuredPlan(family[index])
                let bytes = write(plan)
                if bytes.count <= options.maxBytes { return found(family[index], shown, bytes) }
                planned[index] = bytes.count
                continue
            }
            index = high
        }
        // Out of tries: the mildest candidate planned under the budget, if any, is written.
        guard let pending else { return nil }
        let bytes = write(pending.plan)
        return bytes.count <= options.maxBytes ? found(family[pending.index], pending.shown, bytes) : nil
    }

    /// The smallest file the search reaches (for a failure's message): the strongest recipe of
    /// all (the fewest colours, then the fewest frames, then the widest tolerance), planned;
    /// of recipes as strong (a still's from either scaling), the one planned smaller.
    /// It is written at the strongest level only when that could bring it under the budget;
    /// otherwise the file is the plan's, at the search level (`atSearchLevel`), since a sticker
    /// that fails writes no file and the strongest level would take seconds to make one.
    mutating func smallest(minimumFramesPerSecond: Double) -> (found: Found, atSearchLevel: Bool)? {
        func strength(_ recipe: LossyRecipe) -> (Int, Double, Int) {
            (-(recipe.colors ?? 1 << 24), recipe.frameStep, recipe.tolerance)
        }
        let strongest = families(minimumFramesPerSecond: minimumFramesPerSecond).compactMap(\.last)
        guard let top = strongest.max(by: { strength($0) < strength($1) }) else { return nil }
        // Recipes as strong as each other (a still's 16 colours from the Lanczos frames and from
        // the softer ones): each is planned, and the one with the fewer bytes is the smallest.
        let tied = strongest.filter { strength($0) == strength(top) }
        var (recipe, (plan, seen)) = (top, measuredPlan(top))
        for other in tied where other != top {
            let planned = measuredPlan(other)
            if planned.plan.searchLevelBytes < plan.searchLevelBytes { (recipe, (plan, seen)) = (other, planned) }
        }
        // The strongest level has come to 0.79-0.95 of the search level's bytes on every clip measured.
        if Double(plan.searchLevelBytes) * 0.75 > Double(options.maxBytes) {
            return (found(recipe, seen, plan.encode(level: nil, threads: options.threads).bytes), true)
        }
        return (found(recipe, seen, write(plan)), false)
    }
}
