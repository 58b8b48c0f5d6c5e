/// Track mattes as Debian's rlottie draws them.
///
/// Debian builds rlottie 0.1 with a later change backported ("Improve matte rendering
/// performance for simple layer"): a matted layer that has exactly one thing to draw (one
/// fill, one stroke) is clipped to that drawing's bounds, and the matted result is then copied
/// through a call of 0.1's that copies nothing when the clip is smaller than the canvas. So a
/// matte over a layer of one fill, the common case in Telegram's stickers, draws nothing at
/// all. A second thing to draw, an opaque fill of an empty rectangle (no pixels), keeps the
/// clip the whole canvas, and the matte is drawn as lottie-web, ThorVG and later rlottie draw
/// it. Solid and image layers have no shapes to add to: a matte over one is named instead.
enum LottieTrackMatte {
    /// A shape group that draws nothing but counts as a drawing: a 0 x 0 rectangle filled with
    /// opaque black.
    static let emptyDrawing = Array(
        (#"{"ty":"gr","nm":"stickerkit-matte","it":[{"ty":"rc","d":1,"s":{"a":0,"k":[0,0]},"#
            + #""p":{"a":0,"k":[0,0]},"r":{"a":0,"k":0}},{"ty":"fl","c":{"a":0,"k":[0,0,0,1]},"#
            + #""o":{"a":0,"k":100},"r":1},{"ty":"tr","p":{"a":0,"k":[0,0]},"a":{"a":0,"k":[0,0]},"#
            + #""s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},"o":{"a":0,"k":100}}]}"#).utf8)

    /// `json` with ``emptyDrawing`` last in each matted shape layer's `"shapes"` array (last,
    /// so no modifier of the layer's, which acts on the shapes before it, reaches it).
    static func drawable(_ json: [UInt8], document: LottieJSON) -> [UInt8] {
        let insertions = document.mattedShapeLayers.sorted { $0.closingBracket < $1.closingBracket }
        // One pass: the text up to each bracket, then the drawing (a document of thousands of
        // matted layers costs what its bytes cost, not layers x bytes).
        var text: [UInt8] = []
        text.reserveCapacity(json.count + insertions.count * (emptyDrawing.count + 1))
        var copied = 0
        for shapes in insertions {
            text += json[copied..<shapes.closingBracket]
            if !shapes.isEmpty { text.append(UInt8(ascii: ",")) }
            text += emptyDrawing
            copied = shapes.closingBracket
        }
        text += json[copied...]
        return text
    }
}
