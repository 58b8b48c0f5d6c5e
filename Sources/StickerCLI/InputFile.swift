import AnimationCodec
import FoundationEssentials
import StickerPack
import StickerPixels
import StickerRenderer

/// Reads an input file (at most `limits.maxFileBytes`, checked before reading) and its
/// structure, turning every failure into a ``CLIError``.
enum InputFile {
    static func decoder(for path: String, limits: DecodingLimits = .default) throws -> AnimationDecoder {
        var isDirectory = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory {
            throw CLIError("\(path): is a directory, not an image file")
        }
        let bytes: [UInt8]
        do {
            bytes = try BoundedFile.read(path, maxBytes: limits.maxFileBytes)
        } catch .missingFile {
            throw CLIError("\(path): no such file")
        } catch {
            // A FIFO, a device or a socket: said so, as validate says it.
            if case .unreadable = error, let kind = BoundedFile.notRegularFile(path) {
                throw CLIError("\(path): is \(kind), not an image file")
            }
            throw CLIError(error.description)
        }
        do {
            return try AnimationDecoder(bytes: bytes, limits: limits)
        } catch {
            throw CLIError(path: path, error)
        }
    }

    /// Refuses an output path that is one of the files read (`-o` naming the sticker drawn
    /// would replace the art with the drawing).
    static func checkOutput(_ output: String, isNoneOf inputs: [URL]) throws {
        if let input = inputs.first(where: { OutputFolder.path(output, liesWithin: $0.path) }) {
            throw CLIError("\(output): is \(input.path), an input, so it is not replaced; name another output file")
        }
    }

    /// The first frame of the image file at `path` (a background, a photo).
    static func firstFrame(_ path: String, limits: DecodingLimits) throws -> RGBAImage {
        let decoder = try decoder(for: path, limits: limits)
        do {
            return RGBAImage(try decoder.frame(at: 0))
        } catch {
            throw CLIError(path: path, error)
        }
    }
}
