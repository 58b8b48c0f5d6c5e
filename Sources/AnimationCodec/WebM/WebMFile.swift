/// A WebM file's structure, read by our own EBML reader: the video track (VP8 or VP9), its
/// canvas and colour description, and every block of it, in decoding order, with its time and
/// where its bitstream and its alpha bitstream (Matroska BlockAdditions, `BlockAddID` 1) lie.
///
/// Telegram's video stickers are this: VP9 with an alpha channel, 512 px, up to 3 s. Other
/// tracks are skipped (an audio track with a ``CodecWarning/Kind/soundLeftOut`` warning, since a
/// sticker plays without sound); laced video blocks and encrypted or compressed tracks are refused.
struct WebMFile: Sendable {
    /// The two video codecs WebM carries.
    enum Codec: String, Sendable {
        case vp8 = "V_VP8"
        case vp9 = "V_VP9"
    }

    /// One video block: a frame's bitstream (a VP9 superframe counts as one) and its alpha.
    struct Block: Sendable {
        /// Presentation time in nanoseconds.
        var time: Int64
        var payload: Range<Int>
        /// The alpha plane's own VP8/VP9 bitstream, when the block carries one.
        var alpha: Range<Int>?
        /// Whether the container marks the block as a keyframe (decoding may start there).
        var isKeyframe: Bool
        /// The BlockGroup's BlockDuration, in nanoseconds, when it has one.
        var duration: Int64?
    }

    var codec: Codec
    var width: Int
    var height: Int
    /// Whether the track declares an alpha stream (`AlphaMode` 1).
    var hasAlpha: Bool
    /// The container's colour description (`Colour`), when it gives one.
    var matrix: YUVMatrix?
    var isFullRange: Bool?
    var blocks: [Block]
    /// For each block, the last keyframe at or before it: where decoding it may start.
    var keyframes: [Int]
    /// Each block's display time, from the next block's time (the last: its BlockDuration or
    /// the track's DefaultDuration, made what is left of the segment's Duration where the two
    /// differ by less than a tick, as a browser plays it; else what is left of the Duration).
    var delays: [FrameDelay]
    /// What reading the file worked around: a file cut short gives the frames of its whole
    /// blocks, as browsers play them.
    var warnings: [CodecWarning] = []

    /// Parses `bytes`, checking the canvas and the frame count against `limits` before any
    /// frame is decoded.
    init(parsing bytes: [UInt8], limits: DecodingLimits) throws(CodecError) {
        var parser = WebMParser(reader: EBMLReader(bytes: bytes), limits: limits)
        try parser.parse()
        // A file cut before its first whole block has nothing to show.
        if let cut = parser.endedEarly, parser.videoTrack == nil || parser.blocks.isEmpty {
            throw .truncated(context: "WebM \(cut); no video block before it is whole")
        }
        guard let track = parser.videoTrack else {
            throw .malformed(format: .webm, reason: "no VP8 or VP9 video track")
        }
        let blocks = parser.blocks
        guard !blocks.isEmpty else { throw .noImageData }
        guard blocks[0].isKeyframe else {
            throw .malformed(format: .webm, reason: "the first video block is not a keyframe")
        }
        try limits.checkAnimation(frames: blocks.count, width: track.width, height: track.height)
        codec = track.codec
        width = track.width
        height = track.height
        hasAlpha = track.alphaMode == 1
        matrix = track.matrix
        isFullRange = track.isFullRange
        self.blocks = blocks
        var lastKeyframe = 0
        keyframes = blocks.indices.map { index in
            if blocks[index].isKeyframe { lastKeyframe = index }
            return lastKeyframe
        }
        // A cut file's Duration is the whole clip's, not where its last whole block ends.
        delays = Self.delays(
            of: blocks, defaultDuration: track.defaultDuration,
            segmentEnd: parser.endedEarly == nil ? parser.segmentDuration : nil, tick: parser.timestampScale)
        if !parser.soundCodecs.isEmpty {
            // A file's own names, each once, at most three.
            var distinct: [String] = []
            for codec in parser.soundCodecs where !distinct.contains(codec) && distinct.count < 3 {
                distinct.append(codec)
            }
            let codecs = distinct.joined(separator: ", ")
            warnings.append(
                CodecWarning(
                    .soundLeftOut,
                    "the WebM's sound (\(counted(parser.soundCodecs.count, "audio track")): \(codecs)) is left out: stickers play without sound"
                ))
        }
        if let cut = parser.endedEarly {
            warnings.append(
                CodecWarning(
                    .truncated, "WebM \(cut); what is whole before it shows: \(counted(blocks.count, "frame"))"))
        }
    }

