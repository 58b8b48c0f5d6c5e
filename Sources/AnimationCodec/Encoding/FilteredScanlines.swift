/// PNG scanlines for a rectangle of a premultiplied canvas, in a colour model, each row
/// prefixed by its filter byte.
enum FilteredScanlines {
    /// How rows are filtered.
    enum Strategy: Sendable, Hashable, CaseIterable {
        /// Each row takes whichever of the five filters gives the smallest sum of absolute
        /// (signed) bytes, the heuristic of the PNG specification's section 12.8.
        case adaptive
        /// No filter: flat art with few colours often compresses best as it is.
        case none
        /// Sub on every row.
        case sub
        /// Up on every row.
        case up
        /// Paeth on every row.
        case paeth

        /// The filter byte of a fixed strategy.
        var fixedFilter: UInt8? {
            switch self {
            case .adaptive: return nil
            case .none: return 0
            case .sub: return 1
            case .up: return 2
            case .paeth: return 4
            }
        }
    }

    /// `round(c * 255 / a)` for every `a << 8 | c`: straight colour without a division.
    static let straight: [UInt8] = (0..<65536).map { PNGEncoder.unpremultiply(UInt8($0 & 0xFF), alpha: UInt8($0 >> 8)) }

    /// The scanlines of `rect` of `canvas` (`canvasWidth` pixels a row). With `base`, pixels
    /// equal to `base`'s are written fully transparent (an OVER frame leaves them as they are).
    /// - Precondition: with a palette model, every pixel (and 0 when `base` is given) is in it.
    static func make(
        canvas: UnsafePointer<UInt32>, canvasWidth: Int, rect: FrameRect, model: PNGColorModel,
        unchangedFrom base: UnsafePointer<UInt32>? = nil, strategy: Strategy = .adaptive
    ) -> [UInt8] {
        let bpp = model.bytesPerPixel
        let rowBytes = model.rowBytes(width: rect.width)
        let bitDepth = Int(model.bitDepth)
        var raw = [UInt8](repeating: 0, count: rowBytes)
        var above = [UInt8](repeating: 0, count: rowBytes)
        var trial = [UInt8](repeating: 0, count: rowBytes)
        // Palette indexes packed below 8 bits are converted here first, then packed into `raw`.
        var indexes = [UInt8](repeating: 0, count: bitDepth < 8 ? rect.width : 0)
        var out = [UInt8]()
        out.reserveCapacity(rect.height * (rowBytes + 1))
        straight.withUnsafeBufferPointer { table in
            for y in 0..<rect.height {
                let offset = (rect.y + y) * canvasWidth + rect.x
                if bitDepth < 8 {
                    indexes.withUnsafeMutableBufferPointer { converted in
                        convert(
                            canvas + offset, base: base.map { $0 + offset }, count: rect.width, model: model,
                            table: table.baseAddress!, into: converted.baseAddress!)
                        raw.withUnsafeMutableBufferPointer {
                            pack(converted, bitDepth: bitDepth, into: $0.baseAddress!)
                        }
                    }
                } else {
                    raw.withUnsafeMutableBufferPointer { row in
                        convert(
                            canvas + offset, base: base.map { $0 + offset }, count: rect.width, model: model,
                            table: table.baseAddress!, into: row.baseAddress!)
                    }
                }
                if let filter = strategy.fixedFilter {
                    appendFiltered(raw, above: above, bpp: bpp, filter: filter, to: &out)
                } else {
                    appendBestFiltered(raw, above: above, bpp: bpp, trial: &trial, to: &out)
                }
                swap(&raw, &above)
            }
        }
        return out
    }

