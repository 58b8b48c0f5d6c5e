import AnimationCodec
import StickerPack
import Synchronization

/// Fits every sticker of a pack, several at a time, and names them for a catalog.
public struct PackFitter: Sendable {
    /// The budget and what may be given up.
    public var options: FitOptions

    /// Creates a pack fitter.
    public init(options: FitOptions = FitOptions()) {
        self.options = options
    }

    /// The size class a pack is fitted to: the option's, else the one it is shown at
    /// (``StickerPack/gridSize(limits:)``: its `grid-size`, else its stickers' common side).
    public func size(for pack: StickerPack) -> StickerSize {
        options.size ?? pack.gridSize(limits: options.limits)
    }

    /// Every sticker of `stickers` fitted to `size`, in order. The names of the stickers made
    /// are made distinct (and safe as folder names); one that could not be made is not
    /// written, so it takes none from them, and is named by its file where one of them has its
    /// name. `labels` overrides accessibility labels by sticker name.
    /// `progress` is called (from any thread, one call at a time) as stickers finish, with the
    /// count finished, the count in all and the sticker that finished (named as its input is,
    /// before any name is made distinct).
    public func fit(
        _ stickers: [Sticker], size: StickerSize, labels: [String: String] = [:],
        progress: @Sendable (_ done: Int, _ total: Int, _ finished: FittedSticker) -> Void = { _, _, _ in }
    ) -> [FittedSticker] {
        // Whole stickers in parallel first: a sticker's own work parallelises less well.
        let outer = max(1, min(options.threads, stickers.count))
        var inner = options
        inner.threads = max(1, options.threads / outer)
        let fitter = StickerFitter(options: inner)
        let done = Mutex(0)
        var fitted = ParallelWork.map(stickers, threads: outer) { sticker in
            let result = fitter.fit(sticker, size: size, label: labels[sticker.name])
            done.withLock { count in
                count += 1
                progress(count, stickers.count, result)
            }
            return result
        }
        var taken = Set<String>()
        for index in fitted.indices where fitted[index].succeeded {
            let name = CatalogWriter.uniqueName(fitted[index].name, taken: &taken)
            if name != fitted[index].name { fitted[index].rename(to: name) }
        }
        // One not made whose name a made one took is named in the report by its file (wave.gif
        // beside the wave written), so the two entries are told apart.
        for index in fitted.indices where !fitted[index].succeeded && taken.contains(fitted[index].name.lowercased()) {
            if let file = stickers[index].files.first?.lastPathComponent { fitted[index].name = file }
        }
        return fitted
    }

    /// The catalog entries of the stickers that were fitted.
    public static func catalogEntries(_ fitted: [FittedSticker]) -> [CatalogWriter.Entry] {
        fitted.compactMap { sticker in
            switch sticker.output {
            case .file(let name, let bytes):
                return CatalogWriter.Entry(
                    name: sticker.name, accessibilityLabel: sticker.accessibilityLabel,
                    content: .file(name: name, bytes: bytes),
                    fitLoss: sticker.loss)
            case .sequence(let frames, let sequence):
                return CatalogWriter.Entry(
                    name: sticker.name, accessibilityLabel: sticker.accessibilityLabel,
                    content: .sequence(
                        frames: frames, duration: sequence.duration,
                        durationType: sequence.durationType, repetitions: sequence.repetitions),
                    fitLoss: sticker.loss)
            case nil:
                return nil
            }
        }
    }
}

extension FittedSticker {
    /// Renames the sticker and its files (which start with its name).
    mutating func rename(to newName: String) {
        let old = name
        func renamed(_ file: String) -> String { file.hasPrefix(old) ? newName + file.dropFirst(old.count) : file }
        switch output {
        case .file(let file, let bytes): output = .file(name: renamed(file), bytes: bytes)
        case .sequence(let frames, let sequence):
            output = .sequence(frames: frames.map { (renamed($0.name), $0.bytes) }, sequence: sequence)
        case nil: break
        }
        name = newName
        // Why: the name cannot name a folder as it is (`a:b`), another sticker takes it, or both.
        let folder = CatalogWriter.folderName(old)
        let reasons = [
            folder != old ? "\(old) cannot name a folder (\(folder) can)" : nil,
            newName != folder ? "another sticker has that name, letter case aside" : nil
        ]
        steps.insert(
            FitStep(
                .rename,
                "named \(newName) in the catalog: " + reasons.compactMap { $0 }.joined(separator: ", and ")),
            at: 0)
    }
}
