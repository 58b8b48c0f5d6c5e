import AnimationCodec
import FoundationEssentials

/// Checks a pack against Apple's sticker rules and the animation lints (see ``StickerRule``).
public struct PackValidator: Sendable {
    /// The bounds checked.
    public var thresholds: ValidationThresholds
    /// The codec limits files are decoded under.
    public var limits: DecodingLimits

    /// Creates a validator.
    public init(thresholds: ValidationThresholds = .default, limits: DecodingLimits = .default) {
        self.thresholds = thresholds
        self.limits = limits
    }

    /// Validates every sticker of `pack`, decoding every frame of each.
    public func validate(_ pack: StickerPack) -> ValidationReport {
        var findings = pack.warnings.map {
            ValidationFinding(
                .warning, sticker: nil, rule: $0.kind == .leftOut ? .leftOut : .catalog,
                message: $0.description(from: pack.folder))
        }
        var summaries: [StickerSummary] = []
        var stickerFindings: [ValidationFinding] = []
        let vectorSide = vectorSide(of: pack)
        for (index, sticker) in pack.stickers.enumerated() {
            var checker = StickerChecker(
                sticker: sticker, pack: pack, thresholds: thresholds, limits: limits, vectorSide: vectorSide)
            checker.run()
            summaries.append(checker.summary)
            stickerFindings += checker.findings.map { finding in
                var finding = finding
                finding.stickerIndex = index
                return finding
            }
        }
        // A vector is drawn at the pack's size, whatever its document's.
        let sizes = Set(Self.rasterSides(summaries).map { [$0.width, $0.height] })
        if sizes.count > 1 {
            // Smallest first: 9x9 before 100x100, which sorting the text would put first.
            let listed = sizes.sorted { $0.lexicographicallyPrecedes($1) }.map { "\($0[0])x\($0[1])" }
                .joined(separator: ", ")
            findings.append(
                ValidationFinding(
                    .warning, sticker: nil, rule: .mixedSizes,
                    message:
                        "stickers come in \(sizes.count) sizes (\(listed)); a pack shows every sticker at one size",
                    measured: listed))
        }
        // A catalog holds one sticker of a name (its folder); names differing only in case
        // collide on the case-insensitive file systems Xcode usually runs on, and `a:b` and
        // `a-b` make the same folder.
        let byName = Dictionary(grouping: pack.stickers) { CatalogWriter.folderName($0.name).lowercased() }
        for (_, same) in byName.sorted(by: { $0.key < $1.key }) where same.count > 1 {
            // A catalog's stickers are named by their folders (Star.sticker/star.png).
            let files = same.flatMap(\.files).map {
                pack.origin == .catalog
                    ? $0.deletingLastPathComponent().lastPathComponent + "/" + $0.lastPathComponent
                    : $0.lastPathComponent
            }
            findings.append(
                ValidationFinding(
                    .warning, sticker: same[0].name, rule: .duplicateName,
                    message:
                        "\(same.count) stickers share the name \(same[0].name) (\(files.joined(separator: ", "))); a catalog holds one sticker of a name, so rename all but one",
                    measured: "\(same.count) stickers"))
        }
        if let catalog = pack.catalogFolder {
            for problem in MessagesIconSet.problems(inCatalog: catalog, limits: limits) {
                findings.append(ValidationFinding(.error, sticker: nil, rule: .iconSet, message: problem))
            }
        }
        if let bundle = pack.projectBundle {
            do {
                findings += XcodeProjectValidator.findings(for: try XcodeProject(bundle: bundle))
            } catch {
                findings.append(ValidationFinding(.error, sticker: nil, rule: .project, message: error.description))
            }
        }
        return ValidationReport(
            pack: pack.name, gridSize: pack.gridSize(sides: Self.rasterSides(summaries)).rawValue,
            gridSizeDeclared: pack.declaredGridSize != nil,
            stickers: summaries, findings: findings + stickerFindings)
    }

    /// The side `stickers fit` draws the pack's vector stickers (Lottie) at, its grid size
    /// (``StickerPack/gridSize(limits:)``), which they are checked at too: their documents'
    /// own sizes are only coordinate spaces. Nil, and nothing read, when the pack has none.
    private func vectorSide(of pack: StickerPack) -> Int? {
        let hasVector = pack.stickers.contains { sticker in
            guard case .file = sticker.source, let file = sticker.files.first else { return false }
            return BoundedFile.sniffedFormat(file.path)?.isVector ?? false
        }
        return hasVector ? pack.gridSize(limits: limits).pixels : nil
    }

