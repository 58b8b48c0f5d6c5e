import AnimationCodec
import CBaselines
import CGIF

/// The GIF baseline: giflib's `DGifSlurp` reads every image, then each is expanded through
/// its colour map (transparent index as alpha 0) and drawn by ``PlainCompositor``.
struct GiflibBaseline {
    let bytes: [UInt8]
    let info: AnimationInfo

    init?(bytes: [UInt8], info: AnimationInfo) {
        guard info.format == .gif else { return nil }
        self.bytes = bytes
        self.info = info
    }

    /// Reads from the memory block in `UserData`.
    private final class Reader {
        let bytes: [UInt8]
        var offset = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }
    }

    func run() -> UInt8 { composite().first ?? 0 }

    /// The last canvas, for the agreement check.
    func finalCanvas() -> [UInt8] { composite() }

    private func composite() -> [UInt8] {
        let reader = Reader(bytes)
        var error: Int32 = 0
        let readFunction: InputFunc = { file, buffer, count in
            guard let file, let buffer else { return 0 }
            let reader = Unmanaged<Reader>.fromOpaque(file.pointee.UserData).takeUnretainedValue()
            let n = min(Int(count), reader.bytes.count - reader.offset)
            reader.bytes.withUnsafeBufferPointer { source in
                buffer.update(from: source.baseAddress! + reader.offset, count: n)
            }
            reader.offset += n
            return Int32(n)
        }
        guard let file = DGifOpen(Unmanaged.passUnretained(reader).toOpaque(), readFunction, &error) else { return [] }
        defer { DGifCloseFile(file, &error) }
        guard DGifSlurp(file) == GIF_OK else { return [] }
        var compositor = PlainCompositor(width: info.width, height: info.height)
        for index in 0..<min(Int(file.pointee.ImageCount), info.frameCount) {
            let image = file.pointee.SavedImages[index]
            let descriptor = image.ImageDesc
            var control = GraphicsControlBlock()
            control.TransparentColor = NO_TRANSPARENT_COLOR
            DGifSavedExtensionToGCB(file, Int32(index), &control)
            guard let map = descriptor.ColorMap ?? file.pointee.SColorMap else { continue }
            let width = Int(descriptor.Width), height = Int(descriptor.Height)
            var rgba = [UInt8](repeating: 0, count: width * height * 4)
            // GifColorType is three packed bytes, so the map is an RGB triple array.
            map.pointee.Colors.withMemoryRebound(to: UInt8.self, capacity: Int(map.pointee.ColorCount) * 3) { rgb in
                baseline_gif_expand(image.RasterBits, width * height, rgb, map.pointee.ColorCount,
                                    control.TransparentColor, &rgba)
            }
            compositor.draw(straight: rgba, info: info.frames[index])
        }
        return compositor.canvas
    }
}
