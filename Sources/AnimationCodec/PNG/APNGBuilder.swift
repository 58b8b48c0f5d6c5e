/// Collects acTL, fcTL and fdAT chunks in file order and checks the APNG rules: one acTL
/// before the image data, sequence numbers 0, 1, 2... shared by fcTL and fdAT, every frame
/// with data, as many frames as acTL declares. The first broken rule is kept as the reason to
/// fall back to the default image.
struct APNGBuilder {
    enum Outcome {
        case notAnimated
        case broken(reason: String)
        case animated(numPlays: Int, frames: [PNGFile.StoredFrame], defaultImageIsFirstFrame: Bool)
    }

    private let canvasWidth: Int
    private let canvasHeight: Int
    private var declared: (numFrames: Int, numPlays: Int)?
    private var sawAnimationControl = false
    private var frames: [PNGFile.StoredFrame] = []
    private var nextSequenceNumber: UInt32 = 0
    private var imageDataStarted = false
    private var defaultImageIsFirstFrame = false
    private var brokenReason: String?

    init(canvasWidth: Int, canvasHeight: Int) {
        self.canvasWidth = canvasWidth
        self.canvasHeight = canvasHeight
    }

    /// Records the first broken rule; later ones are consequences.
    mutating func breakAnimation(_ reason: String) {
        if brokenReason == nil { brokenReason = reason }
    }

    mutating func imageDataStarts() {
        imageDataStarted = true
        // An fcTL before IDAT makes the default image the first frame (its data is IDAT).
        if frames.count == 1 { defaultImageIsFirstFrame = true }
    }

    mutating func readAnimationControl(_ data: Range<Int>, in bytes: [UInt8], afterImageData: Bool) {
        if afterImageData {
            sawAnimationControl = true
            breakAnimation("acTL comes after IDAT")
            return
        }
        if sawAnimationControl {
            breakAnimation("more than one acTL chunk")
            return
        }
        sawAnimationControl = true
        guard data.count == 8 else { return breakAnimation("acTL is \(data.count) bytes, not 8") }
        let numFrames = bytes.bigEndianUInt32(at: data.lowerBound)
        let numPlays = bytes.bigEndianUInt32(at: data.lowerBound + 4)
        guard numFrames > 0, numFrames <= UInt32(Int32.max), numPlays <= UInt32(Int32.max) else {
            return breakAnimation("acTL declares \(numFrames) frames and \(numPlays) plays")
        }
        declared = (Int(numFrames), Int(numPlays))
    }

    private mutating func checkSequence(_ number: UInt32, chunk: String) -> Bool {
        guard number == nextSequenceNumber else {
            breakAnimation("\(chunk) has sequence number \(number), expected \(nextSequenceNumber)")
            return false
        }
        nextSequenceNumber &+= 1
        return true
    }

    /// An acTL whose CRC fails still makes the file an APNG, with its animation broken.
    mutating func readCorruptAnimationControl() {
        sawAnimationControl = true
        breakAnimation("acTL chunk has a bad CRC")
    }

    mutating func readFrameControl(_ data: Range<Int>, in bytes: [UInt8]) {
        guard brokenReason == nil else { return }
        switch APNGFrameControl.parse(data, in: bytes, canvasWidth: canvasWidth, canvasHeight: canvasHeight) {
        case .failure(let failure):
            breakAnimation(failure.reason)
        case .success(let control):
            guard checkSequence(control.sequenceNumber, chunk: "fcTL") else { return }
            if let last = frames.last, last.dataRanges.isEmpty, !(frames.count == 1 && defaultImageIsFirstFrame) {
                return breakAnimation("fcTL \(control.sequenceNumber) follows a frame that has no fdAT data")
            }
            if !imageDataStarted {
                guard frames.isEmpty else { return breakAnimation("two fcTL chunks before IDAT") }
                guard control.rect == FrameRect(x: 0, y: 0, width: canvasWidth, height: canvasHeight) else {
                    return breakAnimation("the default image's fcTL \(control.rect) does not match IHDR")
                }
            }
            if frames.count >= 1_000_000 { return breakAnimation("too many fcTL chunks") }
            frames.append(PNGFile.StoredFrame(control: control, dataRanges: []))
        }
    }

    mutating func readFrameData(_ data: Range<Int>, in bytes: [UInt8]) {
        guard brokenReason == nil else { return }
        guard data.count >= 4 else { return breakAnimation("fdAT is shorter than its sequence number") }
        guard checkSequence(bytes.bigEndianUInt32(at: data.lowerBound), chunk: "fdAT") else { return }
        guard let lastIndex = frames.indices.last, !(lastIndex == 0 && defaultImageIsFirstFrame) else {
            return breakAnimation("fdAT without a preceding fcTL for it")
        }
        frames[lastIndex].dataRanges.append((data.lowerBound + 4)..<data.upperBound)
    }

    func finish() -> Outcome {
        guard sawAnimationControl else { return .notAnimated }
        if let brokenReason { return .broken(reason: brokenReason) }
        guard let declared else { return .broken(reason: "acTL is missing") }
        guard frames.count == declared.numFrames else {
            return .broken(reason: "acTL declares \(declared.numFrames) frames, the file has \(frames.count)")
        }
        for (index, frame) in frames.enumerated() where frame.dataRanges.isEmpty {
            if index == 0 && defaultImageIsFirstFrame { continue }
            return .broken(reason: "frame \(index) has no fdAT data")
        }
        return .animated(
            numPlays: declared.numPlays, frames: frames, defaultImageIsFirstFrame: defaultImageIsFirstFrame)
    }
}
