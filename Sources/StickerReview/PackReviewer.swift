import AnimationCodec
import FoundationEssentials
import StickerFit
import StickerPack
import StickerPixels
import StickerRenderer
import StickerTranscript
import Synchronization

/// A pack to review and the folder its page and images go to.
public struct ReviewTarget: Sendable {
    /// The pack.
    public var pack: StickerPack
    /// The path it was read from, as the user gave it.
    public var path: String
    /// The folder `index.html` and `images/` are written to (created if missing).
    public var folder: URL
    /// Why the pack could not be read, when it could not (`pack` is then empty): the page says
    /// so as the pack's one error, and the other packs are reviewed all the same.
    public var loadError: String?

    /// Creates a target.
    public init(pack: StickerPack, path: String, folder: URL, loadError: String? = nil) {
        self.pack = pack
        self.path = path
        self.folder = folder
        self.loadError = loadError
    }
}

/// Why a review could not be written.
public struct ReviewError: Error, Sendable, CustomStringConvertible {
    /// What failed, with the path.
    public var description: String
}

/// Reviews packs: validates them, draws the browser, the conversation and every sticker, and
/// runs the `fit` dry run, as independent jobs spread over ``ReviewOptions/threads`` (the
/// jobs of every pack share the threads, longest first), writing each image once as it is made.
public struct PackReviewer: Sendable {
    /// How to review.
    public var options: ReviewOptions

    /// A reviewer with `options`.
    public init(options: ReviewOptions = ReviewOptions()) {
        self.options = options
    }

    /// The longest stretch the browser and the conversation are animated for, seconds.
    public static let longestAnimation = 6.0

    /// The file the photo background is written to in each page's `images/`.
    static let photoFile = "photo.jpg"

    /// One piece of work: a pack's index and what to make.
    private struct Job: Sendable {
        enum Kind: Sendable {
            case validate, photo
            case browser(BrowserStyle, Appearance)
            case transcript(Appearance)
            case sticker(Int)
            /// A sticker fitted (dry run) at the size its pack is fitted at.
            case fit(Int, StickerSize)
        }
        var target: Int
        var kind: Kind
    }

    private enum Outcome: Sendable {
        case report(ValidationReport)
        case browser(ReviewShot)
        case transcript(ReviewShot)
        case card(Int, StickerCard)
        case fit(Int, FitReport.Entry)
        case written
    }

