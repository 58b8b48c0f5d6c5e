import AnimationCodec

extension StickerPack {
    /// The size the pack is shown and fitted at, given the pixel sizes of its readable raster
    /// stickers: the declared `grid-size`; else, for a catalog, regular (what Xcode and
    /// Messages take when a catalog names none); else, for images not yet in a catalog, the
    /// size whose side every one of `sides` is (square, 300, 408 or 618 px), regular when they
    /// do not agree. A folder of 618 px stickers is a large pack, not one to shrink to 408.
    public func gridSize(sides: [(width: Int, height: Int)]) -> StickerSize {
        if let declaredGridSize { return declaredGridSize }
        guard origin != .catalog else { return .regular }
        return StickerSize.shared(by: sides) ?? .regular
    }

    /// ``gridSize(sides:)`` with the sides read from the stickers' files (their structure,
    /// no pixels: a clip whose frames together are over `limits`' decoded bytes still has its
    /// side). Vector stickers are drawn at any size and do not count; nor do unreadable ones.
    public func gridSize(limits: DecodingLimits) -> StickerSize {
        guard sizeComesFromStickers else { return gridSize(sides: []) }
        let animations = stickers.map { try? StickerAnimation.load($0, limits: limits.withoutTotalDecodedBytes) }
        return gridSize(sides: StickerPack.rasterSides(animations))
    }

    /// Whether ``gridSize(sides:)`` depends on the stickers' sides: no grid-size is declared and
    /// the pack is not a catalog (whose default is regular). When false, no sticker need be read.
    public var sizeComesFromStickers: Bool { declaredGridSize == nil && origin != .catalog }

    /// The pixel sizes of the raster stickers among `animations` (`nil`: unreadable).
    public static func rasterSides(_ animations: [StickerAnimation?]) -> [(width: Int, height: Int)] {
        animations.compactMap { animation in
            guard let animation, !(animation.fileInfos.first?.format.isVector ?? false) else { return nil }
            return (animation.width, animation.height)
        }
    }
}

extension StickerSize {
    /// The size whose @3x side every one of `sides` is, square; `nil` when they are not all
    /// the same such square, or there are none. Sides outside every size (under 300 or over
    /// 618 px, which no pack takes) do not count: one oversized sticker does not make a pack
    /// of 618 px stickers regular.
    public static func shared(by sides: [(width: Int, height: Int)]) -> StickerSize? {
        let range = StickerSize.small.pixels...StickerSize.large.pixels
        let sides = sides.filter { range.contains($0.width) && range.contains($0.height) }
        guard let first = sides.first, first.width == first.height, let size = StickerSize(pixels: first.width),
            sides.allSatisfy({ $0.width == size.pixels && $0.height == size.pixels })
        else { return nil }
        return size
    }
}
