// libFuzzer entry point for the decoder, built by scripts/fuzz.sh with
// `swiftc -sanitize=fuzzer,address` together with the AnimationCodec sources.
// The target (set with -D) fixes the container so the fuzzer spends its time past the
// signature: the input's bytes follow that format's signature.

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
    if bytes.count < 12 || !bytes.starts(with: Array("RIFF".utf8)) { bytes = Array("RIFF\0\0\0\0WEBP".utf8) + bytes }
    // The RIFF size is set to the input's, as the CRCs are repaired for PNG: otherwise nearly
    // every mutation would stop at the demuxer's size check. Odd lengths keep theirs.
    if size % 2 == 0 {
        let riff = UInt32(bytes.count - 8)
        for i in 0..<4 { bytes[4 + i] = UInt8(truncatingIfNeeded: riff >> (8 * UInt32(i))) }
    }
    #endif
    // Small limits keep each run fast; the limit checks themselves are under test.
    let limits = DecodingLimits(maxSide: 4096, maxPixels: 1 << 22, maxFrames: 256, maxTotalDecodedBytes: 64 << 20)
    guard let decoder = try? AnimationDecoder(bytes: bytes, limits: limits) else { return 0 }
    var iterator = decoder.makeFrameIterator()
    var count = 0
    while let frame = try? iterator.next() {
        precondition(frame.pixels.count == decoder.info.width * decoder.info.height * 4)
        count += 1
    }
    // The parallel path must agree with the serial one on whatever decoded.
    if count == decoder.frameCount, count > 1, let serial = try? decoder.decodeAllFrames(threads: 1),
       let parallel = try? decoder.decodeAllFrames(threads: 2) {
        precondition(serial.map(\.pixels) == parallel.map(\.pixels), "parallel decode differs from serial")
    }
    return 0
}

#if FUZZ_PNG
/// Rewrites the CRC of every whole chunk so mutations reach the decoder behind the checksum.
private func repairChunkCRCs(_ bytes: inout [UInt8]) {
    var offset = PNGSignature.bytes.count
    while offset + 12 <= bytes.count {
        let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
        let crcOffset = offset + 8 + length
        guard length <= bytes.count, crcOffset + 4 <= bytes.count else { return }
        let crc = bytes.withUnsafeBytes { libdeflate_crc32(0, $0.baseAddress! + offset + 4, length + 4) }
        for i in 0..<4 { bytes[crcOffset + i] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * UInt32(i))) }
        offset = crcOffset + 4
    }
}
#endif
