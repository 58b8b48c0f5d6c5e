extension Fidelity {
    /// The figures of a file's frames compared with the reference frames one pair at a time:
    /// each reference frame's squared differences and SSIM are kept by its place and summed in
    /// that order, so the figures are those of whole timelines compared at once.
    struct Tally {
        private var squares: [UInt64]
        private var similarity: [Double]
        private var compared: [Bool]
        private var worst = 0
        private var sizesDiffer = false
        private let width: Int
        private let height: Int

        /// A tally of `count` reference frames of `width` x `height` pixels.
        init(count: Int, width: Int, height: Int) {
            squares = [UInt64](repeating: 0, count: count)
            similarity = [Double](repeating: 0, count: count)
            compared = [Bool](repeating: false, count: count)
            self.width = width
            self.height = height
        }

        /// Compares `shown` with reference frame `index`, `expected`; a frame of another size
        /// makes the whole tally the worst.
        mutating func add(_ shown: [UInt8], against expected: [UInt8], at index: Int) {
            guard shown.count == expected.count, expected.count == width * height * 4 else {
                sizesDiffer = true
                return
            }
            let (sum, largest) = Fidelity.squaredDifferences(expected, shown)
            squares[index] = sum
            compared[index] = true
            worst = max(worst, largest)
            similarity[index] = StructuralSimilarity.mean(expected, shown, width: width, height: height)
        }

        /// The figures over every reference frame: exact when nothing differs, the worst when
        /// a frame's size did not match or a reference frame was not compared at all.
        var fidelity: Fidelity {
            if sizesDiffer || compared.contains(false) { return Fidelity(maxError: 255, psnr: 0, ssim: 0) }
            let total = squares.reduce(0.0) { $0 + Double($1) }
            guard total > 0 else { return .exact }
            return Fidelity(
                maxError: worst, psnr: psnr(squares: total, samples: Double(squares.count * width * height * 4)),
                ssim: similarity.reduce(0, +) / Double(squares.count))
        }
    }
}
