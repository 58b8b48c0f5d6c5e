import FoundationEssentials

/// One sticker of a pack: where its image comes from and what VoiceOver says about it.
public struct Sticker: Sendable, Hashable {
    /// The sticker's name: the file name without extension, or the `.sticker` /
    /// `.stickersequence` folder name without extension.
    public var name: String
    /// The VoiceOver description (`accessibility-label`), if the catalog gives one. Messages
    /// uses the name when it is absent.
    public var accessibilityLabel: String?
    /// The image file, or the frames of a sticker sequence.
    public var source: StickerSource
    /// What `stickers fit` gave up to make it, when a catalog it wrote says so.
    public var fitLoss: FitLoss?

    /// Creates a sticker.
    public init(name: String, accessibilityLabel: String? = nil, source: StickerSource, fitLoss: FitLoss? = nil) {
        self.name = name
        self.accessibilityLabel = accessibilityLabel
        self.source = source
        self.fitLoss = fitLoss
    }

    /// The description Messages shows: the label, or the name when there is none.
    public var localizedDescription: String { accessibilityLabel ?? name }

    /// What VoiceOver reads once the sticker is in a catalog `stickers fit` writes: its label,
    /// else the label made from its name (``VoiceOverLabel/fromFileName(_:)``).
    public var spokenLabel: String { accessibilityLabel ?? VoiceOverLabel.fromFileName(name) }

    /// Every file the sticker reads, in order.
    public var files: [URL] {
        switch source {
        case .file(let url): return [url]
        case .sequence(let sequence): return sequence.frames
        }
    }
}

/// Where a sticker's pixels come from.
public enum StickerSource: Sendable, Hashable {
    /// One image file (PNG, APNG, GIF, JPEG, or a format `stickers fit` converts: WebP, WebM,
    /// Lottie).
    case file(URL)
    /// A `.stickersequence`: still images played in order.
    case sequence(StickerSequence)
}

/// A `.stickersequence`: frames played in array order at a frame rate or in a fixed cycle time.
public struct StickerSequence: Sendable, Hashable {
    /// How the catalog's `duration` is read.
    public enum DurationType: String, Sendable, Hashable {
        /// `duration` is frames per second.
        case fps
        /// `duration` is the seconds one cycle of all frames takes.
        case fixed
    }

    /// The frame images, in play order.
    public var frames: [URL]
    /// `duration`: frames per second or seconds per cycle, per ``durationType``.
    public var duration: Double
    /// How ``duration`` is read.
    public var durationType: DurationType
    /// Plays in addition to the first; 0 means the sequence loops forever.
    public var repetitions: Int

    /// Creates a sequence; the defaults are Apple's sample values (15 fps, forever).
    public init(frames: [URL], duration: Double = 15, durationType: DurationType = .fps, repetitions: Int = 0) {
        self.frames = frames
        self.duration = duration
        self.durationType = durationType
        self.repetitions = repetitions
    }

    /// How long each frame shows, in seconds (0 when the timing is unusable).
    public var frameSeconds: Double {
        guard duration.isFinite, duration > 0, !frames.isEmpty else { return 0 }
        switch durationType {
        case .fps: return 1 / duration
        case .fixed: return duration / Double(frames.count)
        }
    }

    /// How many times a player shows the whole sequence; 0 means forever.
    public var plays: Int { repetitions <= 0 ? 0 : repetitions + 1 }
}
