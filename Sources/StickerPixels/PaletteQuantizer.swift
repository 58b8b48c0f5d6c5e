/// Reduces premultiplied RGBA8 frames to at most 256 colours shared by every frame (one
/// APNG palette), choosing the colours in premultiplied space: a translucent pixel's error
/// is weighed by how much it shows.
///
/// Median cut over a histogram of cells of ``cellBits`` bits a channel (alpha kept apart: fully
/// transparent pixels get their own exact entry and opaque pixels only ever map to opaque
/// entries, so a sticker's edges never turn see-through), then a few weighted k-means passes over the cells. Pixels map
/// to the nearest colour of their cell; with ``dither``, after an ordered (Bayer) offset that
/// depends only on the pixel's place, so a pixel that does not change keeps its colour from
/// frame to frame: no crawling noise, and the encoder still crops what did not change.
package struct PaletteQuantizer {
    /// The most colours the palette may have.
    package var maxColors = 256
    /// k-means refinement passes.
    package var refinementPasses = 3
    /// Whether colours are dithered (ordered, 8 x 8 Bayer) before they are mapped.
    package var dither = false
    /// Bits of each colour channel a histogram cell keeps, 5 or 6: 6 tells apart the colours
    /// of a smooth gradient that 5 would merge (up to 4 levels off, not 8), for tables of
    /// 262,144 cells an alpha class instead of 32,768 (1 MB each for the histogram's places and
    /// the mapping's lookup instead of 128 KB), so it suits pictures with few alpha classes
    /// (opaque ones, as a terminal shows them).
    package var cellBits = 5

    /// A quantizer to `maxColors` colours, dithered or not, binning colours by `cellBits` bits.
    package init(maxColors: Int = 256, refinementPasses: Int = 3, dither: Bool = false, cellBits: Int = 5) {
        precondition((5...6).contains(cellBits), "cells of 5 or 6 bits a channel")
        self.maxColors = maxColors
        self.refinementPasses = refinementPasses
        self.dither = dither
        self.cellBits = cellBits
    }

    /// The alpha class of a pixel: 0 opaque, else 1 + alpha / 8.
    @inline(__always)
    private static func alphaClass(_ packed: UInt32) -> Int {
        let a = packed &>> 24
        return a == 255 ? 0 : 1 &+ Int(a &>> 3)
    }
    /// The colour bits of a pixel's cell: the top `bits` (5 or 6) of blue, green and red, in
    /// that order. Called for every pixel mapped or counted: masking shifts, no overflow checks.
    @inline(__always)
    private static func colourCell(_ packed: UInt32, bits: Int) -> Int {
        let shift = UInt32(truncatingIfNeeded: 8 &- bits)
        let mask = UInt32(truncatingIfNeeded: 1 &<< bits &- 1)
        let blue = Int(packed &>> (16 &+ shift) & mask)
        let green = Int(packed &>> (8 &+ shift) & mask)
        return blue &<< (2 &* bits) | green &<< bits | Int(packed &>> shift & mask)
    }

    /// The centre of colour cell `cell` of `bits` a channel, as red, green, blue.
    private static func centre(ofCell cell: Int, bits: Int) -> (Double, Double, Double) {
        let mask = 1 << bits - 1
        let half = 1 << (7 - bits)
        func channel(_ value: Int) -> Double { Double(value << (8 - bits) | half) }
        return (channel(cell & mask), channel(cell >> bits & mask), channel(cell >> (2 * bits) & mask))
    }
    private static let alphaClasses = 33

    /// Tables of `cellsPerClass` entries for only the alpha classes that occur (most pictures
    /// have one or two of the 33), so a small picture does not clear a table of a million cells.
    private struct ClassTables<Entry> {
        private var entries: [Entry] = []
        private var slots = [Int](repeating: -1, count: PaletteQuantizer.alphaClasses)
        private let empty: Entry
        private let cellsPerClass: Int

        init(empty: Entry, cellBits: Int) {
            self.empty = empty
            cellsPerClass = 1 << (3 * cellBits)
        }

        /// The index of `alphaClass`'s cell `colourCell` in the entries, the class's table made
        /// on first use.
        @inline(__always)
        mutating func index(alphaClass: Int, colourCell: Int) -> Int {
            var slot = slots[alphaClass]
            if slot < 0 { slot = addTable(alphaClass) }
            return slot &* cellsPerClass &+ colourCell
        }

        /// Makes `alphaClass`'s table; returns its slot.
        @inline(never)
        private mutating func addTable(_ alphaClass: Int) -> Int {
            let slot = entries.count / cellsPerClass
            slots[alphaClass] = slot
            entries += repeatElement(empty, count: cellsPerClass)
            return slot
        }

        subscript(index: Int) -> Entry {
            get { entries[index] }
            set { entries[index] = newValue }
        }
    }

    /// Weighted sums of the pixels in one cell.
    fileprivate struct CellStats: Sendable {
        var count = 0
        var r = 0, g = 0, b = 0, a = 0
        var mean: SIMD4<Double> { SIMD4(Double(r), Double(g), Double(b), Double(a)) / Double(max(count, 1)) }

        mutating func add(_ packed: UInt32) {
            count += 1
            r += Int(packed & 0xFF)
            g += Int(packed >> 8 & 0xFF)
            b += Int(packed >> 16 & 0xFF)
            a += Int(packed >> 24)
        }
    }

    /// One occupied histogram cell: whether its pixels are opaque, how many it holds and their
    /// mean colour.
    fileprivate struct Cell: Sendable {
        var isOpaque: Bool
        var count: Int
        var mean: SIMD4<Double>
    }

    /// The colours a palette is chosen from: each occupied histogram cell with the weighted sums
    /// of its pixels. Made once for a set of frames, it serves every palette size.
    package struct Histogram: Sendable {
        fileprivate let cells: [Cell]
    }

    /// The histogram of `frames` in cells of `cellBits` bits a channel: pixels unchanged since
    /// the last frame were counted there, so only what changes adds weight, as it does to the
    /// file; frame 0 counts whole.
    /// The frames are read once each, in order (they may be made as they are asked for).
    package static func histogram<Frames: Sequence<[UInt8]>>(of frames: Frames, cellBits: Int = 5) -> Histogram {
        // Each occupied cell's sums, in the order first met; the tables map a cell to its place.
        var places = ClassTables<Int32>(empty: -1, cellBits: cellBits)
        var keys: [Int] = []
        var stats: [CellStats] = []
        var previous: [UInt8]?
        for frame in frames {
            let isFirst = previous == nil
            (previous ?? frame).withUnsafeBytes { before in
                frame.withUnsafeBytes { raw in
                    let old = before.bindMemory(to: UInt32.self)
                    let pixels = raw.bindMemory(to: UInt32.self)
                    for i in pixels.indices where pixels[i] >> 24 != 0 && (isFirst || pixels[i] != old[i]) {
                        let value = pixels[i]
                        let alphaClass = alphaClass(value)
                        let colourCell = colourCell(value, bits: cellBits)
                        let slot = places.index(alphaClass: alphaClass, colourCell: colourCell)
                        var place = Int(places[slot])
                        if place < 0 {
                            place = stats.count
                            places[slot] = Int32(place)
                            stats.append(CellStats())
                            keys.append(alphaClass << (3 * cellBits) | colourCell)
                        }
                        stats[place].add(value)
                    }
                }
            }
            previous = frame
        }
        // In the order of their keys (alpha class, then colour), as a palette's cut expects.
        let cells = keys.indices.sorted { keys[$0] < keys[$1] }.map { place in
            Cell(isOpaque: keys[place] >> (3 * cellBits) == 0, count: stats[place].count, mean: stats[place].mean)
        }
        return Histogram(cells: cells)
    }

    /// `frames` (rows of `width` pixels) with every pixel replaced by its palette colour;
    /// `histogram` must be that of `frames` (made here when not given).
    package func quantize(_ frames: [[UInt8]], width: Int, histogram: Histogram? = nil) -> [[UInt8]] {
        remap(frames, width: width, palette: palette(histogram ?? Self.histogram(of: frames, cellBits: cellBits)))
    }

    /// The colours chosen for `histogram`'s frames. Mapping is pixel by pixel, so any subset of
    /// those frames can be mapped with it (``remap(_:width:palette:)``): the same pixels as
    /// mapping them all.
    package func palette(_ histogram: Histogram) -> [SIMD4<Double>] {
        refine(medianCut(histogram.cells), cells: histogram.cells)
    }

    /// Splits the cells into boxes, the box with the largest weighted spread first, until
    /// there are `maxColors - 1` (one entry is kept for transparent). Opaque and translucent
    /// cells are cut separately: translucent pixels (soft edges) are few but each is visible,
    /// so they get at least a thirty-second of the palette when there are any.
    private func medianCut(_ cells: [Cell]) -> [SIMD4<Double>] {
        let opaque = cells.filter(\.isOpaque)
        let translucent = cells.filter { !$0.isOpaque }
        let available = maxColors - 1
        guard !translucent.isEmpty && !opaque.isEmpty else {
            return cut(opaque.isEmpty ? translucent : opaque, into: available)
        }
        let translucentPixels = translucent.reduce(0) { $0 + $1.count }
        let allPixels = cells.reduce(0) { $0 + $1.count }
        let share = Int((Double(available) * 4 * Double(translucentPixels) / Double(allPixels)).rounded())
        let translucentColors = min(min(translucent.count, available / 2), max(available / 32, share))
        return cut(opaque, into: available - translucentColors) + cut(translucent, into: translucentColors)
    }

    /// Median cut of `cells` into at most `count` boxes; each box's weighted mean.
    private func cut(_ cells: [Cell], into count: Int) -> [SIMD4<Double>] {
        guard !cells.isEmpty, count > 0 else { return [] }
        var boxes = [cells]
        // Each box's widest channel and spread, worked out once per box.
        var spreads = [Self.spread(cells)]
        while boxes.count < count {
            var bestIndex = -1
            var bestScore = 0.0
            for index in boxes.indices where boxes[index].count > 1 && spreads[index].score > bestScore {
                (bestIndex, bestScore) = (index, spreads[index].score)
            }
            guard bestIndex >= 0 else { break }
            let axis = spreads[bestIndex].axis
            let box = boxes[bestIndex].sorted { $0.mean[axis] < $1.mean[axis] }
            let total = box.reduce(0) { $0 + $1.count }
            var running = 0
            var split = 1
            for (index, cell) in box.enumerated() {
                running += cell.count
                if running * 2 >= total { split = max(1, min(box.count - 1, index + 1)); break }
            }
            boxes[bestIndex] = Array(box[..<split])
            spreads[bestIndex] = Self.spread(boxes[bestIndex])
            boxes.append(Array(box[split...]))
            spreads.append(Self.spread(boxes[boxes.count - 1]))
        }
        return boxes.map { box in
            var sum = SIMD4<Double>(repeating: 0)
            var count = 0.0
            for cell in box {
                sum += cell.mean * Double(cell.count)
                count += Double(cell.count)
            }
            return sum / max(count, 1)
        }
    }

    /// The channel along which a box is widest, and its weighted spread (range x pixels).
    private static func spread(_ box: [Cell]) -> (axis: Int, score: Double) {
        var low = SIMD4<Double>(repeating: .infinity)
        var high = SIMD4<Double>(repeating: -.infinity)
        var weight = 0.0
        for cell in box {
            low = pointwiseMin(low, cell.mean)
            high = pointwiseMax(high, cell.mean)
            weight += Double(cell.count)
        }
        let range = high - low
        var axis = 0
        for channel in 1..<4 where range[channel] > range[axis] { axis = channel }
        return (axis, range[axis] * weight.squareRoot())
    }

    /// Moves each colour to the weighted mean of the cells nearest to it.
    private func refine(_ initial: [SIMD4<Double>], cells: [Cell]) -> [SIMD4<Double>] {
        var palette = initial
        for _ in 0..<refinementPasses {
            let search = NearestSearch(palette)
            var sums = [SIMD4<Double>](repeating: .zero, count: palette.count)
            var counts = [Double](repeating: 0, count: palette.count)
            for cell in cells {
                let nearest = search.nearest(cell.mean, opaque: cell.isOpaque)
                sums[nearest] += cell.mean * Double(cell.count)
                counts[nearest] += Double(cell.count)
            }
            for index in palette.indices where counts[index] > 0 { palette[index] = sums[index] / counts[index] }
        }
        return palette
    }

    /// Finds the palette entry nearest to a colour (squared distance in premultiplied space);
    /// an opaque colour only considers opaque entries, a translucent one only translucent
    /// entries (any entry when the palette has none of its kind). Ties go to the first entry.
    private struct NearestSearch {
        private let opaque: [(index: Int, colour: SIMD4<Double>)]
        private let translucent: [(index: Int, colour: SIMD4<Double>)]
        private let all: [(index: Int, colour: SIMD4<Double>)]

        init(_ palette: [SIMD4<Double>]) {
            all = palette.enumerated().map { ($0.offset, $0.element) }
            opaque = all.filter { $0.colour[3] >= 254.5 }
            translucent = all.filter { $0.colour[3] < 254.5 }
        }

        func nearest(_ colour: SIMD4<Double>, opaque isOpaque: Bool) -> Int {
            let kind = isOpaque ? opaque : translucent
            var best = 0
            var bestDistance = Double.infinity
            for entry in kind.isEmpty ? all : kind {
                let d = entry.colour - colour
                let distance = (d * d).sum()
                if distance < bestDistance { (best, bestDistance) = (entry.index, distance) }
            }
            return best
        }
    }

    /// The 8 x 8 Bayer matrix: each of 0-63 once, neighbours far apart in order.
    private static let bayer: [Int] = {
        var matrix = [0]
        var side = 1
        while side < 8 {
            var next = [Int](repeating: 0, count: side * side * 4)
            for y in 0..<side {
                for x in 0..<side {
                    let value = 4 * matrix[y * side + x]
                    next[y * 2 * side + x] = value
                    next[y * 2 * side + x + side] = value + 2
                    next[(y + side) * 2 * side + x] = value + 3
                    next[(y + side) * 2 * side + x + side] = value + 1
                }
            }
            matrix = next
            side *= 2
        }
        return matrix
    }()

    /// The ordered dither's amplitude for `palette`: the median distance from an opaque
    /// entry to its nearest opaque neighbour, per channel (what one step between colours is).
    private static func ditherAmplitude(_ palette: [SIMD4<Double>]) -> Double {
        let opaque = palette.filter { $0[3] >= 254.5 }
        guard opaque.count > 1 else { return 0 }
        var nearest: [Double] = []
        for (index, entry) in opaque.enumerated() {
            var best = Double.infinity
            for (other, candidate) in opaque.enumerated() where other != index {
                let d = candidate - entry
                best = min(best, (d * d).sum())
            }
            nearest.append(best.squareRoot())
        }
        nearest.sort()
        return nearest[nearest.count / 2]
    }

    /// Every pixel to the palette colour nearest its cell's centre (transparent stays exact);
    /// with ``dither``, the colour offset first by the Bayer threshold at its place, scaled by
    /// its alpha (premultiplied) and kept within it.
    package func remap(_ frames: [[UInt8]], width: Int, palette: [SIMD4<Double>]) -> [[UInt8]] {
        var remapper = Remapper(self, width: width, palette: palette)
        return frames.map { remapper.map($0) }
    }

    /// Maps frames to one palette a frame at a time, remembering each cell's entry between
    /// frames: the same pixels as ``PaletteQuantizer/remap(_:width:palette:)``, for a caller
    /// that maps only some frames, or maps them as it needs them, or keeps them as indexes.
    package struct Remapper {
        /// Each code's colour: 0 (fully transparent) for code 0, then the palette's entries.
        private let colours: [UInt32]
        private let offsets: [Int32]
        private let dithers: Bool
        private let width: Int
        private let cellBits: Int
        private let search: NearestSearch
        /// Each cell's code once it has been worked out (0: not yet; a palette entry's code is
        /// 1 + its index).
        private var lookup: ClassTables<UInt16>

        /// A frame mapped to the palette as one code a pixel: 0 for a fully transparent pixel,
        /// else 1 + its entry's index. A byte a pixel (two for a palette of 256 colours, whose
        /// codes reach 256), where the pixels take four.
        package enum Indexes: Sendable {
            /// Codes of a palette of up to 255 colours.
            case narrow([UInt8])
            /// Codes of a palette of 256 colours.
            case wide([UInt16])
        }

        /// A remapper to `palette` (chosen by `quantizer`) for frames `width` pixels wide.
        package init(_ quantizer: PaletteQuantizer, width: Int, palette: [SIMD4<Double>]) {
            let packed = palette.map { entry in
                let a = UInt32(max(1, min(255, entry[3].rounded())))
                let opaque = entry[3] >= 254.5
                let alpha = opaque ? 255 : a
                // Premultiplied colour never exceeds its alpha.
                func channel(_ value: Double) -> UInt32 { min(alpha, UInt32(max(0, min(255, value.rounded())))) }
                return alpha << 24 | channel(entry[2]) << 16 | channel(entry[1]) << 8 | channel(entry[0])
            }
            colours = [0] + packed
            // The threshold at each of the 8 x 8 places, in 1/256 of a channel step.
            let amplitude = quantizer.dither ? PaletteQuantizer.ditherAmplitude(palette) : 0
            offsets = PaletteQuantizer.bayer.map { Int32(((Double($0) + 0.5) / 64 - 0.5) * amplitude * 256) }
            dithers = amplitude > 0
            self.width = width
            cellBits = quantizer.cellBits
            search = NearestSearch(palette)
            lookup = ClassTables<UInt16>(empty: 0, cellBits: quantizer.cellBits)
        }

        /// `value` offset by the threshold at pixel `i`, scaled by its alpha and kept within it.
        private func dithered(_ value: UInt32, _ i: Int) -> UInt32 {
            let alpha = Int32(value >> 24)
            let offset = (offsets[((i / width) & 7) << 3 | ((i % width) & 7)] * alpha / 255) >> 8
            var result = value & 0xFF00_0000
            for shift: UInt32 in [0, 8, 16] {
                result |= UInt32(min(alpha, max(0, Int32(value >> shift & 0xFF) + offset))) << shift
            }
            return result
        }

        /// `frame`'s pixels mapped to the palette.
        package mutating func map(_ frame: [UInt8]) -> [UInt8] {
            pixels(indexes(frame))
        }

        /// `frame`'s pixels mapped to the palette, as codes.
        package mutating func indexes(_ frame: [UInt8]) -> Indexes {
            colours.count <= 256 ? .narrow(codes(frame)) : .wide(codes(frame))
        }

        /// The pixels `indexes` stand for.
        package func pixels(_ indexes: Indexes) -> [UInt8] {
            switch indexes {
            case .narrow(let codes): return pixels(codes)
            case .wide(let codes): return pixels(codes)
            }
        }

        private func pixels<Code: FixedWidthInteger & UnsignedInteger>(_ codes: [Code]) -> [UInt8] {
            [UInt8](unsafeUninitializedCapacity: codes.count * 4) { bytes, count in
                // Safe: every code is at most the palette's size (`codes` made them), and the
                // output holds a pixel for every code.
                let pixels = UnsafeMutableRawPointer(bytes.baseAddress!).assumingMemoryBound(to: UInt32.self)
                colours.withUnsafeBufferPointer { colours in
                    codes.withUnsafeBufferPointer { codes in
                        let table = colours.baseAddress!
                        for i in 0..<codes.count { pixels[i] = table[Int(codes[i])] }
                    }
                }
                count = codes.count * 4
            }
        }

        /// Each pixel's code.
        private mutating func codes<Code: FixedWidthInteger & UnsignedInteger>(_ frame: [UInt8]) -> [Code] {
            let count = frame.count / 4
            // The table is moved out of `self` for the loop, so the loop keeps it in registers
            // instead of reloading it after every store.
            var table = lookup
            lookup = ClassTables(empty: 0, cellBits: cellBits)
            defer { lookup = table }
            let dithers = dithers
            let cellBits = cellBits
            return [Code](unsafeUninitializedCapacity: count) { codes, initialized in
                frame.withUnsafeBytes { raw in
                    let pixels = raw.bindMemory(to: UInt32.self)
                    // Runs of one colour are common: without dithering, a pixel equal to the one
                    // before maps as it did.
                    var lastValue: UInt32 = 0
                    var lastCode: Code = 0
                    for i in 0..<count {
                        let value = pixels[i]
                        if value &>> 24 == 0 {
                            codes[i] = 0
                            continue
                        }
                        if !dithers && value == lastValue {
                            codes[i] = lastCode
                            continue
                        }
                        lastValue = value
                        let shown = dithers ? dithered(value, i) : value
                        let alphaClass = PaletteQuantizer.alphaClass(shown)
                        let colourCell = PaletteQuantizer.colourCell(shown, bits: cellBits)
                        let slot = table.index(alphaClass: alphaClass, colourCell: colourCell)
                        var code = table[slot]
                        if code == 0 {
                            code = nearestCode(alphaClass: alphaClass, colourCell: colourCell)
                            table[slot] = code
                        }
                        lastCode = Code(truncatingIfNeeded: code)
                        codes[i] = lastCode
                    }
                }
                initialized = count
            }
        }

        /// The code of the palette entry nearest the centre of cell `colourCell` of `alphaClass`.
        @inline(never)
        private func nearestCode(alphaClass: Int, colourCell: Int) -> UInt16 {
            let (red, green, blue) = PaletteQuantizer.centre(ofCell: colourCell, bits: cellBits)
            let centre = SIMD4<Double>(red, green, blue, alphaClass == 0 ? 255 : Double((alphaClass - 1) << 3 | 4))
            return UInt16(search.nearest(centre, opaque: alphaClass == 0) + 1)
        }
    }
}
