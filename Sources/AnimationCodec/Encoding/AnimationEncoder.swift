import CDeflate
#if canImport(Glibc)
import Glibc
#endif

/// Encodes premultiplied canvases as the smallest exact PNG (one frame) or APNG we find.
///
/// - The colour type is the smallest that holds every pixel exactly (``PNGColorModel``).
/// - Each later frame is cropped to the pixels that differ from what it is drawn on, and the
///   previous frame's dispose op and this frame's blend op are chosen among every valid pair
///   by compressing each candidate (at ``Options/searchLevel``) and keeping the smallest.
/// - Rows take the best filter (``FilteredScanlines``) and the chosen frames are compressed
///   at ``Options/compressionLevel`` (libdeflate's 12 by default, its strongest), in parallel.
///
/// Decoding the result with any APNG decoder gives back `frames` exactly.
public enum AnimationEncoder {
    /// How hard to search and compress.
    public struct Options: Sendable, Hashable {
        /// The final compression level, libdeflate's 1-12.
        public var compressionLevel: Int32
        /// The level candidates are compared at.
        public var searchLevel: Int32
        /// Worker threads for comparing candidates and compressing frames.
        public var threads: Int

        /// Creates options; the defaults give the smallest files.
        public init(compressionLevel: Int32 = 12, searchLevel: Int32 = 6, threads: Int = AnimationDecoder.defaultThreadCount) {
            self.compressionLevel = compressionLevel
            self.searchLevel = searchLevel
            self.threads = threads
        }
    }

    /// How one frame was stored.
    public struct FrameChoice: Sendable, Hashable {
        /// The rectangle stored (the whole canvas for frame 0).
        public var rect: FrameRect
        /// What happens to the rectangle after the frame is shown.
        public var dispose: DisposeOp
        /// How the stored pixels meet the canvas.
        public var blend: BlendOp
        /// The frame's compressed data, in bytes.
        public var compressedBytes: Int
    }

    /// An encoded file and how it was made.
    public struct Encoded: Sendable {
        /// The PNG or APNG file.
        public var bytes: [UInt8]
        /// The colour type chosen.
        public var colorModel: PNGColorModel
        /// Each frame's rectangle and ops.
        public var frames: [FrameChoice]
    }

    /// Encodes `frames` (premultiplied RGBA8 canvases, `width * height * 4` bytes each),
    /// shown for `delays` and played `plays` times (0 = forever). One frame makes a plain PNG.
    public static func encode(frames: [[UInt8]], delays: [FrameDelay], width: Int, height: Int, plays: Int,
                              options: Options = Options()) -> Encoded {
        plan(frames: frames, delays: delays, width: width, height: height, plays: plays, options: options)
            .encode(level: options.compressionLevel, threads: options.threads)
    }

    /// Chooses everything but the final compression: the colour type, each frame's rectangle,
    /// ops and filters. The result can be written at any level, and at the search level at once.
    public static func plan(frames: [[UInt8]], delays: [FrameDelay], width: Int, height: Int, plays: Int,
                            options: Options = Options()) -> PlannedAnimation {
        precondition(!frames.isEmpty && delays.count == frames.count)
        precondition(frames.allSatisfy { $0.count == width * height * 4 }, "frame size does not match the canvas")
        let model = PNGColorModel.smallest(for: frames)
        func planned(_ model: PNGColorModel) -> PlannedAnimation {
            let plans = FramePlanner(frames: frames, width: width, height: height, model: model, options: options).plan()
            return PlannedAnimation(width: width, height: height, plays: plays, delays: delays, colorModel: model,
                                    plans: plans, searchLevel: options.searchLevel)
        }
        guard let unpacked = model.unpacked else { return planned(model) }
        // A palette of at most 16 colours can pack its indexes. Packed rows are smaller and
        // compress several times faster, but libdeflate's optimal parsing (levels 10-12) does
        // better on whole-byte indexes (the sample pack's 4-colour star: 28,889 bytes unpacked
        // against 29,836 packed at level 12, where level 6 prefers packed): the strongest
        // levels take 8-bit indexes, the others whichever compresses smaller.
        if options.compressionLevel >= 10 { return planned(unpacked) }
        let packed = planned(model), whole = planned(unpacked)
        return whole.searchLevelBytes < packed.searchLevelBytes ? whole : packed
    }
}

extension PNGColorModel {
    /// The PLTE and tRNS chunks' bytes (0 without a palette).
    var paletteChunkBytes: Int {
        if case .rgbKeyed = self { return 6 + 12 }
        guard case .palette(let palette) = self else { return 0 }
        return palette.colors.count * 3 + palette.colors.count + 24
    }
}

