import AnimationCodec
import Synchronization

/// What the decoder had to work around in a sticker's input (data ending early, an invalid LZW
/// code, corrupt JPEG data), each message once: the file's own warnings when it is read, its
/// frames' as they are decoded. Shared by every copy of the input it was made for, so the
/// frames decoded anywhere in a fit add to it.
final class InputDamage: Sendable {
    private let warnings = Mutex<[CodecWarning]>([])

    /// Notes `warnings`, skipping messages already noted.
    func note(_ warnings: [CodecWarning]) {
        guard !warnings.isEmpty else { return }
        self.warnings.withLock { noted in
            for warning in warnings where !noted.contains(where: { $0.message == warning.message }) {
                noted.append(warning)
            }
        }
    }

    /// The damage noted so far, in the order first seen.
    var noted: [String] {
        warnings.withLock { $0.filter { $0.kind != .notDrawn && $0.kind != .soundLeftOut }.map(\.message) }
    }

    /// What the input holds that the renderer left out (``CodecWarning/Kind/notDrawn``), in the
    /// order first seen: not damage, but missing from every frame all the same.
    var notDrawn: [String] { warnings.withLock { $0.filter { $0.kind == .notDrawn }.map(\.message) } }

    /// What the input plays that no sticker can (``CodecWarning/Kind/soundLeftOut``): not a
    /// loss of the picture, but left out all the same.
    var soundLeftOut: String? { warnings.withLock { $0.first { $0.kind == .soundLeftOut }?.message } }
}
