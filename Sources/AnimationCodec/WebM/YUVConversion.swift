/// The matrix that turns a video's Y'CbCr into R'G'B' (ITU-R BT.601, BT.709, BT.2020's
/// non-constant luminance): its luma weights of red and blue.
enum YUVMatrix: String, Sendable, Hashable {
    case bt601 = "BT.601"
    case bt709 = "BT.709"
    case bt2020 = "BT.2020"

    /// The matrix a Matroska `MatrixCoefficients` value names (the H.273 code points), or
    /// `nil` for "unspecified" and the ones a sticker never uses.
    init?(matroskaCoefficients code: UInt64) {
        switch code {
        case 1: self = .bt709
        case 5, 6: self = .bt601
        case 9: self = .bt2020
        default: return nil
        }
    }

    /// Red's and blue's weight in luma (Kr, Kb).
    var weights: (red: Double, blue: Double) {
        switch self {
        case .bt601: return (0.299, 0.114)
        case .bt709: return (0.2126, 0.0722)
        case .bt2020: return (0.2627, 0.0593)
        }
    }
}

/// Y'CbCr to premultiplied RGBA8 for one matrix and range, in 16.16 fixed point (off the exact
/// rounded result by less than 0.01 of a level before rounding, so within one level). Chroma
/// is taken from the sample that covers each pixel (no interpolation), as libyuv (Chromium,
/// Firefox) and ffmpeg's unscaled converter do.
struct YUVConverter: Sendable {
    let matrix: YUVMatrix
    let isFullRange: Bool
    /// Luma's contribution per code value (its offset and scale folded in), and each chroma
    /// value's contribution to red, green (negative) and blue, all x 65536 with the rounding half.
    private let luma: [Int32]
    private let redFromCr: [Int32]
    private let greenFromCbCr: (cb: [Int32], cr: [Int32])
    private let blueFromCb: [Int32]

    init(matrix: YUVMatrix, isFullRange: Bool) {
        self.matrix = matrix
        self.isFullRange = isFullRange
        let (kr, kb) = matrix.weights
        let kg = 1 - kr - kb
        // Limited ("studio") range: luma 16-235, chroma 16-240 around 128.
        let lumaScale = isFullRange ? 1.0 : 255.0 / 219.0
        let chromaScale = isFullRange ? 1.0 : 255.0 / 224.0
        let lumaOffset = isFullRange ? 0.0 : 16.0
        func fixed(_ value: Double) -> Int32 { Int32((value * 65536).rounded()) }
        luma = (0..<256).map { fixed((Double($0) - lumaOffset) * lumaScale) + 32768 }
        let chroma = (0..<256).map { (Double($0) - 128) * chromaScale }
        redFromCr = chroma.map { fixed(2 * (1 - kr) * $0) }
        blueFromCb = chroma.map { fixed(2 * (1 - kb) * $0) }
        greenFromCbCr = (
            chroma.map { fixed(-2 * kb * (1 - kb) / kg * $0) }, chroma.map { fixed(-2 * kr * (1 - kr) / kg * $0) }
        )
    }

    /// The planes of one decoded picture (libvpx's `vpx_image_t`, 8 bits a sample).
    struct Planes {
        var y: UnsafePointer<UInt8>, yStride: Int
        var cb: UnsafePointer<UInt8>, cbStride: Int
        var cr: UnsafePointer<UInt8>, crStride: Int
        /// Chroma subsampling as shifts (1, 1 for 4:2:0).
        var chromaShiftX: Int, chromaShiftY: Int
        /// The alpha stream's luma plane, when the frame has one.
        var alpha: UnsafePointer<UInt8>?, alphaStride: Int
    }

    /// Converts a `width` x `height` picture into premultiplied RGBA8 rows of `width * 4` bytes.
    func convert(_ planes: Planes, width: Int, height: Int, into target: UnsafeMutablePointer<UInt8>) {
        luma.withUnsafeBufferPointer { luma in
            redFromCr.withUnsafeBufferPointer { redFromCr in
                blueFromCb.withUnsafeBufferPointer { blueFromCb in
                    greenFromCbCr.cb.withUnsafeBufferPointer { greenFromCb in
                        greenFromCbCr.cr.withUnsafeBufferPointer { greenFromCr in
                            // A tight kernel over libvpx's planes: every index stays inside the planes'
                            // `height` rows of `width` samples (chroma: rounded up by the shifts).
                            for row in 0..<height {
                                let yRow = planes.y + row * planes.yStride
                                let cbRow = planes.cb + (row >> planes.chromaShiftY) * planes.cbStride
                                let crRow = planes.cr + (row >> planes.chromaShiftY) * planes.crStride
                                let aRow = planes.alpha.map { $0 + row * planes.alphaStride }
                                let out = target + row * width * 4
                                for column in 0..<width {
                                    let y = luma[Int(yRow[column])]
                                    let cb = Int(cbRow[column >> planes.chromaShiftX])
                                    let cr = Int(crRow[column >> planes.chromaShiftX])
                                    let r = clamp((y &+ redFromCr[cr]) >> 16)
                                    let g = clamp((y &+ greenFromCb[cb] &+ greenFromCr[cr]) >> 16)
                                    let b = clamp((y &+ blueFromCb[cb]) >> 16)
                                    let pixel = Premultiplication.packPremultiplied(
                                        r: r, g: g, b: b, a: aRow?[column] ?? 255)
                                    UnsafeMutableRawPointer(out + column * 4).storeBytes(
                                        of: pixel.littleEndian, as: UInt32.self)
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    @inline(__always)
    private func clamp(_ value: Int32) -> UInt8 {
        UInt8(truncatingIfNeeded: min(max(value, 0), 255))
    }
}
