/// Decodes one GIF image: LZW into reused index memory, then each row through a
/// premultiplied palette onto a ``RowTarget`` (the transparent index and indexes past the
/// table are 0, which leaves the canvas untouched: OVER for 1-bit alpha).
enum GIFImageDecoder {
    /// GIF interlacing's four passes: first row and row step.
    static let interlacePasses: [(start: Int, step: Int)] = [(0, 8), (4, 8), (2, 4), (1, 2)]

    /// Decodes `image` onto `target`; returns the warnings about its data.
    static func decode(_ image: GIFFile.StoredImage, in bytes: [UInt8], scratch: DecodeScratch, target: RowTarget,
                       phases: UnsafeMutablePointer<DecodePhases>? = nil) -> [CodecWarning] {
        let rect = image.info.rect
        let pixelCount = rect.width * rect.height
        let frameName = "frame \(image.info.index)"
        guard pixelCount > 0 else { return [] }
        guard (1...8).contains(image.minimumCodeSize) else {
            return [CodecWarning(.invalidLZWCode, "\(frameName): LZW minimum code size \(image.minimumCodeSize) is invalid; frame skipped")]
        }
        guard !image.palette.isEmpty else {
            return [CodecWarning(.missingColorTable, "\(frameName) has no colour table; it draws nothing")]
        }

        let lzwStart = phases == nil ? 0 : Stopwatch.now()
        let indexes = scratch.indexBuffer(pixelCount)
        let outcome: LZWDecoder.Outcome
        if image.dataRanges.count == 1 {
            outcome = bytes.withUnsafeBytes { source in
                LZWDecoder.decode(UnsafeRawBufferPointer(rebasing: source[image.dataRanges[0]]),
                                  minimumCodeSize: Int(image.minimumCodeSize), into: indexes)
            }
        } else {
            outcome = bytes.gathering(image.dataRanges).withUnsafeBytes { source in
                LZWDecoder.decode(source, minimumCodeSize: Int(image.minimumCodeSize), into: indexes)
            }
        }
        var warnings: [CodecWarning] = []
        let written: Int
        switch outcome {
        case .complete:
            written = pixelCount
        case .insufficientData(let count):
            written = count
            warnings.append(CodecWarning(.missingPixelData, "\(frameName): pixel data ends after \(count) of \(pixelCount) pixels"))
        case .invalidCode(let count):
            written = count
            warnings.append(CodecWarning(.invalidLZWCode, "\(frameName): invalid LZW code after \(count) of \(pixelCount) pixels"))
        }
        let convertStart = phases == nil ? 0 : Stopwatch.now()
        phases?.pointee.decompress += Double(convertStart &- lzwStart) / 1e9
        defer { phases?.pointee.convert += phases == nil ? 0 : Stopwatch.seconds(since: convertStart) }

        let table = premultipliedPalette(image.palette, transparentIndex: image.transparentIndex)
        table.withUnsafeBufferPointer { table in
            let width = rect.width
            var row = 0
            // Rows past `written` are never reached, so they stay as they were (transparent in
            // a layer, untouched on the canvas).
            forEachDisplayRow(height: rect.height, interlaced: image.info.isInterlaced) { y in
                let start = row * width
                guard start < written else { return false }
                target.drawIndexed(row: y, UnsafePointer(indexes.baseAddress! + start), count: min(width, written - start),
                                   table: table.baseAddress!)
                row += 1
                return true
            }
        }
        return warnings
    }

    /// Decodes `image` into a layer of its own (the parallel path).
    static func decodeLayer(_ image: GIFFile.StoredImage, in bytes: [UInt8], scratch: DecodeScratch) -> FrameLayer {
        let rect = image.info.rect
        var pixels = [UInt8](repeating: 0, count: rect.width * rect.height * 4)
        let warnings = pixels.withUnsafeMutableBytes { out in
            decode(image, in: bytes, scratch: scratch, target: .layer(out.baseAddress!.assumingMemoryBound(to: UInt32.self), rect: rect))
        }
        return FrameLayer(rect: rect, pixels: pixels, warnings: warnings)
    }

    /// Calls `body` with each canvas row in decoding order until it returns false.
    static func forEachDisplayRow(height: Int, interlaced: Bool, _ body: (Int) -> Bool) {
        guard interlaced else {
            for y in 0..<height where !body(y) { return }
            return
        }
        for pass in interlacePasses {
            for y in stride(from: pass.start, to: height, by: pass.step) where !body(y) { return }
        }
    }

    /// The canvas row of each decoded row, in decoding order.
    static func displayRows(height: Int, interlaced: Bool) -> [Int] {
        var rows: [Int] = []
        forEachDisplayRow(height: height, interlaced: interlaced) { rows.append($0); return true }
        return rows
    }

    /// 256 premultiplied entries; entries past the table and the transparent index are 0.
    static func premultipliedPalette(_ rgb: [UInt8], transparentIndex: UInt8?) -> [UInt32] {
        var table = [UInt32](repeating: 0, count: 256)
        for entry in 0..<min(rgb.count / 3, 256) {
            table[entry] = UInt32(rgb[3 * entry]) | UInt32(rgb[3 * entry + 1]) << 8 | UInt32(rgb[3 * entry + 2]) << 16 | 0xFF00_0000
        }
        if let transparentIndex { table[Int(transparentIndex)] = 0 }
        return table
    }
}