    /// The pixel sizes of the summarised raster stickers (a vector one is drawn at any size).
    private static func rasterSides(_ summaries: [StickerSummary]) -> [(width: Int, height: Int)] {
        summaries.compactMap { summary in
            let isVector = summary.format.flatMap(ImageFormat.init(rawValue:))?.isVector ?? false
            guard let width = summary.width, let height = summary.height, !isVector else { return nil }
            return (width, height)
        }
    }
}

/// The checks of one sticker, in the order a file is read: bytes, structure, pixels.
private struct StickerChecker {
    let sticker: Sticker
    let pack: StickerPack
    let thresholds: ValidationThresholds
    let limits: DecodingLimits
    /// The side a vector file is drawn at (the pack's size).
    let vectorSide: Int?
    var findings: [ValidationFinding] = []
    var summary: StickerSummary

    init(
        sticker: Sticker, pack: StickerPack, thresholds: ValidationThresholds, limits: DecodingLimits,
        vectorSide: Int?
    ) {
        self.sticker = sticker
        self.pack = pack
        self.thresholds = thresholds
        self.limits = limits
        self.vectorSide = vectorSide
        let sizes = sticker.files.map { fileSize($0) }
        summary = StickerSummary(name: sticker.name, files: sticker.files.map(\.path), fileBytes: sizes.reduce(0, +))
    }

    mutating func run() {
        checkDescription()
        checkLabel()
        checkFitLoss()
        var readings: [FileReading] = []
        for file in sticker.files {
            readings.append(checkFileBytes(file))
        }
        guard !readings.contains(.unreadable) else { return }
        defer { if readings.contains(.convertible) { withdrawConversionAdvice() } }
        let animation: StickerAnimation
        do {
            animation = try StickerAnimation.load(sticker, limits: limits, vectorSide: vectorSide)
        } catch {
            report(error)
            return
        }
        summary.format = sticker.files.count > 1 || isSequence ? "sequence" : animation.fileInfos[0].format.rawValue
        summary.width = animation.width
        summary.height = animation.height
        summary.frameCount = animation.frameCount
        let delays = animation.delays.map(\.milliseconds)
        summary.loopMilliseconds = loopMilliseconds(delays)
        summary.shownLoopMilliseconds = loopMilliseconds(shownMilliseconds(delays, of: animation))
        summary.plays = animation.plays
        summary.decodedBytes = animation.decodedBytes
        checkDimensions(animation)
        checkLostAnimation(animation)
        checkTiming(animation)
        checkPixels(animation)
    }

    /// What checking a file's bytes found: an image Messages takes, a file of another format that
    /// `stickers fit` converts (its format is an error; what it holds is checked like an
    /// image's, so the report says what the made sticker will carry), or a file that cannot be
    /// read further.
    private enum FileReading: Equatable {
        case image, convertible, unreadable
    }

    /// The format error's advice that `stickers fit` converts the file, when a frame of it then
    /// did not decode: fit cannot convert it either.
    private mutating func withdrawConversionAdvice() {
        guard findings.contains(where: { $0.rule == .decodes }),
            let index = findings.firstIndex(where: { $0.rule == .format && $0.message.hasSuffix(Self.convertsIt) })
        else { return }
        findings[index].message =
            String(findings[index].message.dropLast(Self.convertsIt.count))
            + "; `stickers fit` cannot convert it either: a frame does not decode"
    }

    /// The end of a format error whose file `stickers fit` converts.
    private static let convertsIt = "; `stickers fit` converts it"

    private var isSequence: Bool {
        if case .sequence = sticker.source { return true }
        return false
    }

    private mutating func add(
        _ severity: ValidationFinding.Severity, _ rule: StickerRule, _ message: String,
        measured: String? = nil, limit: String? = nil
    ) {
        findings.append(
            ValidationFinding(
                severity, sticker: sticker.name, rule: rule, message: message, measured: measured, limit: limit))
    }

    private mutating func checkDescription() {
        let text = sticker.localizedDescription
        let length = text.utf16.count
        if length > thresholds.maxDescriptionLength {
            add(
                .error, .descriptionLength,
                "description is \(length) characters; Messages allows \(thresholds.maxDescriptionLength)",
                measured: "\(length) characters", limit: "\(thresholds.maxDescriptionLength) characters")
        }
    }