    /// Every pack of `targets` reviewed, in order; `progress` is told (jobs done, jobs in all)
    /// from any thread, one call at a time.
    public func review(
        _ targets: [ReviewTarget],
        progress: @Sendable (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) throws(ReviewError) -> [PackReview] {
        for target in targets {
            do {
                try FileManager.default.createDirectory(
                    at: target.folder.appendingPathComponent("images"), withIntermediateDirectories: true)
            } catch {
                throw ReviewError(description: "\(target.folder.path): cannot be created (\(errorReason(error)))")
            }
        }
        let photoBytes = options.photo.map(Self.photoJPEG) ?? SyntheticPhoto.jpeg()
        var jobs: [Job] = []
        // Longest first: the fit dry runs, then the drawings of whole screens, then the stickers.
        for (index, target) in targets.enumerated() where options.dryRunFit {
            let size = PackFitter(options: fitOptions).size(for: target.pack)
            jobs += target.pack.stickers.indices.map { Job(target: index, kind: .fit($0, size)) }
        }
        // A pack with no sticker (one that could not be read) has no browser or conversation.
        for (index, target) in targets.enumerated() where !target.pack.stickers.isEmpty {
            for style in [BrowserStyle.expanded, .compact] {
                jobs += Appearance.allCases.map { Job(target: index, kind: .browser(style, $0)) }
            }
            jobs += Appearance.allCases.map { Job(target: index, kind: .transcript($0)) }
        }
        for (index, target) in targets.enumerated() {
            jobs += target.pack.stickers.indices.map { Job(target: index, kind: .sticker($0)) }
            jobs += [Job(target: index, kind: .validate), Job(target: index, kind: .photo)]
        }
        let done = Mutex(0)
        let total = jobs.count
        let outcomes = ParallelWork.map(jobs, threads: max(1, options.threads)) { job -> Result<Outcome, ReviewError> in
            let result: Result<Outcome, ReviewError>
            do throws(ReviewError) {
                result = .success(try run(job.kind, target: targets[job.target], photo: photoBytes))
            } catch {
                result = .failure(error)
            }
            done.withLock { count in
                count += 1
                progress(count, total)
            }
            return result
        }
        var reviews = targets.map { target in
            PackReview(
                name: target.pack.name, path: target.path, folder: Self.folder(of: target),
                report: ValidationReport(
                    pack: target.pack.name, gridSize: "", gridSizeDeclared: false, stickers: [], findings: []),
                browser: [], transcript: [],
                cards: target.pack.stickers.map { StickerCard($0, in: target.pack) },
                fitBudget: (options.maxBytes, options.fitLevel))
        }
        for (job, outcome) in zip(jobs, outcomes) {
            switch try outcome.get() {
            case .report(let report): reviews[job.target].report = report
            case .browser(let shot): reviews[job.target].browser.append(shot)
            case .transcript(let shot): reviews[job.target].transcript.append(shot)
            case .card(let index, let card):
                let fit = reviews[job.target].cards[index].fit
                reviews[job.target].cards[index] = card
                reviews[job.target].cards[index].fit = fit
            case .fit(let index, let entry): reviews[job.target].cards[index].fit = entry
            case .written: break
            }
        }
        // Expanded before compact in the work list (it takes longer); compact first on the page.
        for index in reviews.indices {
            reviews[index].browser.sort { Self.pageOrder($0.title) < Self.pageOrder($1.title) }
        }
        return reviews
    }

    /// The folder `target`'s files are in: the pack's, else the path's (a folder), else the
    /// path's folder (a file), links resolved.
    static func folder(of target: ReviewTarget) -> String {
        if let folder = target.pack.folder { return folder.path }
        let url = URL(fileURLWithPath: target.path).standardizedFileURL.resolvingSymlinksInPath()
        var isDirectory = false
        let isFolder = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory
        return isFolder ? url.path : url.deletingLastPathComponent().path
    }

    /// The user's photo as a JPEG at most 640 px on its longer side (a tile is 120 CSS pixels);
    /// any transparency comes out over black, as in a PPM.
    static func photoJPEG(_ photo: RGBAImage) -> [UInt8] {
        let factor = min(1, 640 / Double(max(photo.width, photo.height)))
        let width = max(1, Int((Double(photo.width) * factor).rounded()))
        let height = max(1, Int((Double(photo.height) * factor).rounded()))
        let scaled = factor < 1 ? Resampler().resize(photo, width: width, height: height) : photo
        return JPEGEncoder.encode(opaque: scaled.pixels, width: width, height: height, quality: 90)
            ?? SnapshotEncoder.png(scaled)
    }

    /// Compact before expanded, light before dark.
    private static func pageOrder(_ title: String) -> Int {
        (title.hasPrefix("compact") ? 0 : 2) + (title.hasSuffix("light") ? 0 : 1)
    }

    private func run(_ kind: Job.Kind, target: ReviewTarget, photo: [UInt8]) throws(ReviewError) -> Outcome {
        let pack = target.pack
        switch kind {
        case .validate:
            if let loadError = target.loadError { return .report(.unreadable(pack: pack.name, reason: loadError)) }
            return .report(PackValidator(limits: options.limits).validate(pack))
        case .photo:
            try write(photo, named: Self.photoFile, in: target)
            return .written
        case .browser(let style, let appearance):
            return .browser(try drawBrowser(pack, style: style, appearance: appearance, target: target))
        case .transcript(let appearance):
            return .transcript(try drawTranscript(pack, appearance: appearance, target: target))
        case .sticker(let index):
            return .card(index, try drawSticker(pack.stickers[index], index: index, target: target))
        case .fit(let index, let size):
            let fitted = StickerFitter(options: fitOptions).fit(pack.stickers[index], size: size)
            return .fit(index, FitReport.Entry(fitted))
        }
    }

    /// How the review's dry runs fit a sticker: `stickers fit`'s defaults at the review's
    /// budget and level, one thread each (the stickers run in parallel).
    private var fitOptions: FitOptions {
        var limits = options.limits
        limits.maxTotalDecodedBytes = min(limits.maxTotalDecodedBytes, FitOptions.maxDecodedBytes)
        var fitOptions = FitOptions(
            maxBytes: options.maxBytes, allowSmallerSize: false, allowLossy: true, limits: limits)
        fitOptions.compressionLevel = options.fitLevel
        fitOptions.threads = 1
        return fitOptions
    }

    private func drawBrowser(_ pack: StickerPack, style: BrowserStyle, appearance: Appearance, target: ReviewTarget)
        throws(ReviewError) -> ReviewShot
    {
        var render = RenderOptions()
        render.view = options.view
        render.style = style
        render.scale = options.scale
        render.background = Background(named: appearance.rawValue)!
        render.limits = options.limits
        render.threads = 1
        let renderer = BrowserRenderer(pack: pack, options: render)
        let title = "\(style), \(appearance)"
        let file = "browser-\(style)-\(appearance).png"
        let loop = min(renderer.longestLoop, Self.longestAnimation)
        let bytes: [UInt8]
        let still: [UInt8]?
        do {
            bytes = loop > 0 ? try SnapshotEncoder.apng(renderer, duration: loop) : try renderer.snapshotPNG(at: 0)
            still = loop > 0 ? try renderer.snapshotPNG(at: 0) : nil
        } catch {
            return ReviewShot(title: title, image: nil, problem: "\(error)")
        }
        try write(bytes, named: file, in: target)
        let stillFile = try writeStill(still, of: file, in: target)
        let placeholders = renderer.problems.map(\.sticker)
        return ReviewShot(
            title: title,
            image: ReviewImage(
                file: file, width: renderer.layout.pixelWidth, height: renderer.layout.pixelHeight,
                isAnimated: loop > 0,
                still: stillFile),
            problem: Self.placeholderNote(placeholders))
    }

    /// The file an animation's still is written to: `browser-compact-light.png` ->
    /// `browser-compact-light-still.png`.
    static func stillName(_ file: String) -> String {
        (file.hasSuffix(".png") ? String(file.dropLast(4)) : file) + "-still.png"
    }

    /// What a drawing says of the stickers it shows as placeholders; nil when none.
    static func placeholderNote(_ stickers: [String]) -> String? {
        stickers.isEmpty ? nil : "drawn as placeholders (unreadable): " + stickers.joined(separator: ", ")
    }

    private func drawTranscript(_ pack: StickerPack, appearance: Appearance, target: ReviewTarget) throws(ReviewError)
        -> ReviewShot
    {
        var transcript = TranscriptOptions()
        transcript.appearance = appearance
        transcript.view = options.view
        transcript.scale = options.scale
        transcript.fonts = options.fonts
        transcript.limits = options.limits
        let title = "\(appearance)"
        let file = "conversation-\(appearance).png"
        let renderer: TranscriptRenderer
        let bytes: [UInt8]
        let still: [UInt8]?
        let loop: Double
        do {
            renderer = try TranscriptRenderer(
                Conversation.default(for: pack), pack: pack, options: transcript)
            loop = min(renderer.longestLoop, Self.longestAnimation)
            bytes = loop > 0 ? try renderer.apng(duration: loop) : try renderer.snapshotPNG(at: 0)
            still = loop > 0 ? try renderer.snapshotPNG(at: 0) : nil
        } catch {
            return ReviewShot(title: title, image: nil, problem: "\(error)")
        }
        try write(bytes, named: file, in: target)
        let stillFile = try writeStill(still, of: file, in: target)
        return ReviewShot(
            title: title,
            image: ReviewImage(
                file: file, width: renderer.pixelWidth, height: renderer.pixelHeight, isAnimated: loop > 0,
                still: stillFile),
            problem: Self.placeholderNote(renderer.problems.map(\.sticker)))
    }

    private func drawSticker(_ sticker: Sticker, index: Int, target: ReviewTarget) throws(ReviewError) -> StickerCard {
        var card = StickerCard(sticker, in: target.pack)
        let preview: StickerPreview.Encoded
        let strip: (image: RGBAImage, frames: [ContactSheets.FilmstripFrame])
        do {
            let animation = try StickerAnimation.load(sticker, limits: options.limits, vectorSide: options.previewSide)
            preview = try StickerPreview.encode(animation, side: options.previewSide)
            strip = try ContactSheets.filmstrip(
                animation, columns: 8, cell: options.filmstripCell, maxPixels: options.limits.maxPixels)
        } catch {
            card.problem = "\(error)"
            return card
        }
        let previewFile = "sticker-\(index + 1)-preview.png"
        let stripFile = "sticker-\(index + 1)-frames.png"
        try write(preview.bytes, named: previewFile, in: target)
        try write(SnapshotEncoder.png(strip.image), named: stripFile, in: target)
        let stillFile = try writeStill(preview.still, of: previewFile, in: target)
        card.preview = ReviewImage(
            file: previewFile, width: preview.width, height: preview.height, isAnimated: strip.frames.count > 1,
            still: stillFile)
        card.filmstrip = ReviewImage(
            file: stripFile, width: strip.image.width, height: strip.image.height, isAnimated: false)
        card.frames = strip.frames
        return card
    }

    /// Writes an animation's still, when there is one, beside `file`; its name.
    private func writeStill(_ bytes: [UInt8]?, of file: String, in target: ReviewTarget) throws(ReviewError)
        -> String?
    {
        guard let bytes else { return nil }
        try write(bytes, named: Self.stillName(file), in: target)
        return Self.stillName(file)
    }

    private func write(_ bytes: [UInt8], named name: String, in target: ReviewTarget) throws(ReviewError) {
        let url = target.folder.appendingPathComponent("images").appendingPathComponent(name)
        do {
            try Data(bytes).write(to: url)
        } catch {
            throw ReviewError(description: "\(url.path): cannot be written (\(errorReason(error)))")
        }
    }
}
