/// Decodes one GIF image: LZW to indexes, de-interlace, and palette lookup into
/// premultiplied RGBA8 (the transparent index and indexes past the table stay transparent,
/// so compositing OVER leaves the canvas untouched there).
enum GIFImageDecoder {
    /// GIF interlacing's four passes: first row and row step.
    static let interlacePasses: [(start: Int, step: Int)] = [(0, 8), (4, 8), (2, 4), (1, 2)]

    static func decode(_ image: GIFFile.StoredImage, in bytes: [UInt8],
                       phases: UnsafeMutablePointer<DecodePhases>? = nil) -> FrameLayer {
        let rect = image.info.rect
        let pixelCount = rect.width * rect.height
        var pixels = [UInt8](repeating: 0, count: pixelCount * 4)
        var warnings: [CodecWarning] = []
        let frameName = "frame \(image.info.index)"
        guard pixelCount > 0 else { return FrameLayer(rect: rect, pixels: pixels) }
        guard (1...8).contains(image.minimumCodeSize) else {
            warnings.append(CodecWarning(.invalidLZWCode, "\(frameName): LZW minimum code size \(image.minimumCodeSize) is invalid; frame skipped"))
            return FrameLayer(rect: rect, pixels: pixels, warnings: warnings)
        }
        guard !image.palette.isEmpty else {
            warnings.append(CodecWarning(.missingColorTable, "\(frameName) has no colour table; it draws nothing"))
            return FrameLayer(rect: rect, pixels: pixels, warnings: warnings)
        }

        let lzwStart = phases == nil ? 0 : Stopwatch.now()
        var indexes = [UInt8](repeating: 0, count: pixelCount)
        let data = image.dataRanges.count == 1 ? Array(bytes[image.dataRanges[0]]) : bytes.gathering(image.dataRanges)
        let outcome = data.withUnsafeBytes { input in
            indexes.withUnsafeMutableBufferPointer { output in
                LZWDecoder.decode(input, minimumCodeSize: Int(image.minimumCodeSize), into: output)
            }
        }
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
        let palette = premultipliedPalette(image.palette, transparentIndex: image.transparentIndex)
        palette.withUnsafeBufferPointer { table in
            indexes.withUnsafeBufferPointer { source in
                pixels.withUnsafeMutableBytes { target in
                    let out = target.baseAddress!.assumingMemoryBound(to: UInt32.self)
                    // Safe: `written` <= pixelCount, every row lies inside both buffers and
                    // the table has 256 entries, so any UInt8 index is in range.
                    let width = rect.width
                    var row = 0
                    for y in displayRows(height: rect.height, interlaced: image.info.isInterlaced) {
                        let start = row * width
                        if start >= written { break }
                        let end = min(start + width, written)
                        let base = out + y * width - start
                        for i in start..<end { base[i] = table[Int(source[i])] }
                        row += 1
                    }
                }
            }
        }
        return FrameLayer(rect: rect, pixels: pixels, warnings: warnings)
    }

    /// The canvas row of each decoded row, in decoding order.
    static func displayRows(height: Int, interlaced: Bool) -> [Int] {
        guard interlaced else { return Array(0..<height) }
        return interlacePasses.flatMap { pass in stride(from: pass.start, to: height, by: pass.step) }
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
