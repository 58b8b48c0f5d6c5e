/// Holds pixels that barely change from one frame to the next: a pixel within `tolerance` of
/// what the previous frame shows (in every premultiplied channel) keeps the shown value. The
/// encoder's changed rectangles shrink and an OVER frame's unchanged pixels become
/// transparent, so grain and resampling noise stop costing bytes (gifsicle's `--lossy` and
/// gifski's idea, for APNG).
///
/// Every output pixel is within `tolerance` of its input pixel, and alpha 0 and 255 stay exact:
/// a fully transparent or fully opaque input pixel is only held when the shown pixel has the
/// same alpha. The first frame is kept as it is.
enum InterframeTolerance {
    /// `frames` with near-unchanged pixels held; `tolerance` 0 returns them as they are.
    static func apply(_ frames: [[UInt8]], tolerance: Int) -> [[UInt8]] {
        var out: [[UInt8]] = []
        out.reserveCapacity(frames.count)
        for frame in frames { out.append(out.last.map { held(frame, over: $0, tolerance: tolerance) } ?? frame) }
        return out
    }

    /// Frame `wanted` as ``apply(_:tolerance:)`` makes it after `shown`, the frame it made
    /// before: for a caller that makes the frames one at a time.
    static func held(_ wanted: [UInt8], over shown: [UInt8], tolerance: Int) -> [UInt8] {
        guard tolerance > 0 else { return wanted }
        return held(wanted, over: shown, tolerance: UInt32(min(255, tolerance)))
    }

    /// `wanted` with its pixels near `shown`'s held, written in one pass into fresh memory (not
    /// copied, then changed).
    private static func held(_ wanted: [UInt8], over shown: [UInt8], tolerance: UInt32) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: wanted.count) { heldBytes, count in
            shown.withUnsafeBytes { shownBytes in
                wanted.withUnsafeBytes { wantedBytes in
                    hold(
                        wanted: wantedBytes.bindMemory(to: UInt32.self), shown: shownBytes.bindMemory(to: UInt32.self),
                        into: UnsafeMutableRawBufferPointer(heldBytes).bindMemory(to: UInt32.self), tolerance: tolerance
                    )
                }
            }
            count = wanted.count
        }
    }

    /// The last two frames `apply` makes of `count` frames (at least two) that `frame` makes in
    /// order, in two buffers rather than one a frame (what a sample of a clip needs), asked for
    /// one at a time: at most three frames are held at once, whatever `count`.
    static func lastTwo(count: Int, tolerance: Int, frame: (Int) -> [UInt8]) -> (before: [UInt8], after: [UInt8]) {
        precondition(count >= 2)
        guard tolerance > 0 else { return (frame(count - 2), frame(count - 1)) }
        let limit = UInt32(min(255, tolerance))
        // Each frame held against the one shown before it, in place: a pixel depends only on
        // the same pixel of the frame before.
        var shown = frame(0)
        for index in 1..<(count - 1) {
            let wanted = frame(index)
            shown.withUnsafeMutableBytes { shownBytes in
                wanted.withUnsafeBytes { wantedBytes in
                    let pixels = shownBytes.bindMemory(to: UInt32.self)
                    hold(
                        wanted: wantedBytes.bindMemory(to: UInt32.self), shown: UnsafeBufferPointer(pixels),
                        into: pixels, tolerance: limit)
                }
            }
        }
        return (shown, held(frame(count - 1), over: shown, tolerance: limit))
    }

    /// The kernel: each pixel of `pixels` is `wanted`'s, or `shown`'s wherever every channel is
    /// within `tolerance` of it, unless that would move an alpha of 0 or 255. The three buffers
    /// hold the same number of pixels; `shown` may be `pixels` itself.
    private static func hold(
        wanted: UnsafeBufferPointer<UInt32>, shown: UnsafeBufferPointer<UInt32>,
        into pixels: UnsafeMutableBufferPointer<UInt32>, tolerance: UInt32
    ) {
        precondition(wanted.count == pixels.count && shown.count == pixels.count)
        let count = pixels.count
        guard count > 0 else { return }
        let within = SIMD16<UInt8>(repeating: UInt8(min(255, tolerance)))
        let allSet = SIMD4<UInt32>(repeating: 0xFFFF_FFFF)
        var i = 0
        // Four pixels at a time: a pixel is held where its four channel distances are all
        // within the tolerance and its alpha would not leave 0 or 255.
        // Safe: every load and store is of pixels i..<i + 4, all under `count`.
        let next = UnsafeRawPointer(wanted.baseAddress!)
        let current = UnsafeRawPointer(shown.baseAddress!)
        let out = UnsafeMutableRawPointer(pixels.baseAddress!)
        while i + 4 <= count {
            let n = next.loadUnaligned(fromByteOffset: 4 * i, as: SIMD16<UInt8>.self)
            let c = current.loadUnaligned(fromByteOffset: 4 * i, as: SIMD16<UInt8>.self)
            // |n - c| by lane masks (`pointwiseMax` here compiled to a call for every four pixels).
            let distance = (n &- c).replacing(with: c &- n, where: c .> n)
            let close = SIMD16<UInt8>(repeating: 0).replacing(with: 0xFF, where: distance .<= within)
            let n32 = unsafeBitCast(n, to: SIMD4<UInt32>.self)
            let c32 = unsafeBitCast(c, to: SIMD4<UInt32>.self)
            let alpha = n32 &>> 24
            let alphaWouldMove = (alpha .== 0 .| alpha .== 255) .& (c32 &>> 24 .!= alpha)
            let held = unsafeBitCast(close, to: SIMD4<UInt32>.self) .== allSet .& .!alphaWouldMove
            out.storeBytes(of: n32.replacing(with: c32, where: held), toByteOffset: 4 * i, as: SIMD4<UInt32>.self)
            i += 4
        }
        while i < count {
            pixels[i] = heldPixel(wanted[i], shown: shown[i], tolerance: tolerance)
            i += 1
        }
    }

    /// One pixel of ``hold(wanted:shown:into:tolerance:)``: `next`, or `current` (the shown
    /// pixel) when every channel is within `tolerance` and no alpha of 0 or 255 would move:
    /// the kernel's rule for the pixels past the last four.
    @inline(__always)
    private static func heldPixel(_ next: UInt32, shown current: UInt32, tolerance: UInt32) -> UInt32 {
        @inline(__always) func distance(_ shift: UInt32) -> UInt32 {
            let x = next >> shift & 0xFF
            let y = current >> shift & 0xFF
            return x > y ? x &- y : y &- x
        }
        let largest = max(max(distance(0), distance(8)), max(distance(16), distance(24)))
        let alpha = next >> 24
        let alphaWouldMove = (alpha == 0 || alpha == 255) && current >> 24 != alpha
        return largest <= tolerance && !alphaWouldMove ? current : next
    }
}
