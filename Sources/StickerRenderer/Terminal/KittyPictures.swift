import StickerPixels

/// The pictures stored in a kitty-protocol terminal that plays no animations: each distinct
/// picture once, under an image number of its own (a sticker's by its frame number, a
/// browser's by its pixels), then shown by placing it and removing the picture shown before,
/// so a loop played again costs a few dozen bytes a frame.
///
/// Two budgets bound it. The terminal keeps at most ``terminalCapacity`` bytes of our decoded
/// pictures (kitty's own quota is 320 MB; past it kitty would drop old pictures, and a frame
/// placed later would show nothing), and we keep at most ``comparisonCapacity`` bytes of a
/// browser's pictures to recognise them. A picture past either goes out whole each time it is
/// shown, under one spare number.
package struct KittyPictures {
    private let firstID: UInt32
    private let capacity: Int
    private let comparisonCapacity: Int
    private var byFrame: [Int: UInt32] = [:]
    private var byPixels: [Int: [(pixels: [UInt8], id: UInt32)]] = [:]
    private var storedBytes = 0
    private var comparedBytes = 0
    private var stored: [UInt32] = []
    private var shownID: UInt32?

    /// The most bytes of decoded pictures left stored in the terminal.
    package static let terminalCapacity = 256 << 20
    /// The most bytes of a browser's pictures kept to recognise them.
    package static let browserCapacity = 64 << 20

    /// Numbers from `firstID` up (`firstID` itself is the spare), within the two budgets.
    package init(
        firstID: UInt32, capacity: Int = terminalCapacity, comparisonCapacity: Int = browserCapacity
    ) {
        self.firstID = firstID
        self.capacity = capacity
        self.comparisonCapacity = comparisonCapacity
    }

    /// The escapes that show `image` (frame `frame` of a sticker, nil for a browser's
    /// picture) at the cursor: stored first when it is new, then placed, then the picture shown
    /// before removed. Empty when it is already the one shown.
    package mutating func show(_ image: RGBAImage, frame: Int?) -> String {
        var upload = ""
        let id: UInt32
        let size = image.pixels.count
        if let frame, let known = byFrame[frame] {
            id = known
        } else if frame == nil, let known = known(image) {
            id = known
        } else if storedBytes + size > capacity || (frame == nil && comparedBytes + size > comparisonCapacity) {
            // The spare number: replaced by each picture sent whole.
            id = firstID
            upload = KittyGraphics.upload(image, id: id)
            if !stored.contains(id) { stored.append(id) }
            // Storing it again took its placement away.
            if shownID == id { shownID = nil }
        } else {
            id = firstID + 1 + UInt32(byFrame.count + byPixels.values.reduce(0) { $0 + $1.count })
            upload = KittyGraphics.upload(image, id: id)
            stored.append(id)
            storedBytes += size
            if let frame {
                byFrame[frame] = id
            } else {
                byPixels[Self.key(image), default: []].append((image.pixels, id))
                comparedBytes += size
            }
        }
        guard id != shownID else { return upload }
        let removal = shownID.map(KittyGraphics.unplace) ?? ""
        shownID = id
        return upload + KittyGraphics.place(id: id) + removal
    }

    /// The escapes that delete every stored picture (empty when there is none), and a fresh
    /// start.
    package mutating func deleteAll() -> String {
        defer { self = KittyPictures(firstID: firstID, capacity: capacity, comparisonCapacity: comparisonCapacity) }
        return stored.map(KittyGraphics.delete).joined()
    }

    private func known(_ image: RGBAImage) -> UInt32? {
        byPixels[Self.key(image)]?.first { $0.pixels == image.pixels }?.id
    }

    private static func key(_ image: RGBAImage) -> Int {
        var hasher = Hasher()
        hasher.combine(image.width)
        hasher.combine(image.pixels)
        return hasher.finalize()
    }
}
