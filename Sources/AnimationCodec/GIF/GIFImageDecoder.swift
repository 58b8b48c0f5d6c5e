/// Decodes one GIF image: LZW into reused index memory, then each row through a
/// premultiplied palette onto a ``RowTarget`` (the transparent index and indexes past the
/// table are 0, which leaves the canvas untouched: OVER for 1-bit alpha).
enum GIFImageDecoder {
    /// GIF interlacing's four passes: first row and row step.
    static let interlacePasses: [(start: Int, step: Int)] = [(0, 8), (4, 8), (2, 4), (1, 2)]

    /// Decodes `image` onto `target`; returns the warnings about its data. With `takingOver`,
    /// the scratch's index buffer was last read on another core and is taken over before the
    /// LZW stage writes it (``CacheHandoff``).
    static func decode(
        _ image: GIFFile.StoredImage, in bytes: [UInt8], scratch: DecodeScratch, target: RowTarget,
        phases: UnsafeMutablePointer<DecodePhases>? = nil, takingOver: Bool = false
    ) -> [CodecWarning] {
        let pixelCount = image.info.rect.width * image.info.rect.height
        guard pixelCount > 0, LZWDecoder.validMinimumCodeSizes.contains(image.minimumCodeSize), !image.palette.isEmpty
        else {
            // Nothing to draw; decompress(...) names the reason without allocating.
            let warnings = decompress(
                image, in: bytes, scratch: scratch, into: UnsafeMutableBufferPointer(start: nil, count: 0)
            ).warnings
            draw(image, indexes: UnsafePointer(bitPattern: 1)!, written: 0, onto: target)
            return warnings
        }
        let lzwStart = phases == nil ? 0 : Stopwatch.now()
        let indexes = scratch.indexBuffer(pixelCount)
        if takingOver { CacheHandoff.takeOver(UnsafeMutableRawBufferPointer(indexes)) }
        let decoded = decompress(image, in: bytes, scratch: scratch, into: indexes)
        let drawStart = phases == nil ? 0 : Stopwatch.now()
        phases?.pointee.decompress += Double(drawStart &- lzwStart) / 1e9
        draw(image, indexes: UnsafePointer(indexes.baseAddress!), written: decoded.written, onto: target)
        phases?.pointee.convert += phases == nil ? 0 : Stopwatch.seconds(since: drawStart)
        return decoded.warnings
    }

    /// The LZW stage alone: `image`'s palette indexes into `indexes` (one per pixel of its
    /// rectangle). Returns how many were written and the warnings. Frames that draw nothing
    /// (no pixels, no colour table, a bad code size) write none.
    static func decompress(
        _ image: GIFFile.StoredImage, in bytes: [UInt8], scratch: DecodeScratch,
        into indexes: UnsafeMutableBufferPointer<UInt8>
    ) -> (written: Int, warnings: [CodecWarning]) {
        let rect = image.info.rect
        let pixelCount = rect.width * rect.height
        let frameName = "frame \(image.info.index)"
        guard pixelCount > 0 else { return (0, []) }
        guard LZWDecoder.validMinimumCodeSizes.contains(image.minimumCodeSize) else {
            return (
                0,
                [
                    CodecWarning(
                        .invalidLZWCode,
                        "\(frameName): LZW minimum code size \(image.minimumCodeSize) is invalid; frame skipped")
                ]
            )
        }
        guard !image.palette.isEmpty else {
            return (0, [CodecWarning(.missingColorTable, "\(frameName) has no colour table; it draws nothing")])
        }
        let outcome: LZWDecoder.Outcome
        if image.dataRanges.count == 1 {
            outcome = bytes.withUnsafeBytes { source in
                LZWDecoder.decode(
                    UnsafeRawBufferPointer(rebasing: source[image.dataRanges[0]]),
                    minimumCodeSize: Int(image.minimumCodeSize), into: indexes)
            }
        } else {
            outcome = LZWDecoder.decode(
                scratch.gathered(image.dataRanges, of: bytes),
                minimumCodeSize: Int(image.minimumCodeSize), into: indexes)
        }
        switch outcome {
        case .complete:
            return (pixelCount, [])
        case .insufficientData(let count):
            return (
                count,
                [
                    CodecWarning(
                        .missingPixelData, "\(frameName): pixel data ends after \(count) of \(pixelCount) pixels")
                ]
            )
        case .invalidCode(let count):
            return (
                count,
                [CodecWarning(.invalidLZWCode, "\(frameName): invalid LZW code after \(count) of \(pixelCount) pixels")]
            )
        }
    }

