/// Turns cell grids into terminal output: whole frames, or only the cells that changed since
/// the previous frame, with the fewest colour changes.
public struct ANSIWriter: Sendable {
    /// Truecolor or 256 colours.
    public var colors: TerminalColors

    /// Creates a writer.
    public init(colors: TerminalColors) {
        self.colors = colors
    }

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
            for column in 0..<grid.columns { appendCell(grid[column, row], to: &out, state: &state) }
            out += "\u{1B}[0m\n"
            state = PenState()
        }
        return out
    }

    /// The output that turns the screen showing `previous` (or nothing) into `grid`, drawn
    /// with its top-left cell at (`originColumn`, `originRow`), 1-based. Only changed cells
    /// are written; the cursor jumps over unchanged runs.
    public func update(from previous: CellGrid?, to grid: CellGrid, originColumn: Int = 1, originRow: Int = 1) -> String {
        let comparable = previous.map { $0.columns == grid.columns && $0.rows == grid.rows } ?? false
        var out = ""
        var state = PenState()
        var cursor: (row: Int, column: Int)? = nil
        for row in 0..<grid.rows {
            for column in 0..<grid.columns {
                let cell = grid[column, row]
                if comparable, previous![column, row] == cell { continue }
                let target = (row: originRow + row, column: originColumn + column)
                if cursor == nil || cursor!.row != target.row || cursor!.column != target.column {
                    out += "\u{1B}[\(target.row);\(target.column)H"
                }
                appendCell(cell, to: &out, state: &state)
                cursor = (target.row, target.column + 1)
            }
        }
        if !out.isEmpty { out += "\u{1B}[0m" }
        return out
    }

    /// A colour as the terminal receives it: its default, a 24-bit colour or a palette entry.
    private enum Pen: Equatable {
        case terminalDefault
        case rgb(UInt8, UInt8, UInt8)
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
        case .truecolor: return .rgb(c.r, c.g, c.b)
        case .ansi256: return .palette(TerminalColors.paletteIndex(red: c.r, green: c.g, blue: c.b))
        }
    }

    private func appendCell(_ cell: CellGrid.Cell, to out: inout String, state: inout PenState) {
        // Upper half block: foreground on top, background below. Colours are compared as the
        // terminal will show them (in 256-colour mode two colours may share an entry).
        let top = pen(cell.top), bottom = pen(cell.bottom)
        let glyph: String
        var foreground: Pen? = nil  // nil: a space, whose foreground does not matter
        let background: Pen
        if top == bottom {
            glyph = " "; background = top
        } else if bottom == .terminalDefault {
            glyph = "\u{2580}"; foreground = top; background = .terminalDefault
        } else if top == .terminalDefault {
            // The lower half block keeps the transparent upper half in the terminal's colour.
            glyph = "\u{2584}"; foreground = bottom; background = .terminalDefault
        } else {
            glyph = "\u{2580}"; foreground = top; background = bottom
        }
        if let foreground, state.foreground != foreground {
            out += sgr(foreground: true, foreground)
            state.foreground = foreground
        }
        if state.background != background {
            out += sgr(foreground: false, background)
            state.background = background
        }
        out += glyph
    }

    private func sgr(foreground: Bool, _ pen: Pen) -> String {
        switch pen {
        case .terminalDefault: return foreground ? "\u{1B}[39m" : "\u{1B}[49m"
        case .rgb(let r, let g, let b): return "\u{1B}[\(foreground ? 38 : 48);2;\(r);\(g);\(b)m"
        case .palette(let n): return "\u{1B}[\(foreground ? 38 : 48);5;\(n)m"
        }
    }
}
