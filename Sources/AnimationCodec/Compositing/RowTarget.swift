/// Where a frame decoder writes its converted rows: straight into a full layer buffer (the
/// parallel path), straight into the canvas (a SOURCE frame inside the canvas), or through a
/// one-row buffer that is then blended onto the canvas (OVER, or a clipped frame). The same
/// kernels run in every case, so the serial and parallel paths give identical pixels.
struct RowTarget {
    /// Row 0, column 0 of the frame in the destination (direct mode), or the canvas origin.
    private let base: UnsafeMutablePointer<UInt32>
    /// Pixels from one destination row to the next.
    private let stride: Int
    private let rect: FrameRect
    private let clip: FrameRect
    private let blend: BlendOp
    private let rowBuffer: UnsafeMutablePointer<UInt32>?
    /// Whether this target writes into a layer buffer rather than a canvas.
    let isLayer: Bool
    /// Canvas pixels an OVER frame replaces (SOURCE) instead of blending: part of a rectangle
    /// the dispose before it would have cleared, and did not (``Compositor``). Left, top,
    /// right and bottom edges (the last two exclusive), all 0 if none: 16 bytes, where a
    /// ``FrameRect`` took 32 and made the target large enough that copying it became a call.
    private var replaced = SIMD4<Int32>()

    /// A full `rect.width * rect.height` layer.
    static func layer(_ pixels: UnsafeMutablePointer<UInt32>, rect: FrameRect) -> RowTarget {
        RowTarget(
            base: pixels, stride: rect.width, rect: rect,
            clip: FrameRect(x: 0, y: 0, width: rect.width, height: rect.height),
            blend: .source, rowBuffer: nil, isLayer: true)
    }

    /// The canvas, for a frame with `rect` and `blend`; `rowBuffer` holds `rect.width` pixels.
    /// An OVER frame replaces the canvas's pixels in `replaced` (canvas coordinates), which
    /// hold nothing to blend with: part of a cleared rectangle, left uncleared.
    static func canvas(
        _ canvas: UnsafeMutablePointer<UInt32>, width: Int, height: Int, rect: FrameRect, blend: BlendOp,
        rowBuffer: UnsafeMutablePointer<UInt32>,
        replacing replaced: FrameRect = FrameRect(x: 0, y: 0, width: 0, height: 0)
    ) -> RowTarget {
        let clip = rect.clipped(toWidth: width, height: height)
        if blend == .source && clip == rect {
            return RowTarget(
                base: canvas + rect.y * width + rect.x, stride: width, rect: rect, clip: clip,
                blend: .source, rowBuffer: nil, isLayer: false)
        }
        var target = RowTarget(
            base: canvas, stride: width, rect: rect, clip: clip, blend: blend, rowBuffer: rowBuffer, isLayer: false)
        let kept = replaced.intersection(clip)
        if blend == .over, !kept.isEmpty {
            // Canvas coordinates fit in 32 bits: dimensions are limited far below that.
            target.replaced = SIMD4(
                Int32(kept.x), Int32(kept.y), Int32(kept.x + kept.width), Int32(kept.y + kept.height))
        }
        return target
    }

    /// The canvas columns of row `canvasY` that the frame replaces rather than blends, if any.
    @inline(__always)
    private func replacedColumns(canvasY: Int) -> Range<Int>? {
        guard canvasY >= Int(replaced[1]), canvasY < Int(replaced[3]) else { return nil }
        return Int(replaced[0])..<Int(replaced[2])
    }

    /// Whether rows can be written at any pixel step (interlaced PNG passes need that).
    var acceptsScatteredWrites: Bool { rowBuffer == nil }

    /// Where to write row `y` of the frame (frame coordinates), `rect.width` pixels.
    @inline(__always)
    func destination(row y: Int) -> UnsafeMutablePointer<UInt32> {
        rowBuffer ?? base + y &* stride
    }

    /// Applies row `y` once it is written at ``destination(row:)``.
    @inline(__always)
    func commit(row y: Int) {
        guard let rowBuffer else { return }
        let canvasY = rect.y &+ y
        guard canvasY >= clip.y && canvasY < clip.y &+ clip.height && clip.width > 0 else { return }
        // Safe: the clip lies inside both the canvas and the frame rectangle.
        let from = rowBuffer + (clip.x &- rect.x)
        let to = base + (canvasY &* stride &+ clip.x)
        switch blend {
        case .source: to.update(from: from, count: clip.width)
        case .over:
            guard let columns = replacedColumns(canvasY: canvasY) else {
                BlendKernels.overSIMD(from, onto: to, count: clip.width)
                return
            }
            Self.overAround(columns, from: from, onto: to, clip: clip.x..<(clip.x &+ clip.width))
        }
    }

