import FoundationEssentials
import StickerPack

/// Writes the pages of reviewed packs: one pack's page as `index.html` in the output folder, or
/// for several packs an `index.html` over a folder per pack. With ``ReviewOptions/singleFile``
/// every image is inlined as a data URL and the `images/` folders are removed.
public enum ReviewWriter {
    /// Where a pack's page and images go in `folder`: the folder itself for one pack, else a
    /// sub-folder named after the pack (made unique).
    public static func packFolders(_ packNames: [String], in folder: URL) -> [URL] {
        guard packNames.count > 1 else { return [folder] }
        var used = Set<String>()
        return packNames.map { folder.appendingPathComponent(HTMLText.identifier($0, prefix: "", used: &used)) }
    }

    /// Writes each review's page into its folder (and, for several, the index into `folder`);
    /// returns the summaries with their page links, relative to `folder`.
    @discardableResult
    public static func write(_ reviews: [PackReview], folders: [URL], in folder: URL, singleFile: Bool)
        throws(ReviewError) -> [PackSummary]
    {
        var summaries: [PackSummary] = []
        let several = reviews.count > 1
        for (review, packFolder) in zip(reviews, folders) {
            let images = packFolder.appendingPathComponent("images")
            var inlined: [String: String] = [:]
            if singleFile {
                for name in (try? FileManager.default.contentsOfDirectory(atPath: images.path)) ?? [] {
                    let data = try read(images.appendingPathComponent(name))
                    let type = name.hasSuffix(".jpg") ? "image/jpeg" : "image/png"
                    inlined[name] = "data:\(type);base64," + data.base64EncodedString()
                }
            }
            let html = ReviewPage.html(
                review, source: { singleFile ? (inlined[$0] ?? "") : "images/" + $0 },
                index: several ? "../index.html" : nil)
            try save(html, to: packFolder.appendingPathComponent("index.html"))
            if singleFile { try? FileManager.default.removeItem(at: images) }
            var summary = review.summary
            summary.page = several ? packFolder.lastPathComponent + "/index.html" : "index.html"
            summaries.append(summary)
        }
        if several { try save(ReviewIndexPage.html(summaries), to: folder.appendingPathComponent("index.html")) }
        return summaries
    }

    /// The tag in every page's head that names the command that wrote it.
    static let generatorTag = "<meta name=\"generator\" content=\"stickers review\">"

    /// Whether `folder` holds nothing but an earlier review, so replacing it as a whole removes
    /// none of a user's files: an `index.html` that names `stickers review` as its generator,
    /// an `images/` folder of the images a review writes (by their names), and for several packs
    /// a folder per pack of the same kind. The files a desktop adds when a folder is opened
    /// (`.DS_Store`, `._*`, `Thumbs.db`) are allowed; a folder that cannot be listed is not one.
    public static func isEarlierReview(_ folder: URL) -> Bool { notAnEarlierReview(folder) == nil }

    /// Why `folder` is not an earlier review (``isEarlierReview(_:)``), in a few words naming
    /// the first entry no review writes by its path from the folder (`images/extra.png`); `nil`
    /// when it is one.
    public static func notAnEarlierReview(_ folder: URL) -> String? { notAReview(folder, packsInside: true) }

    private static func notAReview(_ folder: URL, packsInside: Bool, from parent: String = "") -> String? {
        let manager = FileManager.default
        guard let contents = try? manager.contentsOfDirectory(atPath: folder.path) else {
            return "\(parent.isEmpty ? "it" : parent) cannot be listed"
        }
        guard let page = try? Data(contentsOf: folder.appendingPathComponent("index.html")),
            String(decoding: page.prefix(4096), as: UTF8.self).contains(generatorTag)
        else {
            let entry = contents.filter { !isDesktopFile($0) }.sorted().first ?? "index.html"
            return contents.contains("index.html")
                ? "\(parent)index.html, which stickers review did not write"
                : "\(parent)\(entry), and no review's index.html"
        }
        for name in contents.sorted() where name != "index.html" && !isDesktopFile(name) {
            let item = folder.appendingPathComponent(name)
            var isFolder = false
            guard manager.fileExists(atPath: item.path, isDirectory: &isFolder), isFolder else {
                return parent + name
            }
            if name == "images" {
                guard let foreign = foreignImage(in: item) else { continue }
                return "\(parent)images/\(foreign)"
            }
            guard packsInside else { return parent + name }
            if let reason = notAReview(item, packsInside: false, from: "\(parent)\(name)/") { return reason }
        }
        return nil
    }

    /// The first entry of `folder` that is not an image a review writes (`photo.jpg`,
    /// `browser-compact-light.png`, `conversation-dark.png`, `sticker-3-preview.png`, each
    /// animation's `-still.png`, ...).
    private static func foreignImage(in folder: URL) -> String? {
        guard let contents = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
            return "(cannot be listed)"
        }
        return contents.sorted().first { name in
            !(isDesktopFile(name) || name == PackReviewer.photoFile
                || name.wholeMatch(
                    of:
                        /(browser-(compact|expanded)-(light|dark)|conversation-(light|dark)|sticker-[0-9]+-(preview|frames))(-still)?\.png/
                )
                    != nil)
        }
    }

    /// Files a desktop writes into a folder it shows (the Finder's `.DS_Store` and `._NAME`,
    /// Windows' `Thumbs.db`): set aside, never the user's work.
    public static func isDesktopFile(_ name: String) -> Bool {
        name == ".DS_Store" || name.hasPrefix("._") || name == "Thumbs.db"
    }

    private static func read(_ url: URL) throws(ReviewError) -> Data {
        do { return try Data(contentsOf: url) } catch {
            throw ReviewError(description: "\(url.path): cannot be read (\(errorReason(error)))")
        }
    }

    private static func save(_ text: String, to url: URL) throws(ReviewError) {
        do { try Data(text.utf8).write(to: url) } catch {
            throw ReviewError(description: "\(url.path): cannot be written (\(errorReason(error)))")
        }
    }
}
