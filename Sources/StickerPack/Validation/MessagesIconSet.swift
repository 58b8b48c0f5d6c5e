import AnimationCodec
import FoundationEssentials

/// The iMessage app icon set of a sticker catalog (`NAME.stickersiconset`), and the sizes
/// App Store Connect requires of it. An incomplete set is the usual cause of "Invalid iMessage
/// App ... contains an invalid sticker pack" at upload.
public enum MessagesIconSet {
    /// One icon the set must hold: its size in points, device idiom and scale.
    public struct Slot: Sendable, Hashable, CustomStringConvertible {
        /// Width and height in points (`"60x45"`).
        public var width: Int, height: Int
        /// `iphone`, `ipad`, `universal` or `ios-marketing`.
        public var idiom: String
        /// 1, 2 or 3.
        public var scale: Int

        /// The icon's size in pixels.
        public var pixelWidth: Int { width * scale }
        /// The icon's height in pixels.
        public var pixelHeight: Int { height * scale }
        /// The `size` value in Contents.json.
        public var size: String { "\(width)x\(height)" }
        /// `60x45@3x (iphone)`.
        public var description: String { "\(size)@\(scale)x (\(idiom))" }
        /// The `platform` the entry must name: `ios` for the Messages sizes (`universal`) and
        /// the Messages App Store icon (1024x768), as Xcode writes them; `nil` for the others.
        /// A set without it loses its Messages icons at upload (ITMS-90649, ITMS-90642).
        public var platform: String? {
            idiom == "universal" || (idiom == "ios-marketing" && height == 768) ? "ios" : nil
        }
        /// Whether this is one of the App Store's marketing icons, which may not be transparent.
        public var isOpaqueMarketingIcon: Bool { idiom == "ios-marketing" }

        /// Whether a Contents.json entry is for this slot's size and scale (whatever its idiom).
        func hasSizeAndScale(of entry: [String: Any]) -> Bool {
            entry["size"] as? String == size && (entry["scale"] as? String ?? "1x") == "\(scale)x"
        }

        /// Whether a Contents.json entry is this slot's.
        func matches(_ entry: [String: Any]) -> Bool {
            hasSizeAndScale(of: entry) && entry["idiom"] as? String == idiom
        }
    }

    /// The slots of Apple's asset catalog reference for Messages extension icons.
    public static let required: [Slot] = [
        Slot(width: 29, height: 29, idiom: "iphone", scale: 2), Slot(width: 29, height: 29, idiom: "iphone", scale: 3),
        Slot(width: 60, height: 45, idiom: "iphone", scale: 2), Slot(width: 60, height: 45, idiom: "iphone", scale: 3),
        Slot(width: 29, height: 29, idiom: "ipad", scale: 2), Slot(width: 67, height: 50, idiom: "ipad", scale: 2),
        Slot(width: 74, height: 55, idiom: "ipad", scale: 2),
        Slot(width: 27, height: 20, idiom: "universal", scale: 2),
        Slot(width: 27, height: 20, idiom: "universal", scale: 3),
        Slot(width: 32, height: 24, idiom: "universal", scale: 2),
        Slot(width: 32, height: 24, idiom: "universal", scale: 3),
        Slot(width: 1024, height: 768, idiom: "ios-marketing", scale: 1),
        Slot(width: 1024, height: 1024, idiom: "ios-marketing", scale: 1)
    ]