    /// A row of premultiplied pixels drawn OVER the canvas row `to` (its columns `clip`),
    /// but copied within the replaced `columns`. Out of line: the rows that need it are few,
    /// and inlined into every row's path it cost the others a few percent.
    @inline(never)
    private static func overAround(
        _ columns: Range<Int>, from: UnsafeMutablePointer<UInt32>, onto to: UnsafeMutablePointer<UInt32>,
        clip: Range<Int>
    ) {
        let (left, middle) = (columns.lowerBound &- clip.lowerBound, columns.count)
        let right = clip.count &- left &- middle
        BlendKernels.overSIMD(from, onto: to, count: left)
        (to + left).update(from: from + left, count: middle)
        BlendKernels.overSIMD(from + (left &+ middle), onto: to + (left &+ middle), count: right)
    }

    /// Writes a whole decoded layer (`width` x `height` packed pixels) through this target.
    func copyRows(from pixels: UnsafePointer<UInt32>, width: Int, height: Int) {
        for y in 0..<height {
            destination(row: y).update(from: pixels + y &* width, count: width)
            commit(row: y)
        }
    }

    /// Clears row `y` of the frame from column `x` on, where rows are written in place (a
    /// layer, or a SOURCE frame inside the canvas): what a decoder that stops short did not
    /// reach. Rows drawn through the row buffer leave unreached pixels to the canvas, which
    /// shows what is under the frame, except in the replaced columns, which were not cleared
    /// for it: those are cleared here.
    func clear(row y: Int, from x: Int) {
        guard x < rect.width else { return }
        guard rowBuffer != nil else {
            (base + (y &* stride &+ x)).update(repeating: 0, count: rect.width &- x)
            return
        }
        // On the canvas, only the replaced columns hold what was there before the dispose.
        guard let columns = replacedColumns(canvasY: rect.y &+ y) else { return }
        let start = max(columns.lowerBound, rect.x &+ x)
        guard start < columns.upperBound else { return }
        (base + ((rect.y &+ y) &* stride &+ start)).update(repeating: 0, count: columns.upperBound &- start)
    }

    /// Whether ``overStraight(row:_:)`` applies: an OVER frame inside the canvas.
    var blendsStraightRowsInPlace: Bool { rowBuffer != nil && blend == .over && clip == rect }

    /// Premultiplies a straight RGBA8 row and draws it OVER the canvas in one pass (only
    /// when ``blendsStraightRowsInPlace``).
    @inline(__always)
    func overStraight(row y: Int, _ straight: UnsafePointer<UInt8>) {
        let canvasY = rect.y &+ y
        let out = base + (canvasY &* stride &+ rect.x)
        guard let columns = replacedColumns(canvasY: canvasY) else {
            BlendKernels.premultiplyOver(straight: straight, onto: out, count: rect.width)
            return
        }
        Self.premultiplyOverAround(columns, straight: straight, onto: out, frameX: rect.x, count: rect.width)
    }

    /// `count` straight pixels premultiplied and drawn OVER the canvas row `out` (from canvas
    /// column `frameX`), but premultiplied into the replaced `columns`; out of line, as
    /// ``overAround(_:from:onto:clip:)``.
    @inline(never)
    private static func premultiplyOverAround(
        _ columns: Range<Int>, straight: UnsafePointer<UInt8>, onto out: UnsafeMutablePointer<UInt32>, frameX: Int,
        count: Int
    ) {
        let (left, middle) = (columns.lowerBound &- frameX, columns.count)
        let right = count &- left &- middle
        BlendKernels.premultiplyOver(straight: straight, onto: out, count: left)
        Premultiplication.premultiplyRow(straight + left &* 4, into: out + left, count: middle)
        BlendKernels.premultiplyOver(
            straight: straight + (left &+ middle) &* 4, onto: out + (left &+ middle), count: right)
    }

