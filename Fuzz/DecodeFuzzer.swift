// libFuzzer entry point for the decoder, built by scripts/fuzz.sh with
// `swiftc -sanitize=fuzzer,address` together with the AnimationCodec sources.
// The target (set with -D) fixes the container so the fuzzer spends its time past the
// signature: the input's bytes follow that format's signature (for Lottie, which has none,
// they are the document, as JSON text or as a .tgs gzip member).

import CDeflate

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecode(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    var bytes = Array(UnsafeBufferPointer(start: data, count: size))
    #if FUZZ_PNG
        if !bytes.starts(with: PNGSignature.bytes) { bytes = PNGSignature.bytes + bytes }
        // A mutated chunk body almost never keeps its CRC, so without this nearly every input would
        // stop at the checksum check. The first input byte after the signature is left as it is
        // when the input length is odd, so the checksum paths are fuzzed too.
        if size % 2 == 0 { repairChunkCRCs(&bytes) }
    #elseif FUZZ_GIF
        if !bytes.starts(with: Array("GIF8".utf8)) { bytes = Array("GIF89a".utf8) + bytes }
    #elseif FUZZ_JPEG
        if !bytes.starts(with: [0xFF, 0xD8]) { bytes = [0xFF, 0xD8, 0xFF] + bytes }
    #elseif FUZZ_WEBP
        if bytes.count < 12 || !bytes.starts(with: Array("RIFF".utf8)) {
            bytes = Array("RIFF\0\0\0\0WEBP".utf8) + bytes
        }
        // The RIFF size is set to the input's, as the CRCs are repaired for PNG: otherwise nearly
        // every mutation would stop at the demuxer's size check. Odd lengths keep theirs.
        if size % 2 == 0 {
            let riff = UInt32(bytes.count - 8)
            for i in 0..<4 { bytes[4 + i] = UInt8(truncatingIfNeeded: riff >> (8 * UInt32(i))) }
        }
    #elseif FUZZ_WEBM
        if !bytes.starts(with: minimalEBMLHeader.prefix(4)) { bytes = minimalEBMLHeader + bytes }
        // A mutation that changes a length leaves the sizes of the elements around it wrong, so
        // nearly every such input would stop at a size check. Even lengths have the Segment's and
        // the Clusters' sizes marked unknown (as a live muxer writes them), which reach to the end
        // of the file and to the next Segment-level element; odd lengths keep theirs.
        if size % 2 == 0 { markSegmentSizesUnknown(&bytes) }
    #elseif FUZZ_LOTTIE
        // Both forms: an input that starts as gzip does is a .tgs as it is (damaged streams too);
        // any other is JSON text, gzipped first when its length is even, so whole gzip members
        // reach the inflater and the sniffer's .tgs path as well.
        if !bytes.starts(with: Gunzip.signature.prefix(2)), size % 2 == 0 { bytes = gzip(bytes) }
    #endif
    // Small limits keep each run fast; the limit checks themselves are under test.
    #if FUZZ_WEBM || FUZZ_LOTTIE
        // Every WebM frame is a libvpx decode and every Lottie frame an rlottie render, so these
        // are smaller still; the file limit caps what a .tgs may inflate to.
        let limits = DecodingLimits(
            maxSide: 512, maxPixels: 1 << 16, maxFrames: 64, maxTotalDecodedBytes: 16 << 20,
            maxFileBytes: 1 << 20)
    #else
        let limits = DecodingLimits(maxSide: 4096, maxPixels: 1 << 22, maxFrames: 256, maxTotalDecodedBytes: 64 << 20)
    #endif
    #if FUZZ_LOTTIE
        // Drawn by its longer side, as fit and validate draw a document: only that size is held
        // to the limits, whatever the document's own.
        if let drawn = try? AnimationDecoder(bytes: bytes, limits: limits, vectorSide: 48) {
            precondition(
                max(drawn.info.width, drawn.info.height) == 48, "drawn at \(drawn.info.width)x\(drawn.info.height)")
            var frames = drawn.makeFrameIterator()
            while let frame = try? frames.next() {
                precondition(frame.pixels.count == drawn.info.width * drawn.info.height * 4)
            }
        }
    #endif
    guard let decoder = try? AnimationDecoder(bytes: bytes, limits: limits) else { return 0 }
    var iterator = decoder.makeFrameIterator()
    var count = 0
    while let frame = try? iterator.next() {
        precondition(frame.pixels.count == decoder.info.width * decoder.info.height * 4)
        count += 1
    }
    // The parallel path must agree with the serial one on whatever decoded.
    if count == decoder.frameCount, count > 1, let serial = try? decoder.decodeAllFrames(threads: 1),
        let parallel = try? decoder.decodeAllFrames(threads: 2)
    {
        precondition(serial.map(\.pixels) == parallel.map(\.pixels), "parallel decode differs from serial")
    }
    return 0
}

