import Foundation
import StickerPack
import Testing

/// `validate` on a sticker pack app project: a clean project has no finding, and each App Store
/// rule, broken on purpose in a project made here, gets the finding that names it and the file.
/// The rules are Apple's (bundle identifiers, version strings, the Messages targets and their
/// phases), written out in the expectations by hand.
@Suite("Xcode project validation")
struct XcodeProjectValidatorTests {
    static let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let projectRules: Set<StickerRule> = [.project, .bundleIdentifier, .version, .displayName, .iconSet]

    /// A project of the sample catalog in a new folder, made with `spec`.
    static func project(
        _ spec: StickerAppSpec = StickerAppSpec(name: "My Stickers", bundleIdentifier: "com.example.mystickers")
    )
        throws -> URL
    {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("xcode-\(UUID().uuidString)")
        try XcodeProjectWriter.write(spec, to: folder)
        try FileManager.default.copyItem(
            at: repoRoot.appendingPathComponent("corpus/Sample.xcstickers"),
            to: folder.appendingPathComponent(spec.catalogPath))
        return folder
    }

    /// Replaces `old` (which must be there) by `new` in a file of the project.
    static func edit(_ folder: URL, _ path: String, _ old: String, _ new: String) throws {
        let url = folder.appendingPathComponent(path)
        let text = try String(contentsOf: url, encoding: .utf8)
        try #require(text.contains(old), "\(path) has no \(old)")
        try text.replacingOccurrences(of: old, with: new).write(to: url, atomically: true, encoding: .utf8)
    }

    /// The project's findings as `severity [rule] message`, the folder removed.
    static func findings(_ folder: URL) throws -> [String] {
        defer { try? FileManager.default.removeItem(at: folder) }
        let pack = try PackLoader.load(path: folder.path)
        return PackValidator().validate(pack).findings.filter { projectRules.contains($0.rule) }.map(\.description)
    }

    static let pbxproj = "My Stickers.xcodeproj/project.pbxproj"
    static let appInfo = "My Stickers/Info.plist"
    static let extensionInfo = "My Stickers StickerPackExtension/Info.plist"

    @Test("a project as written has no finding, and the folder loads as its catalog's pack")
    func clean() throws {
        let folder = try Self.project()
        let pack = try PackLoader.load(path: folder.path)
        #expect(pack.name == "My Stickers" && pack.stickers.map(\.name) == ["Heart", "Star"])
        #expect(pack.projectBundle?.lastPathComponent == "My Stickers.xcodeproj")
        let fromBundle = try PackLoader.load(path: folder.appendingPathComponent("My Stickers.xcodeproj").path)
        #expect(fromBundle.stickers.map(\.name) == ["Heart", "Star"])
        #expect(try Self.findings(folder) == [])
    }

