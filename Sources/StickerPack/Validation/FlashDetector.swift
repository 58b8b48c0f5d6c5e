import AnimationCodec

#if canImport(Glibc)
    import Glibc
#endif

/// General flashes in a sticker's frames as Messages plays them, by WCAG 2.3.1's definition: a
/// flash is a pair of opposing changes in relative luminance of 10% or more of the maximum
/// where the darker state is under 0.80, and more than three flashes in any one second over a
/// quarter of the picture can trigger seizures in people with photosensitive epilepsy.
///
/// WCAG measures the area against a 10-degree field of view; a sticker is smaller than that on
/// a phone, so the area here is a quarter of the sticker itself, which errs on the side of
/// naming a flash. Red flashes are not told apart. The sticker is looked at over white and over
/// black (a transparent sticker flashes against one or the other), in blocks of a 16 x 16 grid,
/// each block's mean luminance standing for it.
struct FlashDetector {
    /// A flash found: how many a second, over what share of the sticker, from when.
    struct Flash: Equatable {
        /// The most flashes in one second of any block counted.
        var perSecond: Double
        /// The share of the sticker (0-1) flashing more than three times in that second.
        var area: Double
        /// Where that second starts, in seconds from the first frame.
        var start: Double
    }

    /// The smallest change of relative luminance that counts (10% of the maximum).
    static let minimumChange: Float = 0.1
    /// A change counts only when its darker side is under this luminance.
    static let darkerBelow: Float = 0.8
    /// Changes (two a flash) allowed in any one second: three flashes.
    static let allowedChangesPerSecond = 6
    /// The share of the sticker that flashing must cover to count.
    static let minimumArea = 0.25
    /// Blocks across and down (fewer for a smaller canvas).
    static let grid = 16

    private let columns: Int
    private let rows: Int
    private let width: Int
    private let height: Int
    /// Each frame's block luminances: over black, then over white, `columns * rows` each.
    private var frames: [[Float]] = []

    /// A detector for frames of `width` x `height`.
    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        columns = max(1, min(Self.grid, width))
        rows = max(1, min(Self.grid, height))
    }

    /// Linear light of each sRGB byte (IEC 61966-2-1).
    private static let linear: [Float] = (0..<256).map { byte in
        let c = Double(byte) / 255
        return Float(c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4))
    }

    /// Takes the next frame (premultiplied RGBA, the whole canvas).
    mutating func add(_ pixels: [UInt8]) {
        let blocks = columns * rows
        var sums = [Float](repeating: 0, count: blocks * 2)
        var counts = [Int](repeating: 0, count: blocks)
        let blockColumn = (0..<width).map { $0 * columns / width }
        pixels.withUnsafeBufferPointer { pixels in
            for y in 0..<height {
                let row = y * rows / height
                for x in 0..<width {
                    let block = row * columns + blockColumn[x]
                    let offset = (y * width + x) * 4
                    let (r, g, b, a) = (pixels[offset], pixels[offset + 1], pixels[offset + 2], pixels[offset + 3])
                    // Over black the premultiplied colour is what shows; over white, plus 255 - alpha.
                    let cover = 255 - a
                    sums[block] += Self.luminance(r, g, b)
                    sums[blocks + block] += Self.luminance(r &+ cover, g &+ cover, b &+ cover)
                    counts[block] += 1
                }
            }
        }
        for block in 0..<blocks where counts[block] > 0 {
            sums[block] /= Float(counts[block])
            sums[blocks + block] /= Float(counts[block])
        }
        frames.append(sums)
    }

    /// WCAG's relative luminance of an sRGB colour.
    private static func luminance(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Float {
        0.2126 * linear[Int(r)] + 0.7152 * linear[Int(g)] + 0.0722 * linear[Int(b)]
    }

    /// The worst flashing of the frames taken, shown for `durations` seconds each and played
    /// `plays` times (0: forever, looked at over two loops and at least a second more than one);
    /// `nil` when nothing flashes more than three times a second over a quarter of the sticker.
    func worst(durations: [Double], plays: Int) -> Flash? {
        guard frames.count > 1, frames.count == durations.count else { return nil }
        let loop = durations.reduce(0, +)
        guard loop > 0 else { return nil }
        // When each frame shows, over as many loops as are looked at (at most 10,000 frames).
        let loops = plays == 0 ? Int((max(2 * loop, loop + 1) / loop).rounded(.up)) : plays
        var times: [(start: Double, frame: Int)] = []
        var clock = 0.0
        outer: for _ in 0..<max(1, loops) {
            for (index, duration) in durations.enumerated() {
                guard times.count < 10_000 else { break outer }
                times.append((clock, index))
                clock += duration
            }
        }
        // Each block's changes, over black and over white: when they happen.
        let blocks = columns * rows
        var changes: [[Double]] = []
        for series in 0..<(2 * blocks) {
            changes.append(Self.changes(times.map { (time: $0.start, value: frames[$0.frame][series]) }))
        }
        // Every second starting at a change: the blocks changing more than six times in it.
        let starts = Set(changes.joined()).sorted()
        var worst: Flash?
        for start in starts {
            var flashing = Set<Int>()
            var most = 0
            for (series, times) in changes.enumerated() {
                // A second, short of its end by a hair: frame times are sums of delays.
                let inSecond = Self.count(times, from: start, to: start + 1 - 1e-6)
                if inSecond > Self.allowedChangesPerSecond {
                    flashing.insert(series % blocks)
                    most = max(most, inSecond)
                }
            }
            let area = Double(flashing.count) / Double(blocks)
            if area >= Self.minimumArea, area > (worst?.area ?? 0) {
                worst = Flash(perSecond: Double(most) / 2, area: area, start: start)
            }
        }
        return worst
    }

    /// How many of the sorted `times` are in [`from`, `to`).
    private static func count(_ times: [Double], from: Double, to: Double) -> Int {
        func firstIndex(notBelow bound: Double) -> Int {
            var (low, high) = (0, times.count)
            while low < high {
                let middle = (low + high) / 2
                if times[middle] < bound { low = middle + 1 } else { high = middle }
            }
            return low
        }
        return firstIndex(notBelow: to) - firstIndex(notBelow: from)
    }

    /// When a block's luminance changes by at least ``minimumChange`` against its last extreme,
    /// the darker side under ``darkerBelow``: a rise after a fall or a fall after a rise (the
    /// first change either way).
    private static func changes(_ values: [(time: Double, value: Float)]) -> [Double] {
        guard let first = values.first else { return [] }
        var times: [Double] = []
        var direction = 0
        var low = first.value
        var high = first.value
        for (time, value) in values.dropFirst() {
            switch direction {
            case 1:
                if value > high {
                    high = value
                } else if high - value >= minimumChange && value < darkerBelow {
                    times.append(time)
                    (direction, low) = (-1, value)
                }
            case -1:
                if value < low {
                    low = value
                } else if value - low >= minimumChange && low < darkerBelow {
                    times.append(time)
                    (direction, high) = (1, value)
                }
            default:
                low = min(low, value)
                high = max(high, value)
                if value - low >= minimumChange && low < darkerBelow && value == high {
                    times.append(time)
                    (direction, high) = (1, value)
                } else if high - value >= minimumChange && value < darkerBelow && value == low {
                    times.append(time)
                    (direction, low) = (-1, value)
                }
            }
        }
        return times
    }
}
