/// The frame sizes a VP8 or VP9 bitstream declares, read from its headers before libvpx sees
/// it: libvpx allocates whatever a frame header asks for, so every size a block declares is
/// checked first (a tiny hostile file could otherwise ask for a 65536 x 65536 frame).
///
/// VP8 declares a size in keyframes only (RFC 6386, section 9.1). VP9 declares one in key and
/// intra-only frames and in inter frames that take no reference's size (VP9 bitstream
/// specification 0.6, section 6.2); a block may be a superframe of several frames (Annex B).
enum VPXFrameHeaders {
    /// Every explicit frame size in `payload`, in order (none for frames that reuse a size).
    /// - Throws: `.malformed` when a header is cut short or invalid.
    static func declaredSizes(_ payload: ArraySlice<UInt8>, codec: WebMFile.Codec) throws(CodecError) -> [(
        width: Int, height: Int
    )] {
        switch codec {
        case .vp8: return try vp8Size(payload).map { [$0] } ?? []
        case .vp9:
            var sizes: [(width: Int, height: Int)] = []
            for frame in try vp9Frames(payload) {
                if let size = try vp9Size(frame) { sizes.append(size) }
            }
            return sizes
        }
    }

    private static func vp8Size(_ frame: ArraySlice<UInt8>) throws(CodecError) -> (width: Int, height: Int)? {
        let bytes = Array(frame.prefix(10))
        guard let tag = bytes.first else { throw headerError("an empty VP8 frame") }
        guard tag & 1 == 0 else { return nil }  // an inter frame keeps the keyframe's size
        guard bytes.count == 10 else { throw headerError("a VP8 keyframe header cut short") }
        guard bytes[3] == 0x9D, bytes[4] == 0x01, bytes[5] == 0x2A else {
            throw headerError("a VP8 keyframe without its start code")
        }
        return (Int(bytes[6]) | Int(bytes[7] & 0x3F) << 8, Int(bytes[8]) | Int(bytes[9] & 0x3F) << 8)
    }

    /// What libvpx is given for a VP9 block: the block as it is when it ends in a superframe
    /// index, else the block with a one-frame index added. Without an index libvpx decodes
    /// whatever follows the first frame's data as more frames, whose sizes were never checked.
    static func vp9BlockForDecoding(_ block: ArraySlice<UInt8>) -> [UInt8] {
        guard superframeIndexLength(block) == nil else { return Array(block) }
        let size = UInt32(truncatingIfNeeded: block.count)
        // Marker 0b110_11_000: sizes of 4 bytes, one frame (Annex B).
        return Array(block) + [0xD8] + (0..<4).map { UInt8(truncatingIfNeeded: size >> (8 * $0)) } + [0xD8]
    }

    /// The length of the superframe index `block` ends in, if it ends in one.
    private static func superframeIndexLength(_ block: ArraySlice<UInt8>) -> Int? {
        guard let marker = block.last, marker & 0xE0 == 0xC0 else { return nil }
        let indexLength = 2 + (Int((marker >> 3) & 3) + 1) * (Int(marker & 7) + 1)
        guard block.count >= indexLength, block[block.endIndex - indexLength] == marker else { return nil }
        return indexLength
    }

    /// The frames of a VP9 block: a superframe's, as its index at the end lists them, or the block.
    private static func vp9Frames(_ block: ArraySlice<UInt8>) throws(CodecError) -> [ArraySlice<UInt8>] {
        guard let indexLength = superframeIndexLength(block), let marker = block.last else { return [block] }
        let count = Int(marker & 7) + 1
        let sizeBytes = Int((marker >> 3) & 3) + 1
        var frames: [ArraySlice<UInt8>] = []
        var start = block.startIndex
        var field = block.endIndex - indexLength + 1
        for _ in 0..<count {
            var size = 0
            for byte in 0..<sizeBytes { size |= Int(block[field + byte]) << (8 * byte) }
            field += sizeBytes
            guard size <= block.endIndex - indexLength - start else {
                throw headerError("a VP9 superframe index that overruns its block")
            }
            frames.append(block[start..<start + size])
            start += size
        }
        return frames
    }

    /// The size a VP9 frame's uncompressed header declares, or `nil` when it takes a
    /// reference's size or shows an existing frame.
    private static func vp9Size(_ frame: ArraySlice<UInt8>) throws(CodecError) -> (width: Int, height: Int)? {
        var bits = BitReader(frame)
        guard try bits.read(2) == 2 else { throw headerError("a VP9 frame without its frame marker") }
        let profileLowBit = try bits.read(1)
        let profile = profileLowBit | (try bits.read(1)) << 1
        if profile == 3 { _ = try bits.read(1) }
        if try bits.read(1) == 1 { return nil }  // show_existing_frame
        let isKeyframe = try bits.read(1) == 0
        let showFrame = try bits.read(1) == 1
        let errorResilient = try bits.read(1) == 1
        if isKeyframe {
            try syncCode(&bits)
            try skipColorConfig(&bits, profile: profile)
            return try frameSize(&bits)
        }
        let intraOnly = showFrame ? false : try bits.read(1) == 1
        if !errorResilient { _ = try bits.read(2) }  // reset_frame_context
        if intraOnly {
            try syncCode(&bits)
            if profile > 0 { try skipColorConfig(&bits, profile: profile) }
            _ = try bits.read(8)  // refresh_frame_flags
            return try frameSize(&bits)
        }
        _ = try bits.read(8)  // refresh_frame_flags
        _ = try bits.read(12)  // three ref_frame_idx and their sign biases
        for _ in 0..<3 { if try bits.read(1) == 1 { return nil } }  // found_ref: a known size
        return try frameSize(&bits)
    }

    private static func syncCode(_ bits: inout BitReader) throws(CodecError) {
        guard try bits.read(24) == 0x498342 else { throw headerError("a VP9 frame without its sync code") }
    }

    private static func skipColorConfig(_ bits: inout BitReader, profile: Int) throws(CodecError) {
        if profile >= 2 { _ = try bits.read(1) }
        let colorSpace = try bits.read(3)
        if colorSpace != 7 {  // not sRGB
            _ = try bits.read(1)
            if profile == 1 || profile == 3 { _ = try bits.read(3) }
        } else if profile == 1 || profile == 3 {
            _ = try bits.read(1)
        }
    }

    private static func frameSize(_ bits: inout BitReader) throws(CodecError) -> (width: Int, height: Int) {
        (try bits.read(16) + 1, try bits.read(16) + 1)
    }

    private static func headerError(_ what: String) -> CodecError {
        .malformed(format: .webm, reason: "\(what)")
    }

    /// Reads a VP9 uncompressed header most significant bit first.
    private struct BitReader {
        let bytes: ArraySlice<UInt8>
        var position = 0

        init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

        mutating func read(_ count: Int) throws(CodecError) -> Int {
            guard position + count <= bytes.count * 8 else { throw headerError("a VP9 frame header cut short") }
            var value = 0
            for _ in 0..<count {
                let byte = bytes[bytes.startIndex + position >> 3]
                value = value << 1 | Int(byte >> (7 - UInt8(position & 7)) & 1)
                position += 1
            }
            return value
        }
    }
}
