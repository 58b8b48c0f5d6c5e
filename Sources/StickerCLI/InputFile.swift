import AnimationCodec
import Foundation

/// Reads an input file and its structure, turning every failure into a ``CLIError``.
enum InputFile {
    static func decoder(for path: String, limits: DecodingLimits = .default) throws -> AnimationDecoder {
        guard let data = FileManager.default.contents(atPath: path) else {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
                throw CLIError(isDirectory.boolValue ? "\(path): is a directory, not an image file" : "\(path): cannot be read")
            }
            throw CLIError("\(path): no such file")
        }
        do {
            return try AnimationDecoder(bytes: [UInt8](data), limits: limits)
        } catch {
            throw CLIError(path: path, error)
        }
    }
}