    /// One row of pixels as scanline bytes.
    private static func convert(
        _ pixels: UnsafePointer<UInt32>, base: UnsafePointer<UInt32>?, count: Int, model: PNGColorModel,
        table: UnsafePointer<UInt8>, into row: UnsafeMutablePointer<UInt8>
    ) {
        @inline(__always) func pixel(_ x: Int) -> UInt32 {
            let packed = pixels[x]
            if let base, base[x] == packed { return 0 }
            return packed
        }
        switch model {
        case .palette(let palette):
            // Runs of one colour are common: look up only when the colour changes.
            var last: UInt32 = 0
            var lastIndex = palette.index(of: 0)
            for x in 0..<count {
                let value = pixel(x)
                if value != last {
                    last = value
                    lastIndex = palette.index(of: value)
                }
                row[x] = lastIndex
            }
        case .rgbKeyed(let key):
            let (r, g, b) = (UInt8(key & 0xFF), UInt8(key >> 8 & 0xFF), UInt8(key >> 16 & 0xFF))
            for x in 0..<count {
                let packed = pixel(x)
                let out = row + x &* 3
                // Every pixel is opaque (stored as it is) or fully transparent (the key).
                if packed >> 24 == 0 {
                    out[0] = r
                    out[1] = g
                    out[2] = b
                } else {
                    out[0] = UInt8(truncatingIfNeeded: packed)
                    out[1] = UInt8(truncatingIfNeeded: packed >> 8)
                    out[2] = UInt8(truncatingIfNeeded: packed >> 16)
                }
            }
        case .rgb, .rgba:
            let bpp = model.bytesPerPixel
            for x in 0..<count {
                let packed = pixel(x)
                let a = Int(packed >> 24)
                let out = row + x &* bpp
                // Safe: a << 8 | c < 65,536, the table's size.
                out[0] = table[a << 8 | Int(packed & 0xFF)]
                out[1] = table[a << 8 | Int(packed >> 8 & 0xFF)]
                out[2] = table[a << 8 | Int(packed >> 16 & 0xFF)]
                if bpp == 4 { out[3] = UInt8(a) }
            }
        }
    }

    /// Packs one-byte palette indexes `8 / bitDepth` to a byte into `row`, leftmost pixel in the
    /// high bits, the last byte padded with zeros.
    private static func pack(
        _ indexes: UnsafeMutableBufferPointer<UInt8>, bitDepth: Int, into row: UnsafeMutablePointer<UInt8>
    ) {
        let perByte = 8 / bitDepth
        // Safe: `row` holds rowBytes = ceil(count / perByte) bytes.
        for byte in 0..<((indexes.count + perByte - 1) / perByte) {
            var value: UInt8 = 0
            for slot in 0..<perByte {
                let index = byte * perByte + slot
                let bits = index < indexes.count ? indexes[index] : 0
                value |= bits << UInt8(8 - bitDepth * (slot + 1))
            }
            row[byte] = value
        }
    }

    /// Appends `raw` filtered with the filter of smallest absolute sum, after its filter byte.
    private static func appendBestFiltered(
        _ raw: [UInt8], above: [UInt8], bpp: Int, trial: inout [UInt8], to out: inout [UInt8]
    ) {
        var bestFilter: UInt8 = 0
        var bestCost = Int.max
        for filter in UInt8(0)...4 {
            let cost = raw.withUnsafeBufferPointer { r in
                above.withUnsafeBufferPointer { u in
                    trial.withUnsafeMutableBufferPointer { t in
                        apply(
                            filter, raw: r.baseAddress!, above: u.baseAddress!, count: r.count, bpp: bpp,
                            into: t.baseAddress!)
                    }
                }
            }
            if cost < bestCost {
                bestCost = cost
                bestFilter = filter
            }
        }
        if bestFilter == 4 {
            out.append(4)
            out += trial  // the last filter tried is still in `trial`
            return
        }
        appendFiltered(raw, above: above, bpp: bpp, filter: bestFilter, to: &out)
    }

    /// Appends `raw` filtered with `filter`, after its filter byte.
    private static func appendFiltered(_ raw: [UInt8], above: [UInt8], bpp: Int, filter: UInt8, to out: inout [UInt8]) {
        out.append(filter)
        let start = out.count
        out += raw
        out.withUnsafeMutableBufferPointer { o in
            raw.withUnsafeBufferPointer { r in
                above.withUnsafeBufferPointer { u in
                    // Safe: the row just appended is raw.count bytes from `start`.
                    _ = apply(
                        filter, raw: r.baseAddress!, above: u.baseAddress!, count: r.count, bpp: bpp,
                        into: o.baseAddress! + start)
                }
            }
        }
    }