    /// The file of `slot` in the icon set of the catalog at `catalog`, when the set lists one
    /// that exists (for drawing the app's icon, as a transcript's template messages do).
    public static func file(for slot: Slot, inCatalog catalog: URL) -> URL? {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: catalog.path)) ?? []
        guard let name = entries.sorted().first(where: { $0.lowercased().hasSuffix(".stickersiconset") }) else {
            return nil
        }
        let folder = catalog.appendingPathComponent(name)
        guard let contents = try? ContentsJSON(folder: folder) else { return nil }
        let images = contents.root["images"] as? [[String: Any]] ?? []
        let entry = images.first(where: slot.matches)
        guard let filename = entry?["filename"] as? String, !filename.isEmpty, !filename.contains("/") else {
            return nil
        }
        let file = folder.appendingPathComponent(filename)
        return FileManager.default.fileExists(atPath: file.path) ? file : nil
    }

    /// What is wrong with the icon set of the catalog at `catalog` (an `.xcstickers` folder):
    /// no set, a slot with no file, a file that is missing, not a PNG or the wrong size, a
    /// transparent marketing icon. Empty when the set is complete.
    public static func problems(inCatalog catalog: URL, limits: DecodingLimits = .default) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: catalog.path)) ?? []
        guard let name = entries.sorted().first(where: { $0.lowercased().hasSuffix(".stickersiconset") }) else {
            return [
                "the catalog has no iMessage app icon set (a .stickersiconset folder); App Store Connect refuses the app"
            ]
        }
        let folder = catalog.appendingPathComponent(name)
        let contents: ContentsJSON
        do {
            contents = try ContentsJSON(folder: folder)
        } catch {
            return ["\(name): \(error)"]
        }
        let images = contents.root["images"] as? [[String: Any]] ?? []
        var problems: [String] = []
        for slot in required {
            guard let entry = images.first(where: slot.matches) else {
                problems.append(missing(slot, in: name, images: images))
                continue
            }
            let twins = images.filter(slot.matches).count
            if twins > 1 {
                problems.append(
                    "\(name): \(twins) entries for \(slot); Xcode takes one an icon and warns of the others (remove all but one)"
                )
            }
            if let platform = slot.platform, entry["platform"] as? String != platform {
                let written = (entry["platform"] as? String).map { "\"platform\": \"\($0)\"" } ?? "no \"platform\""
                problems.append(
                    "\(name): the \(slot) entry has \(written); it must say \"platform\": \"\(platform)\" or App Store Connect drops the Messages icons (ITMS-90649)"
                )
            }
            guard let filename = entry["filename"] as? String, !filename.isEmpty, !filename.contains("/") else {
                problems.append("\(name): no icon for \(slot)")
                continue
            }
            problems += check(folder.appendingPathComponent(filename), for: slot, in: name, limits: limits)
        }
        return problems
    }

    /// Why no entry matches `slot`: none of its size and scale, or one under another idiom.
    private static func missing(_ slot: Slot, in setName: String, images: [[String: Any]]) -> String {
        let sameSize = images.filter { entry in
            slot.hasSizeAndScale(of: entry) && !required.contains { $0.matches(entry) }
        }
        if let entry = sameSize.first {
            let idiom = entry["idiom"] as? String ?? "none"
            return
                "\(setName): the \(slot.size)@\(slot.scale)x icon is filed under idiom \"\(idiom)\"; it must be \"\(slot.idiom)\" (ITMS-90649)"
        }
        return "\(setName): no icon for \(slot)"
    }

    /// The problems of one icon file.
    private static func check(_ file: URL, for slot: Slot, in setName: String, limits: DecodingLimits) -> [String] {
        let label = "\(setName)/\(file.lastPathComponent) (\(slot))"
        let bytes: [UInt8]
        do {
            bytes = try BoundedFile.read(file.path, maxBytes: limits.maxFileBytes)
        } catch {
            return ["\(label): \(error)"]
        }
        guard ImageFormat.sniff(bytes) == .png else { return ["\(label): not a PNG"] }
        let decoder: AnimationDecoder
        do {
            decoder = try AnimationDecoder(bytes: bytes, limits: limits)
        } catch {
            return ["\(label): \(error)"]
        }
        let (width, height) = (decoder.info.width, decoder.info.height)
        guard width == slot.pixelWidth && height == slot.pixelHeight else {
            return ["\(label): \(width)x\(height) px, must be \(slot.pixelWidth)x\(slot.pixelHeight) px"]
        }
        if slot.isOpaqueMarketingIcon {
            guard let frame = try? decoder.frame(at: 0) else { return ["\(label): does not decode"] }
            if stride(from: 3, to: frame.pixels.count, by: 4).contains(where: { frame.pixels[$0] != 255 }) {
                return ["\(label): has transparent pixels; the App Store's \(slot.size) icon must be opaque"]
            }
            if let alpha = alphaChannel(bytes) {
                return [
                    "\(label): \(alpha), though every pixel is opaque; the App Store refuses an icon with an alpha channel (ITMS-90717): save it as RGB"
                ]
            }
        }
        return []
    }

    /// How a PNG stores alpha (a colour type with an alpha channel, or a tRNS chunk before its
    /// image data), or `nil` when it has none.
    static func alphaChannel(_ png: [UInt8]) -> String? {
        guard png.count >= 26 else { return nil }
        if png[25] == 4 || png[25] == 6 { return "has an alpha channel (PNG colour type \(png[25]))" }
        var offset = 8
        while offset + 8 <= png.count {
            let length = (0..<4).reduce(0) { $0 << 8 | Int(png[offset + $1]) }
            let type = String(decoding: png[(offset + 4)..<(offset + 8)], as: UTF8.self)
            if type == "tRNS" { return "has a tRNS chunk (transparency)" }
            if type == "IDAT" || type == "IEND" { return nil }
            offset += 12 + length
        }
        return nil
    }
}
