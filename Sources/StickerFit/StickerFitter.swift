import AnimationCodec
import FoundationEssentials
import StickerPack
import StickerRenderer

/// Fits one sticker to a size class and a byte budget: exact steps first, lossy ones only
/// while the file is still too large, stopping as soon as it passes.
///
/// 1. Exact: scale (premultiplied Lanczos 3) so the longer side is the size's side, pad to a
///    square, merge repeated frames, encode with ``AnimationEncoder``; the input file is kept
///    instead when nothing needed changing and it is smaller (a GIF stays a GIF that way).
/// 2. Lossy: a palette of at most 256 colours (``PaletteQuantizer``); for an opaque still, JPEG
///    at falling qualities; for an animation, a lower frame rate (never under
///    ``FitOptions/minimumFramesPerSecond``); then, if allowed, the next smaller size class.
/// 3. Otherwise a failure naming the smallest file reached.
public struct StickerFitter: Sendable {
    /// The budget and what may be given up.
    public var options: FitOptions

    /// Creates a fitter.
    public init(options: FitOptions = FitOptions()) {
        self.options = options
    }

    /// JPEG qualities tried for an opaque still, best first.
    static let jpegQualities = [92, 85, 75, 60, 45]

    /// Fits `sticker` to `size`; `label` is the accessibility label to write (default: the
    /// sticker's own, else its name).
    public func fit(_ sticker: Sticker, size: StickerSize, label: String? = nil) -> FittedSticker {
        let start = Date()
        var result = FittedSticker(name: sticker.name, accessibilityLabel: label ?? sticker.localizedDescription, sizeClass: size)
        result.bytesBefore = sticker.files.reduce(0) { total, url in
            total + (BoundedFile.size(url.path) ?? 0)
        }
        do {
            let animation = try StickerAnimation.load(sticker, limits: options.limits)
            result.framesBefore = animation.frameCount
            if case .sequence(let sequence) = sticker.source {
                try fitSequence(animation, sequence: sequence, size: size, into: &result)
            } else {
                let original = try BoundedFile.read(sticker.files[0].path, maxBytes: options.limits.maxFileBytes)
                try fitFile(animation, original: original, size: size, into: &result)
            }
        } catch {
            result.failure = "\(error)"
        }
        result.seconds = Date().timeIntervalSince(start)
        return result
    }

    /// The size classes to try, the asked-for one first.
    private func sizes(from size: StickerSize) -> [StickerSize] {
        guard options.allowSmallerSize else { return [size] }
        return StickerSize.allCases.filter { $0.pixels <= size.pixels }.sorted { $0.pixels > $1.pixels }
    }

    /// A candidate file.
    private struct Attempt {
        var bytes: [UInt8]
        var fileExtension: String
        var frames: Int
        var fidelity: Fidelity
        var size: StickerSize
    }