#if FUZZ_PNG
    /// Rewrites the CRC of every whole chunk so mutations reach the decoder behind the checksum.
    private func repairChunkCRCs(_ bytes: inout [UInt8]) {
        var offset = PNGSignature.bytes.count
        while offset + 12 <= bytes.count {
            let length =
                Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
                | Int(bytes[offset + 3])
            let crcOffset = offset + 8 + length
            guard length <= bytes.count, crcOffset + 4 <= bytes.count else { return }
            let crc = bytes.withUnsafeBytes { libdeflate_crc32(0, $0.baseAddress! + offset + 4, length + 4) }
            for i in 0..<4 { bytes[crcOffset + i] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * UInt32(i))) }
            offset = crcOffset + 4
        }
    }
#endif

#if FUZZ_WEBM
    /// An EBML header that declares DocType "webm" and nothing else.
    private let minimalEBMLHeader: [UInt8] = [0x1A, 0x45, 0xDF, 0xA3, 0x87, 0x42, 0x82, 0x84] + Array("webm".utf8)

    /// Marks unknown the size of a Segment right after the EBML header and of every Cluster in it
    /// that the Segment's other sizes lead to.
    private func markSegmentSizesUnknown(_ bytes: inout [UInt8]) {
        guard let header = try? EBMLReader(bytes: bytes).element(at: 0, end: bytes.count),
            bytes[header.data.upperBound...].starts(with: [0x18, 0x53, 0x80, 0x67]),
            let segmentData = markSizeUnknown(&bytes, at: header.data.upperBound)
        else { return }
        let reader = EBMLReader(bytes: bytes)
        var clusters: [Int] = []
        var offset = segmentData
        while offset < bytes.count {
            if bytes[offset...].starts(with: [0x1F, 0x43, 0xB6, 0x75]) { clusters.append(offset) }
            guard let element = try? reader.element(at: offset, end: bytes.count), !element.hasUnknownSize else {
                break
            }
            offset = element.data.upperBound
        }
        for cluster in clusters { _ = markSizeUnknown(&bytes, at: cluster) }
    }

    /// Rewrites the size of the element whose header starts at `offset` as unknown (all ones, in
    /// the length it had); returns where the element's data starts.
    private func markSizeUnknown(_ bytes: inout [UInt8], at offset: Int) -> Int? {
        guard offset < bytes.count, bytes[offset] != 0 else { return nil }
        let sizeStart = offset + bytes[offset].leadingZeroBitCount + 1
        guard sizeStart < bytes.count, bytes[sizeStart] != 0 else { return nil }
        let sizeLength = bytes[sizeStart].leadingZeroBitCount + 1
        guard sizeStart + sizeLength <= bytes.count else { return nil }
        bytes[sizeStart] = 0xFF >> (sizeLength - 1)
        for index in 1..<sizeLength { bytes[sizeStart + index] = 0xFF }
        return sizeStart + sizeLength
    }
#endif

#if FUZZ_LOTTIE
    /// One compressor for every input (libFuzzer calls the target on one thread).
    private nonisolated(unsafe) let compressor = libdeflate_alloc_compressor(1)!

    /// `bytes` as one gzip member.
    private func gzip(_ bytes: [UInt8]) -> [UInt8] {
        var member = [UInt8](repeating: 0, count: libdeflate_gzip_compress_bound(compressor, bytes.count))
        let count = member.withUnsafeMutableBytes { target in
            bytes.withUnsafeBytes { source in
                libdeflate_gzip_compress(compressor, source.baseAddress, source.count, target.baseAddress, target.count)
            }
        }
        return Array(member.prefix(count))
    }
#endif
