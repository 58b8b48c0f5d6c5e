/// How many colours the terminal shows.
public enum TerminalColors: String, Sendable, Hashable, CaseIterable {
    /// 24-bit colour (`CSI 38;2;r;g;b m`).
    case truecolor
    /// The xterm 256-colour palette (`CSI 38;5;n m`): the 6 x 6 x 6 cube and 24 greys.
    case ansi256 = "256"

    /// The mode an environment asks for: truecolor when `COLORTERM` says `truecolor` or
    /// `24bit` (or `TERM` names a direct-colour terminal), else 256 colours.
    public static func detect(environment: [String: String]) -> TerminalColors {
        let colorTerm = environment["COLORTERM"]?.lowercased() ?? ""
        if colorTerm.contains("truecolor") || colorTerm.contains("24bit") { return .truecolor }
        let term = environment["TERM"]?.lowercased() ?? ""
        if term.contains("direct") || term.contains("truecolor") { return .truecolor }
        return .ansi256
    }

    /// The nearest xterm palette entry (16-255) to a colour: the closer of the nearest cube
    /// colour and the nearest grey, by squared distance.
    public static func paletteIndex(red: UInt8, green: UInt8, blue: UInt8) -> Int {
        let levels = [0, 95, 135, 175, 215, 255]
        func nearestLevel(_ v: UInt8) -> Int {
            var best = 0
            for i in 1..<6 where abs(levels[i] - Int(v)) < abs(levels[best] - Int(v)) { best = i }
            return best
        }
        let (r, g, b) = (nearestLevel(red), nearestLevel(green), nearestLevel(blue))
        let cube = (levels[r], levels[g], levels[b])
        let average = (Int(red) + Int(green) + Int(blue)) / 3
        let greyStep = max(0, min(23, (average - 8 + 5) / 10))
        let grey = 8 + 10 * greyStep
        func distance(_ c: (Int, Int, Int)) -> Int {
            let dr = c.0 - Int(red)
            let dg = c.1 - Int(green)
            let db = c.2 - Int(blue)
            return dr * dr + dg * dg + db * db
        }
        return distance((grey, grey, grey)) < distance(cube) ? 232 + greyStep : 16 + 36 * r + 6 * g + b
    }
}
