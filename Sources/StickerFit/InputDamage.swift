import AnimationCodec
import Synchronization

/// What the decoder had to work around in a sticker's input (data ending early, an invalid LZW
/// code, corrupt JPEG data), each message once: the file's own warnings when it is read, its
/// frames' as they are decoded. Shared by every copy of the input it was made for, so the
/// frames decoded anywhere in a fit add to it.
final class InputDamage: Sendable {
    private let messages = Mutex<[String]>([])

    /// Notes `warnings`, skipping messages already noted.
    func note(_ warnings: [CodecWarning]) {
        guard !warnings.isEmpty else { return }
        messages.withLock { noted in
            for warning in warnings where !noted.contains(warning.message) { noted.append(warning.message) }
        }
    }

    /// The messages noted so far, in the order first seen.
    var noted: [String] { messages.withLock { $0 } }
}