    /// Draws `count` GIF palette indexes of row `y` through `table` (256 premultiplied
    /// entries, 0 for the transparent index). On the canvas a 0 entry leaves the pixel as it
    /// is, which is OVER for pixels whose alpha is 0 or 255; into a layer every entry is stored.
    /// `transparent` is the frame's transparent index, if any: sixteen or eight of it in a row
    /// (the margins around a sticker's art) are passed over, or stored as zeros, without a
    /// palette lookup; without one, runs of index 0 are stored as its entry the same way. With
    /// `everyEntryOpaque` (no entry of `table` is 0), OVER stores every entry, as SOURCE does,
    /// without reading the canvas.
    @inline(__always)
    func drawIndexed(
        row y: Int, _ indexes: UnsafePointer<UInt8>, count: Int, table: UnsafePointer<UInt32>,
        transparent: UInt8?, everyEntryOpaque: Bool = false
    ) {
        let run = IndexRun(transparent ?? 0, table: table)
        if rowBuffer == nil {
            // A layer or a SOURCE frame inside the canvas: every entry is stored.
            Self.lookUp(indexes, count: count, table: table, into: base + y &* stride, run: run)
            return
        }
        let canvasY = rect.y &+ y
        guard canvasY >= clip.y && canvasY < clip.y &+ clip.height else { return }
        let first = clip.x &- rect.x
        let last = min(count, clip.x &+ clip.width &- rect.x)
        guard first < last else { return }
        // Safe: columns first..<last map inside the clip, hence inside the canvas row.
        let out = base + (canvasY &* stride &+ rect.x)
        if blend == .source || everyEntryOpaque {
            Self.lookUp(indexes + first, count: last &- first, table: table, into: out + first, run: run)
            return
        }
        guard let columns = replacedColumns(canvasY: canvasY) else {
            Self.drawOver(indexes, from: first, to: last, table: table, onto: out, run: run)
            return
        }
        // Drawn OVER left and right of the replaced columns, every entry stored within them
        // (the replaced columns lie inside the clip; a row that stops short stops at `last`).
        let middleStart = min(columns.lowerBound &- rect.x, last)
        let middleEnd = min(columns.upperBound &- rect.x, last)
        Self.drawOver(indexes, from: first, to: middleStart, table: table, onto: out, run: run)
        Self.lookUp(
            indexes + middleStart, count: middleEnd &- middleStart, table: table, into: out + middleStart, run: run)
        Self.drawOver(indexes, from: middleEnd, to: last, table: table, onto: out, run: run)
    }

    /// Draws indexes `first..<last` of a row OVER the canvas row `out` (both counted from the
    /// frame's column 0): a transparent entry (0) leaves the pixel as it is.
    @inline(__always)
    private static func drawOver(
        _ indexes: UnsafePointer<UInt8>, from first: Int, to last: Int, table: UnsafePointer<UInt32>,
        onto out: UnsafeMutablePointer<UInt32>, run: IndexRun
    ) {
        // Masks, not a branch: transparent and opaque pixels interleave unpredictably at
        // a sticker's edges, and the row is in cache either way. Written on 4-pixel vectors,
        // since the scalar form compiles back into a branch; only a whole block of sixteen or
        // eight of the run's index (the margins, or a flat colour) takes the branch that
        // skips them (transparent) or stores their one entry.
        let raw = UnsafeMutableRawPointer(out)
        @inline(__always) func drawEight(_ word: UInt64, at x: Int) {
            if word == run.word {
                if run.value != 0 { run.store(8, at: raw + x &* 4) }
                return
            }
            for half in 0..<2 {
                let at = x &+ half &* 4
                let values = gather(UInt32(truncatingIfNeeded: word &>> UInt64(half &* 32)), table)
                let under = raw.loadUnaligned(fromByteOffset: at &* 4, as: SIMD4<UInt32>.self)
                // The pixel under where the entry is 0, else the entry: entry | (under & mask of
                // the 0 entries), one AND fewer than a select (the entry is 0 where it is not
                // taken).
                let clear = SIMD4<UInt32>().replacing(with: .max, where: values .== 0)
                raw.storeBytes(of: values | under & clear, toByteOffset: at &* 4, as: SIMD4<UInt32>.self)
            }
        }
        var x = run.walkBlocks(indexes, from: first, to: last, drawEight) { x in
            if run.value != 0 { run.store(16, at: raw + x &* 4) }
        }
        while x < last {
            let value = table[Int(indexes[x])]
            out[x] = value != 0 ? value : out[x]
            x &+= 1
        }
    }

