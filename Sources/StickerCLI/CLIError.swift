import AnimationCodec

/// A failure the CLI reports as one line on stderr, with a non-zero exit.
public struct CLIError: Error, CustomStringConvertible {
    /// The message, naming the file and the problem.
    public var description: String

    /// Creates an error with its message.
    public init(_ description: String) { self.description = description }

    /// Wraps a codec error with the file it came from.
    init(path: String, _ error: CodecError) { description = "\(path): \(error)" }
}