    @Test("a bundle identifier with '_' is an error for the app and for its extension")
    func underscore() throws {
        let findings = try Self.findings(
            Self.project(StickerAppSpec(name: "My Stickers", bundleIdentifier: "com.example.my_stickers")))
        #expect(
            findings == [
                "error [bundle-identifier] \(Self.appInfo): the app's CFBundleIdentifier \"com.example.my_stickers\" has '_'; only letters, digits, '-' and '.' are allowed",
                "error [bundle-identifier] \(Self.extensionInfo): the extension's CFBundleIdentifier \"com.example.my_stickers.StickerPackExtension\" has '_'; only letters, digits, '-' and '.' are allowed"
            ], "\(findings)")
    }

    @Test("an extension whose identifier does not extend the app's is an error")
    func foreignExtension() throws {
        let folder = try Self.project()
        try Self.edit(
            folder, Self.pbxproj, "com.example.mystickers.StickerPackExtension", "com.example.otherstickers.ext")
        #expect(
            try Self.findings(folder) == [
                "error [bundle-identifier] \(Self.extensionInfo): the extension's CFBundleIdentifier \"com.example.otherstickers.ext\" does not extend the app's \"com.example.mystickers\" (it must start with \"com.example.mystickers.\")"
            ])
    }

    @Test("a version or build that is not one to three integers, and versions that differ, are errors")
    func versions() throws {
        let bad = try Self.findings(
            Self.project(
                StickerAppSpec(
                    name: "My Stickers", bundleIdentifier: "com.example.mystickers", version: "1.0 beta", build: "")))
        let badVersion = "\"1.0 beta\" is not one to three integers separated by periods (such as 1.0 or 2.1.3)"
        let badBuild = "\"\" is not one to three integers separated by periods (such as 1.0 or 2.1.3)"
        #expect(
            bad == [
                "error [version] \(Self.appInfo): the app's CFBundleShortVersionString \(badVersion)",
                "error [version] \(Self.appInfo): the app's CFBundleVersion \(badBuild)",
                "error [version] \(Self.extensionInfo): the extension's CFBundleShortVersionString \(badVersion)",
                "error [version] \(Self.extensionInfo): the extension's CFBundleVersion \(badBuild)"
            ], "\(bad)")

        let folder = try Self.project()
        try Self.edit(folder, Self.extensionInfo, "<string>$(MARKETING_VERSION)</string>", "<string>2.0</string>")
        #expect(
            try Self.findings(folder) == [
                "error [version] \(Self.extensionInfo): the extension's version 2.0 (1) differs from the app's 1.0 (1); they must match"
            ])
    }

    @Test("an empty or over-long display name is an error, one Messages cuts short a warning")
    func displayNames() throws {
        func findings(_ name: String) throws -> [String] {
            try Self.findings(
                Self.project(
                    StickerAppSpec(name: "My Stickers", bundleIdentifier: "com.example.mystickers", displayName: name)))
        }
        let long = String(repeating: "x", count: 31)
        #expect(
            try findings(long) == [
                "error [display-name] \(Self.appInfo): the app's CFBundleDisplayName \"\(long)\" has 31 characters; an app's name is at most 30",
                "error [display-name] \(Self.extensionInfo): the extension's CFBundleDisplayName \"\(long)\" has 31 characters; an app's name is at most 30"
            ])
        #expect(
            try findings(" ") == [
                "error [display-name] \(Self.appInfo): the app's CFBundleDisplayName is empty",
                "error [display-name] \(Self.extensionInfo): the extension's CFBundleDisplayName is empty"
            ])
        let cut = "Stickers of the Sea"
        #expect(
            try findings(cut) == [
                "warning [display-name] \(Self.appInfo): the app's CFBundleDisplayName \"\(cut)\" has 19 characters; Messages shows about 12 under the icon",
                "warning [display-name] \(Self.extensionInfo): the extension's CFBundleDisplayName \"\(cut)\" has 19 characters; Messages shows about 12 under the icon"
            ])
    }

    @Test("a deployment target before Messages apps is an error, one current Xcode does not build for a warning")
    func deploymentTargets() throws {
        func findings(_ target: String) throws -> [String] {
            try Self.findings(
                Self.project(
                    StickerAppSpec(
                        name: "My Stickers", bundleIdentifier: "com.example.mystickers", deploymentTarget: target)))
        }
        #expect(
            try findings("9.3") == [
                "error [project] \(Self.pbxproj): My Stickers's IPHONEOS_DEPLOYMENT_TARGET 9.3 is not iOS 10.0 or later, where Messages apps begin",
                "error [project] \(Self.pbxproj): My Stickers StickerPackExtension's IPHONEOS_DEPLOYMENT_TARGET 9.3 is not iOS 10.0 or later, where Messages apps begin"
            ])
        #expect(
            try findings("12.0") == [
                "warning [project] \(Self.pbxproj): My Stickers's IPHONEOS_DEPLOYMENT_TARGET 12.0 is under iOS 15.0, the lowest Xcode 16 and 26 build for",
                "warning [project] \(Self.pbxproj): My Stickers StickerPackExtension's IPHONEOS_DEPLOYMENT_TARGET 12.0 is under iOS 15.0, the lowest Xcode 16 and 26 build for"
            ])
    }

    @Test("an app that does not embed its extension is an error")
    func notEmbedded() throws {
        let folder = try Self.project()
        let text = try String(contentsOf: folder.appendingPathComponent(Self.pbxproj), encoding: .utf8)
        // The phase's line in the app target's buildPhases list.
        let line = try #require(
            text.split(separator: "\n").first { $0.hasSuffix("/* Embed Foundation Extensions */,") })
        try Self.edit(folder, Self.pbxproj, String(line) + "\n", "")
        #expect(
            try Self.findings(folder) == [
                "error [project] \(Self.pbxproj): the app My Stickers does not embed My Stickers StickerPackExtension (a Copy Files phase to Plug-ins, dstSubfolderSpec 13)"
            ])
    }

    @Test("a project without a sticker pack extension target is an error")
    func noExtension() throws {
        let folder = try Self.project()
        try Self.edit(
            folder, Self.pbxproj, "\"com.apple.product-type.app-extension.messages-sticker-pack\"",
            "\"com.apple.product-type.app-extension\"")
        #expect(
            try Self.findings(folder) == [
                "error [project] \(Self.pbxproj): no sticker pack extension target (product type com.apple.product-type.app-extension.messages-sticker-pack)"
            ])
    }

    @Test("an extension that does not name the sticker browser or the Messages extension point is an error")
    func extensionKeys() throws {
        let folder = try Self.project()
        try Self.edit(folder, Self.extensionInfo, "StickerBrowserViewController", "MessagesViewController")
        try Self.edit(folder, Self.extensionInfo, "com.apple.message-payload-provider", "com.apple.share-services")
        #expect(
            try Self.findings(folder) == [
                "error [project] \(Self.extensionInfo): NSExtension's NSExtensionPointIdentifier is \"com.apple.share-services\", not com.apple.message-payload-provider",
                "error [project] \(Self.extensionInfo): NSExtension's NSExtensionPrincipalClass is \"MessagesViewController\", not StickerBrowserViewController"
            ])
    }

    @Test("an identifier that names no object, and a missing file, are errors")
    func references() throws {
        let folder = try Self.project()
        let text = try String(contentsOf: folder.appendingPathComponent(Self.pbxproj), encoding: .utf8)
        let proxy = try #require(text.firstMatch(of: /targetProxy = ([0-9A-F]{24})/)?.1)
        try Self.edit(folder, Self.pbxproj, "targetProxy = \(proxy)", "targetProxy = 0123456789ABCDEF01234567")
        try FileManager.default.removeItem(at: folder.appendingPathComponent(Self.appInfo))
        let findings = try Self.findings(folder)
        let dependency = try #require(text.firstMatch(of: /([0-9A-F]{24}) \/\* PBXTargetDependency \*\/ = \{/)?.1)
        let missing = folder.appendingPathComponent(Self.appInfo).path
        #expect(
            findings.sorted()
                == [
                    "error [project] \(Self.appInfo): the Info.plist INFOPLIST_FILE names is missing or unreadable",
                    "error [project] \(Self.pbxproj): object \(dependency)'s targetProxy names 0123456789ABCDEF01234567, which does not exist",
                    "error [project] \(Self.pbxproj): the file reference Info.plist points at \(missing), which does not exist"
                ].sorted(), "\(findings)")
    }

    @Test("an icon set name the catalog lacks, and a catalog not among the extension's resources, are errors")
    func catalogAndIcons() throws {
        let folder = try Self.project()
        try Self.edit(
            folder, Self.pbxproj, "ASSETCATALOG_COMPILER_APPICON_NAME = \"iMessage App Icon\"",
            "ASSETCATALOG_COMPILER_APPICON_NAME = AppIcon")
        #expect(
            try Self.findings(folder) == [
                "error [project] \(Self.pbxproj): ASSETCATALOG_COMPILER_APPICON_NAME is \"AppIcon\", but the catalog has no AppIcon.stickersiconset"
            ])

        let other = try Self.project()
        try Self.edit(other, Self.pbxproj, "path = Stickers.xcstickers;", "path = Stickers.xcassets;")
        let findings = try Self.findings(other)
        #expect(
            findings.contains(
                "error [project] \(Self.pbxproj): the extension My Stickers StickerPackExtension has no .xcstickers catalog in its Copy Bundle Resources phase"
            ), "\(findings)")
    }

    @Test("a project file that is not a property list is one error naming it, and the catalog is still checked")
    func unreadableProject() throws {
        let folder = try Self.project()
        try Data("// !$*UTF8*$!\n{ objects = { A = { isa = PBXProject; }; }\n".utf8).write(
            to: folder.appendingPathComponent(Self.pbxproj))
        let pack = try PackLoader.load(path: folder.path)
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = PackValidator().validate(pack)
        #expect(report.stickers.count == 2)
        #expect(
            report.findings.filter { $0.rule == .project }.map(\.description) == [
                "error [project] \(folder.appendingPathComponent(Self.pbxproj).path): not an Xcode project (not a property list: line 3: expected ';' before the end)"
            ])
    }
}