    /// The drawing stage: the first `written` indexes, row by row in display order, through
    /// the frame's premultiplied palette onto `target`. Pixels never reached are left as they
    /// were on a canvas drawn through the row buffer (OVER), and cleared where rows are written
    /// in place (a layer, or a frame replacing a cleared rectangle, wholly or in part): either
    /// way they show what is under the frame.
    static func draw(_ image: GIFFile.StoredImage, indexes: UnsafePointer<UInt8>, written: Int, onto target: RowTarget)
    {
        let width = image.info.rect.width
        var row = 0
        if written > 0 {
            let table = premultipliedPalette(image.palette, transparentIndex: image.transparentIndex)
            // A full colour table with no transparent index draws every pixel of the frame.
            let everyEntryOpaque = !table.contains(0)
            table.withUnsafeBufferPointer { table in
                forEachDisplayRow(height: image.info.rect.height, interlaced: image.info.isInterlaced) { y in
                    let start = row * width
                    guard start < written else { return false }
                    target.drawIndexed(
                        row: y, indexes + start, count: min(width, written - start), table: table.baseAddress!,
                        transparent: image.transparentIndex, everyEntryOpaque: everyEntryOpaque)
                    row += 1
                    return true
                }
            }
        }
        guard written < width * image.info.rect.height else { return }
        // Rows in display order: the last one drawn may be partial, the later ones untouched.
        var index = 0
        forEachDisplayRow(height: image.info.rect.height, interlaced: image.info.isInterlaced) { y in
            defer { index += 1 }
            if index >= row {
                target.clear(row: y, from: 0)
            } else if index == row - 1 {
                target.clear(row: y, from: written - index * width)
            }
            return true
        }
    }

    /// Decodes `image` into `storage` (resized, capacity kept) as a pixel layer. Every pixel is
    /// written, through the palette or cleared by ``draw`` past the end of short data, so the
    /// memory is not zeroed first. `takingOver` as for ``decode(_:in:scratch:target:phases:takingOver:)``.
    static func decodeLayer(
        _ image: GIFFile.StoredImage, in bytes: [UInt8], scratch: DecodeScratch,
        storage: inout [UInt8], takingOver: Bool = false
    ) -> FrameLayer {
        let rect = image.info.rect
        LayerStorage.prepare(&storage, count: rect.width * rect.height * 4)
        let warnings = storage.withUnsafeMutableBytes { out in
            decode(
                image, in: bytes, scratch: scratch,
                target: .layer(out.baseAddress!.assumingMemoryBound(to: UInt32.self), rect: rect),
                takingOver: takingOver)
        }
        return FrameLayer(rect: rect, pixels: storage, warnings: warnings)
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

    /// 256 premultiplied entries; entries past the table and the transparent index are 0.
    static func premultipliedPalette(_ rgb: [UInt8], transparentIndex: UInt8?) -> [UInt32] {
        var table = [UInt32](repeating: 0, count: 256)
        for entry in 0..<min(rgb.count / 3, 256) {
            table[entry] =
                UInt32(rgb[3 * entry]) | UInt32(rgb[3 * entry + 1]) << 8 | UInt32(rgb[3 * entry + 2]) << 16
                | 0xFF00_0000
        }
        if let transparentIndex { table[Int(transparentIndex)] = 0 }
        return table
    }
}