    /// Filters `count` bytes into `target` and returns the sum of their absolute signed values.
    /// The first pixel's bytes (no left neighbour) and the last few a byte at a time, the rest
    /// sixteen at a time (``filterBlocks(from:count:into:total:_:)``): encoding predicts from the raw
    /// bytes only, so no byte waits on the one before.
    private static func apply(
        _ filter: UInt8, raw: UnsafePointer<UInt8>, above: UnsafePointer<UInt8>, count: Int, bpp: Int,
        into target: UnsafeMutablePointer<UInt8>
    ) -> Int {
        @inline(__always) func cost(_ value: UInt8) -> Int { Int(Int8(bitPattern: value).magnitude) }
        @inline(__always) func load(_ bytes: UnsafePointer<UInt8>) -> SIMD16<UInt8> {
            UnsafeRawPointer(bytes).loadUnaligned(as: SIMD16<UInt8>.self)
        }
        var total = 0
        let first = min(bpp, count)
        // Safe: every index below is < count, i - bpp >= 0 wherever it is used, and a block's
        // sixteen bytes end at or before `count`.
        var i = first
        switch filter {
        case 0:
            for i in 0..<first { target[i] = raw[i]; total &+= cost(raw[i]) }
            i = filterBlocks(from: first, count: count, into: target, total: &total) { load(raw + $0) }
            while i < count { target[i] = raw[i]; total &+= cost(raw[i]); i &+= 1 }
        case 1:
            for i in 0..<first { target[i] = raw[i]; total &+= cost(raw[i]) }
            i = filterBlocks(from: first, count: count, into: target, total: &total) {
                load(raw + $0) &- load(raw + ($0 &- bpp))
            }
            while i < count { let v = raw[i] &- raw[i &- bpp]; target[i] = v; total &+= cost(v); i &+= 1 }
        case 2:
            for i in 0..<first { let v = raw[i] &- above[i]; target[i] = v; total &+= cost(v) }
            i = filterBlocks(from: first, count: count, into: target, total: &total) {
                load(raw + $0) &- load(above + $0)
            }
            while i < count { let v = raw[i] &- above[i]; target[i] = v; total &+= cost(v); i &+= 1 }
        case 3:
            for i in 0..<first { let v = raw[i] &- above[i] >> 1; target[i] = v; total &+= cost(v) }
            i = filterBlocks(from: first, count: count, into: target, total: &total) {
                let (left, up) = (load(raw + ($0 &- bpp)), load(above + $0))
                // floor((left + up) / 2) without leaving 8 bits.
                return load(raw + $0) &- ((left & up) &+ ((left ^ up) &>> 1))
            }
            while i < count {
                let v = raw[i] &- UInt8((UInt16(raw[i &- bpp]) &+ UInt16(above[i])) >> 1)
                target[i] = v
                total &+= cost(v)
                i &+= 1
            }
        default:
            for i in 0..<first { let v = raw[i] &- above[i]; target[i] = v; total &+= cost(v) }
            // The decoder's Paeth step adds the predictor to its first operand: to 0, it is the
            // predictor. (Made before the loop: made within it, the vector was built lane by lane.)
            let zero = SIMD16<UInt8>()
            i = filterBlocks(from: first, count: count, into: target, total: &total) {
                let prediction = PNGUnfilter.paethStepBytes(
                    zero, left: load(raw + ($0 &- bpp)), up: load(above + $0), upperLeft: load(above + ($0 &- bpp)))
                return load(raw + $0) &- prediction
            }
            while i < count {
                let v = raw[i] &- PNGUnfilter.paethPredictor(raw[i &- bpp], above[i], above[i &- bpp])
                target[i] = v
                total &+= cost(v)
                i &+= 1
            }
        }
        return total
    }

    /// Stores `filtered(i)` (the sixteen filtered bytes from `i`) for each block of sixteen
    /// from `start` that ends at or before `count`, and adds their absolute signed values to
    /// `total`; returns where the blocks end.
    @inline(__always)
    private static func filterBlocks(
        from start: Int, count: Int, into target: UnsafeMutablePointer<UInt8>, total: inout Int,
        _ filtered: (Int) -> SIMD16<UInt8>
    ) -> Int {
        let lowByte = SIMD8<UInt16>(repeating: 0x00FF)
        // Made once, before the loop: made within it, the vector was built lane by lane.
        let zero = SIMD16<UInt8>()
        var i = start
        while i &+ 16 <= count {
            // Each 16-bit lane gains at most 2 x 128 a block: 255 blocks fit before the lanes
            // are added up.
            var lanes = SIMD8<UInt16>()
            var blocks = 0
            while i &+ 16 <= count && blocks < 255 {
                let v = filtered(i)
                UnsafeMutableRawPointer(target + i).storeBytes(of: v, as: SIMD16<UInt8>.self)
                // |Int8(v)| is the smaller of v and -v as bytes (128 for -128).
                let negated = zero &- v
                let magnitude = unsafeBitCast(v.replacing(with: negated, where: negated .< v), to: SIMD8<UInt16>.self)
                lanes &+= (magnitude & lowByte) &+ (magnitude &>> 8)
                blocks &+= 1
                i &+= 16
            }
            for lane in 0..<8 { total &+= Int(lanes[lane]) }
        }
        return i
    }
}
