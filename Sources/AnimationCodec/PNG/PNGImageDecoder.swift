/// Decodes one PNG image (the default image or an APNG frame) into premultiplied RGBA8:
/// inflate the frame's zlib stream once into a reused buffer sized from the header, then
/// unfilter, convert and hand each row to a ``RowTarget`` while it is still in cache.
struct PNGImageDecoder: Sendable {
    /// Adam7's seven passes: first column and row, column and row step.
    static let adam7: [(x: Int, y: Int, dx: Int, dy: Int)] = [
        (0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)
    ]

    /// One pass of an image: its origin and step in the image, and its own size.
    struct Pass {
        var x, y, dx, dy, width, height: Int
    }

    let header: PNGHeader
    let converter: PNGRowConverter
    /// 8-bit RGBA rows need no conversion beyond premultiplication.
    var isStraightRGBA8: Bool { header.colorType == .rgba && header.bitDepth == 8 }

    init(file: PNGFile) {
        header = file.header
        converter = PNGRowConverter(header: file.header, palette: file.palette, transparency: file.transparency)
    }

    /// The passes of a `width` x `height` image.
    func passes(width: Int, height: Int) -> [Pass] {
        guard header.isInterlaced else { return [Pass(x: 0, y: 0, dx: 1, dy: 1, width: width, height: height)] }
        return Self.adam7.compactMap { pass in
            let w = (width - pass.x + pass.dx - 1) / pass.dx
            let h = (height - pass.y + pass.dy - 1) / pass.dy
            return w > 0 && h > 0 ? Pass(x: pass.x, y: pass.y, dx: pass.dx, dy: pass.dy, width: w, height: h) : nil
        }
    }

    /// Bytes the inflated stream must hold: every row of every pass plus its filter byte.
    func filteredSize(width: Int, height: Int) -> Int {
        passes(width: width, height: height).reduce(0) { $0 + $1.height * (1 + header.rowBytes(width: $1.width)) }
    }

    /// Decodes `frame` and writes its rows to `target`. Interlaced images need scattered
    /// writes, so for a buffered target they go through a temporary layer first.
    func decode(
        _ frame: PNGFile.StoredFrame, in bytes: [UInt8], scratch: DecodeScratch, target: RowTarget,
        phases: UnsafeMutablePointer<DecodePhases>? = nil
    ) throws(CodecError) {
        let width = frame.control.rect.width
        let height = frame.control.rect.height
        let filtered = scratch.filteredBuffer(filteredSize(width: width, height: height))
        let inflateStart = phases == nil ? 0 : Stopwatch.now()
        try inflate(frame.dataRanges, of: bytes, into: filtered, scratch: scratch)
        phases?.pointee.decompress += phases == nil ? 0 : Stopwatch.seconds(since: inflateStart)

        guard header.isInterlaced && !target.acceptsScatteredWrites else {
            try unfilterAndConvert(
                filtered, width: width, height: height, scratch: scratch, target: target, phases: phases)
            return
        }
        var layer = [UInt32](repeating: 0, count: width * height)
        let failure: CodecError? = layer.withUnsafeMutableBufferPointer { pixels in
            let rect = FrameRect(x: 0, y: 0, width: width, height: height)
            do throws(CodecError) {
                try unfilterAndConvert(
                    filtered, width: width, height: height, scratch: scratch,
                    target: .layer(pixels.baseAddress!, rect: rect), phases: phases)
            } catch { return error }
            target.copyRows(from: pixels.baseAddress!, width: width, height: height)
            return nil
        }
        if let failure { throw failure }
    }

    /// The worker's half of the parallel path for a non-interlaced frame: inflate and
    /// unfilter into `scratch`'s filtered buffer, which ``convertUnfiltered(_:scratch:target:)``
    /// then turns into pixels on the compositing thread.
    /// With `takingOver`, the buffer was last read on another core and is taken over first
    /// (``CacheHandoff``).
    /// - Returns: false for an interlaced image (use ``decodeLayer(_:in:scratch:storage:)``).
    func inflateAndUnfilter(
        _ frame: PNGFile.StoredFrame, in bytes: [UInt8], scratch: DecodeScratch,
        takingOver: Bool = false
    ) throws(CodecError) -> Bool {
        guard !header.isInterlaced else { return false }
        let width = frame.control.rect.width
        let height = frame.control.rect.height
        let filtered = scratch.filteredBuffer(filteredSize(width: width, height: height))
        if takingOver { CacheHandoff.takeOver(filtered) }
        try inflate(frame.dataRanges, of: bytes, into: filtered, scratch: scratch)
        try unfilterAndConvert(
            filtered, width: width, height: height, scratch: scratch, target: nil, phases: nil, stages: .unfilterOnly)
        return true
    }

