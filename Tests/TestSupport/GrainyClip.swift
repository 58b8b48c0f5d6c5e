/// A clip cut out of a video, drawn for the fit tests.
public enum GrainyClip {
    /// Frames of a lit disc drifting right over a transparent square, with per-frame grain of
    /// ±`grain` (from a fixed seed): what a clip cut out of a video looks like.
    public static func frames(side: Int, frames: Int, grain: Int, seed: UInt64) -> [[UInt8]] {
        var random = SplitMix(seed: seed)
        return (0..<frames).map { index in
            var pixels = [UInt8](repeating: 0, count: side * side * 4)
            let centreX = Double(side) * (0.4 + 0.2 * Double(index) / Double(frames))
            let centreY = Double(side) / 2
            for y in 0..<side {
                for x in 0..<side {
                    let dx = Double(x) + 0.5 - centreX
                    let dy = Double(y) + 0.5 - centreY
                    guard (dx * dx + dy * dy).squareRoot() < Double(side) * 0.35 else { continue }
                    let light = 1 - (dx * dx + dy * dy) / Double(side * side) * 4
                    let noise = Int(random.next() % UInt64(2 * grain + 1)) - grain
                    let o = (y * side + x) * 4
                    pixels[o] = UInt8(clamping: Int(200 * light) + noise)
                    pixels[o + 1] = UInt8(clamping: Int(120 * light) + noise)
                    pixels[o + 2] = UInt8(clamping: Int(60 + 40 * light) + noise)
                    pixels[o + 3] = 255
                }
            }
            return pixels
        }
    }
}
