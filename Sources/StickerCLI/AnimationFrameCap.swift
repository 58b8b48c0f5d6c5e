import ArgumentParser
import StickerPack
import StickerRenderer

/// The length of an animated output: `duration` (the option, parsed), else the longest
/// sticker loop, whole, else (nothing moves) one second.
func animationSeconds(_ duration: String?, longestLoop: Double) -> Double {
    duration.flatMap(DurationParsing.seconds) ?? (longestLoop > 0 ? longestLoop : 1)
}

/// The frames an animated output of `seconds` is made of, from `changeTimes` (the instants its
/// stickers change at, at most the count it is given). Past the most an animated snapshot holds
/// (``BrowserRenderer/maxAnimationFrames``) the animation would stop changing and hold its last
/// frame, so that is a usage error naming the longest `--duration` that fits.
func animationFrameCount(seconds: Double, changeTimes: (_ maxFrames: Int) -> [Double]) throws -> Int {
    let cap = BrowserRenderer.maxAnimationFrames
    let times = changeTimes(cap + 1)
    if times.count > cap {
        throw ValidationError(
            "the stickers change frame more than \(String(groupingThousands: cap)) times in \(seconds) s, the most an "
                + "animated snapshot holds; pass --duration \(String(cFormat: "%.3f", times[cap]))s or less")
    }
    return times.count
}
