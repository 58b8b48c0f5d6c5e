import AnimationCodec
import StickerPack
import StickerPixels
import StickerRenderer
import Testing

/// Terminal output for tiny pictures, worked out by hand: half-block pairing, colours,
/// transparency, the 256-colour palette, fitting, and the changed-cells diff.
@Suite("Terminal output")
struct TerminalTests {
    static let esc = "\u{1B}["

    /// A picture from straight, opaque-or-transparent pixels (nil = transparent).
    static func image(_ rows: [[(UInt8, UInt8, UInt8)?]]) -> RGBAImage {
        let width = rows[0].count
        var pixels: [UInt8] = []
        for row in rows {
            for p in row { pixels += p.map { [$0.0, $0.1, $0.2, 255] } ?? [0, 0, 0, 0] }
        }
        return RGBAImage(width: width, height: rows.count, pixels: pixels)
    }

    @Test("A translucent pixel shows OVER the backdrop with the compositor's bytes (BlendKernels.overScalar)")
    func translucentOverBackdrop() {
        // One column of 255 premultiplied pixels, alpha 1...255, over a backdrop of (37, 180, 250).
        var pixels: [UInt8] = []
        for a in 1...255 { pixels += [UInt8(a * 3 / 4), UInt8(a / 3), UInt8(a), UInt8(a)] }
        let grid = CellGrid(RGBAImage(width: 1, height: 255, pixels: pixels), backdrop: CellGrid.RGB(37, 180, 250))
        for (index, start) in stride(from: 0, to: pixels.count, by: 4).enumerated() {
            var shown: [UInt8] = [37, 180, 250, 255]
            let source = Array(pixels[start..<(start + 4)])
            source.withUnsafeBytes { (s: UnsafeRawBufferPointer) in
                shown.withUnsafeMutableBytes { (d: UnsafeMutableRawBufferPointer) in
                    BlendKernels.overScalar(s.baseAddress!, onto: d.baseAddress!, count: 1)
                }
            }
            let cell = grid[0, index / 2]
            let colour = index % 2 == 0 ? cell.top : cell.bottom
            #expect(colour == CellGrid.RGB(shown[0], shown[1], shown[2]), "alpha \(index + 1)")
        }
    }

    @Test("Two pixels a cell: top in the foreground of an upper half block, bottom in the background")
    func halfBlocks() {
        let red = (UInt8(255), UInt8(0), UInt8(0))
        let blue = (UInt8(0), UInt8(0), UInt8(255))
        let grid = CellGrid(Self.image([[red, red, nil, nil], [blue, red, red, nil]]))
        let text = ANSIWriter(colors: .truecolor).text(grid)
        let e = Self.esc
        // Cell 1: red over blue -> ▀ fg red bg blue, foreground and background in one SGR.
        // Cell 2: red over red, and red is already the foreground -> a full block, no SGR.
        // Cell 3: transparent over red -> ▄ fg red (still set), default bg: only the background resets.
        // Cell 4: both transparent -> a space on the default background: nothing to set.
        let expected = "\(e)38;2;255;0;0;48;2;0;0;255m\u{2580}" + "\u{2588}" + "\(e)49m\u{2584}" + " " + "\(e)0m\n"
        #expect(text == expected)
        // A solid cell whose colour is not the foreground is a space on that background.
        let green = (UInt8(0), UInt8(255), UInt8(0))
        let solid = ANSIWriter(colors: .truecolor).text(CellGrid(Self.image([[red, green], [blue, green]])))
        #expect(solid == "\(e)38;2;255;0;0;48;2;0;0;255m\u{2580}" + "\(e)48;2;0;255;0m " + "\(e)0m\n")
    }

