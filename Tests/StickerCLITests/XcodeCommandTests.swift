import Foundation
import StickerPack
import TestSupport
import Testing

/// `stickers xcode`: the project it writes read by parsers that share no code with ours (PyPI's
/// openstep-parser and pbxproj, Python's plistlib and ElementTree, in Tests/Scripts/
/// xcode_project.py), the same bytes from the same inputs, the options checked before anything
/// is written, and the project folder taken as a pack by every command that takes one.
@Suite(
    "stickers xcode", .timeLimit(.minutes(5)),
    .enabled(
        if: XcodeOracle.python != nil,
        "pbxproj and openstep-parser are not installed: make peer-deps puts them in .build-peers/xcode"))
struct XcodeCommandTests {
    static let name = "My Stickers"
    static let bundle = "My Stickers.xcodeproj"
    static let options = [
        "--name", name, "--bundle-id", "com.example.mystickers", "--team", "A1B2C3D4E5", "--app-version", "2.1.0",
        "--build", "7", "--deployment-target", "16.0", "--display-name", "Sea Stickers", "--copyright",
        "© 2026 Example & Co", "--size", "small", "--progress", "none"
    ]
    /// Two small stickers of the sample pack: a still and an animation.
    static var inputs: [String] {
        ["05-still-blob.png", "02-spinning-star.gif"].map { CLITests.samplePack.appendingPathComponent($0).path }
    }

    /// A project written from `inputs` with `options` into a new folder.
    static func write(_ inputs: [String] = inputs, options: [String] = options) throws -> URL {
        let folder = CLITests.temporaryDirectory()
        let result = try CLITests.runExecutable(["xcode"] + inputs + ["-o", folder.path] + options)
        try #require(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        return folder
    }

