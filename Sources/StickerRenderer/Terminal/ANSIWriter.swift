/// Turns cell grids into terminal output: whole frames, or only the cells that changed since
/// the previous frame, with the fewest colour changes.
///
/// In truecolor mode a `tolerance` lets nearby colours count as equal (each channel within
/// it): a cell that moved by less is not redrawn, and a colour already set is reused. Both cut
/// the bytes a smooth animation costs, at an error no larger than the tolerance.
public struct ANSIWriter: Sendable {
    /// Truecolor or 256 colours.
    public var colors: TerminalColors
    /// The largest per-channel difference treated as no difference (truecolor only).
    public var tolerance: Int

    /// Creates a writer (`tolerance` 0 writes every colour exactly).
    public init(colors: TerminalColors, tolerance: Int = 0) {
        self.colors = colors
        self.tolerance = max(0, tolerance)
    }

    /// The player's default tolerance: 4 of 255 per channel, below what eyes see in a
    /// two-pixel cell and enough to stop resampling noise from redrawing still areas.
    public static let playbackTolerance = 4

    /// The escape sequences shared by the player.
    public enum Control {
        /// Enter the alternate screen, hide the cursor, clear.
        public static let enter = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J"
        /// Reset colours, show the cursor, leave the alternate screen.
        public static let leave = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"
        /// Begin a synchronized update (DEC private mode 2026): the terminal shows it whole.
        public static let beginFrame = "\u{1B}[?2026h"
        /// End a synchronized update.
        public static let endFrame = "\u{1B}[?2026l"
        /// Clear the screen (after a resize).
        public static let clear = "\u{1B}[0m\u{1B}[2J"
    }

    /// `grid` as lines of text for a file or pipe: no cursor movement, each line ending in a
    /// colour reset and a newline.
    public func text(_ grid: CellGrid) -> String {
        var out = ""
        var state = PenState()
        for row in 0..<grid.rows {
            for column in 0..<grid.columns { _ = appendCell(grid[column, row], to: &out, state: &state) }
            out += "\u{1B}[0m\n"
            state = PenState()
        }
        return out
    }

    /// The output that turns the screen showing `displayed` (or nothing) into `grid`, drawn
    /// with its top-left cell at (`originColumn`, `originRow`), 1-based, and what the screen
    /// shows afterwards (pass it back as `displayed` next time). Only changed cells are
    /// written; the cursor steps or jumps over unchanged runs.
    public func update(from displayed: CellGrid?, to grid: CellGrid, originColumn: Int = 1, originRow: Int = 1) -> (
        output: String, displayed: CellGrid
    ) {
        let comparable = displayed.map { $0.columns == grid.columns && $0.rows == grid.rows } ?? false
        var shown = comparable ? displayed! : grid
        var out = ""
        var state = PenState()
        var cursor: (row: Int, column: Int)? = nil
        for row in 0..<grid.rows {
            for column in 0..<grid.columns {
                let cell = grid[column, row]
                if comparable, close(shown[column, row], cell) { continue }
                let target = (row: originRow + row, column: originColumn + column)
                if let at = cursor, at.row == target.row, at.column < target.column {
                    // Same row: step forward over the unchanged cells (CUF), shorter than a jump.
                    let gap = target.column - at.column
                    out += gap == 1 ? "\u{1B}[C" : "\u{1B}[\(gap)C"
                } else if cursor == nil || cursor!.row != target.row || cursor!.column != target.column {
                    out += "\u{1B}[\(target.row);\(target.column)H"
                }
                shown.cells[row * grid.columns + column] = appendCell(cell, to: &out, state: &state)
                cursor = (target.row, target.column + 1)
            }
        }
        if !out.isEmpty { out += "\u{1B}[0m" }
        return (out, shown)
    }

    /// A colour as the terminal receives it: its default, a 24-bit colour or a palette entry.
    private enum Pen: Equatable {
        case terminalDefault
        case rgb(CellGrid.RGB)
        case palette(Int)
    }

    /// The colours currently set, so unchanged ones are not repeated.
    private struct PenState {
        var foreground: Pen?
        var background: Pen?
    }

    private func pen(_ color: CellGrid.RGB?) -> Pen {
        guard let c = color else { return .terminalDefault }
        switch colors {
        case .truecolor: return .rgb(c)
        case .ansi256: return .palette(TerminalColors.paletteIndex(red: c.r, green: c.g, blue: c.b))
        }
    }