    private func fitFile(_ animation: StickerAnimation, original: [UInt8], size: StickerSize, into result: inout FittedSticker) throws {
        let shown = try animation.shownTimeline(threads: options.threads)
        let format = animation.fileInfos[0].format
        var smallest: (Attempt, [FitStep])?
        for (tried, target) in sizes(from: size).enumerated() {
            var steps = tried == 0 ? [] : [FitStep(.smallerSize, "\(size) -> \(target) (\(target.pixels) px)", isLossy: true)]
            let (scaled, geometry) = StickerGeometry.fit(shown.frames, width: animation.width, height: animation.height,
                                                         side: target.pixels, threads: options.threads)
            steps += geometry
            let reference = FrameTimeline(frames: scaled, durations: shown.durations)
            let merged = reference.mergingRepeats()
            if merged.count < reference.count {
                steps.append(FitStep(.mergeRepeats, "\(reference.count) -> \(merged.count) frames, delays summed"))
            }
            // Planning compresses every frame at the search level on the way; the strongest
            // level (rarely a tenth smaller, several times slower) runs only when it could fit.
            let planned = plan(merged, plays: animation.plays)
            let unchanged = geometry.isEmpty && merged.count == reference.count && format.isMessagesFormat
            let couldFit = planned.searchLevelBytes <= options.maxBytes * 5 / 4
            let couldBeatOriginal = !unchanged || planned.searchLevelBytes <= original.count * 5 / 4
            let level: Int32? = couldFit && couldBeatOriginal ? options.compressionLevel : nil
            let encoded = planned.encode(level: level, threads: options.threads)
            var attempt = Attempt(bytes: encoded.bytes, fileExtension: "png", frames: merged.count, fidelity: .exact, size: target)
            let levelName = level.map { "level \($0)" } ?? "search level (the strongest could not fit or beat the input)"
            var step = FitStep(.encode, "\(merged.count > 1 ? "APNG" : "PNG"), \(encoded.colorModel), \(levelName)", bytesAfter: encoded.bytes.count)
            if unchanged && original.count <= encoded.bytes.count {
                attempt = Attempt(bytes: original, fileExtension: format.fileExtension, frames: merged.count, fidelity: .exact, size: target)
                step = FitStep(.keepOriginal, "the \(format) input is smaller than the re-encoded \(merged.count > 1 ? "APNG" : "PNG") (\(encoded.bytes.count) bytes)", bytesAfter: original.count)
            }
            steps.append(step)
            if finish(attempt, steps: steps, into: &result) { return }
            smallest = pick(smallest, (attempt, steps))
            guard options.allowLossy else { continue }

            var lossy = merged
            if case .palette = encoded.colorModel {} else {
                lossy = FrameTimeline(frames: PaletteQuantizer().quantize(merged.frames), durations: merged.durations).mergingRepeats()
                attempt = try lossyAttempt(lossy, plays: animation.plays, reference: reference, size: target)
                steps.append(FitStep(.palette, "at most 256 colours with alpha (premultiplied median cut, no dither)", isLossy: true,
                                     bytesAfter: attempt.bytes.count, maxError: attempt.fidelity.maxError, psnr: attempt.fidelity.psnr))
                if finish(attempt, steps: steps, into: &result) { return }
                smallest = pick(smallest, (attempt, steps))
            }
            if merged.count == 1, RGBAImage(width: target.pixels, height: target.pixels, pixels: merged.frames[0]).isOpaque {
                for quality in Self.jpegQualities {
                    guard let jpeg = JPEGEncoder.encode(opaque: merged.frames[0], width: target.pixels, height: target.pixels, quality: quality) else { break }
                    let fidelity = try Fidelity.measure(jpeg, against: reference, limits: options.limits)
                    attempt = Attempt(bytes: jpeg, fileExtension: "jpg", frames: 1, fidelity: fidelity, size: target)
                    let jpegSteps = steps + [FitStep(.jpeg, "quality \(quality)", isLossy: true, bytesAfter: jpeg.count,
                                                     maxError: fidelity.maxError, psnr: fidelity.psnr)]
                    if finish(attempt, steps: jpegSteps, into: &result) { return }
                    smallest = pick(smallest, (attempt, jpegSteps))
                }
            }
            let framesPerSecond = lossy.framesPerSecond
            var keep = 2
            while lossy.count > 1 && framesPerSecond / Double(keep) >= options.minimumFramesPerSecond - 1e-9 {
                let reduced = lossy.keepingEvery(keep).mergingRepeats()
                attempt = try lossyAttempt(reduced, plays: animation.plays, reference: reference, size: target)
                let rateSteps = steps + [FitStep(.frameRate, String(cFormat: "%.1f -> %.1f fps, %ld -> %ld frames", framesPerSecond,
                                                                    framesPerSecond / Double(keep), lossy.count, reduced.count),
                                                 isLossy: true, bytesAfter: attempt.bytes.count,
                                                 maxError: attempt.fidelity.maxError, psnr: attempt.fidelity.psnr)]
                if finish(attempt, steps: rateSteps, into: &result) { return }
                smallest = pick(smallest, (attempt, rateSteps))
                keep += 1
            }
        }
        if let (attempt, steps) = smallest {
            result.steps = steps
            result.bytesAfter = attempt.bytes.count
            result.framesAfter = attempt.frames
            result.fidelity = attempt.fidelity
            result.sizeClass = attempt.size
            result.failure = "cannot fit in \(options.maxBytes) bytes: the smallest reached is \(attempt.bytes.count) bytes"
                + " (\(attempt.size), \(attempt.frames) frame(s)\(steps.contains { $0.isLossy } ? ", after every lossy step allowed" : ", lossless")"
                + (options.allowSmallerSize || attempt.size == .small ? ")" : "; --allow-smaller-size may help)")
        }
    }