    /// The index whose runs are drawn without a palette lookup (the transparent one, else
    /// index 0), as one 64-bit word of eight index bytes, and its palette entry: sixteen or
    /// eight of it in a row are stored as that entry (or passed over OVER when it is 0).
    struct IndexRun {
        /// The run's index in every byte.
        let word: UInt64
        /// The run index's palette entry (0 for the transparent index).
        let value: UInt32

        @inline(__always)
        init(_ index: UInt8, table: UnsafePointer<UInt32>) {
            word = UInt64(index) &* 0x0101_0101_0101_0101
            value = table[Int(index)]
        }

        /// Whether the sixteen indexes in `low` and `high` are all the run's index.
        @inline(__always)
        func covers(_ low: UInt64, _ high: UInt64) -> Bool { (low ^ word) | (high ^ word) == 0 }

        /// Walks `indexes` from `first` towards `last` sixteen at a time, giving `sixteen` the
        /// column of each block that is all the run's index and `eight` each half (its eight
        /// index bytes as a word, and its column) of the others, then eight more if they fit;
        /// returns the column where the pixels left (fewer than eight) begin.
        @inline(__always)
        func walkBlocks(
            _ indexes: UnsafePointer<UInt8>, from first: Int, to last: Int, _ eight: (UInt64, Int) -> Void,
            sixteen: (Int) -> Void
        ) -> Int {
            var x = first
            while x &+ 16 <= last {
                let low = UnsafeRawPointer(indexes + x).loadUnaligned(as: UInt64.self)
                let high = UnsafeRawPointer(indexes + (x &+ 8)).loadUnaligned(as: UInt64.self)
                if covers(low, high) {
                    sixteen(x)
                } else {
                    eight(low, x)
                    eight(high, x &+ 8)
                }
                x &+= 16
            }
            if x &+ 8 <= last {
                eight(UnsafeRawPointer(indexes + x).loadUnaligned(as: UInt64.self), x)
                x &+= 8
            }
            return x
        }

        /// Stores the run's entry `count` (8 or 16) times at `pixels`.
        @inline(__always)
        func store(_ count: Int, at pixels: UnsafeMutableRawPointer) {
            let entries = SIMD4<UInt32>(repeating: value)
            for offset in Swift.stride(from: 0, to: count &* 4, by: 16) {
                pixels.storeBytes(of: entries, toByteOffset: offset, as: SIMD4<UInt32>.self)
            }
        }
    }

    /// The palette entries of four indexes packed in `word` (lowest byte first).
    @inline(__always)
    private static func gather(_ word: UInt32, _ table: UnsafePointer<UInt32>) -> SIMD4<UInt32> {
        SIMD4<UInt32>(
            table[Int(word & 0xFF)], table[Int(word &>> 8 & 0xFF)],
            table[Int(word &>> 16 & 0xFF)], table[Int(word &>> 24)])
    }

    /// `count` palette entries for `indexes`, stored sixteen or eight pixels at a time; a
    /// block of the run's index is stored as its entry without looking each one up.
    @inline(__always)
    private static func lookUp(
        _ indexes: UnsafePointer<UInt8>, count: Int, table: UnsafePointer<UInt32>,
        into out: UnsafeMutablePointer<UInt32>, run: IndexRun
    ) {
        let raw = UnsafeMutableRawPointer(out)
        @inline(__always) func lookUpEight(_ word: UInt64, at x: Int) {
            if word == run.word {
                run.store(8, at: raw + x &* 4)
                return
            }
            raw.storeBytes(
                of: gather(UInt32(truncatingIfNeeded: word), table), toByteOffset: x &* 4, as: SIMD4<UInt32>.self)
            raw.storeBytes(
                of: gather(UInt32(truncatingIfNeeded: word &>> 32), table), toByteOffset: x &* 4 &+ 16,
                as: SIMD4<UInt32>.self)
        }
        var x = run.walkBlocks(indexes, from: 0, to: count, lookUpEight) { x in run.store(16, at: raw + x &* 4) }
        while x < count { out[x] = table[Int(indexes[x])]; x &+= 1 }
    }
}
