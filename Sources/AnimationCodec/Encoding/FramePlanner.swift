import CDeflate

#if canImport(Glibc)
    import Glibc
#endif

/// Chooses each frame's rectangle, blend op and the previous frame's dispose op.
struct FramePlanner {
    let frames: [[UInt8]]
    let width: Int
    let height: Int
    let model: PNGColorModel
    let options: AnimationEncoder.Options

    private var whole: FrameRect { FrameRect(x: 0, y: 0, width: width, height: height) }

    /// What frame `index` could be drawn on, and the dispose op of the frame before that gives it.
    private struct Base {
        var dispose: DisposeOp
        var pixels: [UInt8]
    }

    private struct Candidate: Sendable {
        var baseIndex: Int
        var rect: FrameRect
        var blend: BlendOp
    }

    func plan() -> [FramePlan] {
        var planning = Planning(self)
        for frame in frames { planning.add(frame) }
        return planning.plans
    }

    /// Plans frames as they come, in order: only the frame before and the canvas it was drawn
    /// on are held, so an animation made frame by frame never needs all of its frames at once.
    struct Planning {
        private let planner: FramePlanner
        /// Each frame's plan so far.
        private(set) var plans: [FramePlan] = []
        private var previous: [UInt8]?
        /// The canvas the previous frame was drawn on (before the first, the empty canvas:
        /// PREVIOUS on the first frame acts as BACKGROUND, which clears the whole canvas the
        /// frame covered).
        private var drawnOn: [UInt8]

        /// Planning with `planner`'s canvas, colour model and options (its frames are not read).
        init(_ planner: FramePlanner) {
            self.planner = planner
            drawnOn = [UInt8](repeating: 0, count: planner.width * planner.height * 4)
        }

        /// Plans the next frame.
        mutating func add(_ target: [UInt8]) {
            defer { previous = target }
            let planner = planner
            guard let before = previous else {
                let first = planner.bestRows(target, rect: planner.whole, over: nil)
                plans = [
                    FramePlan(
                        rect: planner.whole, dispose: .none, blend: .source, rowsCount: first.rows.count,
                        searchCompressed: first.compressed)
                ]
                return
            }
            var cleared = before
            planner.clear(plans[plans.count - 1].rect, in: &cleared)
            var bases = [Base(dispose: .none, pixels: before)]
            // With a colour key the canvas is never cleared by a dispose op: decoders that keep
            // an RGB canvas (Pillow) clear it to opaque black instead of transparent.
            if !planner.model.isColorKeyed {
                bases.append(Base(dispose: .background, pixels: cleared))
                if plans.count > 1 && drawnOn != cleared { bases.append(Base(dispose: .previous, pixels: drawnOn)) }
            }
            var candidates: [Candidate] = []
            for (baseIndex, base) in bases.enumerated() {
                let rect =
                    planner.changedRect(from: base.pixels, to: target) ?? FrameRect(x: 0, y: 0, width: 1, height: 1)
                candidates.append(Candidate(baseIndex: baseIndex, rect: rect, blend: .source))
                if planner.overIsExact(base: base.pixels, target: target, rect: rect) {
                    candidates.append(Candidate(baseIndex: baseIndex, rect: rect, blend: .over))
                }
            }
            let basePixels = bases.map(\.pixels)
            let sizes = ParallelWork.map(candidates, threads: planner.options.threads) { candidate -> Int in
                let over = candidate.blend == .over ? basePixels[candidate.baseIndex] : nil
                let data = planner.rows(target, rect: candidate.rect, over: over, strategy: planner.rankingStrategy)
                return PNGEncoder.zlib(data, level: planner.options.searchLevel).count
            }
            let chosen = candidates[sizes.indices.min { sizes[$0] < sizes[$1] }!]
            let over = chosen.blend == .over ? basePixels[chosen.baseIndex] : nil
            plans[plans.count - 1].dispose = bases[chosen.baseIndex].dispose
            let best = planner.bestRows(target, rect: chosen.rect, over: over)
            plans.append(
                FramePlan(
                    rect: chosen.rect, dispose: .none, blend: chosen.blend, rowsCount: best.rows.count,
                    searchCompressed: best.compressed))
            drawnOn = bases[chosen.baseIndex].pixels
        }
    }

    /// Frame `index`'s compressed size at the search level, cropped to what changed since the
    /// frame before and drawn OVER it where that is exact (frame 0: whole, on the empty canvas).
    func deltaBytes(index: Int) -> Int {
        guard index > 0 else {
            return PNGEncoder.zlib(
                rows(frames[0], rect: whole, over: nil, strategy: rankingStrategy), level: options.searchLevel
            ).count
        }
        let base = frames[index - 1]
        let target = frames[index]
        guard let rect = changedRect(from: base, to: target) else { return 0 }
        let over = overIsExact(base: base, target: target, rect: rect) ? base : nil
        return PNGEncoder.zlib(
            rows(target, rect: rect, over: over, strategy: rankingStrategy), level: options.searchLevel
        ).count
    }

