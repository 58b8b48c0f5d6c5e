import StickerPack
import StickerPixels
import StickerRenderer
import Testing

/// The browser layout against numbers worked out by hand from docs/BROWSER-MODEL.md:
/// cols = floor((W - 32 + 16) / (item + 16)), gap = (W - 32 - cols * item) / (cols - 1),
/// x = 16 + c * (item + gap), y = 8 + r * (item + 16); compact strip = round(H / 4).
@Suite("Browser layout")
struct LayoutTests {
    @Test("iPhone 15, regular, compact at 3x: 3 columns of 102 pt, a clipped second row")
    func iphone15Compact() {
        let layout = BrowserLayout(
            view: DevicePreset.iphone15.viewSize, style: .compact, size: .regular, scale: 3, stickerCount: 9)
        // 361 pt of content: floor(377 / 118) = 3 columns, gap (361 - 306) / 2 = 27.5 pt.
        #expect(layout.cellSide == 102 && layout.columns == 3 && layout.gap == 27.5)
        // Strip: 393 x round(852 / 4) = 213 pt -> 1179 x 639 px.
        #expect(layout.pixelWidth == 1179 && layout.pixelHeight == 639)
        // Rows start at 8 and 126 pt; the third (244 pt) is below the 213 pt strip.
        #expect(layout.cells.map(\.index) == [0, 1, 2, 3, 4, 5])
        #expect(layout.cells.map(\.x) == [16, 145.5, 275, 16, 145.5, 275])
        #expect(layout.cells.map(\.y) == [8, 8, 8, 126, 126, 126])
        #expect(layout.cells.map(\.isClipped) == [false, false, false, true, true, true])
        // In pixels: x 48, 436.5 -> 437, 825; y 24 and 378; side 306.
        #expect(
            layout.cells.map(\.pixels) == [
                PixelRect(x: 48, y: 24, width: 306, height: 306), PixelRect(x: 437, y: 24, width: 306, height: 306),
                PixelRect(x: 825, y: 24, width: 306, height: 306), PixelRect(x: 48, y: 378, width: 306, height: 306),
                PixelRect(x: 437, y: 378, width: 306, height: 306), PixelRect(x: 825, y: 378, width: 306, height: 306)
            ])
    }

    @Test(
        "Columns per device and size match docs/BROWSER-MODEL.md",
        arguments: [
            (DevicePreset.iphoneSE1, [4, 3, 2], [60.0, 85, 136]),
            (.iphone8, [4, 3, 2], [72.0, 102, 163]),
            (.iphone15, [4, 3, 2], [72.0, 102, 163]),
            (.iphone16ProMax, [4, 3, 2], [72.0, 102, 163]),
            (.ipadMini, [8, 6, 4], [72.0, 102, 163]),
            (.ipadPro129, [11, 8, 5], [72.0, 102, 163])
        ])
    func columns(_ device: DevicePreset, _ expectedColumns: [Int], _ expectedSides: [Double]) {
        for (i, size) in [StickerSize.small, .regular, .large].enumerated() {
            let layout = BrowserLayout(view: device.viewSize, style: .expanded, size: size, scale: 1, stickerCount: 1)
            #expect(layout.columns == expectedColumns[i], "\(device) \(size)")
            #expect(layout.cellSide == expectedSides[i], "\(device) \(size)")
        }
    }

    @Test("iPhone SE (1st gen), small: 4 columns of 60 pt fill the 288 pt exactly, 16 pt apart")
    func se1Small() {
        let layout = BrowserLayout(
            view: DevicePreset.iphoneSE1.viewSize, style: .expanded, size: .small, scale: 2, stickerCount: 5)
        #expect(layout.gap == 16)
        #expect(layout.cells.map(\.x) == [16, 92, 168, 244, 16])
        #expect(layout.cells.map(\.y) == [8, 8, 8, 8, 84])
        #expect(layout.pixelWidth == 640 && layout.pixelHeight == 1136)
        #expect(layout.cells[4].pixels == PixelRect(x: 32, y: 168, width: 120, height: 120))
    }

    @Test("iPad Pro 12.9, large: 5 columns, gap (992 - 815) / 4 = 44.25 pt")
    func ipadLarge() {
        let layout = BrowserLayout(
            view: DevicePreset.ipadPro129.viewSize, style: .expanded, size: .large, scale: 1, stickerCount: 6)
        #expect(layout.columns == 5 && layout.gap == 44.25)
        #expect(layout.cells.map(\.x) == [16, 223.25, 430.5, 637.75, 845, 16])
        // 223.25 -> 223, 430.5 -> 431, 637.75 -> 638.
        #expect(layout.cells.map(\.pixels.x) == [16, 223, 431, 638, 845, 16])
    }

    @Test("Expanded fills the view; --all grows it to the last row plus the bottom inset")
    func expandedAll() {
        let view = DevicePreset.iphone15.viewSize
        let fits = BrowserLayout(
            view: view, style: .expanded, size: .regular, scale: 1, stickerCount: 21, showAll: true)
        // 7 rows: 8 + 7 * 102 + 6 * 16 + 8 = 826 pt < 852: the view's height stays.
        #expect(fits.canvasHeight == 852 && fits.cells.count == 21)
        let tall = BrowserLayout(
            view: view, style: .expanded, size: .regular, scale: 1, stickerCount: 30, showAll: true)
        // 10 rows: 8 + 1020 + 144 + 8 = 1180 pt.
        #expect(tall.canvasHeight == 1180 && tall.cells.count == 30 && tall.cells.last!.isClipped == false)
        let cut = BrowserLayout(view: view, style: .expanded, size: .regular, scale: 1, stickerCount: 30)
        // Without --all: rows at 8, 126, ..., 716 (7th, ends 818) and 834 (8th, clipped at 852).
        #expect(
            cut.canvasHeight == 852 && cut.cells.count == 24 && cut.cells.last!.isClipped && !cut.cells[20].isClipped)
    }

    @Test("Compact height: fractions, points and the keyboard preset")
    func compactHeights() {
        #expect(CompactHeight(parsing: "0.25") == .fraction(0.25))
        #expect(CompactHeight(parsing: "40%") == .fraction(0.4))
        #expect(CompactHeight(parsing: "200pt") == .points(200))
        #expect(CompactHeight(parsing: "200") == .points(200))
        #expect(CompactHeight(parsing: "keyboard") == .keyboard)
        #expect(CompactHeight(parsing: "-1") == nil && CompactHeight(parsing: "abc") == nil)
        #expect(CompactHeight.keyboard.points(inViewHeight: 852) == 324)  // round(852 * 0.38) = 323.76 -> 324
        #expect(CompactHeight.points(2000).points(inViewHeight: 852) == 852)
        let layout = BrowserLayout(
            view: ViewSize(width: 390, height: 844), style: .compact, size: .small, scale: 2, stickerCount: 40,
            compactHeight: .points(100))
        // Rows at 8 and 96 pt (72 + 16 apart): the second starts inside the 100 pt strip and is clipped.
        #expect(layout.pixelHeight == 200 && layout.cells.count == 8 && layout.cells[4].isClipped)
    }

    @Test("Stickers are drawn at pixels / 3 points, shrunk to fit the cell, centred")
    func stickerRects() {
        let layout = BrowserLayout(
            view: DevicePreset.iphone15.viewSize, style: .compact, size: .regular, scale: 3, stickerCount: 1)
        let cell = layout.cells[0]  // 48, 24, 306 px
        // 408 px = 136 pt, shrunk to the 102 pt cell: 306 px, filling it.
        #expect(
            layout.stickerRect(in: cell, stickerWidth: 408, height: 408)
                == PixelRect(x: 48, y: 24, width: 306, height: 306))
        // 300 px = 100 pt fits in 102 pt: drawn at 300 px, centred 3 px in.
        #expect(
            layout.stickerRect(in: cell, stickerWidth: 300, height: 300)
                == PixelRect(x: 51, y: 27, width: 300, height: 300))
        // 618 x 309: width-limited to 102 pt = 306 px, height 153 px, centred vertically (76 px in).
        #expect(
            layout.stickerRect(in: cell, stickerWidth: 618, height: 309)
                == PixelRect(x: 48, y: 100, width: 306, height: 153))
    }

    @Test("View sizes parse as WxH points")
    func viewSizes() {
        #expect(ViewSize(parsing: "390x844") == ViewSize(width: 390, height: 844))
        #expect(ViewSize(parsing: "0x844") == nil && ViewSize(parsing: "390") == nil && ViewSize(parsing: "axb") == nil)
    }
}
