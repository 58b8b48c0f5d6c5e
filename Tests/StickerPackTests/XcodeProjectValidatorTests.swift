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

    @Test("an image beside the project in its folder is named as ignored, not left out unseen")
    func imageBesideProject() throws {
        let folder = try Self.project()
        defer { try? FileManager.default.removeItem(at: folder) }
        let star = try #require(
            try FileManager.default.contentsOfDirectory(
                at: Self.repoRoot.appendingPathComponent(
                    "corpus/Sample.xcstickers/Sticker Pack.stickerpack/Star.sticker"),
                includingPropertiesForKeys: nil
            ).first { $0.pathExtension == "png" })
        let added = folder.appendingPathComponent("added later.png")
        try FileManager.default.copyItem(at: star, to: added)
        let pack = try PackLoader.load(path: folder.path)
        #expect(pack.stickers.map(\.name) == ["Heart", "Star"])
        // Named by its bundle, the project's files are still under the folder holding it.
        let named = try PackLoader.load(path: folder.appendingPathComponent("My Stickers.xcodeproj").path)
        #expect(named.folder?.path == folder.standardizedFileURL.resolvingSymlinksInPath().path)
        #expect(
            pack.warnings.map(\.description) == [
                "\(added.path): ignored: an image beside My Stickers.xcodeproj, which this folder is read as; name the image to include it"
            ])
    }

    /// `project` as Xcode 16 lays out a new one: the extension's folder a synchronized root
    /// group (every file in it the target's, its Info.plist taken out by an exception set), so
    /// the catalog is in no build phase and no group; `exceptions` are the set's paths.
    /// With `listed` false the extension does not list the folder: the exception set then
    /// gives the extension only the paths it names.
    static func synchronized(_ folder: URL, exceptions: [String], listed: Bool = true) throws {
        let url = folder.appendingPathComponent(pbxproj)
        var text = try String(contentsOf: url, encoding: .utf8)
        // The catalog leaves the Resources phases and the groups.
        text.replace(#/\t\t\w{24} /\* Stickers\.xcstickers in Resources \*/ = \{[^\n]*\n/#, with: "")
        text.replace(#/\t+\w{24} /\* Stickers\.xcstickers in Resources \*/,\n/#, with: "")
        text.replace(#/\t\t\w{24} /\* Stickers\.xcstickers \*/ = \{isa = PBXFileReference;[^\n]*\n/#, with: "")
        text.replace(#/\t+\w{24} /\* Stickers\.xcstickers \*/,\n/#, with: "")
        let group = try #require(
            text.firstMatch(
                of:
                    #/(\w{24}) /\* My Stickers StickerPackExtension \*/ = \{\n\t+isa = PBXGroup;\n\t+children = \(\n\t+(\w{24}) /\* Info\.plist \*/,\n\t+\);/#
            ))
        let target = try #require(
            text.firstMatch(of: #/(\w{24}) /\* My Stickers StickerPackExtension \*/ = \{\n\t+isa = PBXNativeTarget;/#))
        let (groupID, infoID, targetID) = (String(group.1), String(group.2), String(target.1))
        let setID = "E0000000000000000000000A"
        text.replace(
            String(group.0),
            with:
                "\(groupID) /* My Stickers StickerPackExtension */ = {\n\t\t\tisa = PBXFileSystemSynchronizedRootGroup;\n\t\t\texceptions = (\n\t\t\t\t\(setID),\n\t\t\t);"
        )
        text = text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.contains("\(infoID) /* Info.plist */ = {isa = PBXFileReference") }.joined(separator: "\n")
        if listed {
            text.replace(
                String(target.0),
                with: "\(target.0)\n\t\t\tfileSystemSynchronizedGroups = (\n\t\t\t\t\(groupID),\n\t\t\t);")
        }
        try #require(!text.contains("Stickers.xcstickers") && !text.contains(infoID))
        let paths = exceptions.map { "\"\($0)\", " }.joined()
        text.replace(
            "/* End PBXGroup section */",
            with:
                "\t\t\(setID) = {isa = PBXFileSystemSynchronizedBuildFileExceptionSet; membershipExceptions = (\(paths)); target = \(targetID); };\n/* End PBXGroup section */"
        )
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    @Test(
        "an Xcode 16 project, its extension's folder synchronized with the disk, is read and checked as Xcode builds it"
    )
    func synchronizedFolder() throws {
        let folder = try Self.project()
        try Self.synchronized(folder, exceptions: ["Info.plist"])
        let pack = try PackLoader.load(path: folder.path)
        #expect(pack.stickers.map(\.name) == ["Heart", "Star"])
        let project = try XcodeProject(bundle: folder.appendingPathComponent("My Stickers.xcodeproj"))
        #expect(
            project.stickerCatalogs.map(\.standardizedFileURL.path) == [
                folder.appendingPathComponent("My Stickers StickerPackExtension/Stickers.xcstickers")
                    .standardizedFileURL
                    .path
            ])
        #expect(try Self.findings(folder) == [])

        // Listed in the extension's phase and in a synchronized folder, it is one catalog.
        let both = try Self.project()
        try Self.edit(
            both, Self.pbxproj, "/* My Stickers StickerPackExtension */ = {\n\t\t\tisa = PBXNativeTarget;",
            "/* My Stickers StickerPackExtension */ = {\n\t\t\tisa = PBXNativeTarget;\n\t\t\tfileSystemSynchronizedGroups = (\n\t\t\t\tE0000000000000000000000B,\n\t\t\t);"
        )
        try Self.edit(
            both, Self.pbxproj, "/* End PBXGroup section */",
            "\t\tE0000000000000000000000B = {isa = PBXFileSystemSynchronizedRootGroup; path = \"My Stickers StickerPackExtension\"; sourceTree = \"<group>\"; };\n/* End PBXGroup section */"
        )
        let bundle = both.appendingPathComponent("My Stickers.xcodeproj")
        #expect(try XcodeProject(bundle: bundle).stickerCatalogs.count == 1)
        #expect(try PackLoader.load(path: both.path).warnings.isEmpty)
        #expect(try Self.findings(both) == [])

        // A folder the extension does not list gives it the paths its exception set names.
        let named = try Self.project()
        try Self.synchronized(named, exceptions: ["Stickers.xcstickers"], listed: false)
        #expect(try Self.findings(named) == [])

        // The catalog taken out of the target by the folder's exception set is no resource of it.
        let without = try Self.project()
        try Self.synchronized(without, exceptions: ["Info.plist", "Stickers.xcstickers"])
        #expect(
            try Self.findings(without) == [
                "error [project] \(Self.pbxproj): the extension My Stickers StickerPackExtension has no .xcstickers catalog in its Copy Bundle Resources phase or its synchronized folders"
            ])
    }

    @Test(
        "a synchronized folder's catalogs are found nearest first, past a crowded folder, never inside a folder Xcode takes whole"
    )
    func catalogWalk() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("walk-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        for path in ["Art/Stickers.xcstickers", "Assets.xcassets/Inner.xcstickers", "en.lproj/Local.xcstickers", "Zeta"]
        {
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent(path), withIntermediateDirectories: true)
        }
        for index in 0..<5_000 {
            FileManager.default.createFile(
                atPath: folder.appendingPathComponent("Zeta/\(index).png").path, contents: nil)
        }
        #expect(
            XcodeProject.catalogFolders(in: folder).map(\.relative) == [
                "Art/Stickers.xcstickers", "en.lproj/Local.xcstickers"
            ])
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

    @Test("an empty display name is an error, one Messages cuts short a warning")
    func displayNames() throws {
        func findings(_ name: String) throws -> [String] {
            try Self.findings(
                Self.project(
                    StickerAppSpec(name: "My Stickers", bundleIdentifier: "com.example.mystickers", displayName: name)))
        }
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
        #expect(try findings("Sea Stickers") == [], "12 characters show whole")
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
        #expect(
            findings.sorted()
                == [
                    "error [project] \(Self.appInfo): the Info.plist INFOPLIST_FILE names is missing or unreadable",
                    "error [project] \(Self.pbxproj): object \(dependency)'s targetProxy names 0123456789ABCDEF01234567, which does not exist",
                    "error [project] \(Self.pbxproj): the file reference Info.plist points at \(Self.appInfo), which does not exist"
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
                "error [project] \(Self.pbxproj): the extension My Stickers StickerPackExtension has no .xcstickers catalog in its Copy Bundle Resources phase or its synchronized folders"
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

    @Test("a project without a Messages app target, or whose app does not depend on its extension, is an error")
    func noAppOrDependency() throws {
        let folder = try Self.project()
        try Self.edit(
            folder, Self.pbxproj, "\"com.apple.product-type.application.messages\"",
            "com.apple.product-type.application")
        #expect(
            try Self.findings(folder) == [
                "error [project] \(Self.pbxproj): no Messages app target (product type com.apple.product-type.application.messages)"
            ])
        let other = try Self.project()
        let text = try String(contentsOf: other.appendingPathComponent(Self.pbxproj), encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.hasSuffix("/* PBXTargetDependency */,") })
        try Self.edit(other, Self.pbxproj, String(line) + "\n", "")
        #expect(
            try Self.findings(other) == [
                "error [project] \(Self.pbxproj): the app My Stickers does not depend on My Stickers StickerPackExtension, so it is not built first"
            ])
    }

    @Test("an extension without ASSETCATALOG_COMPILER_APPICON_NAME is an error")
    func noIconSetName() throws {
        let folder = try Self.project()
        try Self.edit(folder, Self.pbxproj, "ASSETCATALOG_COMPILER_APPICON_NAME = \"iMessage App Icon\";", "")
        #expect(
            try Self.findings(folder) == [
                "error [project] \(Self.pbxproj): the extension My Stickers StickerPackExtension does not set ASSETCATALOG_COMPILER_APPICON_NAME to its iMessage app icon set"
            ])
    }

    @Test("an identifier with an empty component, or naming a setting nobody defines, is an error")
    func identifierShapes() throws {
        let folder = try Self.project(StickerAppSpec(name: "My Stickers", bundleIdentifier: "com..stickers"))
        let findings = try Self.findings(folder)
        #expect(
            findings.first
                == "error [bundle-identifier] \(Self.appInfo): the app's CFBundleIdentifier \"com..stickers\" has an empty component (a leading, trailing or doubled '.')",
            "\(findings)")
        let other = try Self.project()
        try Self.edit(
            other, Self.pbxproj, "PRODUCT_BUNDLE_IDENTIFIER = com.example.mystickers;",
            "PRODUCT_BUNDLE_IDENTIFIER = \"$(APP_ID)\";")
        let undefined = try Self.findings(other)
        #expect(
            undefined.first
                == "error [bundle-identifier] \(Self.appInfo): the app's CFBundleIdentifier \"$(APP_ID)\" uses a build setting the project does not define",
            "\(undefined)")
    }

    @Test("$(PRODUCT_NAME:rfc1034identifier) is the target's name made an identifier, as Xcode expands it")
    func modifierOfAReference() throws {
        let folder = try Self.project()
        // PRODUCT_NAME is $(TARGET_NAME): "My Stickers" and "My Stickers StickerPackExtension",
        // spaces made hyphens: com.example.My-Stickers and its extension's
        // com.example.My-Stickers.My-Stickers-StickerPackExtension, which extends it.
        try Self.edit(
            folder, Self.pbxproj, "PRODUCT_BUNDLE_IDENTIFIER = com.example.mystickers;",
            "PRODUCT_BUNDLE_IDENTIFIER = \"com.example.$(PRODUCT_NAME:rfc1034identifier)\";")
        try Self.edit(
            folder, Self.pbxproj, "PRODUCT_BUNDLE_IDENTIFIER = com.example.mystickers.StickerPackExtension;",
            "PRODUCT_BUNDLE_IDENTIFIER = \"com.example.My-Stickers.$(PRODUCT_NAME:rfc1034identifier)\";")
        let findings = try Self.findings(folder)
        #expect(findings.isEmpty, "\(findings)")
    }

    @Test("settings from an .xcconfig, $(SRCROOT) paths and a generated Info.plist are read as Xcode reads them")
    func modernProject() throws {
        let folder = try Self.project()
        // The app's identifier from an .xcconfig file the Release configuration is based on.
        try Data("// the team's settings\nAPP_ID = com.example.mystickers\n".utf8).write(
            to: folder.appendingPathComponent("Shared.xcconfig"))
        let text = try String(contentsOf: folder.appendingPathComponent(Self.pbxproj), encoding: .utf8)
        let appRelease = try #require(
            text.firstMatch(
                of:
                    /([0-9A-F]{24}) \/\* Release \*\/ = \{\n\t\t\tisa = XCBuildConfiguration;\n\t\t\tbuildSettings = \{\n\t\t\t\tASSETCATALOG_COMPILER_APPICON_NAME = "iMessage App Icon";\n\t\t\t\tCODE_SIGN_STYLE = Automatic;\n\t\t\t\tINFOPLIST_FILE = "My Stickers\/Info.plist";/
            )?.1)
        try Self.edit(
            folder, Self.pbxproj, "\(appRelease) /* Release */ = {\n\t\t\tisa = XCBuildConfiguration;",
            "\(appRelease) /* Release */ = {\n\t\t\tisa = XCBuildConfiguration;\n\t\t\tbaseConfigurationReference = 0000000000000000000000CC;"
        )
        try Self.edit(
            folder, Self.pbxproj, "/* Begin PBXFileReference section */\n",
            "/* Begin PBXFileReference section */\n\t\t0000000000000000000000CC = {isa = PBXFileReference; path = Shared.xcconfig; sourceTree = SOURCE_ROOT; };\n"
        )
        try Self.edit(
            folder, Self.pbxproj, "PRODUCT_BUNDLE_IDENTIFIER = com.example.mystickers;",
            "PRODUCT_BUNDLE_IDENTIFIER = \"$(APP_ID)\";")
        // The extension's Info.plist by $(SRCROOT), the app's generated from its settings.
        try Self.edit(
            folder, Self.pbxproj, "INFOPLIST_FILE = \"My Stickers StickerPackExtension/Info.plist\";",
            "INFOPLIST_FILE = \"$(SRCROOT)/My Stickers StickerPackExtension/Info.plist\";")
        try Self.edit(
            folder, Self.pbxproj, "INFOPLIST_FILE = \"My Stickers/Info.plist\";",
            "GENERATE_INFOPLIST_FILE = YES; INFOPLIST_KEY_CFBundleDisplayName = \"My Stickers\";")
        #expect(try Self.findings(folder) == [])
    }

    @Test("a folder holding a project with no catalog is a folder of images; two projects each find their own catalog")
    func projectsAndFolders() throws {
        let folder = try Self.project()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A second project in the same folder, with a catalog of its own.
        let second = StickerAppSpec(name: "Other", bundleIdentifier: "com.example.other")
        try XcodeProjectWriter.write(second, to: folder)
        let catalog = folder.appendingPathComponent(second.catalogPath)
        try FileManager.default.createDirectory(
            at: catalog.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: folder.appendingPathComponent("My Stickers StickerPackExtension/Stickers.xcstickers"), to: catalog)
        try FileManager.default.removeItem(
            at: catalog.appendingPathComponent("Sticker Pack.stickerpack/Heart.stickersequence"))
        try Self.edit(
            folder, second.catalogPath + "/Sticker Pack.stickerpack/Contents.json", "\"Heart.stickersequence\"",
            "\"Star.sticker\"")
        let other = try PackLoader.load(path: folder.appendingPathComponent("Other.xcodeproj").path)
        // Its list names Star twice: read once, with a warning.
        #expect(other.catalogFolder?.path == catalog.path && other.stickers.map(\.name) == ["Star"])
        #expect(other.warnings.contains { $0.message.contains("listed more than once") })
        let mine = try PackLoader.load(path: folder.appendingPathComponent("My Stickers.xcodeproj").path)
        #expect(mine.stickers.map(\.name) == ["Heart", "Star"])

        let images = FileManager.default.temporaryDirectory.appendingPathComponent("xcode-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: images) }
        try XcodeProjectWriter.write(StickerAppSpec(name: "Empty", bundleIdentifier: "com.example.empty"), to: images)
        try FileManager.default.copyItem(
            at: Self.repoRoot.appendingPathComponent("corpus/sample-pack/05-still-blob.png"),
            to: images.appendingPathComponent("blob.png"))
        let pack = try PackLoader.load(path: images.path)
        #expect(pack.origin == .folder && pack.stickers.map(\.name) == ["blob"] && pack.projectBundle == nil)
    }

    @Test("hostile project files: thousands of references, missing objects and bombs end in findings, bounded")
    func hostile() throws {
        // 20,000 references to missing files and 20,000 missing children: the findings stop at
        // 200, and the references' groups are mapped once, not once a reference.
        let folder = try Self.project()
        let references = (0..<20_000).map { String(format: "%024X", 0xF000_0000 + $0) }
        let missing = (0..<20_000).map { String(format: "%024X", 0xE000_0000 + $0) }
        let text = try String(contentsOf: folder.appendingPathComponent(Self.pbxproj), encoding: .utf8)
        let mainGroup = try #require(text.firstMatch(of: /mainGroup = ([0-9A-F]{24});/)?.1)
        try Self.edit(
            folder, Self.pbxproj, "\(mainGroup) = {\n\t\t\tisa = PBXGroup;\n\t\t\tchildren = (\n",
            "\(mainGroup) = {\n\t\t\tisa = PBXGroup;\n\t\t\tchildren = (\n"
                + (references + missing).map { "\t\t\t\t\($0),\n" }.joined())
        try Self.edit(
            folder, Self.pbxproj, "/* Begin PBXFileReference section */\n",
            "/* Begin PBXFileReference section */\n"
                + references.map {
                    "\t\t\($0) = {isa = PBXFileReference; path = Info.plist; sourceTree = \"<group>\"; };\n"
                }
                .joined())
        let findings = try Self.findings(folder)
        #expect(findings.count == 201, "the first 200, then one line for the rest")
        #expect(
            findings.last
                == "error [project] \(Self.pbxproj): more than 200 broken references; the rest are not listed")

        // An Info.plist nested past the limit, and identifiers that expand to megabytes.
        let bomb = try Self.project()
        try Data(
            ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict><key>A</key>"
                + String(repeating: "<array>", count: 40_000) + String(repeating: "</array>", count: 40_000)
                + "</dict></plist>\n").utf8
        ).write(to: bomb.appendingPathComponent(Self.extensionInfo))
        let long = String(repeating: "a", count: 60_000)
        try Self.edit(
            bomb, Self.pbxproj, "PRODUCT_BUNDLE_IDENTIFIER = com.example.mystickers;",
            "PRODUCT_BUNDLE_IDENTIFIER = \"\(String(repeating: "$(LONG)", count: 2_000))\"; LONG = \(long);")
        let bombFindings = try Self.findings(bomb)
        #expect(
            bombFindings.contains(
                "error [project] \(Self.extensionInfo): not an XML property list (or nested deeper than 32)"),
            "\(bombFindings.map { $0.prefix(200) })")
        #expect(bombFindings.allSatisfy { $0.utf8.count < 200_000 }, "expansions are cut at 64 KiB")
    }
}