    /// Every file under `folder` by its relative path, with its bytes.
    static func tree(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = try #require(FileManager.default.enumerator(atPath: folder.path))
        while let path = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let url = folder.appendingPathComponent(path)
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[path] = try Data(contentsOf: url)
            }
        }
        return files
    }

    @Test("a deployment target given as a major version (017) is written as Xcode writes it, 17.0")
    func majorDeploymentTarget() throws {
        var options = Self.options
        options[options.firstIndex(of: "16.0")!] = "017"
        let folder = try Self.write(options: options)
        defer { try? FileManager.default.removeItem(at: folder) }
        let project = try String(
            contentsOf: folder.appendingPathComponent(Self.bundle).appendingPathComponent("project.pbxproj"),
            encoding: .utf8)
        #expect(project.contains("IPHONEOS_DEPLOYMENT_TARGET = 17.0;"))
        #expect(!project.contains("IPHONEOS_DEPLOYMENT_TARGET = 017"))
    }

    @Test(
        "the project's object graph, targets, phases, settings, plists and scheme, as independent parsers read them",
        .enabled(
            if: XcodeOracle.python != nil,
            "pbxproj and openstep-parser are not installed: make peer-deps puts them in .build-peers/xcode"))
    func oracle() throws {
        let folder = try Self.write()
        defer { try? FileManager.default.removeItem(at: folder) }
        let facts = try XcodeOracle.read(folder, bundle: Self.bundle)
        #expect(facts["dangling"] as? [String] == [], "every identifier names an object")
        #expect(facts["orphans"] as? [String] == [], "every object is reachable from the root")
        #expect(facts["round_trip_equal"] as? Bool == true, "pbxproj writes the same objects back")
        #expect(facts["pbxproj_targets"] as? [String] == [Self.name, "\(Self.name) StickerPackExtension"])
        // Every reference but the two products (built, not in the folder) points at a file that exists.
        let files = try #require(facts["files"] as? [[String: Any]])
        #expect(files.count == 5)
        for file in files {
            let path = file["path"] as? String ?? ""
            if path.hasSuffix(".app") || path.hasSuffix(".appex") {
                #expect(file["location"] is NSNull || file["location"] == nil, "\(file)")
            } else {
                #expect(file["location"] is String && file["exists"] as? Bool == true, "\(file)")
            }
        }
        let targets = try #require(facts["targets"] as? [[String: Any]])
        try #require(targets.count == 2)
        let (app, appex) = (targets[0], targets[1])
        #expect(app["name"] as? String == Self.name)
        #expect(app["productType"] as? String == "com.apple.product-type.application.messages")
        #expect(appex["name"] as? String == "\(Self.name) StickerPackExtension")
        #expect(appex["productType"] as? String == "com.apple.product-type.app-extension.messages-sticker-pack")
        #expect(app["dependencies"] as? [String] == [appex["id"] as? String].compactMap { $0 })

        // The app embeds the extension's product in Plug-ins; the extension's resources hold the catalog.
        let appPhases = try #require(app["phases"] as? [[String: Any]])
        let embed = appPhases.first { $0["isa"] as? String == "PBXCopyFilesBuildPhase" }
        #expect(embed?["dstSubfolderSpec"] as? String == "13")
        #expect(embed?["files"] as? [String] == [appex["productReference"] as? String].compactMap { $0 })
        #expect(appex["product_path"] as? String == "\(Self.name) StickerPackExtension.appex")
        let extensionPhases = try #require(appex["phases"] as? [[String: Any]])
        #expect(
            extensionPhases.map { $0["isa"] as? String } == ["PBXResourcesBuildPhase"]
                && extensionPhases[0]["file_paths"] as? [String] == ["Stickers.xcstickers"])

        // Build settings as asked.
        let appSettings = try #require(app["settings"] as? [String: Any])
        let extensionSettings = try #require(appex["settings"] as? [String: Any])
        #expect(appSettings["PRODUCT_BUNDLE_IDENTIFIER"] as? String == "com.example.mystickers")
        #expect(
            extensionSettings["PRODUCT_BUNDLE_IDENTIFIER"] as? String == "com.example.mystickers.StickerPackExtension")
        for settings in [appSettings, extensionSettings] {
            #expect(settings["DEVELOPMENT_TEAM"] as? String == "A1B2C3D4E5")
            #expect(settings["MARKETING_VERSION"] as? String == "2.1.0")
            #expect(settings["CURRENT_PROJECT_VERSION"] as? String == "7")
            #expect(settings["IPHONEOS_DEPLOYMENT_TARGET"] as? String == "16.0")
            #expect(settings["ASSETCATALOG_COMPILER_APPICON_NAME"] as? String == "iMessage App Icon")
            #expect(settings["SDKROOT"] as? String == "iphoneos")
        }
        #expect(extensionSettings["SKIP_INSTALL"] as? String == "YES")
        let catalog = folder.appendingPathComponent("\(Self.name) StickerPackExtension/Stickers.xcstickers")
        #expect(
            FileManager.default.fileExists(
                atPath: catalog.appendingPathComponent("iMessage App Icon.stickersiconset/Contents.json").path))
        let pack = try JSONSerialization.jsonObject(
            with: Data(contentsOf: catalog.appendingPathComponent("Sticker Pack.stickerpack/Contents.json")))
        #expect((pack as? [String: Any])?["properties"] as? [String: String] == ["grid-size": "small"])

        // Both Info.plists through plistlib.
        let plists = try #require(facts["plists"] as? [String: [String: Any]])
        let extensionPlist = try #require(plists["\(Self.name) StickerPackExtension"])
        #expect(
            extensionPlist["NSExtension"] as? [String: String] == [
                "NSExtensionPointIdentifier": "com.apple.message-payload-provider",
                "NSExtensionPrincipalClass": "StickerBrowserViewController"
            ])
        for plist in [try #require(plists[Self.name]), extensionPlist] {
            #expect(plist["CFBundleDisplayName"] as? String == "Sea Stickers")
            #expect(plist["NSHumanReadableCopyright"] as? String == "© 2026 Example & Co")
            #expect(plist["CFBundleIdentifier"] as? String == "$(PRODUCT_BUNDLE_IDENTIFIER)")
            #expect(plist["CFBundleShortVersionString"] as? String == "$(MARKETING_VERSION)")
            #expect(plist["CFBundleVersion"] as? String == "$(CURRENT_PROJECT_VERSION)")
        }

        // The shared scheme builds both targets by their identifiers, and runs in Messages.
        let scheme = try #require(facts["scheme"] as? [String: Any])
        #expect(scheme["file"] as? String == "\(Self.bundle)/xcshareddata/xcschemes/\(Self.name).xcscheme")
        #expect(
            scheme["build_blueprints"] as? [String]
                == [appex["id"] as? String, app["id"] as? String].compactMap { $0 })
        #expect(scheme["containers"] as? [String] == ["container:\(Self.bundle)"])
        #expect(scheme["remote_bundle"] as? String == "com.apple.MobileSMS")
    }

    @Test(
        "a name with '&', '<', an apostrophe and accents is quoted and escaped where each format needs it",
        .enabled(
            if: XcodeOracle.python != nil,
            "pbxproj and openstep-parser are not installed: make peer-deps puts them in .build-peers/xcode"))
    func awkwardName() throws {
        let name = "Café & Co's <Stickers>"
        let sample = CLITests.repoRoot.appendingPathComponent("corpus/Sample.xcstickers")
        let folder = try Self.write(
            [sample.path], options: ["--no-fit", "--name", name, "--bundle-id", "com.example.cafe"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let facts = try XcodeOracle.read(folder, bundle: "\(name).xcodeproj")
        #expect(facts["dangling"] as? [String] == [] && facts["orphans"] as? [String] == [])
        #expect(facts["round_trip_equal"] as? Bool == true)
        #expect(facts["pbxproj_targets"] as? [String] == [name, "\(name) StickerPackExtension"])
        let targets = try #require(facts["targets"] as? [[String: Any]])
        #expect(targets.map { $0["product_path"] as? String } == ["\(name).app", "\(name) StickerPackExtension.appex"])
        let scheme = try #require(facts["scheme"] as? [String: Any])
        #expect(scheme["containers"] as? [String] == ["container:\(name).xcodeproj"])
        let plists = try #require(facts["plists"] as? [String: [String: Any]])
        #expect(plists[name]?["CFBundleDisplayName"] as? String == name)
        let validate = try CLITests.runExecutable(["validate", folder.path])
        #expect(validate.status == 0, "\(validate.stdout)")
    }

    @Test("the same inputs give the same bytes; rewriting replaces the project and leaves other files")
    func deterministic() throws {
        let first = try Self.write()
        let second = try Self.write()
        defer {
            try? FileManager.default.removeItem(at: first)
            try? FileManager.default.removeItem(at: second)
        }
        let tree = try Self.tree(first)
        #expect(tree.keys.contains("\(Self.bundle)/project.pbxproj") && tree.count > 20)
        #expect(tree == (try Self.tree(second)))

        try Data("notes".utf8).write(to: first.appendingPathComponent("NOTES.md"))
        let again = try CLITests.runExecutable(["xcode"] + Self.inputs + ["-o", first.path] + Self.options)
        #expect(again.status == 0, "\(again.stderr)")
        var expected = tree
        expected["NOTES.md"] = Data("notes".utf8)
        #expect(try Self.tree(first) == expected, "the project's folders replaced whole, NOTES.md kept")
    }

    @Test(
        "--version among a command's arguments (meant as the app's version) is a usage error naming --app-version, with nothing written; alone it prints the tool's version"
    )
    func versionAmongArguments() throws {
        let folder = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sample = CLITests.repoRoot.appendingPathComponent("corpus/Sample.xcstickers")
        let output = folder.appendingPathComponent("Sea")
        let misused = try CLITests.runExecutable([
            "xcode", sample.path, "--no-fit", "-o", output.path, "--name", "Sea", "--bundle-id", "com.example.sea",
            "--version", "1.2"
        ])
        #expect(misused.status == 64 && misused.stderr.contains("--app-version"), "\(misused.stderr)")
        #expect(misused.stdout.isEmpty && !FileManager.default.fileExists(atPath: output.path))
        let fit = try CLITests.runExecutable(["fit", sample.path, "--dry-run", "--version"])
        #expect(fit.status == 64 && fit.stderr.contains("stickers fit was not run"), "\(fit.stderr)")
        for alone in [["--version"], ["xcode", "--version"], ["help", "--version"], ["fit", "--help", "--version"]] {
            let version = try CLITests.runExecutable(alone)
            #expect(version.status == 0, "\(alone): \(version)")
            if !alone.contains(where: { $0.contains("help") }) {
                #expect(version.stdout.firstMatch(of: #/^\d+\.\d+\.\d+\n$/#) != nil, "\(version)")
            }
        }
    }

    @Test(
        "what the project does not write is never replaced: a folder of the app's name holding other files, the input images, a project from elsewhere, a catalog's inside"
    )
    func foreignFoldersKept() throws {
        let folder = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manager = FileManager.default
        func run(_ arguments: [String]) throws -> (status: Int32, stderr: String) {
            let result = try CLITests.runExecutable(["xcode"] + arguments + ["--bundle-id", "com.example.app"])
            return (result.status, result.stderr)
        }
        // A user's folder that happens to carry the app's name.
        let work = folder.appendingPathComponent("work")
        try manager.createDirectory(at: work.appendingPathComponent("Photos/src"), withIntermediateDirectories: true)
        try Data("code".utf8).write(to: work.appendingPathComponent("Photos/src/main.swift"))
        try Data("thesis".utf8).write(to: work.appendingPathComponent("Photos/thesis.docx"))
        let before = try Self.tree(work)
        let named = try run(Self.inputs + ["-o", work.path, "--name", "Photos"])
        #expect(named.status == 1, "\(named.stderr)")
        #expect(
            named.stderr.contains(
                "\(work.path)/Photos: holds files this project does not write (src, thesis.docx), so it is not replaced"
            ),
            "\(named.stderr)")
        #expect(try Self.tree(work) == before, "nothing written, nothing removed")
        #expect(try manager.contentsOfDirectory(atPath: work.path) == ["Photos"], "no staging left")

        // The input images themselves, in the folder the project's app folder would replace.
        let art = work.appendingPathComponent("art")
        try manager.createDirectory(at: art, withIntermediateDirectories: true)
        try manager.copyItem(at: URL(fileURLWithPath: Self.inputs[0]), to: art.appendingPathComponent("blob.png"))
        let input = try run([art.path, "-o", work.path, "--name", "art"])
        #expect(input.status == 1 && input.stderr.contains("(blob.png)"), "\(input.stderr)")
        #expect(manager.fileExists(atPath: art.appendingPathComponent("blob.png").path))

        // A project of that name that this command did not write.
        let foreign = work.appendingPathComponent("Other.xcodeproj")
        try manager.createDirectory(at: foreign, withIntermediateDirectories: true)
        let text =
            "// !$*UTF8*$!\n{ archiveVersion = 1; objects = { 0123456789ABCDEF01234567 = { isa = PBXProject; }; }; rootObject = 0123456789ABCDEF01234567; }\n"
        try Data(text.utf8).write(to: foreign.appendingPathComponent("project.pbxproj"))
        let other = try run(Self.inputs + ["-o", work.path, "--name", "Other"])
        #expect(
            other.status == 1 && other.stderr.contains("is a project this command did not write"), "\(other.stderr)")
        #expect(try String(contentsOf: foreign.appendingPathComponent("project.pbxproj"), encoding: .utf8) == text)

        // A file where the project puts a folder.
        try Data("notes".utf8).write(to: work.appendingPathComponent("Notes"))
        let file = try run(Self.inputs + ["-o", work.path, "--name", "Notes"])
        #expect(file.status == 1 && file.stderr.contains("Notes: is a file, not a folder"), "\(file.stderr)")
        #expect(try String(contentsOf: work.appendingPathComponent("Notes"), encoding: .utf8) == "notes")

        // Inside a sticker catalog.
        let catalog = folder.appendingPathComponent("In.xcstickers")
        try manager.copyItem(at: CLITests.repoRoot.appendingPathComponent("corpus/Sample.xcstickers"), to: catalog)
        let inside = try run([
            catalog.path, "--no-fit", "-o", catalog.appendingPathComponent("App").path, "--name", "App"
        ])
        #expect(inside.status == 1 && inside.stderr.contains("is inside the sticker catalog"), "\(inside.stderr)")
        #expect(!manager.fileExists(atPath: catalog.appendingPathComponent("App").path))
        // Through a link to the catalog.
        let link = folder.appendingPathComponent("link")
        try manager.createSymbolicLink(atPath: link.path, withDestinationPath: catalog.path)
        let linked = try run([catalog.path, "--no-fit", "-o", link.appendingPathComponent("App").path, "--name", "App"])
        #expect(linked.status == 1 && linked.stderr.contains("is inside the sticker catalog"), "\(linked.stderr)")
        #expect(!manager.fileExists(atPath: catalog.appendingPathComponent("App").path))
    }

    @Test(
        "a DIR that exists in a folder that cannot be written (a volume mounted for CI) takes the project, staged inside DIR, written and written again"
    )
    func parentNotWritable() throws {
        let root = CLITests.temporaryDirectory()
        let locked = root.appendingPathComponent("locked")
        let out = locked.appendingPathComponent("out")
        let manager = FileManager.default
        try manager.createDirectory(at: out, withIntermediateDirectories: true)
        try manager.createDirectory(at: root.appendingPathComponent("in"), withIntermediateDirectories: true)
        defer {
            chmod(locked.path, 0o755)
            try? manager.removeItem(at: root)
        }
        // Inputs the unprivileged user may read.
        let inputs = try Self.inputs.map { path in
            let copy = root.appendingPathComponent("in").appendingPathComponent(
                URL(fileURLWithPath: path).lastPathComponent)
            try manager.copyItem(atPath: path, toPath: copy.path)
            return copy.path
        }
        for (path, mode) in [(out.path, 0o777), (locked.path, 0o555)] { #expect(chmod(path, mode_t(mode)) == 0) }
        for run in 1...2 {
            let result = try CLITests.runUnprivileged(
                ["xcode"] + inputs + ["-o", out.path] + Self.options, programIn: root)
            #expect(result.status == 0, "run \(run): \(result.stdout)\n\(result.stderr)")
            let entries = try manager.contentsOfDirectory(atPath: out.path).sorted()
            #expect(entries == [Self.name, Self.name + " StickerPackExtension", Self.bundle], "run \(run): \(entries)")
            #expect(try manager.contentsOfDirectory(atPath: locked.path) == ["out"], "run \(run)")
        }
        let project = out.appendingPathComponent(Self.bundle).appendingPathComponent("project.pbxproj")
        #expect(manager.fileExists(atPath: project.path))
    }

    @Test(
        "written again, a project keeps what Xcode and its user added in the bundle (per-user state, workspace checks, a scheme of their own) and writes its own files anew"
    )
    func keepsXcodeState() throws {
        let folder = try Self.write()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = folder.appendingPathComponent(Self.bundle)
        let written = try Self.tree(folder)
        let added = [
            "xcuserdata/dev.xcuserdatad/xcschemes/xcschememanagement.plist",
            "project.xcworkspace/xcshareddata/IDEWorkspaceChecks.plist",
            "project.xcworkspace/xcuserdata/dev.xcuserdatad/UserInterfaceState.xcuserstate",
            "xcshareddata/xcschemes/Other.xcscheme"
        ]
        for (index, path) in added.enumerated() {
            let url = bundle.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("added \(index)".utf8).write(to: url)
        }
        // A file the command writes, edited: written anew.
        try Data("edited".utf8).write(to: bundle.appendingPathComponent("xcshareddata/xcschemes/\(Self.name).xcscheme"))
        let again = try CLITests.runExecutable(["xcode"] + Self.inputs + ["-o", folder.path] + Self.options)
        #expect(again.status == 0, "\(again.stderr)")
        var expected = written
        for (index, path) in added.enumerated() { expected["\(Self.bundle)/\(path)"] = Data("added \(index)".utf8) }
        #expect(try Self.tree(folder) == expected)
        // What cannot be carried (a FIFO) keeps the project as it is, named.
        #expect(mkfifo(bundle.appendingPathComponent("xcuserdata/pipe").path, 0o644) == 0)
        let refused = try CLITests.runExecutable(["xcode"] + Self.inputs + ["-o", folder.path] + Self.options)
        #expect(
            refused.status == 1 && refused.stderr.contains("xcuserdata/pipe is neither a file nor a link"),
            "\(refused.stderr)")
        try FileManager.default.removeItem(at: bundle.appendingPathComponent("xcuserdata/pipe"))
        #expect(try Self.tree(folder) == expected)
    }

    @Test("a project written again under a new name names the project left beside it, and no other")
    func renamedProject() throws {
        let sample = CLITests.repoRoot.appendingPathComponent("corpus/Sample.xcstickers")
        let folder = try Self.write(
            [sample.path], options: ["--no-fit", "--name", "One", "--bundle-id", "org.example.one"])
        defer { try? FileManager.default.removeItem(at: folder) }
        // A project from elsewhere: its root object's identifier is not the one ours would have.
        let foreign = folder.appendingPathComponent("Foreign.xcodeproj")
        try FileManager.default.createDirectory(at: foreign, withIntermediateDirectories: true)
        try Data(
            "// !$*UTF8*$!\n{ archiveVersion = 1; objects = { 0123456789ABCDEF01234567 = { isa = PBXProject; }; }; rootObject = 0123456789ABCDEF01234567; }\n"
                .utf8
        ).write(to: foreign.appendingPathComponent("project.pbxproj"))
        let again = try CLITests.runExecutable(
            ["xcode", sample.path, "--no-fit", "-o", folder.path, "--name", "One", "--bundle-id", "org.example.one"])
        #expect(again.status == 0 && !again.stderr.contains("also holds"), "\(again.stderr)")
        let renamed = try CLITests.runExecutable(
            ["xcode", sample.path, "--no-fit", "-o", folder.path, "--name", "Two", "--bundle-id", "org.example.two"])
        #expect(renamed.status == 0, "\(renamed.stdout)\(renamed.stderr)")
        #expect(renamed.stderr.contains("also holds One.xcodeproj"), "\(renamed.stderr)")
        #expect(!renamed.stderr.contains("Foreign"), "\(renamed.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("One.xcodeproj").path))
    }

    @Test("--no-fit copies the catalog as it is")
    func noFit() throws {
        let sample = CLITests.repoRoot.appendingPathComponent("corpus/Sample.xcstickers")
        let folder = try Self.write(
            [sample.path], options: ["--no-fit", "--name", "Sample", "--bundle-id", "org.example.sample"])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(
            try Self.tree(folder.appendingPathComponent("Sample StickerPackExtension/Stickers.xcstickers"))
                == Self.tree(sample))
    }

    /// The sample catalog copied into a new folder as `name` and changed by `change` (given the
    /// folder and the catalog), then `xcode --no-fit` of it into the folder's `out`. The caller
    /// removes the folder.
    static func noFitCopy(_ name: String, _ change: (_ work: URL, _ catalog: URL) throws -> Void) throws -> (
        work: URL, catalog: URL, out: URL, result: (status: Int32, stdout: String, stderr: String)
    ) {
        let work = CLITests.temporaryDirectory()
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let catalog = work.appendingPathComponent(name)
        try FileManager.default.copyItem(
            at: CLITests.repoRoot.appendingPathComponent("corpus/Sample.xcstickers"), to: catalog)
        try change(work, catalog)
        let out = work.appendingPathComponent("out")
        let result = try CLITests.runExecutable([
            "xcode", catalog.path, "--no-fit", "-o", out.path, "--name", "Sample", "--bundle-id", "org.example.sample"
        ])
        return (work, catalog, out, result)
    }

    @Test("--no-fit copies the files a catalog's links point to, so the project holds no link")
    func noFitFollowsLinks() throws {
        let sample = CLITests.repoRoot.appendingPathComponent("corpus/Sample.xcstickers")
        let (work, _, out, result) = try Self.noFitCopy("Linked.xcstickers") { work, catalog in
            let art = work.appendingPathComponent("art")
            try FileManager.default.createDirectory(at: art, withIntermediateDirectories: true)
            let pack = catalog.appendingPathComponent("Sticker Pack.stickerpack")
            // A frame linked to a file beside the catalog, and a whole sticker folder linked.
            let frame = pack.appendingPathComponent("Heart.stickersequence/heart-03.png")
            try FileManager.default.moveItem(at: frame, to: art.appendingPathComponent("heart-03.png"))
            try FileManager.default.createSymbolicLink(
                atPath: frame.path, withDestinationPath: "../../../art/heart-03.png")
            let star = pack.appendingPathComponent("Star.sticker")
            try FileManager.default.moveItem(at: star, to: art.appendingPathComponent("Star.sticker"))
            try FileManager.default.createSymbolicLink(atPath: star.path, withDestinationPath: "../../art/Star.sticker")
        }
        defer { try? FileManager.default.removeItem(at: work) }
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let copied = out.appendingPathComponent("Sample StickerPackExtension/Stickers.xcstickers")
        #expect(try Self.tree(copied) == Self.tree(sample), "the linked files' bytes, under the links' names")
        let enumerator = try #require(FileManager.default.enumerator(atPath: out.path))
        while let path = enumerator.nextObject() as? String {
            let type = try FileManager.default.attributesOfItem(atPath: out.appendingPathComponent(path).path)[.type]
            #expect(type as? FileAttributeType != .typeSymbolicLink, "\(path) is a link")
        }
    }

    @Test(
        "--no-fit refuses a catalog whose link leads back to a folder holding it, or above it, and writes nothing",
        arguments: ["..", "../..", "/"])
    func noFitLinkLoop(destination: String) throws {
        let (work, _, out, result) = try Self.noFitCopy("Loop.xcstickers") { _, catalog in
            let loop = catalog.appendingPathComponent("Sticker Pack.stickerpack/Loop.sticker")
            try FileManager.default.createSymbolicLink(atPath: loop.path, withDestinationPath: destination)
        }
        defer { try? FileManager.default.removeItem(at: work) }
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("Loop.sticker: links to a folder that holds it"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path), "nothing written")
    }

    @Test(
        "--no-fit refuses links that fan out (two links to one folder, each level's two links to the next) and writes nothing"
    )
    func noFitLinkFanOut() throws {
        let (work, _, out, result) = try Self.noFitCopy("Fan.xcstickers") { work, catalog in
            // Twenty levels of two links each to the next would copy the last folder 2^20 times
            // (named as sticker folders, which the copy follows).
            let fan = work.appendingPathComponent("fan")
            for level in 0...20 {
                try FileManager.default.createDirectory(
                    at: fan.appendingPathComponent("d\(level)"), withIntermediateDirectories: true)
            }
            for level in 0..<20 {
                for link in ["a.sticker", "b.sticker"] {
                    try FileManager.default.createSymbolicLink(
                        atPath: fan.appendingPathComponent("d\(level)/\(link)").path,
                        withDestinationPath: fan.appendingPathComponent("d\(level + 1)").path)
                }
            }
            try FileManager.default.createSymbolicLink(
                atPath: catalog.appendingPathComponent("junk.sticker").path,
                withDestinationPath: fan.appendingPathComponent("d0").path)
        }
        defer { try? FileManager.default.removeItem(at: work) }
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("which is copied already"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path), "nothing written")
    }

    @Test(
        "--no-fit copies only what a catalog uses: a link to a file of secrets, a linked folder of them and a stray file are left out, named"
    )
    func noFitLeavesOutWhatIsNotCatalog() throws {
        let (work, catalog, out, result) = try Self.noFitCopy("Stray.xcstickers") { work, catalog in
            let secrets = work.appendingPathComponent("home/.ssh")
            try FileManager.default.createDirectory(at: secrets, withIntermediateDirectories: true)
            try Data("PRIVATE KEY".utf8).write(to: secrets.appendingPathComponent("id_rsa"))
            try FileManager.default.createSymbolicLink(
                atPath: catalog.appendingPathComponent("key").path,
                withDestinationPath: secrets.appendingPathComponent("id_rsa").path)
            try FileManager.default.createSymbolicLink(
                atPath: catalog.appendingPathComponent("Sticker Pack.stickerpack/Star.sticker/ssh").path,
                withDestinationPath: secrets.path)
            try Data("notes".utf8).write(to: catalog.appendingPathComponent("notes.txt"))
            try Data("finder".utf8).write(to: catalog.appendingPathComponent(".DS_Store"))
            // An image the catalog names without an extension is the catalog's all the same.
            let star = catalog.appendingPathComponent("Sticker Pack.stickerpack/Star.sticker")
            try FileManager.default.moveItem(
                at: star.appendingPathComponent("star.png"), to: star.appendingPathComponent("star"))
            let contents = star.appendingPathComponent("Contents.json")
            let json = try String(contentsOf: contents, encoding: .utf8)
            try #require(json.contains("\"star.png\""))
            try json.replacingOccurrences(of: "\"star.png\"", with: "\"star\"").write(
                to: contents, atomically: true, encoding: .utf8)
        }
        defer { try? FileManager.default.removeItem(at: work) }
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let copied = out.appendingPathComponent("Sample StickerPackExtension/Stickers.xcstickers")
        let sample = CLITests.repoRoot.appendingPathComponent("corpus/Sample.xcstickers")
        var expected = try Self.tree(sample)
        expected["Sticker Pack.stickerpack/Star.sticker/star"] = expected.removeValue(
            forKey: "Sticker Pack.stickerpack/Star.sticker/star.png")
        expected["Sticker Pack.stickerpack/Star.sticker/Contents.json"] = try Data(
            contentsOf: catalog.appendingPathComponent("Sticker Pack.stickerpack/Star.sticker/Contents.json"))
        #expect(try Self.tree(copied) == expected, "the catalog's own files, nothing else")
        for left in ["key", "Sticker Pack.stickerpack/Star.sticker/ssh", "notes.txt"] {
            #expect(
                result.stderr.contains(
                    "warning: \(catalog.path)/\(left): left out of the copy, not a file or folder a sticker catalog uses"
                ),
                "\(result.stderr)")
        }
        #expect(!result.stderr.contains(".DS_Store"), "hidden files are left out without a word")
    }

    @Test("--no-fit leaves out a link that points nowhere, with a warning naming it")
    func noFitDanglingLink() throws {
        let (work, catalog, out, result) = try Self.noFitCopy("Dead.xcstickers") { _, catalog in
            try FileManager.default.createSymbolicLink(
                atPath: catalog.appendingPathComponent("Sticker Pack.stickerpack/notes.txt").path,
                withDestinationPath: "../gone/notes.txt")
        }
        defer { try? FileManager.default.removeItem(at: work) }
        let dead = catalog.appendingPathComponent("Sticker Pack.stickerpack/notes.txt")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stderr.contains("warning: \(dead.path): a link to nothing, left out of the copy"), "\(result.stderr)"
        )
        let copied = out.appendingPathComponent("Sample StickerPackExtension/Stickers.xcstickers")
        #expect(
            try Self.tree(copied) == Self.tree(CLITests.repoRoot.appendingPathComponent("corpus/Sample.xcstickers")))
    }

    @Test("--no-fit with options that only fitting uses is a usage error naming them, nothing written")
    func noFitWithFitOptions() throws {
        let sample = CLITests.repoRoot.appendingPathComponent("corpus/Sample.xcstickers")
        let folder = CLITests.temporaryDirectory()
        let result = try CLITests.runExecutable([
            "xcode", sample.path, "-o", folder.path, "--no-fit", "--name", "Sample", "--bundle-id",
            "org.example.sample", "--max-bytes", "200000", "--strict"
        ])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(
            result.stderr.contains("--max-bytes, --strict apply to fitting, which --no-fit leaves out"),
            "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path), "nothing written")
    }

    @Test(
        "options App Store Connect would refuse are errors before anything is written",
        arguments: [
            (["--bundle-id", "com.example.my_stickers"], "has '_'; only letters, digits, '-' and '.' are allowed"),
            (["--app-version", "1.0-beta"], "is not one to three integers separated by periods"),
            (["--build", "1.2.3.4"], "is not one to three integers separated by periods"),
            (["--build", "-1"], "The build \"-1\" is not one to three integers"),
            (["--app-version", "-2"], "\"-2\" is not one to three integers"),
            (["--display-name", " "], "The display name is empty"),
            (["--deployment-target", "9.0"], "is before iOS 10, which has no Messages apps"),
            (["--name", "a/b"], "cannot name a project"),
            (["--name", "$(HOME)"], "cannot name a project"),
            (["--team", "A1B2C3"], "is not a team identifier (ten capital letters and digits"),
            (["--display-name", "$(HOME)"], "holds \"$(\", which Xcode expands as a build setting"),
            (["--copyright", "(c) $(USER)"], "holds \"$(\", which Xcode expands as a build setting"),
            (["--display-name", "${PRODUCT_NAME}"], "holds \"${\", which Xcode expands as a build setting"),
            (["--copyright", "a\u{1}b"], "\"a?b\" holds a control character (shown as ?)"),
            (["--display-name", "Two\r\nlines"], "holds a control character"),
            (["--name", "ab\u{FFFE}"], "cannot name a project"),
            (["--name", "Trailing "], "starts or ends with a space"),
            // "é" is two bytes: 112 of them are 224 bytes, one over the 223 that keep
            // "NAME StickerPackExtension.appex.dSYM" (32 bytes more) within 255.
            (["--name", String(repeating: "é", count: 112)], "name is 224 bytes; at most 223"),
            (["--name", "Back\\slash"], "no '/', '\\', '$', double quotes")
        ])
    func refusedOptions(change: [String], message: String) throws {
        var options = ["--name", "Good", "--bundle-id", "com.example.good", "--progress", "none"]
        for pair in stride(from: 0, to: change.count, by: 2) {
            if let index = options.firstIndex(of: change[pair]) {
                options[index + 1] = change[pair + 1]
            } else {
                options += [change[pair], change[pair + 1]]
            }
        }
        let folder = CLITests.temporaryDirectory()
        let result = try CLITests.runExecutable(["xcode"] + Self.inputs + ["-o", folder.path] + options)
        #expect(result.status == 64, "a usage error")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path), "nothing written")
    }

    @Test("when no sticker can be made, nothing is written, no staging is left, and the exit status is 1")
    func nothingMade() throws {
        let folder = CLITests.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = folder.appendingPathComponent("broken.png")
        try Data("not a PNG at all".utf8).write(to: broken)
        let result = try CLITests.runExecutable([
            "xcode", broken.path, "-o", folder.appendingPathComponent("App").path, "--name", "App", "--bundle-id",
            "com.example.app", "--progress", "none"
        ])
        #expect(result.status == 1, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("nothing written: no sticker could be fitted"), "\(result.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["broken.png"])
    }

    @Test("validate, render, sheet, preview, transcript and review take the project folder as its catalog's pack")
    func projectAsPack() throws {
        let sample = CLITests.repoRoot.appendingPathComponent("corpus/Sample.xcstickers")
        let folder = try Self.write(
            [sample.path], options: ["--no-fit", "--name", "Sample", "--bundle-id", "org.example.sample"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let validate = try CLITests.runExecutable(["validate", folder.path])
        #expect(validate.status == 0 && validate.stdout.hasPrefix("pack Sample: 2 stickers"), "\(validate.stdout)")
        for command in ["render", "sheet", "transcript"] {
            for (source, name) in [(folder.path, "project"), (sample.path, "catalog")] {
                let result = try CLITests.runExecutable([
                    command, source, "-o", out.appendingPathComponent("\(command)-\(name).png").path
                ])
                #expect(result.status == 0, "\(command) \(name): \(result.stderr)")
            }
            #expect(
                try Data(contentsOf: out.appendingPathComponent("\(command)-project.png"))
                    == Data(contentsOf: out.appendingPathComponent("\(command)-catalog.png")), "\(command)")
        }
        let previews = try [folder.path, sample.path].map { source in
            try CLITests.runExecutable(["preview", source, "--width", "40", "--height", "10", "--colors", "truecolor"])
        }
        #expect(previews[0].status == 0 && !previews[0].stdout.isEmpty && previews[0].stdout == previews[1].stdout)

        // A broken rule shows in validate (exit 1) and on the review page.
        let pbxproj = folder.appendingPathComponent("Sample.xcodeproj/project.pbxproj")
        let text = try String(contentsOf: pbxproj, encoding: .utf8)
        try text.replacingOccurrences(of: "org.example.sample.StickerPackExtension", with: "org.other.ext").write(
            to: pbxproj, atomically: true, encoding: .utf8)
        let broken = try CLITests.runExecutable(["validate", folder.path])
        #expect(broken.status == 1)
        #expect(
            broken.stdout.contains(
                "error [bundle-identifier] Sample StickerPackExtension/Info.plist: the extension's CFBundleIdentifier \"org.other.ext\" does not extend the app's \"org.example.sample\""
            ), "\(broken.stdout)")
        let review = try CLITests.runExecutable([
            "review", folder.path, "-o", out.appendingPathComponent("review").path, "--progress", "none"
        ])
        #expect(review.status == 1, "\(review.stdout)\n\(review.stderr)")
        let page = try String(contentsOf: out.appendingPathComponent("review/index.html"), encoding: .utf8)
        #expect(page.contains("does not extend the app&#39;s") || page.contains("does not extend the app's"))
    }
}

/// The Python with PyPI's pbxproj and openstep-parser that `make peer-deps` installs.
enum XcodeOracle {
    static let python: String? = {
        let path = CLITests.repoRoot.appendingPathComponent(".build-peers/xcode/bin/python").path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }()

    /// What Tests/Scripts/xcode_project.py reads in the project.
    static func read(_ folder: URL, bundle: String) throws -> [String: Any] {
        let script = CLITests.repoRoot.appendingPathComponent("Tests/Scripts/xcode_project.py").path
        let output = try TestProcess.capture([try #require(python), script, folder.path, bundle])
        try #require(output.status == 0, "xcode_project.py: \(output.stderr)")
        return try #require(JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
    }
}