    /// The strategy candidates are compared with: one cheap, typical choice per colour model.
    private var rankingStrategy: FilteredScanlines.Strategy {
        if case .palette = model { return .none }
        return .adaptive
    }

    /// The rows of `rect` with the filter strategy that compresses smallest at the search level
    /// (whole-image strategies differ by a fifth or more on flat art).
    ///
    /// The strategies are tried as many at a time as there are threads, and only the best so
    /// far is kept between rounds: each holds the rows and their stream, as large as the
    /// rectangle's pixels (a 1024 px icon's five would take 40 MB).
    private func bestRows(_ frame: [UInt8], rect: FrameRect, over base: [UInt8]?) -> (
        rows: [UInt8], compressed: [UInt8]
    ) {
        let strategies = FilteredScanlines.Strategy.allCases
        let perRound = max(1, options.threads)
        var best: (rows: [UInt8], compressed: [UInt8])?
        for first in stride(from: 0, to: strategies.count, by: perRound) {
            let round = Array(strategies[first..<min(first + perRound, strategies.count)])
            let tried = ParallelWork.map(round, threads: options.threads) {
                [self] strategy -> (rows: [UInt8], compressed: [UInt8]) in
                let data = rows(frame, rect: rect, over: base, strategy: strategy)
                return (data, PNGEncoder.zlib(data, level: options.searchLevel))
            }
            // The first of equal sizes wins, in the strategies' order.
            for candidate in tried where best.map({ candidate.compressed.count < $0.compressed.count }) ?? true {
                best = candidate
            }
        }
        return best!
    }

    private func rows(_ frame: [UInt8], rect: FrameRect, over base: [UInt8]?, strategy: FilteredScanlines.Strategy)
        -> [UInt8]
    {
        frame.withUnsafeBytes { raw in
            let canvas = raw.bindMemory(to: UInt32.self).baseAddress!
            guard let base else {
                return FilteredScanlines.make(
                    canvas: canvas, canvasWidth: width, rect: rect, model: model, strategy: strategy)
            }
            return base.withUnsafeBytes { under in
                FilteredScanlines.make(
                    canvas: canvas, canvasWidth: width, rect: rect, model: model,
                    unchangedFrom: under.bindMemory(to: UInt32.self).baseAddress!, strategy: strategy)
            }
        }
    }

    private func clear(_ rect: FrameRect, in pixels: inout [UInt8]) {
        for y in rect.y..<(rect.y + rect.height) {
            let start = (y * width + rect.x) * 4
            pixels.replaceSubrange(start..<(start + rect.width * 4), with: repeatElement(0, count: rect.width * 4))
        }
    }

    /// The smallest rectangle holding every pixel that differs, or `nil` when none does.
    private func changedRect(from base: [UInt8], to target: [UInt8]) -> FrameRect? {
        base.withUnsafeBytes { b in
            target.withUnsafeBytes { t in
                let before = b.bindMemory(to: UInt32.self)
                let after = t.bindMemory(to: UInt32.self)
                let rowBytes = width * 4
                var top = -1
                var bottom = -1
                var left = width
                var right = -1
                for y in 0..<height
                where memcmp(b.baseAddress! + y * rowBytes, t.baseAddress! + y * rowBytes, rowBytes) != 0 {
                    if top < 0 { top = y }
                    bottom = y
                    let row = y * width
                    var x = 0
                    while x < left && before[row + x] == after[row + x] { x += 1 }
                    left = min(left, x)
                    x = width - 1
                    while x > right && before[row + x] == after[row + x] { x -= 1 }
                    right = max(right, x)
                }
                guard top >= 0 else { return nil }
                return FrameRect(x: left, y: top, width: right - left + 1, height: bottom - top + 1)
            }
        }
    }

    /// Whether drawing the changed pixels OVER `base` (the unchanged ones stored transparent)
    /// gives `target` exactly: every changed pixel is opaque or lands on a transparent one, and
    /// the palette (if any) has a transparent entry.
    private func overIsExact(base: [UInt8], target: [UInt8], rect: FrameRect) -> Bool {
        if case .palette(let palette) = model, palette.transparentIndex == nil { return false }
        // Plain RGB has no transparent pixel to leave the base as it is.
        if case .rgb = model { return false }
        return base.withUnsafeBytes { b in
            target.withUnsafeBytes { t in
                let before = b.bindMemory(to: UInt32.self)
                let after = t.bindMemory(to: UInt32.self)
                for y in rect.y..<(rect.y + rect.height) {
                    for i in (y * width + rect.x)..<(y * width + rect.x + rect.width) where before[i] != after[i] {
                        if after[i] >> 24 != 0xFF && before[i] >> 24 != 0 { return false }
                    }
                }
                return true
            }
        }
    }
}
