/// Reduces premultiplied RGBA8 frames to at most 256 colours shared by every frame (one
/// APNG palette), choosing the colours in premultiplied space: a translucent pixel's error
/// is weighed by how much it shows.
///
/// Median cut over a histogram of 5-bit cells (alpha kept apart: fully transparent pixels get
/// their own exact entry and opaque pixels only ever map to opaque entries, so a sticker's
/// edges never turn see-through), then a few weighted k-means passes over the cells. Pixels map
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

    /// A quantizer to `maxColors` colours, dithered or not.
    package init(maxColors: Int = 256, refinementPasses: Int = 3, dither: Bool = false) {
        self.maxColors = maxColors
        self.refinementPasses = refinementPasses
        self.dither = dither
    }

    /// A histogram cell: 5 bits of each colour channel and an alpha class (0 opaque, else
    /// 1 + alpha / 8 for translucent pixels).
    private static func cell(_ packed: UInt32) -> Int {
        let a = packed >> 24
        let alphaClass = a == 255 ? 0 : 1 + Int(a >> 3)
        return alphaClass << 15 | Int(packed >> 19 & 0x1F) << 10 | Int(packed >> 11 & 0x1F) << 5
            | Int(packed >> 3 & 0x1F)
    }
    private static let cellCount = 33 << 15

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

    /// The colours a palette is chosen from: each occupied histogram cell with the weighted sums
    /// of its pixels. Made once for a set of frames, it serves every palette size.
    package struct Histogram: Sendable {
        fileprivate let cells: [(key: Int, stats: CellStats)]
    }

    /// The histogram of `frames`: pixels unchanged since the last frame were counted there, so
    /// only what changes adds weight, as it does to the file; frame 0 counts whole.
    package static func histogram(of frames: [[UInt8]]) -> Histogram {
        var stats = [CellStats](repeating: CellStats(), count: Self.cellCount)
        for (index, frame) in frames.enumerated() {
            frames[max(0, index - 1)].withUnsafeBytes { before in
                frame.withUnsafeBytes { raw in
                    let old = before.bindMemory(to: UInt32.self)
                    let pixels = raw.bindMemory(to: UInt32.self)
                    for i in pixels.indices where pixels[i] >> 24 != 0 && (index == 0 || pixels[i] != old[i]) {
                        stats[Self.cell(pixels[i])].add(pixels[i])
                    }
                }
            }
        }
        return Histogram(cells: stats.indices.compactMap { stats[$0].count > 0 ? (key: $0, stats: stats[$0]) : nil })
    }

    /// `frames` (rows of `width` pixels) with every pixel replaced by its palette colour;
    /// `histogram` must be that of `frames` (made here when not given).
    package func quantize(_ frames: [[UInt8]], width: Int, histogram: Histogram? = nil) -> [[UInt8]] {
        remap(frames, width: width, palette: palette(histogram ?? Self.histogram(of: frames)))
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
    private func medianCut(_ cells: [(key: Int, stats: CellStats)]) -> [SIMD4<Double>] {
        let opaque = cells.filter { $0.key >> 15 == 0 }
        let translucent = cells.filter { $0.key >> 15 != 0 }
        let available = maxColors - 1
        guard !translucent.isEmpty && !opaque.isEmpty else {
            return cut(opaque.isEmpty ? translucent : opaque, into: available)
        }
        let translucentPixels = translucent.reduce(0) { $0 + $1.stats.count }
        let allPixels = cells.reduce(0) { $0 + $1.stats.count }
        let share = Int((Double(available) * 4 * Double(translucentPixels) / Double(allPixels)).rounded())
        let translucentColors = min(min(translucent.count, available / 2), max(available / 32, share))
        return cut(opaque, into: available - translucentColors) + cut(translucent, into: translucentColors)
    }

    /// Median cut of `cells` into at most `count` boxes; each box's weighted mean.
    private func cut(_ cells: [(key: Int, stats: CellStats)], into count: Int) -> [SIMD4<Double>] {
        guard !cells.isEmpty, count > 0 else { return [] }
        var boxes = [cells]
        while boxes.count < count {
            var bestIndex = -1
            var bestScore = 0.0
            var bestAxis = 0
            for (index, box) in boxes.enumerated() where box.count > 1 {
                let (axis, score) = Self.spread(box)
                if score > bestScore { (bestIndex, bestScore, bestAxis) = (index, score, axis) }
            }
            guard bestIndex >= 0 else { break }
            let box = boxes[bestIndex].sorted { $0.stats.mean[bestAxis] < $1.stats.mean[bestAxis] }
            let total = box.reduce(0) { $0 + $1.stats.count }
            var running = 0
            var split = 1
            for (index, cell) in box.enumerated() {
                running += cell.stats.count
                if running * 2 >= total { split = max(1, min(box.count - 1, index + 1)); break }
            }
            boxes[bestIndex] = Array(box[..<split])
            boxes.append(Array(box[split...]))
        }
        return boxes.map { box in
            var sum = SIMD4<Double>(repeating: 0)
            var count = 0.0
            for cell in box {
                sum += cell.stats.mean * Double(cell.stats.count)
                count += Double(cell.stats.count)
            }
            return sum / max(count, 1)
        }
    }

    /// The channel along which a box is widest, and its weighted spread (range x pixels).
    private static func spread(_ box: [(key: Int, stats: CellStats)]) -> (Int, Double) {
        var low = SIMD4<Double>(repeating: .infinity)
        var high = SIMD4<Double>(repeating: -.infinity)
        var weight = 0.0
        for cell in box {
            let mean = cell.stats.mean
            low = pointwiseMin(low, mean)
            high = pointwiseMax(high, mean)
            weight += Double(cell.stats.count)
        }
        let range = high - low
        var axis = 0
        for channel in 1..<4 where range[channel] > range[axis] { axis = channel }
        return (axis, range[axis] * weight.squareRoot())
    }

    /// Moves each colour to the weighted mean of the cells nearest to it.
    private func refine(_ initial: [SIMD4<Double>], cells: [(key: Int, stats: CellStats)]) -> [SIMD4<Double>] {
        var palette = initial
        for _ in 0..<refinementPasses {
            var sums = [SIMD4<Double>](repeating: .zero, count: palette.count)
            var counts = [Double](repeating: 0, count: palette.count)
            for cell in cells {
                let nearest = Self.nearest(cell.stats.mean, in: palette, opaque: cell.key >> 15 == 0)
                sums[nearest] += cell.stats.mean * Double(cell.stats.count)
                counts[nearest] += Double(cell.stats.count)
            }
            for index in palette.indices where counts[index] > 0 { palette[index] = sums[index] / counts[index] }
        }
        return palette
    }

    /// The palette entry nearest to `color` (squared distance in premultiplied space); an opaque
    /// colour only considers opaque entries, a translucent one only translucent entries.
    private static func nearest(_ color: SIMD4<Double>, in palette: [SIMD4<Double>], opaque: Bool) -> Int {
        var best = 0
        var bestDistance = Double.infinity
        for (index, entry) in palette.enumerated() where (entry[3] >= 254.5) == opaque {
            let d = entry - color
            let distance = (d * d).sum()
            if distance < bestDistance { (best, bestDistance) = (index, distance) }
        }
        if bestDistance == .infinity {
            for (index, entry) in palette.enumerated() {
                let d = entry - color
                if (d * d).sum() < bestDistance { (best, bestDistance) = (index, (d * d).sum()) }
            }
        }
        return best
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
        let packed: [UInt32] = palette.map { entry in
            let a = UInt32(max(1, min(255, entry[3].rounded())))
            let opaque = entry[3] >= 254.5
            let alpha = opaque ? 255 : a
            // Premultiplied colour never exceeds its alpha.
            func channel(_ value: Double) -> UInt32 { min(alpha, UInt32(max(0, min(255, value.rounded())))) }
            return alpha << 24 | channel(entry[2]) << 16 | channel(entry[1]) << 8 | channel(entry[0])
        }
        // The threshold at each of the 8 x 8 places, in 1/256 of a channel step.
        let amplitude = dither ? Self.ditherAmplitude(palette) : 0
        let offsets = Self.bayer.map { Int32(((Double($0) + 0.5) / 64 - 0.5) * amplitude * 256) }
        /// `value` offset by the threshold at pixel `i`, scaled by its alpha and kept within it.
        func dithered(_ value: UInt32, _ i: Int) -> UInt32 {
            let alpha = Int32(value >> 24)
            let offset = (offsets[((i / width) & 7) << 3 | ((i % width) & 7)] * alpha / 255) >> 8
            var result = value & 0xFF00_0000
            for shift: UInt32 in [0, 8, 16] {
                result |= UInt32(min(alpha, max(0, Int32(value >> shift & 0xFF) + offset))) << shift
            }
            return result
        }
        var lookup = [UInt32](repeating: 0, count: Self.cellCount)
        var known = [Bool](repeating: false, count: Self.cellCount)
        return frames.map { frame in
            var out = frame
            out.withUnsafeMutableBytes { raw in
                let pixels = raw.bindMemory(to: UInt32.self)
                for i in pixels.indices {
                    let value = pixels[i]
                    if value >> 24 == 0 { pixels[i] = 0; continue }
                    let key = Self.cell(amplitude > 0 ? dithered(value, i) : value)
                    if !known[key] {
                        let centre = SIMD4<Double>(
                            Double((key & 0x1F) << 3 | 4), Double((key >> 5 & 0x1F) << 3 | 4),
                            Double((key >> 10 & 0x1F) << 3 | 4),
                            key >> 15 == 0 ? 255 : Double(((key >> 15) - 1) << 3 | 4))
                        lookup[key] = packed[Self.nearest(centre, in: palette, opaque: key >> 15 == 0)]
                        known[key] = true
                    }
                    pixels[i] = lookup[key]
                }
            }
            return out
        }
    }
}
