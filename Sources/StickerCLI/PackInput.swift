import AnimationCodec
import ArgumentParser
import FoundationEssentials
import StickerPack
import StickerPixels
import StickerRenderer

/// Loads what the user named: one pack path, or image files one by one.
enum PackInput {
    static func load(_ paths: [String]) throws -> StickerPack {
        do {
            if paths.count == 1 { return try PackLoader.load(path: paths[0]) }
            return try PackLoader.load(files: paths)
        } catch {
            throw CLIError(error.description)
        }
    }
}