extension AnimationEncoder {
    /// A quick estimate of the encoded size, for searches that compare many candidates: the
    /// smallest exact colour type, every `sampleEvery`-th frame cropped to what changed since
    /// the frame before (drawn OVER it where that is exact), rows filtered with one typical
    /// strategy and compressed at `level`, the sampled frames' bytes scaled to all of them.
    /// Consistent rather than close: calibrate it against a real encode of the same content.
    public static func estimatedBytes(frames: [[UInt8]], width: Int, height: Int, sampleEvery: Int = 1, level: Int32 = 1,
                                      threads: Int = AnimationDecoder.defaultThreadCount) -> Int {
        precondition(!frames.isEmpty && frames.allSatisfy { $0.count == width * height * 4 }, "frame size does not match the canvas")
        let smallest = PNGColorModel.smallest(for: frames)
        let model = smallest.unpacked ?? smallest
        let planner = FramePlanner(frames: frames, width: width, height: height, model: model,
                                   options: .init(compressionLevel: level, searchLevel: level, threads: threads))
        let step = max(1, sampleEvery)
        let sampled = Array(stride(from: 1, to: frames.count, by: step))
        let sizes = ParallelWork.map(sampled, threads: threads) { planner.deltaBytes(index: $0) }
        let first = planner.deltaBytes(index: 0)
        let rest = sampled.isEmpty ? 0 : Double(sizes.reduce(0, +)) * Double(frames.count - 1) / Double(sampled.count)
        return first + Int(rest) + 38 * frames.count + 8 + 25 + 20 + 12 + model.paletteChunkBytes
    }
}

/// One frame as it will be stored: its rectangle, ops, filtered scanlines, and those
/// scanlines compressed at the search level.
struct FramePlan: Sendable {
    var rect: FrameRect
    var dispose: DisposeOp
    var blend: BlendOp
    var rows: [UInt8]
    var searchCompressed: [UInt8]
}

/// An animation whose colour type, rectangles, ops and filters are chosen (see
/// ``AnimationEncoder/plan(frames:delays:width:height:plays:options:)``).
public struct PlannedAnimation: Sendable {
    let width: Int
    let height: Int
    let plays: Int
    let delays: [FrameDelay]
    /// The colour type chosen.
    public let colorModel: PNGColorModel
    let plans: [FramePlan]
    let searchLevel: Int32

    /// The file's size at the search level, known without compressing again (the strongest
    /// level is rarely more than a tenth smaller).
    public var searchLevelBytes: Int { plans.reduce(0) { $0 + $1.searchCompressed.count + 38 } + 8 + 25 + 20 + 12 + colorModelBytes }

    private var colorModelBytes: Int { colorModel.paletteChunkBytes }