    /// A lossy candidate: planned (which compresses at the search level on the way), written
    /// at the strongest level only when it could fit, and measured against the scaled original.
    private func lossyAttempt(_ timeline: FrameTimeline, plays: Int, reference: FrameTimeline, size: StickerSize) throws -> Attempt {
        let planned = plan(timeline, plays: plays)
        let level: Int32? = planned.searchLevelBytes <= options.maxBytes * 5 / 4 ? options.compressionLevel : nil
        let bytes = planned.encode(level: level, threads: options.threads).bytes
        let fidelity = try Fidelity.measure(bytes, against: reference, limits: options.limits)
        return Attempt(bytes: bytes, fileExtension: "png", frames: timeline.count, fidelity: fidelity, size: size)
    }

    private func encode(_ timeline: FrameTimeline, plays: Int, level: Int32) -> AnimationEncoder.Encoded {
        plan(timeline, plays: plays).encode(level: level, threads: options.threads)
    }

    private func plan(_ timeline: FrameTimeline, plays: Int) -> PlannedAnimation {
        let side = Int(Double(timeline.frames[0].count / 4).squareRoot())
        return AnimationEncoder.plan(frames: timeline.frames, delays: timeline.delays, width: side, height: side, plays: plays,
                                     options: .init(compressionLevel: options.compressionLevel, threads: options.threads))
    }

    /// Records `attempt` as the result when it is within the budget; whether it was.
    private func finish(_ attempt: Attempt, steps: [FitStep], into result: inout FittedSticker) -> Bool {
        guard attempt.bytes.count <= options.maxBytes else { return false }
        result.output = .file(name: result.name + "." + attempt.fileExtension, bytes: attempt.bytes)
        result.steps = steps
        result.bytesAfter = attempt.bytes.count
        result.framesAfter = attempt.frames
        result.fidelity = attempt.fidelity
        result.sizeClass = attempt.size
        return true
    }

    private func pick(_ current: (Attempt, [FitStep])?, _ candidate: (Attempt, [FitStep])) -> (Attempt, [FitStep]) {
        guard let current else { return candidate }
        return candidate.0.bytes.count < current.0.bytes.count ? candidate : current
    }

    /// A sequence stays a sequence: each still is fitted on its own (every file is under the
    /// budget), and the timing is kept.
    private func fitSequence(_ animation: StickerAnimation, sequence: StickerSequence, size: StickerSize,
                             into result: inout FittedSticker) throws {
        var files: [(name: String, bytes: [UInt8])] = []
        var worst = Fidelity.exact
        var steps: [FitStep] = []
        for index in 0..<animation.frameCount {
            let still = try animation.frame(at: index)
            let (scaled, geometry) = StickerGeometry.fit([still.pixels], width: still.width, height: still.height,
                                                         side: size.pixels, threads: options.threads)
            if index == 0 { steps += geometry }
            let reference = FrameTimeline(frames: scaled, durations: [1])
            var bytes = encode(reference, plays: 1, level: options.compressionLevel).bytes
            var fidelity = Fidelity.exact
            if bytes.count > options.maxBytes && options.allowLossy {
                let quantized = FrameTimeline(frames: PaletteQuantizer().quantize(scaled), durations: [1])
                bytes = encode(quantized, plays: 1, level: options.compressionLevel).bytes
                fidelity = try Fidelity.measure(bytes, against: reference, limits: options.limits)
                steps.append(FitStep(.palette, "frame \(index + 1): at most 256 colours", isLossy: true, bytesAfter: bytes.count,
                                     maxError: fidelity.maxError, psnr: fidelity.psnr))
            }
            if bytes.count > options.maxBytes {
                result.failure = "frame \(index + 1) of the sequence cannot fit in \(options.maxBytes) bytes: the smallest reached is \(bytes.count) bytes"
            }
            worst = worst.worse(fidelity)
            files.append((result.name + String(cFormat: "-%02ld.png", index + 1), bytes))
        }
        steps.append(FitStep(.encode, "\(files.count) PNG frames, sequence timing kept", bytesAfter: files.reduce(0) { $0 + $1.bytes.count }))
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
        }
    }
}
