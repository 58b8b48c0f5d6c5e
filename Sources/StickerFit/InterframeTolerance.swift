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
        guard tolerance > 0, frames.count > 1 else { return frames }
        var out = [frames[0]]
        out.reserveCapacity(frames.count)
        for index in 1..<frames.count {
            var held = frames[index]
            out[index - 1].withUnsafeBytes { shownBytes in
                held.withUnsafeMutableBytes { heldBytes in
                    hold(shown: shownBytes.bindMemory(to: UInt32.self), into: heldBytes.bindMemory(to: UInt32.self),
                         tolerance: UInt32(min(255, tolerance)))
                }
            }
            out.append(held)
        }
        return out
    }

    /// The kernel: `pixels` (the next frame) takes `shown`'s value wherever every channel is
    /// within `tolerance`, unless that would move an alpha of 0 or 255.
    private static func hold(shown: UnsafeBufferPointer<UInt32>, into pixels: UnsafeMutableBufferPointer<UInt32>, tolerance: UInt32) {
        for i in 0..<pixels.count {
            let wanted = pixels[i], current = shown[i]
            if wanted == current { continue }
            let alpha = wanted >> 24
            if (alpha == 0 || alpha == 255) && current >> 24 != alpha { continue }
            if channelDistance(wanted, current) <= tolerance { pixels[i] = current }
        }
    }

    /// The largest difference between two packed RGBA pixels' channels.
    @inline(__always)
    static func channelDistance(_ a: UInt32, _ b: UInt32) -> UInt32 {
        var largest: UInt32 = 0
        var shift: UInt32 = 0
        while shift < 32 {
            let x = a >> shift & 0xFF, y = b >> shift & 0xFF
            largest = max(largest, x > y ? x - y : y - x)
            shift += 8
        }
        return largest
    }
}
