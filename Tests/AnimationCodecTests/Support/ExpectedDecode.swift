import AnimationCodec

/// What damaged bytes must decode to: the outcome, and what each decoded frame must equal.
/// The prefix rules are those of docs/formats.md ("Behaviour, where formats leave room")
/// applied to where a cut falls in a whole, valid file's structure, which the test walks
/// itself (``PNGChunkLayout``, ``GIFBlockLayout``).
struct ExpectedDecode {
    /// What a decoded frame must equal.
    enum Pixels: Equatable {
        /// The whole file's frame of that index.
        case wholeFileFrame(Int)
        /// The PNG's default image (IDAT), as libpng reads the whole file.
        case defaultImage
        /// A frame whose data the cut falls in: only its size is known.
        case unknown
    }

    var outcome: DecodeOutcome
    /// One entry per frame that must decode.
    var pixels: [Pixels] = []

    /// A PNG or APNG cut after `cut` bytes.
    ///
    /// - Fewer than the 8 signature bytes: no format is recognised.
    /// - A cut before the end of IHDR: a truncation error.
    /// - A cut inside a later chunk reads as a cut where that chunk starts, but one before any
    ///   whole IDAT is a truncation error.
    /// - A cut between chunks before IEND: decoded with a `truncated` warning, but an error if
    ///   the image data is short: no IDAT at all is a malformed file; part of a frame's zlib
    ///   stream fails that frame as corrupt compressed data.
    /// - An APNG whose cut leaves fewer `fcTL`s than `acTL` declares, or a frame without
    ///   data, is a broken animation: the default image alone, with `animationIgnored`.
    static func pngPrefix(cut: Int, layout: PNGChunkLayout, wholeFileFrames: Int) -> ExpectedDecode {
        let chunks = layout.chunks
        if cut == 0 { return ExpectedDecode(outcome: .failed(.emptyFile)) }
        if cut < 8 { return ExpectedDecode(outcome: .failed(.unknownFormat)) }
        guard let header = chunks.first, header.end <= cut else { return ExpectedDecode(outcome: .failed(.truncated)) }
        let insideChunk = !chunks.contains { $0.end == cut }
        let present = chunks.filter { $0.end <= cut }
        if present.contains(where: { $0.type == "IEND" }) {
            return ExpectedDecode(
                outcome: DecodeOutcome(frameCount: wholeFileFrames, framesDecoded: wholeFileFrames),
                pixels: (0..<wholeFileFrames).map { .wholeFileFrame($0) })
        }
        guard present.contains(where: { $0.type == "IDAT" }) else {
            return ExpectedDecode(outcome: .failed(insideChunk ? .truncated : .malformed(.png)))
        }

        // Each frame's data chunks in the whole file: an fcTL before IDAT makes IDAT frame 0's.
        var frames: [(control: PNGChunkLayout.Chunk, data: [PNGChunkLayout.Chunk])] = []
        for chunk in chunks {
            switch chunk.type {
            case "fcTL": frames.append((chunk, []))
            case "IDAT" where frames.count == 1,
                "fdAT" where !frames.isEmpty:
                frames[frames.count - 1].data.append(chunk)
            default: break
            }
        }
        let idat = chunks.filter { $0.type == "IDAT" }
        let isPresent = { (chunk: PNGChunkLayout.Chunk) in chunk.end <= cut }
        let isAPNG = chunks.contains { $0.type == "acTL" }
        var shown: [(pixels: Pixels, complete: Bool)] = [
            (isAPNG ? .defaultImage : .wholeFileFrame(0), idat.allSatisfy(isPresent))
        ]
        var warnings: Set<CodecWarning.Kind> = [.truncated]
        if let acTL = present.first(where: { $0.type == "acTL" }) {
            let declared = layout.number(in: acTL, at: 0)
            let kept = frames.filter { isPresent($0.control) }
            if kept.count == declared && kept.allSatisfy({ $0.data.contains(where: isPresent) }) {
                shown = kept.enumerated().map { (.wholeFileFrame($0.offset), $0.element.data.allSatisfy(isPresent)) }
            } else {
                warnings.insert(.animationIgnored)
            }
        }
        // Frames decode in order until the first whose zlib stream the cut shortens.
        let decodable = shown.prefix { $0.complete }.count
        let outcome = DecodeOutcome(
            frameCount: shown.count, warnings: warnings, framesDecoded: decodable,
            frameError: decodable < shown.count ? .corruptCompressedData : nil)
        return ExpectedDecode(outcome: outcome, pixels: shown.prefix(decodable).map(\.pixels))
    }

    /// A GIF cut after `cut` bytes.
    ///
    /// - Fewer than the 6 signature bytes: no format is recognised.
    /// - A cut before the first image's LZW code size byte (in the screen descriptor, the
    ///   colour table or the blocks before the image): a truncation error.
    /// - Otherwise every image whose data has begun is a frame (the last possibly partial),
    ///   with a `truncated` warning unless the trailer is there: "Truncated GIF: the frames
    ///   decoded so far (the last possibly partial), with a warning".
    static func gifPrefix(cut: Int, layout: GIFBlockLayout) -> ExpectedDecode {
        if cut == 0 { return ExpectedDecode(outcome: .failed(.emptyFile)) }
        if cut < 6 { return ExpectedDecode(outcome: .failed(.unknownFormat)) }
        guard let first = layout.images.first, cut > first.codeSizeOffset else {
            return ExpectedDecode(outcome: .failed(.truncated))
        }
        let begun = layout.images.filter { $0.codeSizeOffset < cut }
        let hasTrailer = layout.trailer.map { cut > $0 } ?? false
        let outcome = DecodeOutcome(
            frameCount: begun.count, warnings: hasTrailer ? [] : [.truncated], framesDecoded: begun.count)
        let pixels = begun.enumerated().map { index, image -> Pixels in
            image.dataEnd.map { $0 <= cut } == true ? .wholeFileFrame(index) : .unknown
        }
        return ExpectedDecode(outcome: outcome, pixels: pixels)
    }
}