    /// Delays in microseconds: the gap to the next block's time (0 when times go backwards).
    private static func delays(of blocks: [Block], defaultDuration: Int64?, segmentEnd: Int64?, tick: Int64)
        -> [FrameDelay]
    {
        var delays: [FrameDelay] = []
        delays.reserveCapacity(blocks.count)
        for index in blocks.indices {
            let nanoseconds: Int64
            let remainder = segmentEnd.map { $0 - blocks[index].time }.flatMap { $0 > 0 ? $0 : nil }
            if index + 1 < blocks.count {
                nanoseconds = blocks[index + 1].time - blocks[index].time
            } else if let duration = blocks[index].duration ?? defaultDuration {
                // What is left of the segment's Duration, where a browser's video ends and loops,
                // when it only undoes the rounding of times to whole ticks: 120 frames at 60 fps
                // stored in milliseconds end at 1983 ms, the DefaultDuration says 16.67 ms more,
                // and the Duration says 2000. A Duration further off (a longer audio track, or
                // any number a file writes) leaves the frame its own duration.
                if let remainder, abs(remainder - duration) < tick {
                    nanoseconds = remainder
                } else {
                    nanoseconds = duration
                }
            } else if let remainder {
                nanoseconds = remainder
            } else {
                nanoseconds = index > 0 ? blocks[index].time - blocks[index - 1].time : 0
            }
            delays.append(FrameDelay(numerator: Int(max(0, nanoseconds) / 1000), denominator: 1_000_000))
        }
        return delays
    }
}

/// The Matroska element IDs a WebM reader needs (Matroska's specification, RFC 9559).
enum MatroskaID {
    static let ebml: UInt32 = 0x1A45_DFA3
    static let docType: UInt32 = 0x4282
    static let segment: UInt32 = 0x1853_8067
    static let info: UInt32 = 0x1549_A966
    static let timestampScale: UInt32 = 0x2AD7B1
    static let duration: UInt32 = 0x4489
    static let tracks: UInt32 = 0x1654_AE6B
    static let trackEntry: UInt32 = 0xAE
    static let trackNumber: UInt32 = 0xD7
    static let trackType: UInt32 = 0x83
    static let codecID: UInt32 = 0x86
    static let defaultDuration: UInt32 = 0x23E383
    static let contentEncodings: UInt32 = 0x6D80
    static let video: UInt32 = 0xE0
    static let pixelWidth: UInt32 = 0xB0
    static let pixelHeight: UInt32 = 0xBA
    static let alphaMode: UInt32 = 0x53C0
    static let colour: UInt32 = 0x55B0
    static let matrixCoefficients: UInt32 = 0x55B1
    static let range: UInt32 = 0x55B9
    static let cluster: UInt32 = 0x1F43_B675
    static let timestamp: UInt32 = 0xE7
    static let simpleBlock: UInt32 = 0xA3
    static let blockGroup: UInt32 = 0xA0
    static let block: UInt32 = 0xA1
    static let blockDuration: UInt32 = 0x9B
    static let referenceBlock: UInt32 = 0xFB
    static let blockAdditions: UInt32 = 0x75A1
    static let blockMore: UInt32 = 0xA6
    static let blockAddID: UInt32 = 0xEE
    static let blockAdditional: UInt32 = 0xA5
    /// Elements that live directly in a Segment: one of them ends a Cluster of unknown size.
    static let segmentChildren: Set<UInt32> = [
        0x114D_9B74, info, tracks, cluster, 0x1C53_BB6B, 0x1043_A770, 0x1254_C367, 0x1941_A469
    ]
}

/// The walk over a WebM file's elements that ``WebMFile`` is made from.
private struct WebMParser {
    struct VideoTrack {
        var number: UInt64
        var codec: WebMFile.Codec
        var width: Int
        var height: Int
        var alphaMode: UInt64 = 0
        var defaultDuration: Int64?
        var matrix: YUVMatrix?
        var isFullRange: Bool?
    }

    let reader: EBMLReader
    let limits: DecodingLimits
    var videoTrack: VideoTrack?
    var blocks: [WebMFile.Block] = []
    /// The CodecID of each audio track (`A_OPUS`, `A_VORBIS`), in the file's order.
    var soundCodecs: [String] = []
    /// The segment's Duration in nanoseconds, when the Info gives one.
    var segmentDuration: Int64?
    /// Nanoseconds per timestamp tick (Matroska's default is 1 ms).
    var timestampScale: Int64 = 1_000_000
    /// Blocks seen of the video track, or of any track before the Tracks element.
    var blockCount = 0
    /// Where the file ends early ("ends at byte N, before the end of a Cluster"), when it is cut
    /// short: the file holds fewer bytes than an element's size declares.
    var endedEarly: String?

