import Foundation
import StickerPack
import Testing

/// The size a pack is shown and fitted at, by Apple's sides (small 300, regular 408, large
/// 618 px) and Xcode's default (regular) for a catalog that names none.
@Suite("Grid size")
struct GridSizeTests {
    static func pack(_ origin: StickerPack.Origin, declared: StickerSize? = nil) -> StickerPack {
        StickerPack(name: "p", origin: origin, declaredGridSize: declared, stickers: [])
    }

    @Test("the size every side shares is the one whose square it is; any other mix shares none")
    func shared() {
        #expect(StickerSize.shared(by: [(618, 618), (618, 618)]) == .large)
        #expect(StickerSize.shared(by: [(300, 300)]) == .small)
        #expect(StickerSize.shared(by: [(408, 408)]) == .regular)
        #expect(StickerSize.shared(by: [(618, 618), (408, 408)]) == nil)
        #expect(StickerSize.shared(by: [(618, 400)]) == nil, "not square")
        #expect(StickerSize.shared(by: [(512, 512)]) == nil, "no size's side")
        #expect(StickerSize.shared(by: []) == nil)
        #expect(StickerSize.shared(by: [(618, 618), (700, 700), (618, 618)]) == .large, "no pack takes 700 px")
        #expect(StickerSize.shared(by: [(120, 120)]) == nil)
    }

    @Test("declared wins; a catalog naming none is regular whatever its stickers; images take their shared side")
    func shown() {
        let large: [(width: Int, height: Int)] = [(618, 618), (618, 618)]
        #expect(Self.pack(.folder).gridSize(sides: large) == .large)
        #expect(Self.pack(.files).gridSize(sides: [(300, 300)]) == .small)
        #expect(Self.pack(.folder).gridSize(sides: [(618, 618), (300, 300)]) == .regular)
        #expect(Self.pack(.folder).gridSize(sides: []) == .regular)
        #expect(Self.pack(.catalog).gridSize(sides: large) == .regular)
        #expect(Self.pack(.catalog, declared: .small).gridSize(sides: large) == .small)
        #expect(Self.pack(.folder, declared: .regular).gridSize(sides: large) == .regular)
    }
}