    /// The compositing thread's half: converts the rows ``inflateAndUnfilter(_:in:scratch:)``
    /// left in `scratch` onto `target`.
    func convertUnfiltered(_ frame: PNGFile.StoredFrame, scratch: DecodeScratch, target: RowTarget) {
        let width = frame.control.rect.width
        let height = frame.control.rect.height
        let filtered = scratch.filteredBuffer(filteredSize(width: width, height: height))
        // Cannot throw: filter bytes were checked when the rows were unfiltered.
        try? unfilterAndConvert(
            filtered, width: width, height: height, scratch: scratch, target: target, phases: nil,
            stages: .convertOnly)
    }

    /// Decodes `frame` into `storage` (resized to the frame, capacity kept): the parallel path.
    func decodeLayer(
        _ frame: PNGFile.StoredFrame, in bytes: [UInt8], scratch: DecodeScratch,
        storage: inout [UInt8]
    ) throws(CodecError) -> FrameLayer {
        let rect = frame.control.rect
        LayerStorage.prepare(&storage, count: rect.width * rect.height * 4)
        let failure: CodecError? = storage.withUnsafeMutableBytes { out in
            do throws(CodecError) {
                try decode(
                    frame, in: bytes, scratch: scratch,
                    target: .layer(out.baseAddress!.assumingMemoryBound(to: UInt32.self), rect: rect))
                return nil
            } catch { return error }
        }
        if let failure { throw failure }
        return FrameLayer(rect: rect, pixels: storage)
    }

    private func inflate(
        _ ranges: [Range<Int>], of bytes: [UInt8], into out: UnsafeMutableRawBufferPointer,
        scratch: DecodeScratch
    ) throws(CodecError) {
        guard ranges.count == 1, let range = ranges.first else {
            // Split over several chunks: joined in the scratch's reused buffer.
            try Inflater.inflate(scratch.gathered(ranges, of: bytes), into: out, decompressor: scratch.decompressor)
            return
        }
        let failure: CodecError? = bytes.withUnsafeBytes { source in
            do throws(CodecError) {
                try Inflater.inflate(
                    UnsafeRawBufferPointer(rebasing: source[range]), into: out, decompressor: scratch.decompressor)
                return nil
            } catch { return error }
        }
        if let failure { throw failure }
    }

    /// Which row stages ``unfilterAndConvert`` runs: both (the fused serial path), or one
    /// of them, for the parallel path's split between a worker and the compositing thread.
    enum Stages {
        case both, unfilterOnly, convertOnly
    }

    private func unfilterAndConvert(
        _ filtered: UnsafeMutableRawBufferPointer, width: Int, height: Int, scratch: DecodeScratch,
        target: RowTarget?, phases: UnsafeMutablePointer<DecodePhases>?,
        stages: Stages = .both
    ) throws(CodecError) {
        let distance = header.filterDistance
        let zeroRow = scratch.zeroRow(header.rowBytes(width: width))
        let data = filtered.baseAddress!.assumingMemoryBound(to: UInt8.self)
        // Chosen once, not a row at a time: the target is a large value.
        let rowTarget = stages == .unfilterOnly ? nil : target
        var offset = 0
        for pass in passes(width: width, height: height) {
            let rowBytes = header.rowBytes(width: pass.width)
            var previous = zeroRow
            var row = 0
            while row < pass.height {
                let unfilterStart = phases == nil ? 0 : Stopwatch.now()
                // Several rows at once from a Paeth row of 4-byte pixels to the next, else one.
                var rows = 1
                if stages != .convertOnly {
                    // Safe: filteredSize(...) sized `filtered` for every row of every pass.
                    rows = try PNGUnfilter.unfilterRows(
                        at: data + offset, previous: previous, count: rowBytes, distance: distance,
                        rowsLeft: pass.height - row)
                }
                let convertStart = phases == nil ? 0 : Stopwatch.now()
                for _ in 0..<rows {
                    let current = data + offset + 1
                    convert(current, row: pass.y + row * pass.dy, pass: pass, target: rowTarget)
                    previous = UnsafePointer(current)
                    offset += 1 + rowBytes
                    row += 1
                }
                if let phases {
                    let end = Stopwatch.now()
                    phases.pointee.unfilter += Double(convertStart &- unfilterStart) / 1e9
                    phases.pointee.convert += Double(end &- convertStart) / 1e9
                }
            }
        }
    }

    /// Converts the unfiltered row `current` (image row `y`, of `pass`) onto `target`; nothing
    /// without a target (the parallel path converts later, ``convertUnfiltered(_:scratch:target:)``).
    @inline(__always)
    private func convert(_ current: UnsafeMutablePointer<UInt8>, row y: Int, pass: Pass, target: RowTarget?) {
        guard let target else { return }
        if pass.dx == 1, isStraightRGBA8, target.blendsStraightRowsInPlace {
            target.overStraight(row: y, current)
        } else if pass.dx == 1 {
            converter.convert(current, width: pass.width, into: target.destination(row: y), step: 1)
            target.commit(row: y)
        } else {
            converter.convert(current, width: pass.width, into: target.destination(row: y) + pass.x, step: pass.dx)
        }
    }
}