    init(reader: EBMLReader, limits: DecodingLimits) {
        self.reader = reader
        self.limits = limits
    }

    mutating func parse() throws(CodecError) {
        let end = reader.bytes.count
        let header = try reader.element(at: 0, end: end)
        guard header.id == MatroskaID.ebml else { throw .malformed(format: .webm, reason: "no EBML header") }
        let docType = try reader.children(of: header).first { $0.id == MatroskaID.docType }.map(reader.string)
        guard docType == "webm" else {
            throw .malformed(
                format: .webm, reason: "EBML DocType is \(docType.map { "\"\($0)\"" } ?? "missing"), not \"webm\"")
        }
        var offset = header.data.upperBound
        while offset < end {
            let element = try reader.element(at: offset, end: end, cutAtFileEnd: true)
            if element.id == MatroskaID.segment {
                if element.isCut { noteCut(inside: "the Segment") }
                try parseSegment(element)
                return
            }
            offset = element.data.upperBound
        }
        throw .truncated(context: "no Segment after the EBML header")
    }

    /// Notes that the file ends before the end of `element`: what is whole before it is read.
    private mutating func noteCut(inside element: String) {
        if endedEarly == nil { endedEarly = "ends at byte \(reader.bytes.count), before the end of \(element)" }
    }

    /// The element at `offset` inside `parent`, or `nil` (the cut noted as inside `name`) when
    /// the file ends inside its header, or inside its data unless `cutAtFileEnd` reads such an
    /// element in part (``EBMLReader/element(at:end:cutAtFileEnd:)``).
    private mutating func element(
        at offset: Int, in parent: EBMLElement, named name: String, cutAtFileEnd: Bool = false
    ) throws(CodecError) -> EBMLElement? {
        do {
            return try reader.element(at: offset, end: parent.data.upperBound, cutAtFileEnd: cutAtFileEnd)
        } catch {
            guard case .truncated = error else { throw error }
            noteCut(inside: name)
            return nil
        }
    }

    private mutating func parseSegment(_ segment: EBMLElement) throws(CodecError) {
        var offset = segment.data.lowerBound
        while offset < segment.data.upperBound {
            guard var element = try element(at: offset, in: segment, named: "the Segment", cutAtFileEnd: true) else {
                return
            }
            switch element.id {
            case MatroskaID.info, MatroskaID.tracks:
                // Neither can be read in part: a cut one is a file that cannot be shown.
                guard !element.isCut else {
                    throw .truncated(
                        context:
                            "WebM ends at byte \(reader.bytes.count), before the end of its \(element.id == MatroskaID.info ? "Info" : "Tracks")"
                    )
                }
                if element.id == MatroskaID.info { try parseInfo(element) } else { try parseTracks(element) }
            case MatroskaID.cluster:
                // A Cluster of unknown size, or one the file ends inside, ends where the next
                // element of the Segment starts.
                if element.isCut { noteCut(inside: "a Cluster") }
                if element.hasUnknownSize || element.isCut {
                    element.data = element.data.lowerBound..<unknownClusterEnd(element)
                }
                try parseCluster(element)
            default:
                // A Segment's other children (SeekHead, Cues, Tags, ...) are of no use here;
                // one of unknown size would swallow the rest, so nothing follows it.
                if element.isCut {
                    noteCut(inside: "element \(hexID(element.id))")
                    return
                }
            }
            offset = element.data.upperBound
        }
    }

    /// Where a Cluster of unknown size ends: at the next element that belongs to the Segment.
    private func unknownClusterEnd(_ cluster: EBMLElement) -> Int {
        var offset = cluster.data.lowerBound
        while offset < cluster.data.upperBound,
            let child = try? reader.element(at: offset, end: cluster.data.upperBound)
        {
            if MatroskaID.segmentChildren.contains(child.id) { return offset }
            if child.hasUnknownSize { break }
            offset = child.data.upperBound
        }
        return cluster.data.upperBound
    }

    private mutating func parseInfo(_ info: EBMLElement) throws(CodecError) {
        var duration: Double?
        for child in try reader.children(of: info) {
            switch child.id {
            case MatroskaID.timestampScale:
                let scale = try reader.unsigned(child)
                guard (1...1_000_000_000).contains(scale) else {
                    throw .malformed(format: .webm, reason: "TimestampScale \(scale) ns is out of range")
                }
                timestampScale = Int64(scale)
            case MatroskaID.duration: duration = try reader.float(child)
            default: break
            }
        }
        if let duration, duration.isFinite, duration > 0,
            duration * Double(timestampScale) < Double(Self.maxNanoseconds)
        {
            segmentDuration = Int64(duration * Double(timestampScale))
        }
    }

    private mutating func parseTracks(_ tracks: EBMLElement) throws(CodecError) {
        for entry in try reader.children(of: tracks) where entry.id == MatroskaID.trackEntry {
            if let codec = try soundCodec(of: entry) {
                soundCodecs.append(codec)
            } else if videoTrack == nil {
                videoTrack = try parseTrackEntry(entry)
            }
        }
        if let videoTrack {
            try limits.checkCanvas(width: videoTrack.width, height: videoTrack.height)
        }
    }

    /// The entry's CodecID when it is an audio track (TrackType 2), else `nil`.
    private func soundCodec(of entry: EBMLElement) throws(CodecError) -> String? {
        var type: UInt64?
        var codecID: String?
        for child in try reader.children(of: entry) {
            switch child.id {
            case MatroskaID.trackType: type = try reader.unsigned(child)
            case MatroskaID.codecID: codecID = reader.string(child)
            default: break
            }
        }
        guard type == 2 else { return nil }
        // A name a file makes up is shown as printable ASCII, at most 32 characters.
        let printable = (codecID ?? "").unicodeScalars.filter { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F }
        return printable.isEmpty ? "no CodecID" : String(String.UnicodeScalarView(printable.prefix(32)))
    }

    /// The entry as a video track, or `nil` when it is another kind of track.
    private func parseTrackEntry(_ entry: EBMLElement) throws(CodecError) -> VideoTrack? {
        var number: UInt64?
        var type: UInt64?
        var codecID: String?
        var defaultDuration: UInt64?
        var video: EBMLElement?
        var encoded = false
        for child in try reader.children(of: entry) {
            switch child.id {
            case MatroskaID.trackNumber: number = try reader.unsigned(child)
            case MatroskaID.trackType: type = try reader.unsigned(child)
            case MatroskaID.codecID: codecID = reader.string(child)
            case MatroskaID.defaultDuration: defaultDuration = try reader.unsigned(child)
            case MatroskaID.video: video = child
            case MatroskaID.contentEncodings: encoded = true
            default: break
            }
        }
        guard type == 1, let codecID else { return nil }
        guard let codec = WebMFile.Codec(rawValue: codecID) else {
            throw .malformed(format: .webm, reason: "video codec \(codecID) is not VP8 or VP9")
        }
        guard let number, number > 0 else {
            throw .malformed(format: .webm, reason: "the video track has no TrackNumber")
        }
        guard !encoded else {
            throw .malformed(format: .webm, reason: "the video track is compressed or encrypted (ContentEncodings)")
        }
        guard let video else { throw .malformed(format: .webm, reason: "the video track has no Video element") }
        var width: UInt64 = 0
        var height: UInt64 = 0
        var track = VideoTrack(number: number, codec: codec, width: 0, height: 0)
        for child in try reader.children(of: video) {
            switch child.id {
            case MatroskaID.pixelWidth: width = try reader.unsigned(child)
            case MatroskaID.pixelHeight: height = try reader.unsigned(child)
            case MatroskaID.alphaMode: track.alphaMode = try reader.unsigned(child)
            case MatroskaID.colour:
                for field in try reader.children(of: child) {
                    switch field.id {
                    case MatroskaID.matrixCoefficients:
                        track.matrix = YUVMatrix(matroskaCoefficients: try reader.unsigned(field))
                    case MatroskaID.range:
                        let range = try reader.unsigned(field)
                        track.isFullRange = range == 2 ? true : range == 1 ? false : nil
                    default: break
                    }
                }
            default: break
            }
        }
        guard width > 0, height > 0, width <= UInt64(Int32.max), height <= UInt64(Int32.max) else {
            throw .malformed(format: .webm, reason: "the video track is \(width)x\(height) pixels")
        }
        track.width = Int(width)
        track.height = Int(height)
        if let defaultDuration, defaultDuration > 0, defaultDuration < UInt64(Self.maxNanoseconds) {
            track.defaultDuration = Int64(defaultDuration)
        }
        return track
    }

    private mutating func parseCluster(_ cluster: EBMLElement) throws(CodecError) {
        var clusterTime: Int64 = 0
        var offset = cluster.data.lowerBound
        while offset < cluster.data.upperBound {
            // A block the file ends inside is left out, with everything after it.
            guard let child = try element(at: offset, in: cluster, named: "a Cluster") else { return }
            offset = child.data.upperBound
            switch child.id {
            case MatroskaID.timestamp:
                let ticks = try reader.unsigned(child)
                guard ticks < 1 << 40 else {
                    throw .malformed(format: .webm, reason: "Cluster timestamp \(ticks) is out of range")
                }
                clusterTime = Int64(ticks)
            case MatroskaID.simpleBlock:
                try addBlock(child, clusterTime: clusterTime, group: nil)
            case MatroskaID.blockGroup:
                try addBlockGroup(child, clusterTime: clusterTime)
            default: break
            }
        }
    }

    private mutating func addBlockGroup(_ group: EBMLElement, clusterTime: Int64) throws(CodecError) {
        var block: EBMLElement?
        var duration: UInt64?
        var referencesOthers = false
        var alpha: Range<Int>?
        for child in try reader.children(of: group) {
            switch child.id {
            case MatroskaID.block: block = child
            case MatroskaID.blockDuration: duration = try reader.unsigned(child)
            case MatroskaID.referenceBlock: referencesOthers = true
            case MatroskaID.blockAdditions: alpha = try alphaAddition(child)
            default: break
            }
        }
        guard let block else {
            throw .malformed(format: .webm, reason: "a BlockGroup at offset \(group.start) has no Block")
        }
        try addBlock(
            block, clusterTime: clusterTime,
            group: (isKeyframe: !referencesOthers, duration: duration, alpha: alpha))
    }

    /// The data of the BlockMore whose BlockAddID is 1 (the alpha stream), if any.
    private func alphaAddition(_ additions: EBMLElement) throws(CodecError) -> Range<Int>? {
        for more in try reader.children(of: additions) where more.id == MatroskaID.blockMore {
            var id: UInt64 = 1
            var data: Range<Int>?
            for child in try reader.children(of: more) {
                if child.id == MatroskaID.blockAddID { id = try reader.unsigned(child) }
                if child.id == MatroskaID.blockAdditional { data = child.data }
            }
            if id == 1, let data { return data }
        }
        return nil
    }

    private mutating func addBlock(
        _ element: EBMLElement, clusterTime: Int64,
        group: (isKeyframe: Bool, duration: UInt64?, alpha: Range<Int>?)?
    ) throws(CodecError) {
        let data = element.data
        let (track, length) = try reader.variableInteger(
            at: data.lowerBound, end: data.upperBound, maxLength: 8,
            what: "block track number", keepMarker: false)
        guard data.count >= length + 3 else {
            throw .malformed(
                format: .webm,
                reason: "block at offset \(element.start) is \(data.count) bytes, too short for its header")
        }
        if let videoTrack, track != videoTrack.number { return }
        blockCount += 1
        if blockCount > limits.maxFrames { throw .limitExceeded(.frames(blockCount, limit: limits.maxFrames)) }
        guard videoTrack != nil else { return }
        let header = data.lowerBound + length
        let relative = Int16(bitPattern: UInt16(reader.bytes[header]) << 8 | UInt16(reader.bytes[header + 1]))
        let flags = reader.bytes[header + 2]
        guard flags & 0x06 == 0 else {
            throw .malformed(format: .webm, reason: "laced video block at offset \(element.start)")
        }
        let payload = header + 3..<data.upperBound
        guard !payload.isEmpty else {
            throw .malformed(format: .webm, reason: "empty video block at offset \(element.start)")
        }
        guard let time = nanoseconds(clusterTime + Int64(relative)) else {
            throw .malformed(
                format: .webm, reason: "block at offset \(element.start) is timed past \(Self.maxNanoseconds) ns")
        }
        blocks.append(
            WebMFile.Block(
                time: time, payload: payload, alpha: group?.alpha,
                isKeyframe: group?.isKeyframe ?? (flags & 0x80 != 0),
                duration: group?.duration.flatMap { $0 < 1 << 40 ? nanoseconds(Int64($0)) : nil }))
    }

    /// The latest time a WebM may give, in nanoseconds (about 36 years): every time and
    /// duration stays within it, so the gaps between them cannot overflow.
    static let maxNanoseconds: Int64 = 1 << 60

    /// `ticks` of the segment's TimestampScale in nanoseconds, or `nil` past ``maxNanoseconds``.
    private func nanoseconds(_ ticks: Int64) -> Int64? {
        let (product, overflow) = ticks.multipliedReportingOverflow(by: timestampScale)
        return overflow || abs(product) > Self.maxNanoseconds ? nil : product
    }
}
