import AnimationCodec

/// A frame rate as fit's reports print it, one rule for every line that names one: rounded to
/// hundredths (as `--json` gives it), then to tenths half away from zero. A step and the
/// sticker's line so name a rate alike (printf alone rounds an exact 15.25 to even, 15.2, where
/// its hundredths round to 15.3).
public enum FrameRateFigure {
    /// `rate` to hundredths, as the report's JSON holds it.
    public static func hundredths(_ rate: Double) -> Double { (rate * 100).rounded() / 100 }

    /// `rate` in tenths (`15.3`).
    public static func text(_ rate: Double) -> String {
        String(cFormat: "%.1f", (hundredths(rate) * 10).rounded() / 10)
    }
}