    @Test("Two colours the other way round: a lower half block when the pens already set fit it")
    func lowerHalfWhenCheaper() {
        let red = (UInt8(255), UInt8(0), UInt8(0))
        let blue = (UInt8(0), UInt8(0), UInt8(255))
        // Cell 1: red over blue -> ▀ fg red bg blue. Cell 2: blue over red: as ▀ it needs both
        // colours again; as ▄ (bottom red in the foreground, top blue in the background) none.
        let text = ANSIWriter(colors: .truecolor).text(CellGrid(Self.image([[red, blue], [blue, red]])))
        let e = Self.esc
        #expect(text == "\(e)38;2;255;0;0;48;2;0;0;255m\u{2580}" + "\u{2584}" + "\(e)0m\n")
    }

    @Test("Pixels at or under the faint alpha show the terminal's background; the next alpha up is drawn")
    func faintAlpha() {
        var image = RGBAImage(width: 2, height: 1)
        image.pixels = [1, 1, 2, 4, 1, 1, 2, 5]  // premultiplied, alpha 4 and 5
        let grid = CellGrid(image, backdrop: CellGrid.RGB(255, 255, 255), faintAlpha: 4)
        // Over white: c + 255 x (255 - 5) / 255 = 1 + 250 = 251, 2 + 250 = 252.
        #expect(grid[0, 0] == CellGrid.Cell(top: nil, bottom: nil))
        #expect(grid[1, 0] == CellGrid.Cell(top: CellGrid.RGB(251, 251, 252), bottom: nil))
        // Without a faint alpha, alpha 4 is drawn: 1 + 251 = 252, 2 + 251 = 253.
        #expect(
            CellGrid(image, backdrop: CellGrid.RGB(255, 255, 255))[0, 0]
                == CellGrid.Cell(top: CellGrid.RGB(252, 252, 253), bottom: nil))
    }

    @Test(
        "An odd last pixel row pairs with transparency; translucent pixels show over the backdrop, alpha 0 not at all")
    func oddRowsAndAlpha() {
        var image = RGBAImage(width: 2, height: 3)
        // Row 2 (the odd one): left pixel straight green at alpha 128 (premultiplied 0,128,0),
        // right at alpha 1 (premultiplied 0,1,0); row 0 left stays alpha 0.
        image.pixels.replaceSubrange(16..<20, with: [0, 128, 0, 128])
        image.pixels.replaceSubrange(20..<24, with: [0, 1, 0, 1])
        // Over black: the premultiplied colour itself.
        let overBlack = CellGrid(image)
        #expect(overBlack.rows == 2 && overBlack.columns == 2)
        #expect(overBlack[0, 1] == CellGrid.Cell(top: CellGrid.RGB(0, 128, 0), bottom: nil))
        #expect(overBlack[1, 1] == CellGrid.Cell(top: CellGrid.RGB(0, 1, 0), bottom: nil))
        #expect(overBlack[0, 0] == CellGrid.Cell(top: nil, bottom: nil))
        // Over (40, 80, 200): c + b x (255 - a) / 255, by hand: 40 x 127 / 255 = 19.9 -> 20,
        // 128 + 80 x 127 / 255 = 167.8 -> 168, 200 x 127 / 255 = 99.6 -> 100; alpha 1: 40 x 254 / 255
        // = 39.8 -> 40, 1 + 79.7 -> 81, 199.2 -> 199.
        let overBlue = CellGrid(image, backdrop: CellGrid.RGB(40, 80, 200))
        #expect(overBlue[0, 1] == CellGrid.Cell(top: CellGrid.RGB(20, 168, 100), bottom: nil))
        #expect(overBlue[1, 1] == CellGrid.Cell(top: CellGrid.RGB(40, 81, 199), bottom: nil))
        #expect(overBlue[0, 0] == CellGrid.Cell(top: nil, bottom: nil))
    }

    @Test("The 256-colour palette: the cube for saturated colours, the grey ramp for greys")
    func palette() {
        #expect(TerminalColors.paletteIndex(red: 255, green: 0, blue: 0) == 196)  // 16 + 36 * 5
        #expect(TerminalColors.paletteIndex(red: 0, green: 0, blue: 255) == 21)  // 16 + 5
        #expect(TerminalColors.paletteIndex(red: 0, green: 0, blue: 0) == 16)
        #expect(TerminalColors.paletteIndex(red: 255, green: 255, blue: 255) == 231)
        #expect(TerminalColors.paletteIndex(red: 128, green: 128, blue: 128) == 244)  // grey 8 + 10 * 12 = 128
        #expect(TerminalColors.paletteIndex(red: 95, green: 135, blue: 175) == 16 + 36 + 12 + 3)
        let grid = CellGrid(Self.image([[(255, 0, 0)], [(250, 5, 5)]]))
        // Both pixels map to entry 196: one space on that background, nothing more.
        #expect(ANSIWriter(colors: .ansi256).text(grid) == "\(Self.esc)48;5;196m \(Self.esc)0m\n")
    }

    @Test("Colour mode from the environment")
    func detection() {
        #expect(TerminalColors.detect(environment: ["COLORTERM": "truecolor"]) == .truecolor)
        #expect(TerminalColors.detect(environment: ["COLORTERM": "24bit", "TERM": "xterm"]) == .truecolor)
        #expect(TerminalColors.detect(environment: ["TERM": "xterm-direct"]) == .truecolor)
        #expect(TerminalColors.detect(environment: ["TERM": "xterm-256color"]) == .ansi256)
        #expect(TerminalColors.detect(environment: [:]) == .ansi256)
    }

    @Test("Only changed cells are written, the cursor jumping to each run")
    func diff() {
        let red = (UInt8(255), UInt8(0), UInt8(0))
        let blue = (UInt8(0), UInt8(0), UInt8(255))
        let before = CellGrid(Self.image([[red, red, red], [red, red, red], [red, red, red], [red, red, red]]))
        let after = CellGrid(Self.image([[red, red, red], [red, red, red], [red, blue, blue], [red, blue, blue]]))
        let writer = ANSIWriter(colors: .truecolor)
        let e = Self.esc
        // Row 2 (1-based, at origin 5,3 -> screen row 4), columns 2-3 -> screen columns 6-7.
        #expect(
            writer.update(from: before, to: after, originColumn: 5, originRow: 3).output
                == "\(e)4;6H\(e)48;2;0;0;255m  \(e)0m")
        #expect(writer.update(from: after, to: after).output == "")
        // No previous picture: every cell, one jump per row.
        let full = writer.update(from: nil, to: before)
        #expect(full.output == "\(e)1;1H\(e)48;2;255;0;0m   \(e)2;1H   \(e)0m")
        #expect(full.displayed == before)
        // Unchanged cells inside a row are stepped over (CUF), not rewritten.
        let gapped = CellGrid(Self.image([[blue, red, red, blue], [blue, red, red, blue]]))
        let allRed = CellGrid(Self.image([[red, red, red, red], [red, red, red, red]]))
        #expect(writer.update(from: allRed, to: gapped).output == "\(e)1;1H\(e)48;2;0;0;255m \(e)2C \(e)0m")
    }

    @Test("A tolerance skips cells that barely changed and reuses a colour already set")
    func tolerance() {
        let writer = ANSIWriter(colors: .truecolor, tolerance: 4)
        let e = Self.esc
        let a = CellGrid(Self.image([[(100, 100, 100), (200, 0, 0)], [(100, 100, 100), (200, 0, 0)]]))
        // Cell 1 moves by 3 (within 4): skipped. Cell 2 moves by 5: redrawn.
        let b = CellGrid(Self.image([[(103, 100, 97), (205, 0, 0)], [(103, 100, 97), (205, 0, 0)]]))
        let step = writer.update(from: a, to: b)
        #expect(step.output == "\(e)1;2H\(e)48;2;205;0;0m \(e)0m")
        // The screen still shows cell 1's old colour; a later change is measured from it.
        #expect(step.displayed[0, 0].top == CellGrid.RGB(100, 100, 100))
        // Within a frame, a near colour reuses the pen: two cells, one SGR.
        let near = CellGrid(Self.image([[(10, 20, 30), (12, 22, 31)], [(10, 20, 30), (12, 22, 31)]]))
        #expect(writer.text(near) == "\(e)48;2;10;20;30m  \(e)0m\n")
        #expect(ANSIWriter(colors: .truecolor).text(near) == "\(e)48;2;10;20;30m \(e)48;2;12;22;31m \(e)0m\n")
    }

    @Test("Fitting keeps the aspect ratio, never enlarges, and centres")
    func fitting() {
        // 408 x 408 in 80 x 24 cells: 48 pixel rows -> 48 x 48, 24 rows, column (80 - 48) / 2 + 1.
        #expect(TerminalFit(width: 408, height: 408, columns: 80, rows: 24) == TerminalFit.expected(48, 48, 17, 1))
        // 393 x 213 (a compact browser at 1x) in 100 x 40: width-bound, 100 x 54 -> 27 rows.
        #expect(TerminalFit(width: 393, height: 213, columns: 100, rows: 40) == TerminalFit.expected(100, 54, 1, 7))
        // Small pictures stay small.
        #expect(TerminalFit(width: 10, height: 6, columns: 80, rows: 24) == TerminalFit.expected(10, 6, 36, 11))
    }

    @Test("Next change after a time: within a loop, across loops, never after the last play")
    func nextChange() {
        let clock = StickerClock(durations: [0.1, 0.2, 0.3], plays: 2)
        #expect(clock.nextChange(after: 0) == 0.1)
        #expect(clock.nextChange(after: 0.1) == 0.3)
        #expect(clock.nextChange(after: 0.35) == 0.6)
        #expect(clock.nextChange(after: 0.95) == nil)  // the last frame of the last play rests
        #expect(StickerClock(durations: [0.1, 0.2], plays: 0).nextChange(after: 1000.25) == 1000.3)
        #expect(StickerClock(durations: [0.5], plays: 0).nextChange(after: 0) == nil)
    }

    @Test(
        "Walking the changes of 90 frames of 33 ms reaches every frame at its start, k x 33 ms, two loops through; so does a loop sent to a terminal"
    )
    func walkEveryChange() throws {
        let clock = StickerClock(durations: Array(repeating: 0.033, count: 90), plays: 0)
        var time = 0.0
        for change in 1..<180 {
            let next = try #require(clock.nextChange(after: time), "change \(change)")
            #expect(abs(next - Double(change) * 0.033) < 1e-9, "change \(change) at \(next) s")
            #expect(clock.frameIndex(at: next) == change % 90, "change \(change) at \(next) s")
            time = next
        }
        let frames = try LoopFrames.sample(ClockOnlySource(clock: clock), width: 1, height: 1)
        #expect(frames.count == 90)
        #expect(frames.allSatisfy { abs($0.duration - 0.033) < 1e-9 }, "\(frames.map(\.duration))")
    }
}

extension TerminalFit {
    static func expected(_ w: Int, _ h: Int, _ column: Int, _ row: Int) -> TerminalFit {
        var fit = TerminalFit(width: 1, height: 1, columns: 1, rows: 1)
        fit.pixelWidth = w; fit.pixelHeight = h; fit.column = column; fit.row = row
        return fit
    }
}

/// A picture that changes on `clock` and is one transparent pixel whatever the time.
private final class ClockOnlySource: PreviewSource {
    let clock: StickerClock
    init(clock: StickerClock) { self.clock = clock }
    var pixelWidth: Int { 1 }
    var pixelHeight: Int { 1 }
    var loopDuration: Double { clock.loopDuration }
    var endTime: Double? { clock.endTime }
    func nextChange(after time: Double) -> Double? { clock.nextChange(after: time) }
    func image(at time: Double, width: Int, height: Int) throws(PackError) -> RGBAImage {
        RGBAImage(width: width, height: height)
    }
}
