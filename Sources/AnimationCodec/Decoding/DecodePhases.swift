#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where decoding time goes, in seconds, for `stickers bench`. Collected only by
/// ``AnimationDecoder/profilePhases()``; the normal paths carry a `nil` recorder and pay one
/// untaken branch per frame or row.
public struct DecodePhases: Sendable, Hashable {
    /// zlib inflate (APNG/PNG) or LZW (GIF) into the frame's own buffer.
    public var decompress: Double = 0
    /// PNG row unfiltering.
    public var unfilter: Double = 0
    /// Pixel conversion to premultiplied RGBA8 (PNG colour types; GIF palette lookup) and
    /// drawing onto the canvas, which happen in the same pass over each row.
    public var convert: Double = 0

    /// Creates empty totals.
    public init() {}

    /// All phases added up.
    public var total: Double { decompress + unfilter + convert }
}
