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