    /// The file, compressed at `level` (`nil`: the search level, already done).
    public func encode(level: Int32?, threads: Int = AnimationDecoder.defaultThreadCount) -> AnimationEncoder.Encoded {
        let compressed: [[UInt8]]
        if let level, level != searchLevel {
            compressed = ParallelWork.map(plans, threads: threads) { PNGEncoder.zlib($0.rows, level: level) }
        } else {
            compressed = plans.map(\.searchCompressed)
        }
        let animated = plans.count > 1
        var out = PNGSignature.bytes
        PNGEncoder.appendChunk("IHDR", PNGEncoder.header(width: width, height: height, colorType: colorModel.colorType, bitDepth: colorModel.bitDepth), to: &out)
        if animated {
            PNGEncoder.appendChunk("acTL", PNGEncoder.bigEndian(UInt32(plans.count)) + PNGEncoder.bigEndian(UInt32(max(0, plays))), to: &out)
        }
        if case .palette(let palette) = colorModel {
            PNGEncoder.appendChunk("PLTE", palette.plte, to: &out)
            let trns = palette.trns
            if !trns.isEmpty { PNGEncoder.appendChunk("tRNS", trns, to: &out) }
        }
        if case .rgbKeyed = colorModel { PNGEncoder.appendChunk("tRNS", colorModel.colorKeyChunk, to: &out) }
        var sequence: UInt32 = 0
        for (index, plan) in plans.enumerated() {
            guard animated else {
                PNGEncoder.appendChunk("IDAT", compressed[index], to: &out)
                continue
            }
            PNGEncoder.appendAPNGFrame(compressed[index], rect: plan.rect, delay: delays[index].storable, dispose: plan.dispose,
                                       blend: plan.blend, isFirst: index == 0, sequence: &sequence, to: &out)
        }
        PNGEncoder.appendChunk("IEND", [], to: &out)
        let choices = zip(plans, compressed).map { plan, data in
            AnimationEncoder.FrameChoice(rect: plan.rect, dispose: plan.dispose, blend: plan.blend, compressedBytes: data.count)
        }
        return AnimationEncoder.Encoded(bytes: out, colorModel: colorModel, frames: choices)
    }
}

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
        let first = bestRows(frames[0], rect: whole, over: nil)
        var plans = [FramePlan(rect: whole, dispose: .none, blend: .source, rows: first.rows, searchCompressed: first.compressed)]
        // The canvas frame i - 1 was drawn on (for i = 1, the empty canvas: PREVIOUS on the
        // first frame acts as BACKGROUND, which clears the whole canvas the frame covered).
        var drawnOn = [UInt8](repeating: 0, count: width * height * 4)
        for index in 1..<frames.count {
            let previous = plans[index - 1].rect
            var cleared = frames[index - 1]
            clear(previous, in: &cleared)
            var bases = [Base(dispose: .none, pixels: frames[index - 1])]
            // With a colour key the canvas is never cleared by a dispose op: decoders that keep
            // an RGB canvas (Pillow) clear it to opaque black instead of transparent.
            if !model.isColorKeyed {
                bases.append(Base(dispose: .background, pixels: cleared))
                if index > 1 && drawnOn != cleared { bases.append(Base(dispose: .previous, pixels: drawnOn)) }
            }
            var candidates: [Candidate] = []
            for (baseIndex, base) in bases.enumerated() {
                let rect = changedRect(from: base.pixels, to: frames[index]) ?? FrameRect(x: 0, y: 0, width: 1, height: 1)
                candidates.append(Candidate(baseIndex: baseIndex, rect: rect, blend: .source))
                if overIsExact(base: base.pixels, target: frames[index], rect: rect) {
                    candidates.append(Candidate(baseIndex: baseIndex, rect: rect, blend: .over))
                }
            }
            let target = frames[index], basePixels = bases.map(\.pixels)
            let sizes = ParallelWork.map(candidates, threads: options.threads) { [self] candidate -> Int in
                let over = candidate.blend == .over ? basePixels[candidate.baseIndex] : nil
                let data = rows(target, rect: candidate.rect, over: over, strategy: rankingStrategy)
                return PNGEncoder.zlib(data, level: options.searchLevel).count
            }
            let chosen = candidates[sizes.indices.min { sizes[$0] < sizes[$1] }!]
            let over = chosen.blend == .over ? basePixels[chosen.baseIndex] : nil
            plans[index - 1].dispose = bases[chosen.baseIndex].dispose
            let best = bestRows(target, rect: chosen.rect, over: over)
            plans.append(FramePlan(rect: chosen.rect, dispose: .none, blend: chosen.blend, rows: best.rows, searchCompressed: best.compressed))
            drawnOn = bases[chosen.baseIndex].pixels
        }
        return plans
    }

    /// Frame `index`'s compressed size at the search level, cropped to what changed since the
    /// frame before and drawn OVER it where that is exact (frame 0: whole, on the empty canvas).
    func deltaBytes(index: Int) -> Int {
        guard index > 0 else { return PNGEncoder.zlib(rows(frames[0], rect: whole, over: nil, strategy: rankingStrategy), level: options.searchLevel).count }
        let base = frames[index - 1], target = frames[index]
        guard let rect = changedRect(from: base, to: target) else { return 0 }
        let over = overIsExact(base: base, target: target, rect: rect) ? base : nil
        return PNGEncoder.zlib(rows(target, rect: rect, over: over, strategy: rankingStrategy), level: options.searchLevel).count
    }

    /// The strategy candidates are compared with: one cheap, typical choice per colour model.
    private var rankingStrategy: FilteredScanlines.Strategy {
        if case .palette = model { return .none }
        return .adaptive
    }

    /// The rows of `rect` with the filter strategy that compresses smallest at the search level
    /// (whole-image strategies differ by a fifth or more on flat art).
    private func bestRows(_ frame: [UInt8], rect: FrameRect, over base: [UInt8]?) -> (rows: [UInt8], compressed: [UInt8]) {
        let tried = ParallelWork.map(FilteredScanlines.Strategy.allCases, threads: options.threads) { [self] strategy -> ([UInt8], [UInt8]) in
            let data = rows(frame, rect: rect, over: base, strategy: strategy)
            return (data, PNGEncoder.zlib(data, level: options.searchLevel))
        }
        return tried.min { $0.1.count < $1.1.count }!
    }

    private func rows(_ frame: [UInt8], rect: FrameRect, over base: [UInt8]?, strategy: FilteredScanlines.Strategy) -> [UInt8] {
        frame.withUnsafeBytes { raw in
            let canvas = raw.bindMemory(to: UInt32.self).baseAddress!
            guard let base else {
                return FilteredScanlines.make(canvas: canvas, canvasWidth: width, rect: rect, model: model, strategy: strategy)
            }
            return base.withUnsafeBytes { under in
                FilteredScanlines.make(canvas: canvas, canvasWidth: width, rect: rect, model: model,
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
                let before = b.bindMemory(to: UInt32.self), after = t.bindMemory(to: UInt32.self)
                let rowBytes = width * 4
                var top = -1, bottom = -1, left = width, right = -1
                for y in 0..<height where memcmp(b.baseAddress! + y * rowBytes, t.baseAddress! + y * rowBytes, rowBytes) != 0 {
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
                let before = b.bindMemory(to: UInt32.self), after = t.bindMemory(to: UInt32.self)
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

extension FrameDelay {
    /// The delay as APNG's 16-bit fraction: as stored when it fits, else the nearest
    /// milliseconds, centiseconds or seconds that do.
    var storable: (UInt16, UInt16) {
        if (0...65535).contains(numerator) && (1...65535).contains(denominator) {
            return (UInt16(numerator), UInt16(denominator))
        }
        let seconds = max(0, self.seconds)
        for denominator in [1000, 100, 1] where (seconds * Double(denominator)).rounded() <= 65535 {
            return (UInt16((seconds * Double(denominator)).rounded()), UInt16(denominator))
        }
        return (65535, 1)
    }
}
