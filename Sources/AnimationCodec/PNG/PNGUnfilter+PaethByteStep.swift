extension PNGUnfilter {
    /// What a Paeth step on 16 byte lanes needs of `x` (the filtered byte), `b` (up) and `c`
    /// (upper-left), found before `a` (left) is known; ``step(left:)`` then adds the predictor.
    ///
    /// Paeth's choice is unchanged when every value v becomes 255 - v (the three distances stay
    /// the same), so where b < c the lanes are reflected first and b >= c holds everywhere.
    /// With e = b - c >= 0 the spec's distances pa = e, pb = |a - c|, pc = |a - c + e| give:
    /// - a wins when a >= b (then pa <= pb <= pc), or when a <= c - 2e (a below c by at least
    ///   2e: pc = pb - pa >= pa);
    /// - otherwise b wins when a >= c - floor(e / 2) (pb <= pc, with b's tie to c);
    /// - otherwise c.
    ///
    /// The thresholds c - 2e and c - floor(e / 2) depend on b and c only, so they are found
    /// here, beside the chain of steps; they can fall below 0, where they are clamped so that
    /// "a <= c - 2e" never holds (tested as a < its threshold + 1, and 0 where c < 2e) and
    /// "a >= c - floor(e/2)" always does.
    struct PaethByteTerms {
        /// 0xFF in the lanes where b < c, which are reflected.
        let reflect: SIMD16<UInt8>
        /// b, reflected where b < c.
        let reflectedB: SIMD16<UInt8>
        /// a (reflected) wins below this: max(c - 2e, 0) + 1, or 0 where c < 2e.
        let aWinsBelow: SIMD16<UInt8>
        /// Where a does not win, b wins from this on: max(c - floor(e / 2), 0).
        let bWinsFrom: SIMD16<UInt8>
        /// x + b XOR x + c: XORed with either, it gives the other.
        let bOrC: SIMD16<UInt8>
        /// x + c.
        let withC: SIMD16<UInt8>
        /// The filtered bytes.
        let x: SIMD16<UInt8>

        /// The terms of filtered bytes `x` under `b` (up) with `c` (upper-left).
        // Transparent: as @inline(__always), the quad's loop called three of its four steps.
        @_transparent
        init(_ x: SIMD16<UInt8>, up b: SIMD16<UInt8>, upperLeft c: SIMD16<UInt8>) {
            reflect = SIMD16<UInt8>().replacing(with: 0xFF, where: Self.maximum(b, c) .!= b)
            reflectedB = b ^ reflect
            let reflectedC = c ^ reflect
            let e = reflectedB &- reflectedC
            // max(c - e, 0), then max(c - 2e, 0), which is c - 2e where c - e >= e.
            let oneStep = Self.maximum(reflectedC, e) &- e
            let twoSteps = Self.maximum(oneStep, e)
            aWinsBelow = (Self.minimum(twoSteps &- e, SIMD16(repeating: 254)) &+ 1).replacing(
                with: 0, where: twoSteps .!= oneStep)
            let halfStep = e &>> 1
            bWinsFrom = Self.maximum(reflectedC, halfStep) &- halfStep
            withC = x &+ c
            bOrC = (x &+ b) ^ withC
            self.x = x
        }

        /// `x` plus the predictor of `a` (left) and the terms' b and c, in every lane. The chain
        /// from `a` to the result is eight operations. Its choices are masks of all-ones bytes,
        /// applied by AND and XOR: as selects, the compiler moved the quad's last step's choices
        /// into the transpose after it, once for every pixel.
        @_transparent
        func step(left a: SIMD16<UInt8>) -> SIMD16<UInt8> {
            let reflectedA = a ^ reflect
            let atLeastB = Self.mask(Self.maximum(reflectedA, reflectedB) .== reflectedA)
            let notBelow = Self.mask(Self.maximum(reflectedA, aWinsBelow) .== reflectedA)
            let bWins = Self.mask(Self.maximum(reflectedA, bWinsFrom) .== reflectedA)
            let aLoses = notBelow & ~atLeastB
            let withA = x &+ a
            let withBOrC = withC ^ (bOrC & bWins)
            return withA ^ ((withA ^ withBOrC) & aLoses)
        }

        /// A comparison's lanes as bytes: 0xFF where true, else 0.
        @inline(__always)
        private static func mask(_ lanes: SIMDMask<SIMD16<Int8>>) -> SIMD16<UInt8> {
            unsafeBitCast(lanes, to: SIMD16<UInt8>.self)
        }

        /// Lane-wise maximum, inlined (the standard library's `pointwiseMax` stays a call here).
        @inline(__always)
        private static func maximum(_ x: SIMD16<UInt8>, _ y: SIMD16<UInt8>) -> SIMD16<UInt8> {
            x.replacing(with: y, where: x .< y)
        }

        /// Lane-wise minimum, inlined.
        @inline(__always)
        private static func minimum(_ x: SIMD16<UInt8>, _ y: SIMD16<UInt8>) -> SIMD16<UInt8> {
            x.replacing(with: y, where: y .< x)
        }
    }

    /// One Paeth step on 16 byte lanes: `x` plus the predictor of `a` (left), `b` (up) and `c`
    /// (upper-left), all in 8 bits (``PaethByteTerms``).
    @_transparent
    static func paethStepBytes(
        _ x: SIMD16<UInt8>, left a: SIMD16<UInt8>, up b: SIMD16<UInt8>, upperLeft c: SIMD16<UInt8>
    ) -> SIMD16<UInt8> {
        PaethByteTerms(x, up: b, upperLeft: c).step(left: a)
    }
}
