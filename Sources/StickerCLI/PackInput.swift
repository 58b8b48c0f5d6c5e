import AnimationCodec
import ArgumentParser
import FoundationEssentials
import StickerPack
import StickerPixels
import StickerRenderer

/// Loads what the user named: one pack path, or image files one by one.
enum PackInput {
    /// The pack of `paths`; `outputs` are what the command writes, left out of a folder of
    /// images that holds them (``PackLoader/load(path:outputs:)``).
    static func load(_ paths: [String], outputs: [URL] = []) throws -> StickerPack {
        // A pack is named alone: a folder among files is a usage error, not an unreadable pack.
        if paths.count > 1, let folder = paths.first(where: isFolder) {
            throw ValidationError(
                "\(folder) is a folder: name one pack alone, or image files one by one.")
        }
        do {
            if paths.count == 1 { return try PackLoader.load(path: paths[0], outputs: outputs) }
            return try PackLoader.load(files: paths)
        } catch {
            throw CLIError(error.description)
        }
    }

    private static func isFolder(_ path: String) -> Bool {
        var isDirectory = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory
    }

    /// ``load(_:)``, with what the loader left out or read in its own way (a file that is no
    /// image, a folder the catalog does not list) named as warnings on stderr: a command that
    /// draws a pack says what is missing from the drawing.
    static func loadWarning(_ paths: [String]) throws -> StickerPack {
        let pack = try load(paths)
        for warning in pack.warnings { warn(warning.description) }
        return pack
    }
}
