/// Decodes one PNG image (the default image or an APNG frame) into premultiplied RGBA8:
/// gather its zlib pieces, inflate once into a buffer sized from the header, unfilter each
/// row, convert it.
struct PNGImageDecoder: Sendable {
    /// Adam7's seven passes: first column and row, column and row step.
    static let adam7: [(x: Int, y: Int, dx: Int, dy: Int)] = [
        (0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2),
    ]

    let header: PNGHeader
    let converter: PNGRowConverter

    init(file: PNGFile) {
        header = file.header
        converter = PNGRowConverter(header: file.header, palette: file.palette, transparency: file.transparency)
    }

    /// The passes of a `width` x `height` image: its origin and step, and its own size.
    func passes(width: Int, height: Int) -> [(x: Int, y: Int, dx: Int, dy: Int, width: Int, height: Int)] {
        guard header.isInterlaced else { return [(0, 0, 1, 1, width, height)] }
        return Self.adam7.compactMap { pass in
            let w = (width - pass.x + pass.dx - 1) / pass.dx, h = (height - pass.y + pass.dy - 1) / pass.dy
            return w > 0 && h > 0 ? (pass.x, pass.y, pass.dx, pass.dy, w, h) : nil
        }
    }

    /// Bytes the inflated stream must hold: every row of every pass plus its filter byte.
    func filteredSize(width: Int, height: Int) -> Int {
        passes(width: width, height: height).reduce(0) { $0 + $1.height * (1 + header.rowBytes(width: $1.width)) }
    }

    /// Decodes `frame` from `bytes`, adding phase times to `phases` when given.
    func decode(_ frame: PNGFile.StoredFrame, in bytes: [UInt8],
                phases: UnsafeMutablePointer<DecodePhases>? = nil) throws(CodecError) -> FrameLayer {
        let inflateStart = phases == nil ? 0 : Stopwatch.now()
        let width = frame.control.rect.width, height = frame.control.rect.height
        var filtered = [UInt8](repeating: 0, count: filteredSize(width: width, height: height))
        let joined = frame.dataRanges.count == 1 ? nil : bytes.gathering(frame.dataRanges)
        let range = joined.map { $0.indices } ?? frame.dataRanges.first ?? 0..<0
        let inflateError: CodecError? = (joined ?? bytes).withUnsafeBytes { source in
            filtered.withUnsafeMutableBytes { out in
                do throws(CodecError) {
                    try Inflater.inflate(UnsafeRawBufferPointer(rebasing: source[range]), into: out)
                    return nil
                } catch { return error }
            }
        }
        if let inflateError { throw inflateError }
        phases?.pointee.decompress += phases == nil ? 0 : Stopwatch.seconds(since: inflateStart)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        try unfilterAndConvert(&filtered, into: &pixels, width: width, height: height, phases: phases)
        return FrameLayer(rect: frame.control.rect, pixels: pixels)
    }

    private func unfilterAndConvert(_ filtered: inout [UInt8], into pixels: inout [UInt8], width: Int, height: Int,
                                    phases: UnsafeMutablePointer<DecodePhases>?) throws(CodecError) {
        let distance = header.filterDistance
        let widestRow = header.rowBytes(width: width)
        let zeros = [UInt8](repeating: 0, count: widestRow)
        let failure: CodecError? = zeros.withUnsafeBufferPointer { zeroRow in
            filtered.withUnsafeMutableBufferPointer { data in
                pixels.withUnsafeMutableBytes { out in
                    let outPixels = out.baseAddress!.assumingMemoryBound(to: UInt32.self)
                    var offset = 0
                    for pass in passes(width: width, height: height) {
                        let rowBytes = header.rowBytes(width: pass.width)
                        var previous = zeroRow.baseAddress!
                        for row in 0..<pass.height {
                            // Safe: filteredSize(...) sized `data` for every row of every pass.
                            let filterByte = data[offset]
                            let current = data.baseAddress! + offset + 1
                            let unfilterStart = phases == nil ? 0 : Stopwatch.now()
                            do throws(CodecError) {
                                try PNGUnfilter.unfilter(filterByte, row: current, previous: previous, count: rowBytes, distance: distance)
                            } catch { return error }
                            let y = pass.y + row * pass.dy
                            let convertStart = phases == nil ? 0 : Stopwatch.now()
                            converter.convert(current, width: pass.width, into: outPixels + y * width + pass.x, step: pass.dx)
                            if let phases {
                                let end = Stopwatch.now()
                                phases.pointee.unfilter += Double(convertStart &- unfilterStart) / 1e9
                                phases.pointee.convert += Double(end &- convertStart) / 1e9
                            }
                            previous = UnsafePointer(current)
                            offset += 1 + rowBytes
                        }
                    }
                    return nil
                }
            }
        }
        if let failure { throw failure }
    }
}
