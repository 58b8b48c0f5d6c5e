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
/// - Rows take the best filter (`FilteredScanlines`) and the chosen frames are compressed
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

        /// Creates options; the defaults compress hardest.
        public init(
            compressionLevel: Int32 = 12, searchLevel: Int32 = 6, threads: Int = AnimationDecoder.defaultThreadCount
        ) {
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
    public static func encode(
        frames: [[UInt8]], delays: [FrameDelay], width: Int, height: Int, plays: Int,
        options: Options = Options()
    ) -> Encoded {
        plan(frames: frames, delays: delays, width: width, height: height, plays: plays, options: options)
            .encode(level: options.compressionLevel, threads: options.threads)
    }

    /// Chooses everything but the final compression: the colour type, each frame's rectangle,
    /// ops and filters. The result can be written at any level, and at the search level at once.
    public static func plan(
        frames: [[UInt8]], delays: [FrameDelay], width: Int, height: Int, plays: Int,
        options: Options = Options()
    ) -> PlannedAnimation {
        precondition(!frames.isEmpty && delays.count == frames.count)
        precondition(frames.allSatisfy { $0.count == width * height * 4 }, "frame size does not match the canvas")
        let model = PNGColorModel.smallest(for: frames)
        func planned(_ model: PNGColorModel) -> PlannedAnimation {
            let plans = FramePlanner(frames: frames, width: width, height: height, model: model, options: options)
                .plan()
            return PlannedAnimation(
                width: width, height: height, plays: plays, delays: delays, colorModel: model,
                plans: plans, searchLevel: options.searchLevel)
        }
        guard let unpacked = model.unpacked else { return planned(model) }
        // A palette of at most 16 colours can pack its indexes. Packed rows are smaller and
        // compress several times faster, but libdeflate's optimal parsing (levels 10-12) does
        // better on whole-byte indexes (the sample pack's 4-colour star: 28,889 bytes unpacked
        // against 29,836 packed at level 12, where level 6 prefers packed): the strongest
        // levels take 8-bit indexes, the others whichever compresses smaller.
        if options.compressionLevel >= 10 { return planned(unpacked) }
        let packed = planned(model)
        let whole = planned(unpacked)
        return whole.searchLevelBytes < packed.searchLevelBytes ? whole : packed
    }
}

extension AnimationEncoder {
    /// ``plan(frames:delays:width:height:plays:options:)`` of frames made on demand instead of
    /// held: `frames` hands every frame, in order, to the body it is given, the same frames each
    /// time it is called. It is called once to choose the colour model and once more for each
    /// model planned, and only two frames and a canvas are held meanwhile: for a caller that
    /// makes frames cheaply from something smaller than them (palette codes), a clip's frames
    /// never need all be in memory at once.
    public static func plan(
        streaming frames: (_ body: ([UInt8]) -> Void) -> Void, delays: [FrameDelay], width: Int, height: Int,
        plays: Int, options: Options = Options()
    ) -> PlannedAnimation {
        var census = ColorCensus()
        var previous: [UInt8]?
        var count = 0
        frames { frame in
            precondition(frame.count == width * height * 4, "frame size does not match the canvas")
            count += 1
            // Once neither a palette, RGB nor a colour key is possible, the rest is not read.
            guard census.anyModelLeft else { return }
            census.count(frame, after: previous)
            previous = frame
        }
        previous = nil
        precondition(count > 0 && delays.count == count)
        let model = census.model(frameCount: count)
        func planned(_ model: PNGColorModel) -> PlannedAnimation {
            var planning = FramePlanner.Planning(
                FramePlanner(frames: [], width: width, height: height, model: model, options: options))
            frames { planning.add($0) }
            return PlannedAnimation(
                width: width, height: height, plays: plays, delays: delays, colorModel: model,
                plans: planning.plans, searchLevel: options.searchLevel)
        }
        // The same choice of packed or whole-byte indexes as the plan of held frames.
        guard let unpacked = model.unpacked else { return planned(model) }
        if options.compressionLevel >= 10 { return planned(unpacked) }
        let packed = planned(model)
        let whole = planned(unpacked)
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
    public static func estimatedBytes(
        frames: [[UInt8]], width: Int, height: Int, sampleEvery: Int = 1, level: Int32 = 1,
        threads: Int = AnimationDecoder.defaultThreadCount
    ) -> Int {
        precondition(
            !frames.isEmpty && frames.allSatisfy { $0.count == width * height * 4 },
            "frame size does not match the canvas")
        let step = max(1, sampleEvery)
        var estimate = SampledSizeEstimate(width: width, height: height, level: level, threads: threads)
        for frame in frames { estimate.countColors(frame) }
        estimate.measureFirst(frames[0])
        estimate.measure(
            stride(from: 1, to: frames.count, by: step).map { (before: frames[$0 - 1], after: frames[$0]) })
        return estimate.bytes(frameCount: frames.count)
    }

    /// The same estimate from a sample of an animation rather than all of its frames: the first
    /// frame, and pairs of consecutive frames that differ (each pair's second frame cropped to
    /// what changed since its first), standing for the `frameCount - 1` changes of a file of
    /// `frameCount` frames. For a search over a long clip, where making every frame of each
    /// candidate would cost more than the estimate itself (``SampledSizeEstimate`` makes the same
    /// estimate from a sample handed over a piece at a time).
    public static func estimatedBytes(
        first: [UInt8], pairs: [(before: [UInt8], after: [UInt8])], frameCount: Int, width: Int, height: Int,
        level: Int32 = 1, threads: Int = AnimationDecoder.defaultThreadCount
    ) -> Int {
        var estimate = SampledSizeEstimate(width: width, height: height, level: level, threads: threads)
        estimate.countColors(first)
        for pair in pairs {
            estimate.countColors(pair.before)
            estimate.countColors(pair.after)
        }
        estimate.measureFirst(first)
        estimate.measure(pairs)
        return estimate.bytes(frameCount: frameCount)
    }
}