    /// What VoiceOver reads names a file rather than the picture.
    private mutating func checkLabel() {
        let spoken = pack.origin == .catalog ? sticker.localizedDescription : sticker.spokenLabel
        summary.label = spoken
        guard let reason = VoiceOverLabel.fileNameLikeness(spoken) else { return }
        let source =
            sticker.accessibilityLabel != nil
            ? "its label"
            : pack.origin == .catalog ? "its name: the catalog gives no label" : "made from its file's name"
        add(
            .warning, .voiceOverLabel,
            "VoiceOver reads \"\(spoken)\" (\(source)), which names a file rather than what the sticker shows: \(reason); give it a label that describes it (`stickers fit --label '\(sticker.name)=TEXT'`)",
            measured: spoken)
    }

    /// A catalog `stickers fit` wrote says what it gave up: under the line a viewer notices,
    /// that is a warning, so the loss is never silent.
    private mutating func checkFitLoss() {
        guard let loss = sticker.fitLoss, loss.isVisible else { return }
        add(
            .warning, .fitLoss, loss.warning, measured: loss.description,
            limit: loss.isUnderWarningLine
                ? String(cFormat: "%.0f dB, SSIM %.2f", FitLoss.warningPSNR, FitLoss.warningSSIM)
                : "nothing lost that the figures do not measure")
    }

    /// Size and format of one file, and whether what it holds can be checked further.
    private mutating func checkFileBytes(_ file: URL) -> FileReading {
        let bytes = fileSize(file)
        let name = file.lastPathComponent
        if bytes >= thresholds.fileBytesError {
            add(
                .error, .fileSize,
                "\(name) is \(bytes) bytes; stickers must be under 500 KB (\(thresholds.fileBytesWarning) bytes; \(thresholds.fileBytesError) read as KiB); `stickers fit` writes it under that",
                measured: "\(bytes) bytes", limit: "< \(thresholds.fileBytesWarning) bytes")
        } else if bytes >= thresholds.fileBytesWarning {
            add(
                .warning, .fileSize,
                "\(name) is \(bytes) bytes: under 500 KiB but not under 500 KB (500,000 bytes); Xcode or Messages may refuse it; `stickers fit` writes it under that",
                measured: "\(bytes) bytes", limit: "< \(thresholds.fileBytesWarning) bytes")
        }
        if let kind = BoundedFile.notRegularFile(file.path) {
            add(.error, .format, "\(name) is \(kind), not an image file", measured: kind, limit: "a regular file")
            return .unreadable
        }
        if !FileManager.default.fileExists(atPath: file.path) {
            // A file a catalog names that is not there (a folder's files are there when listed).
            add(
                .error, .format,
                "\(name): file named by the catalog is missing" + (PackError.caseTwinNote(of: file.path) ?? ""),
                measured: "missing", limit: "a regular file")
            return .unreadable
        }
        let head = readHead(file)
        if head.isEmpty, let reason = BoundedFile.openFailure(file.path) {
            add(
                .error, .format, "\(name) cannot be read (\(reason))", measured: "unreadable",
                limit: "a file that can be read")
            return .unreadable
        }
        let sniffed = BoundedFile.sniffedFormat(file.path, head: head)
        if head.isEmpty, BoundedFile.size(file.path) == 0 {
            add(.error, .format, "\(name) is empty (0 bytes)", measured: "empty file", limit: "PNG, APNG, GIF, JPEG")
            return .unreadable
        }
        guard let format = sniffed, format.isMessagesFormat else {
            let ext = file.pathExtension.isEmpty ? "no extension" : ".\(file.pathExtension)"
            // Every format the codec reads that Messages does not take, fit converts, when the
            // file itself can be read.
            var fix = ""
            var reading = FileReading.unreadable
            if let sniffed {
                // The summary names what the file is, though Messages does not take it.
                if sticker.files.count == 1 { summary.format = sniffed.rawValue }
                let reason = unreadableReason(file)
                fix =
                    reason.map { "; `stickers fit` cannot convert it either: \($0)" } ?? Self.convertsIt
                // One file fit converts is a sticker of its own; a sequence's frames are images.
                if reason == nil && sticker.files.count == 1 { reading = .convertible }
            }
            let found = describeSignature(head, sniffed: sniffed)
            add(
                .error, .format,
                "\(name) is not PNG, APNG, GIF or JPEG but \(found.hasPrefix("unknown") ? "of \(found)" : found) (identified from its bytes; named \(ext))\(fix)",
                measured: found, limit: "PNG, APNG, GIF, JPEG")
            return reading
        }
        if format == .png, head.count >= 16, Array(head[12..<16]) == Array("CgBI".utf8) {
            add(
                .warning, .cgbi,
                "\(name) is an Apple CgBI PNG (Xcode's iOS-optimised form): other tools cannot read it, and StickerKit cannot preview it; export the original PNG",
                measured: "CgBI chunk")
            return .unreadable
        }
        return .image
    }

