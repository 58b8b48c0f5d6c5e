import Foundation
import StickerPack
import Testing

/// How a name in a script or an option picks out one sticker of a pack.
@Suite("Sticker lookup")
struct StickerLookupTests {
    static func file(_ path: String) -> Sticker {
        let url = URL(fileURLWithPath: path)
        return Sticker(name: url.deletingPathExtension().lastPathComponent, source: .file(url))
    }

    @Test("a shared name is ambiguous; its file's name picks one; letter case counts only when it picks one")
    func folder() {
        let pack = StickerPack(
            name: "p", origin: .folder,
            stickers: [Self.file("/p/a.gif"), Self.file("/p/a.png"), Self.file("/p/Blob.png"), Self.file("/p/blob.gif")]
        )
        #expect(pack.lookup("a") == .ambiguous([0, 1]))
        #expect(pack.lookup("a.png") == .sticker(1))
        #expect(pack.lookup("A.GIF") == .sticker(0))
        #expect(pack.lookup("Blob") == .sticker(2), "the name as written first")
        #expect(pack.lookup("BLOB") == .ambiguous([2, 3]))
        #expect(pack.lookup("c") == .none)
        #expect((0..<4).map(pack.reference(of:)) == ["a.gif", "a.png", "Blob", "blob"])
    }

    @Test("files of one name from two folders are told apart by their paths; a catalog's by their folders")
    func pathsAndCatalogs() {
        let files = StickerPack(name: "p", origin: .files, stickers: [Self.file("/x/a.png"), Self.file("/y/a.png")])
        #expect((0..<2).map(files.reference(of:)) == ["/x/a.png", "/y/a.png"])
        #expect(files.lookup("a.png") == .ambiguous([0, 1]))
        #expect(files.lookup("/y/a.png") == .sticker(1))

        let sequence = StickerSequence(frames: [URL(fileURLWithPath: "/c/S.stickerpack/a.stickersequence/1.png")])
        let catalog = StickerPack(
            name: "S", origin: .catalog,
            stickers: [
                Self.file("/c/S.stickerpack/a.sticker/a.png"), Sticker(name: "a", source: .sequence(sequence))
            ])
        #expect((0..<2).map(catalog.reference(of:)) == ["a.sticker", "a.stickersequence"])
        #expect(catalog.lookup("a.stickersequence") == .sticker(1))
        #expect(catalog.lookup("a.png") == .sticker(0), "a catalog sticker's own file's name")
    }

    @Test("a file's name that is another sticker's name is not the word for it: the path is")
    func fileNameThatIsAName() {
        // a.png.gif is named a.png: the word a.png picks it, so a.png's own file is named by its path.
        let pack = StickerPack(
            name: "p", origin: .folder,
            stickers: [Self.file("/p/a.gif"), Self.file("/p/a.png"), Self.file("/p/a.png.gif")])
        let references = (0..<3).map(pack.reference(of:))
        #expect(references == ["a.gif", "/p/a.png", "a.png"])
        #expect(references.indices.allSatisfy { pack.lookup(references[$0]) == .sticker($0) })
    }
}
