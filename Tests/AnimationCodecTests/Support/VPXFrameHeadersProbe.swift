@testable import AnimationCodec

/// The codec's internal VP9 block preparation, reached from the tests.
enum VPXFrameHeadersProbe {
    static func forDecoding(_ block: [UInt8]) -> [UInt8] { VPXFrameHeaders.vp9BlockForDecoding(block[...]) }
}
