/// An APNG frame control chunk (fcTL), as stored.
///
/// ```
/// 0  sequence_number (4 bytes)
/// 4  width           (4 bytes)
/// 8  height          (4 bytes)
/// 12 x_offset        (4 bytes)
/// 16 y_offset        (4 bytes)
/// 20 delay_num       (2 bytes)
/// 22 delay_den       (2 bytes)
/// 24 dispose_op      (1 byte: 0 none, 1 background, 2 previous)
/// 25 blend_op        (1 byte: 0 source, 1 over)
/// ```
struct APNGFrameControl: Sendable, Hashable {
    var sequenceNumber: UInt32
    var rect: FrameRect
    var delay: FrameDelay
    var dispose: DisposeOp
    var blend: BlendOp

    /// Parses and validates an fcTL against the canvas.
    /// - Returns: the control, or the reason the animation must be ignored.
    static func parse(_ chunk: Range<Int>, in bytes: [UInt8], canvasWidth: Int, canvasHeight: Int)
        -> Result<APNGFrameControl, APNGBreak>
    {
        guard chunk.count == 26 else { return .failure(APNGBreak("fcTL is \(chunk.count) bytes, not 26")) }
        let o = chunk.lowerBound
        let width = Int(bytes.bigEndianUInt32(at: o + 4))
        let height = Int(bytes.bigEndianUInt32(at: o + 8))
        let x = Int(bytes.bigEndianUInt32(at: o + 12))
        let y = Int(bytes.bigEndianUInt32(at: o + 16))
        let rect = FrameRect(x: x, y: y, width: width, height: height)
        guard width > 0, height > 0, x + width <= canvasWidth, y + height <= canvasHeight else {
            return .failure(APNGBreak("fcTL rectangle \(rect) does not fit the \(canvasWidth)x\(canvasHeight) canvas"))
        }
        let dispose: DisposeOp
        switch bytes[o + 24] {
        case 0: dispose = .none
        case 1: dispose = .background
        case 2: dispose = .previous
        case let other: return .failure(APNGBreak("fcTL dispose_op \(other) does not exist"))
        }
        let blend: BlendOp
        switch bytes[o + 25] {
        case 0: blend = .source
        case 1: blend = .over
        case let other: return .failure(APNGBreak("fcTL blend_op \(other) does not exist"))
        }
        let delay = FrameDelay(
            numerator: Int(bytes.bigEndianUInt16(at: o + 20)),
            denominator: Int(bytes.bigEndianUInt16(at: o + 22)))
        return .success(
            APNGFrameControl(
                sequenceNumber: bytes.bigEndianUInt32(at: o), rect: rect,
                delay: delay, dispose: dispose, blend: blend))
    }
}

/// Why an APNG's animation chunks were ignored in favour of its default image.
struct APNGBreak: Error, Sendable, Hashable {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}