    /// Why `stickers fit` cannot read `file` either, or `nil` when it can: then the facts of
    /// a sticker of that one file (size, frames, loop) fill the summary, so the report
    /// describes what the user has, though Messages does not take it.
    private mutating func unreadableReason(_ file: URL) -> String? {
        do {
            let bytes = try BoundedFile.read(file.path, maxBytes: limits.maxFileBytes)
            let decoder: AnimationDecoder
            if let vectorSide, sticker.files.count == 1 {
                // One vector file is drawn at the pack's size, as fit draws it.
                decoder = try AnimationDecoder(bytes: bytes, limits: limits, vectorSide: vectorSide)
            } else {
                decoder = try AnimationDecoder(bytes: bytes, limits: limits)
            }
            if sticker.files.count == 1 { describe(decoder.info) }
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// The summary's facts from a file's structure. A video's or a Lottie file's frames are
    /// shown for their own times (players show every frame so); an image's short delays as
    /// Messages shows them.
    private mutating func describe(_ info: AnimationInfo) {
        summary.width = info.width
        summary.height = info.height
        summary.frameCount = info.frameCount
        summary.plays = info.plays
        summary.decodedBytes = info.frameCount * info.width * info.height * 4
        let stored = info.frames.map(\.delay.milliseconds)
        summary.loopMilliseconds = loopMilliseconds(stored)
        summary.shownLoopMilliseconds = loopMilliseconds(
            info.format.isTimedAsStored ? stored : shownMilliseconds(stored))
    }

    private mutating func report(_ error: PackError) {
        switch error {
        case .codec(let path, let codecError):
            add(
                .error, .decodes, "\(URL(fileURLWithPath: path).lastPathComponent) does not decode: \(codecError)",
                measured: "\(codecError)")
        case .fileTooLarge(_, let bytes, let limit):
            add(
                .error, .decodes,
                "\(bytes) bytes is more than the \(limit) bytes read for a sticker (--max-file raises the limit)",
                measured: "\(bytes) bytes", limit: "\(limit) bytes")
        default:
            add(.error, .decodes, error.description)
        }
    }

    private mutating func checkDimensions(_ animation: StickerAnimation) {
        let (w, h) = (animation.width, animation.height)
        // A vector (Lottie) is drawn at any size, so only its shape is the document's.
        guard !animation.isVector else {
            if w != h {
                add(
                    .warning, .square, "\(w)x\(h) is not square; the browser letterboxes it in a square cell",
                    measured: "\(w)x\(h)")
            }
            return
        }
        let range = thresholds.minSide...thresholds.maxSide
        func checkSize(_ width: Int, _ height: Int, of file: String?) {
            guard !range.contains(width) || !range.contains(height) else { return }
            add(
                .error, .pixelSize,
                (file.map { "\($0): " } ?? "")
                    + "\(width)x\(height) px; each side must be \(thresholds.minSide)-\(thresholds.maxSide) px (100-206 pt @3x); `stickers fit` scales it to the pack's size",
                measured: "\(width)x\(height) px", limit: "\(thresholds.minSide)-\(thresholds.maxSide) px")
        }
        checkSize(w, h, of: nil)
        if w != h {
            add(
                .warning, .square, "\(w)x\(h) px is not square; the browser letterboxes it in a square cell",
                measured: "\(w)x\(h) px")
        }
        // A catalog that names no grid-size is shown regular; a folder's size is its stickers'.
        if let shown = pack.declaredGridSize ?? (pack.origin == .catalog ? .regular : nil), w == h, range.contains(w),
            w != shown.pixels
        {
            let wanted =
                pack.declaredGridSize == nil
                ? "the catalog names no grid-size, so Messages shows it regular, at \(shown.pixels) px;"
                    + (StickerSize(pixels: w).map { " declare grid-size \($0.rawValue), or" } ?? "")
                : "the pack's grid-size \(shown) wants \(shown.pixels) px;"
            add(
                .warning, .gridSize, "\(w) px, but \(wanted) `stickers fit` scales it to \(shown.pixels) px",
                measured: "\(w) px", limit: "\(shown.pixels) px")
        }
        if isSequence {
            // The canvas is the first frame's size (checked above); a later frame of another size
            // is an image Xcode checks too.
            for (info, file) in zip(animation.fileInfos, sticker.files).dropFirst()
            where info.width != w || info.height != h {
                checkSize(info.width, info.height, of: file.lastPathComponent)
            }
            for info in animation.fileInfos where info.width != w || info.height != h {
                add(
                    .warning, .square,
                    "sequence frames differ in size (\(info.width)x\(info.height) against \(w)x\(h)); they are centred",
                    measured: "\(info.width)x\(info.height) px")
                break
            }
        }
    }

    private mutating func checkLostAnimation(_ animation: StickerAnimation) {
        for (info, file) in zip(animation.fileInfos, sticker.files) {
            let name = file.lastPathComponent
            if let warning = info.warnings.first(where: { $0.kind == .animationIgnored }) {
                add(
                    .warning, .lostAnimation,
                    "\(name): the APNG animation is broken, so only the still default image shows (\(warning.message))",
                    measured: "acTL ignored")
            } else if info.format == .apng && info.frameCount == 1 {
                add(
                    .warning, .lostAnimation, "\(name) is an APNG with a single frame: it does not animate",
                    measured: "1 frame")
            } else if info.format == .png && ["apng"].contains(file.pathExtension.lowercased()) {
                add(
                    .warning, .lostAnimation,
                    "\(name) is named .apng but has no acTL chunk: an optimiser may have flattened it",
                    measured: "no acTL")
            }
        }
    }

    /// Each frame's time as Messages shows it, from its stored `delays` in milliseconds: a
    /// delay under the short-delay line shows for 100 ms.
    private func shownMilliseconds(_ delays: [Double]) -> [Double] {
        delays.map { $0 < thresholds.shortDelayMilliseconds ? 100 : $0 }
    }

    /// Each frame's time as it is shown: a video's or a Lottie file's frames for their own
    /// times (players show every frame so, and `stickers fit` keeps them), an image's short
    /// delays as Messages shows them.
    private func shownMilliseconds(_ delays: [Double], of animation: StickerAnimation) -> [Double] {
        !isSequence && animation.fileInfos[0].format.isTimedAsStored ? delays : shownMilliseconds(delays)
    }

    /// A loop's length from its frames' milliseconds, to the nanosecond, so a sum of thirds
    /// reads 1000, not 999.9999999999999.
    private func loopMilliseconds(_ milliseconds: [Double]) -> Double {
        (milliseconds.reduce(0, +) * 1e6).rounded() / 1e6
    }

    private mutating func checkTiming(_ animation: StickerAnimation) {
        guard animation.isAnimated else { return }
        let delays = animation.delays.map(\.milliseconds)
        let shown = shownMilliseconds(delays, of: animation)
        let short = zip(delays, shown).filter { $0 != $1 }.map(\.0)
        if let shortest = short.min() {
            add(
                .warning, .shortDelay,
                "\(short.count) of \(delays.count) frames are under \(format(thresholds.shortDelayMilliseconds)) ms "
                    + "(the shortest \(format(shortest)) ms); Messages shows those for 100 ms",
                measured: "\(format(shortest)) ms", limit: ">= \(format(thresholds.shortDelayMilliseconds)) ms")
        }
        // The loop as it is shown: an image's short delay (above) shows for 100 ms, so it is
        // neither a fast frame nor a short loop.
        // To the nanosecond: 120 delays of 1/30 s summed in floating point come to a hair over
        // 4 s, and that loop is 4 s.
        let loopSeconds = loopMilliseconds(shown) / 1000
        if loopSeconds > thresholds.maxLoopSeconds {
            add(
                .warning, .loopDuration,
                "one loop lasts \(format(loopSeconds)) s; keep it within \(format(thresholds.maxLoopSeconds)) s",
                measured: "\(format(loopSeconds)) s", limit: "\(format(thresholds.maxLoopSeconds)) s")
        }
        if animation.frameCount > thresholds.maxFrames {
            let rate = Self.wholeRate(
                keeping: thresholds.maxFrames, over: loopSeconds, atMost: thresholds.maxFramesPerSecond)
            let advice =
                rate >= 1
                ? "`stickers fit --max-fps \(format(rate))` keeps it within that (\(format(rate)) fps over its \(format(loopSeconds)) s loop, the loop's length kept)"
                : "`stickers fit --max-fps` drops frames, the loop's length kept"
            add(
                .warning, .frameCount,
                "\(animation.frameCount) frames; keep it within \(thresholds.maxFrames): \(advice)",
                measured: "\(animation.frameCount) frames", limit: "\(thresholds.maxFrames) frames")
        }
        if loopSeconds > 0 {
            let fps = Double(animation.frameCount) / loopSeconds
            // Millisecond delays and a container's rounded last frame put a 30 fps clip a little
            // above 30 fps, which is not a higher rate.
            if fps > ValidationThresholds.tolerated(framesPerSecond: thresholds.maxFramesPerSecond) {
                add(
                    .warning, .frameRate,
                    "\(format(fps)) frames per second on average; each frame above \(format(thresholds.maxFramesPerSecond)) a second costs battery and bytes (`stickers fit --max-fps \(format(thresholds.maxFramesPerSecond))` drops frames to that rate, the loop's length kept, and its report measures the motion that costs: little for slow motion, a visible loss for fast)",
                    measured: "\(format(fps)) fps", limit: "\(format(thresholds.maxFramesPerSecond)) fps")
            }
        }
        // A vector's cost is that of the size it is drawn at, not its document's.
        if animation.decodedBytes > thresholds.maxDecodedBytes && !animation.isVector {
            add(
                .warning, .playbackCost,
                "all \(animation.frameCount) frames take \(animation.decodedBytes >> 20) MiB decoded, over the \(thresholds.maxDecodedBytes >> 20) MiB a sticker should keep to",
                measured: "\(animation.decodedBytes) bytes", limit: "\(thresholds.maxDecodedBytes) bytes")
        }
    }

    /// The highest whole `--max-fps` rate, at most `ceiling` (the frame-rate rule's, so its
    /// advice and this agree), at which `stickers fit` keeps at most `frames` frames of a loop of
    /// `seconds`: fit keeps ⌊seconds × the rate with the frame-rate rule's slack⌋ of them
    /// (``ValidationThresholds/tolerated(framesPerSecond:)``). 0 when no whole rate does.
    private static func wholeRate(keeping frames: Int, over seconds: Double, atMost ceiling: Double) -> Double {
        guard seconds > 0 else { return 0 }
        var rate = min((Double(frames) / seconds).rounded(.up), ceiling.rounded(.down))
        while rate >= 1,
            (seconds * ValidationThresholds.tolerated(framesPerSecond: rate)).rounded(.down) > Double(frames)
        {
            rate -= 1
        }
        return max(rate, 0)
    }

    private mutating func checkPixels(_ animation: StickerAnimation) {
        var sawTransparency = false
        var sawVisible = false
        // What the decoders worked around, in the files and in their frames (a broken acTL
        // is `lost-animation`'s; sound is no part of a picture), each message once.
        var repairs = animation.fileWarnings.filter {
            $0.kind != .animationIgnored && $0.kind != .notDrawn && $0.kind != .soundLeftOut
        }
        var flashes = animation.isAnimated ? FlashDetector(width: animation.width, height: animation.height) : nil
        do {
            try animation.forEachFrame { _, frame throws(PackError) in
                flashes?.add(frame.pixels)
                if !sawTransparency || !sawVisible {
                    let alpha = alphaCoverage(frame.pixels)
                    sawTransparency = sawTransparency || alpha.someTransparent
                    sawVisible = sawVisible || alpha.someVisible
                }
                for warning in frame.warnings where !repairs.contains(warning) { repairs.append(warning) }
            }
        } catch {
            report(error)
            return
        }
        if let first = repairs.first {
            // Each repair named, up to three (a GIF cut short: where it ends, and the frame cut).
            add(
                .warning, .damaged,
                "the file is damaged and shows only as decoders repair it: \(firstFew(repairs.map(\.message))); export it again",
                measured: first.message)
        }
        let notDrawn = animation.fileWarnings.filter { $0.kind == .notDrawn }.map(\.message)
        if let first = notDrawn.first {
            let more = notDrawn.count > 1 ? "; " + notDrawn.dropFirst().joined(separator: "; ") : ""
            add(
                .warning, .notDrawn,
                "every frame lacks what the renderer does not draw: \(first)\(more)",
                measured: notDrawn.joined(separator: "; "))
        }
        let durations = animation.delays.map { FrameTimingPolicy.apple.displayMilliseconds(for: $0) / 1000 }
        if let flash = flashes?.worst(durations: durations, plays: animation.plays) {
            let rate =
                flash.perSecond == flash.perSecond.rounded() ? String(Int(flash.perSecond)) : String(flash.perSecond)
            add(
                .warning, .flashing,
                "flashes \(rate) times a second over \(Int((flash.area * 100).rounded()))% of the sticker (from \(String(cFormat: "%.2f", flash.start)) s); more than 3 flashes a second can trigger seizures in people with photosensitive epilepsy (WCAG 2.3.1): slow the flashing to 3 a second or less, or keep the change under a tenth of the luminance range or between light colours",
                measured: "\(rate) flashes a second over \(Int((flash.area * 100).rounded()))%",
                limit: "3 flashes a second")
        }
        if !sawVisible {
            add(
                .warning, .blank, "every pixel of every frame is fully transparent: the sticker shows nothing",
                measured: "no visible pixel")
        }
        if !sawTransparency {
            add(
                .warning, .transparency,
                "no pixel is transparent: the sticker shows as an opaque box over bubbles and photos",
                measured: "all pixels opaque")
        }
    }
}

/// Whether some pixel of `pixels` (RGBA8) is not fully opaque, and whether some is not fully
/// transparent: one pass, stopping once both are known.
private func alphaCoverage(_ pixels: [UInt8]) -> (someTransparent: Bool, someVisible: Bool) {
    var (transparent, visible) = (false, false)
    var index = 3
    while index < pixels.count && !(transparent && visible) {
        transparent = transparent || pixels[index] != 255
        visible = visible || pixels[index] != 0
        index += 4
    }
    return (transparent, visible)
}

private func fileSize(_ url: URL) -> Int {
    BoundedFile.size(url.path) ?? 0
}

private func readHead(_ url: URL) -> [UInt8] {
    BoundedFile.head(url.path, count: ImageFormat.sniffLength)
}

/// What a file's first bytes say it is, in words for a finding: `HEIF`, `an MP4 or QuickTime
/// video (... converts it to WebM ...)`, `unknown signature 68 65 6c 6c`.
func describeSignature(_ head: [UInt8], sniffed: ImageFormat?) -> String {
    switch sniffed {
    case .webp: return "WebP"
    case .webm: return "WebM"
    case .lottie: return "Lottie"
    default: break
    }
    if head.count >= 12, Array(head[4..<8]) == Array("ftyp".utf8) {
        // The major brand says which ISO media file it is: an image (HEIF, AVIF) or a video.
        let brand = String(decoding: head[8..<12], as: UTF8.self)
        if ["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1"].contains(brand) { return "HEIF" }
        if ["avif", "avis"].contains(brand) { return "AVIF" }
        if ["jp2 ", "jpx ", "jpm "].contains(brand) { return "JPEG 2000" }
        if ["M4A ", "M4B ", "M4P ", "F4A "].contains(brand) { return "MP4 audio (brand \"\(brand)\")" }
        return
            "an MP4 or QuickTime video (brand \"\(brand)\"; `ffmpeg -i IN -c:v libvpx-vp9 -pix_fmt yuva420p OUT.webm` converts it to WebM, which `stickers fit` makes a sticker of)"
    }
    if head.count >= 2, head[0] == 0x42, head[1] == 0x4D { return "BMP" }
    if head.count >= 4, head[0...1] == [0x49, 0x49] || head[0...1] == [0x4D, 0x4D] { return "TIFF" }
    if head.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) {
        return
            "Matroska, not WebM (its EBML DocType is not \"webm\"; `ffmpeg -i IN -c copy OUT.webm` remuxes a VP8 or VP9 track)"
    }
    if head.isEmpty { return "empty file" }
    return "unknown signature " + head.prefix(4).map { String($0, radix: 16) }.joined(separator: " ")
}

/// `value` to two decimals, without them when it is whole to that precision (60, not 60.00,
/// for 180 frames over a loop of 180 sixtieths of a second).
private func format(_ value: Double) -> String {
    let hundredths = (value * 100).rounded()
    return hundredths.remainder(dividingBy: 100) == 0
        ? String(Int(hundredths / 100)) : String(cFormat: "%.2f", hundredths / 100)
}