    /// Whether two pens look the same within the tolerance.
    private func close(_ a: Pen, _ b: Pen) -> Bool {
        switch (a, b) {
        case (.rgb(let x), .rgb(let y)):
            return abs(Int(x.r) - Int(y.r)) <= tolerance && abs(Int(x.g) - Int(y.g)) <= tolerance
                && abs(Int(x.b) - Int(y.b)) <= tolerance
        default: return a == b
        }
    }

    private func close(_ a: CellGrid.Cell, _ b: CellGrid.Cell) -> Bool {
        close(pen(a.top), pen(b.top)) && close(pen(a.bottom), pen(b.bottom))
    }

    /// The colour a pen shows, for the displayed grid (a palette entry keeps the wanted colour:
    /// equal entries compare equal through `pen`).
    private func color(_ pen: Pen, wanted: CellGrid.RGB?) -> CellGrid.RGB? {
        switch pen {
        case .terminalDefault: return nil
        case .rgb(let c): return c
        case .palette: return wanted
        }
    }

    /// Writes one cell and returns what it shows.
    private func appendCell(_ cell: CellGrid.Cell, to out: inout String, state: inout PenState) -> CellGrid.Cell {
        // Upper half block: foreground on top, background below. Colours are compared as the
        // terminal will show them (in 256-colour mode two colours may share an entry), and a
        // pen already set is reused when it is close enough.
        func reuse(_ wanted: Pen, _ current: Pen?) -> Pen {
            if let current, close(current, wanted) { return current }
            return wanted
        }
        var top = pen(cell.top)
        var bottom = pen(cell.bottom)
        var glyph: String
        var foreground: Pen? = nil  // nil: a space, whose foreground does not matter
        var background: Pen
        if close(top, bottom), top != .terminalDefault, let current = state.foreground, current != .terminalDefault,
            close(current, top), let currentBackground = state.background, !close(currentBackground, top)
        {
            // One colour, already the foreground: a full block needs no colour change.
            glyph = "\u{2588}"; foreground = current; background = currentBackground; top = current; bottom = current
        } else if close(top, bottom) {
            glyph = " "; background = reuse(top, state.background); top = background; bottom = background
        } else if bottom == .terminalDefault {
            glyph = "\u{2580}"; foreground = reuse(top, state.foreground); background = .terminalDefault;
            top = foreground!
        } else if top == .terminalDefault {
            // The lower half block keeps the transparent upper half in the terminal's colour.
            glyph = "\u{2584}"; foreground = reuse(bottom, state.foreground); background = .terminalDefault;
            bottom = foreground!
        } else {
            // Two colours: an upper half block (top in the foreground) or a lower one (bottom in
            // the foreground), whichever changes fewer colour bytes given the pens already set.
            let upper = (foreground: reuse(top, state.foreground), background: reuse(bottom, state.background))
            let lower = (foreground: reuse(bottom, state.foreground), background: reuse(top, state.background))
            if changeCost(upper, state) <= changeCost(lower, state) {
                glyph = "\u{2580}"; foreground = upper.foreground; background = upper.background
                top = upper.foreground; bottom = upper.background
            } else {
                glyph = "\u{2584}"; foreground = lower.foreground; background = lower.background
                top = lower.background; bottom = lower.foreground
            }
        }
        // Both changes go in one SGR sequence.
        var parameters: [String] = []
        if let foreground, state.foreground != foreground {
            parameters.append(sgr(foreground: true, foreground))
            state.foreground = foreground
        }
        if state.background != background {
            parameters.append(sgr(foreground: false, background))
            state.background = background
        }
        if !parameters.isEmpty { out += "\u{1B}[" + parameters.joined(separator: ";") + "m" }
        out += glyph
        return CellGrid.Cell(top: color(top, wanted: cell.top), bottom: color(bottom, wanted: cell.bottom))
    }

    /// The bytes of SGR parameters needed to set `pens` from `state` (0 when both are set).
    private func changeCost(_ pens: (foreground: Pen, background: Pen), _ state: PenState) -> Int {
        (state.foreground == pens.foreground ? 0 : sgr(foreground: true, pens.foreground).utf8.count + 1)
            + (state.background == pens.background ? 0 : sgr(foreground: false, pens.background).utf8.count + 1)
    }

    private func sgr(foreground: Bool, _ pen: Pen) -> String {
        switch pen {
        case .terminalDefault: return foreground ? "39" : "49"
        case .rgb(let c): return "\(foreground ? 38 : 48);2;\(c.r);\(c.g);\(c.b)"
        case .palette(let n): return "\(foreground ? 38 : 48);5;\(n)"
        }
    }
}
