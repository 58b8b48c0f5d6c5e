import AnimationCodec
import FoundationEssentials
import StickerPack

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
            throw CLIError(error.description)
        }
        do {
            return try AnimationDecoder(bytes: bytes, limits: limits)
        } catch {
            throw CLIError(path: path, error)
        }
    }
}
