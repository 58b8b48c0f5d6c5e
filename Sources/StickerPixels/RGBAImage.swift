import AnimationCodec

/// A premultiplied RGBA8 image: what the renderer draws into and what it writes out.
public struct RGBAImage: Sendable, Hashable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// `width * height * 4` bytes of premultiplied RGBA8, row-major, top row first.
    public var pixels: [UInt8]

    /// A transparent image.
    public init(width: Int, height: Int) {
        self.init(width: width, height: height, pixels: PixelStorage.zeros(count: width * height * 4))
    }

    /// An image of existing pixels.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(
            width >= 0 && height >= 0 && pixels.count == width * height * 4, "pixel buffer does not match the size")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A decoded frame's canvas.
    public init(_ frame: Frame) {
        self.init(width: frame.width, height: frame.height, pixels: frame.pixels)
    }

    /// The pixel at (`x`, `y`).
    public func pixel(x: Int, y: Int) -> PremultipliedRGBA {
        let o = (y * width + x) * 4
        return PremultipliedRGBA(r: pixels[o], g: pixels[o + 1], b: pixels[o + 2], a: pixels[o + 3])
    }

    /// Whether every pixel is opaque.
    public var isOpaque: Bool {
        stride(from: 3, to: pixels.count, by: 4).allSatisfy { pixels[$0] == 255 }
    }

    /// Draws `image` OVER this one with its top-left corner at (`x`, `y`), clipped.
    public mutating func draw(_ image: RGBAImage, atX x: Int, y: Int) {
        let area = PixelRect(x: x, y: y, width: image.width, height: image.height).clipped(
            toWidth: width, height: height)
        guard !area.isEmpty else { return }
        let (canvasWidth, sourceWidth) = (width, image.width)
        image.pixels.withUnsafeBytes { source in
            pixels.withUnsafeMutableBytes { canvas in
                for row in area.y..<(area.y + area.height) {
                    let from = ((row - y) * sourceWidth + (area.x - x)) * 4
                    let to = (row * canvasWidth + area.x) * 4
                    BlendKernels.overSIMD(source.baseAddress! + from, onto: canvas.baseAddress! + to, count: area.width)
                }
            }
        }
    }

    /// Copies `area` of `image` (in its coordinates) to the same place here, replacing pixels.
    public mutating func copy(_ area: PixelRect, from image: RGBAImage) {
        precondition(image.width == width && image.height == height)
        let area = area.clipped(toWidth: width, height: height)
        guard !area.isEmpty else { return }
        for row in area.y..<(area.y + area.height) {
            let o = (row * width + area.x) * 4
            pixels.replaceSubrange(o..<(o + area.width * 4), with: image.pixels[o..<(o + area.width * 4)])
        }
    }

    /// The part of this image inside `area`, as its own image.
    public func cropped(to area: PixelRect) -> RGBAImage {
        let area = area.clipped(toWidth: width, height: height)
        var out = [UInt8]()
        out.reserveCapacity(area.width * area.height * 4)
        for row in area.y..<(area.y + area.height) {
            let o = (row * width + area.x) * 4
            out.append(contentsOf: pixels[o..<(o + area.width * 4)])
        }
        return RGBAImage(width: area.width, height: area.height, pixels: out)
    }

    /// The smallest rectangle holding every pixel that differs from `other` (same size).
    public func changedRect(from other: RGBAImage) -> PixelRect {
        precondition(other.width == width && other.height == height)
        var minX = width
        var minY = height
        var maxX = -1
        var maxY = -1
        pixels.withUnsafeBytes { a in
            other.pixels.withUnsafeBytes { b in
                let a32 = a.bindMemory(to: UInt32.self)
                let b32 = b.bindMemory(to: UInt32.self)
                for y in 0..<height {
                    let row = y * width
                    var first = -1
                    var last = -1
                    for x in 0..<width where a32[row + x] != b32[row + x] {
                        if first < 0 { first = x }
                        last = x
                    }
                    guard first >= 0 else { continue }
                    minX = min(minX, first); maxX = max(maxX, last)
                    minY = min(minY, y); maxY = y
                }
            }
        }
        guard maxX >= 0 else { return PixelRect(x: 0, y: 0, width: 0, height: 0) }
        return PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }
}
