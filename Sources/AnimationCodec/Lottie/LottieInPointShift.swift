/// A Lottie document whose in point is before frame 0, rewritten so rlottie draws it.
///
/// rlottie adds the in point to the frame asked for in unsigned arithmetic and then clamps it
/// to the document's frames, so every frame of a document starting at frame -10 comes out as
/// frame -10. lottie-web and ThorVG play such a document from its in point. The rewritten
/// document starts at frame 0 and holds the original layers in one precomposition that starts
/// at the old in point (its `st`, the time its layers' frame 0 falls on, is minus the in
/// point), so its frame `i` is the original's frame `ip + i`: the same pictures, the same count.
enum LottieInPointShift {
    /// The id the precomposition takes, unless the document already uses it.
    static let assetID = "stickerkit-in-point"

    /// `json` (the document `document` was read from) starting at frame 0 instead of
    /// `inPoint`, which is negative; its out point becomes `outPoint - inPoint`.
    static func shifted(
        _ json: [UInt8], document: LottieJSON, inPoint: Double, outPoint: Double
    ) throws(CodecError) -> [UInt8] {
        let kept = document.members.filter { !["ip", "op", "layers", "assets"].contains($0.key) }
        var assets: [ArraySlice<UInt8>] = []
        var layers: [ArraySlice<UInt8>] = []
        for member in document.members where member.key == "assets" || member.key == "layers" {
            // rlottie reads every "layers" array of the top level, one after another, and
            // every "assets" array's assets.
            guard let elements = elements(of: json[member.value]) else { continue }
            if member.key == "assets" { assets.append(elements) } else { layers.append(elements) }
        }
        guard let width = kept.last(where: { $0.key == "w" }), let height = kept.last(where: { $0.key == "h" }) else {
            throw .malformed(format: .lottie, reason: "the document has no canvas size")
        }
        var id = assetID
        while document.assetIDs.contains(id) { id += "-" }
        let length = outPoint - inPoint
        var text = Array("{".utf8)
        for member in kept {
            text += json[member.member]
            text += Array(",".utf8)
        }
        text += Array("\"ip\":0,\"op\":\(length),\"assets\":[".utf8)
        for elements in assets {
            text += elements
            text += Array(",".utf8)
        }
        text += Array("{\"id\":\"\(id)\",\"layers\":[".utf8)
        text += layers.joined(separator: Array(",".utf8))
        text += Array(
            "]}],\"layers\":[{\"ddd\":0,\"ind\":1,\"ty\":0,\"refId\":\"\(id)\",\"sr\":1,\"ao\":0,\"bm\":0".utf8)
        text += Array(",\"ks\":{\"o\":{\"a\":0,\"k\":100},\"r\":{\"a\":0,\"k\":0},\"p\":{\"a\":0,\"k\":[0,0,0]}".utf8)
        text += Array(",\"a\":{\"a\":0,\"k\":[0,0,0]},\"s\":{\"a\":0,\"k\":[100,100,100]}},\"w\":".utf8)
        text += json[width.value]
        text += Array(",\"h\":".utf8)
        text += json[height.value]
        text += Array(",\"ip\":0,\"op\":\(length),\"st\":\(-inPoint)}]}".utf8)
        return text
    }

    /// What an array holds between its brackets, or `nil` for a value that is not an array or
    /// an array holding nothing.
    private static func elements(of value: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard value.first == UInt8(ascii: "["), value.last == UInt8(ascii: "]") else { return nil }
        let inner = value.dropFirst().dropLast()
        let isEmpty = inner.allSatisfy { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
        return isEmpty ? nil : inner
    }
}
