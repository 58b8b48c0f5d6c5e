import CDeflate

#if canImport(Glibc)
    import Glibc
#endif

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
    public var searchLevelBytes: Int {
        plans.reduce(0) { $0 + $1.searchCompressed.count + 38 } + 8 + 25 + 20 + 12 + colorModelBytes
    }

    private var colorModelBytes: Int { colorModel.paletteChunkBytes }

    /// The file, compressed at `level` (`nil`: the search level, already done).
    public func encode(level: Int32?, threads: Int = AnimationDecoder.defaultThreadCount) -> AnimationEncoder.Encoded {
        let compressed: [[UInt8]]
        if let level, level != searchLevel {
            compressed = ParallelWork.map(plans, threads: threads) { PNGEncoder.zlib($0.rows(), level: level) }
            if CompressorPool.nearOptimalLevels.contains(level) { CompressorPool.shared.releaseIdle(level: level) }
        } else {
            compressed = plans.map(\.searchCompressed)
        }
        let animated = plans.count > 1
        var out = PNGSignature.bytes
        PNGEncoder.appendChunk(
            "IHDR",
            PNGEncoder.header(
                width: width, height: height, colorType: colorModel.colorType, bitDepth: colorModel.bitDepth), to: &out)
        if animated {
            PNGEncoder.appendChunk(
                "acTL", PNGEncoder.bigEndian(UInt32(plans.count)) + PNGEncoder.bigEndian(UInt32(max(0, plays))),
                to: &out)
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
            PNGEncoder.appendAPNGFrame(
                compressed[index], rect: plan.rect, delay: delays[index].apngFields, dispose: plan.dispose,
                blend: plan.blend, isFirst: index == 0, sequence: &sequence, to: &out)
        }
        PNGEncoder.appendChunk("IEND", [], to: &out)
        let choices = zip(plans, compressed).map { plan, data in
            AnimationEncoder.FrameChoice(
                rect: plan.rect, dispose: plan.dispose, blend: plan.blend, compressedBytes: data.count)
        }
        return AnimationEncoder.Encoded(bytes: out, colorModel: colorModel, frames: choices)
    }
}
