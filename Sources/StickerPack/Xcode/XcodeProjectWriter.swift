import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Writes a Sticker Pack App project as Xcode's template lays one out: a Messages app target
/// (`com.apple.product-type.application.messages`) with no code, embedding a sticker pack
/// extension (`com.apple.product-type.app-extension.messages-sticker-pack`) whose resources are
/// the catalog `NAME StickerPackExtension/Stickers.xcstickers`, both targets' `Info.plist`, and a
/// shared scheme so `xcodebuild -scheme NAME` works without opening Xcode. Identifiers come from
/// the names, so the same spec gives the same bytes.
///
/// ```
/// NAME.xcodeproj/project.pbxproj
/// NAME.xcodeproj/project.xcworkspace/contents.xcworkspacedata
/// NAME.xcodeproj/xcshareddata/xcschemes/NAME.xcscheme
/// NAME/Info.plist
/// NAME StickerPackExtension/Info.plist
/// NAME StickerPackExtension/Stickers.xcstickers/   (written by CatalogWriter)
/// ```
public enum XcodeProjectWriter {
    /// One file of the project: its path in the project folder and its bytes.
    public struct File: Sendable, Hashable {
        /// The path relative to the project folder.
        public var path: String
        /// The contents.
        public var bytes: [UInt8]
    }

    /// The format version written (Xcode 14 and later open it as it is).
    public static let objectVersion = "56"
    /// The icon set both targets take their icons from.
    public static let iconSetName = "iMessage App Icon"

    /// Every file of the project but the catalog, which goes to ``StickerAppSpec/catalogPath``.
    public static func files(for spec: StickerAppSpec) -> [File] {
        let scheme = "\(spec.projectBundleName)/xcshareddata/xcschemes/\(spec.name).xcscheme"
        return [
            File(path: "\(spec.projectBundleName)/project.pbxproj", bytes: Array(projectText(spec).utf8)),
            File(
                path: "\(spec.projectBundleName)/project.xcworkspace/contents.xcworkspacedata",
                bytes: Array(workspaceText.utf8)),
            File(path: scheme, bytes: Array(schemeText(spec).utf8)),
            File(path: "\(spec.name)/Info.plist", bytes: Array(appInfo(spec).document.utf8)),
            File(path: "\(spec.extensionName)/Info.plist", bytes: Array(extensionInfo(spec).document.utf8))
        ]
    }

    /// Writes ``files(for:)`` under `folder`, creating folders as needed.
    public static func write(_ spec: StickerAppSpec, to folder: URL) throws {
        for file in files(for: spec) {
            let url = folder.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.bytes).write(to: url)
        }
    }

    /// The folders of a project bundle where Xcode and its user add files of their own: per-user
    /// state (`xcuserdata`), the workspace's checks and settings, shared schemes.
    static let xcodeStateFolders = ["xcuserdata", "project.xcworkspace", "xcshareddata"]

    /// Copies into `new` (a project bundle about to replace `old`) every file of `old`'s
    /// `xcodeStateFolders` that `new` has no file at, so writing a project again keeps what
    /// Xcode and its user added there (breakpoints, a scheme of their own, the workspace's
    /// checks). The files this writer writes are written anew. Regular files and links are
    /// carried, folders walked; anything else, a folder that cannot be listed, more than
    /// `limit` files or folders nested over 32 deep throw (``XcodeStateError``), so nothing of
    /// the user's is lost without a word. The paths carried, sorted.
    @discardableResult
    public static func carryXcodeState(from old: URL, into new: URL, limit: Int = 10_000) throws -> [String] {
        let manager = FileManager.default
        var carried: [String] = []
        func carry(_ relative: String, depth: Int) throws {
            let source = old.appendingPathComponent(relative)
            var status = stat()
            guard lstat(source.path, &status) == 0 else { return }
            let kind = status.st_mode & S_IFMT
            if kind == S_IFDIR {
                guard depth < 32 else { throw XcodeStateError("\(relative) is nested over 32 folders deep") }
                guard let names = try? manager.contentsOfDirectory(atPath: source.path) else {
                    throw XcodeStateError("\(relative) cannot be listed")
                }
                for name in names.sorted() { try carry(relative + "/" + name, depth: depth + 1) }
                return
            }
            guard kind == S_IFREG || kind == S_IFLNK else {
                throw XcodeStateError("\(relative) is neither a file nor a link")
            }
            guard carried.count < limit else { throw XcodeStateError("it holds over \(limit) files of Xcode's") }
            let target = new.appendingPathComponent(relative)
            guard lstat(target.path, &status) != 0 else { return }
            try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try manager.copyItem(at: source, to: target)
            carried.append(relative)
        }
        for folder in xcodeStateFolders { try carry(folder, depth: 0) }
        return carried.sorted()
    }

    /// Why Xcode's own files in an earlier project cannot be carried into the new one
    /// (``carryXcodeState(from:into:limit:)``): the project is then not replaced.
    public struct XcodeStateError: Error, CustomStringConvertible {
        /// What is in the way, from the project bundle.
        public var description: String

        init(_ description: String) { self.description = description }
    }

    /// The names of the other projects in `folder` that this writer wrote (their root object
    /// has the identifier it gives a project of their name), sorted: a project written again
    /// under a new name leaves the old one beside it, and a folder of two is no longer one
    /// pack. Projects from elsewhere are not named.
    public static func earlierProjects(in folder: URL, besides name: String) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return entries.filter { $0.hasSuffix(".xcodeproj") && $0 != name + ".xcodeproj" }.compactMap { entry in
            let earlier = String(entry.dropLast(".xcodeproj".count))
            return isWritten(folder.appendingPathComponent(entry), name: earlier) ? earlier : nil
        }.sorted()
    }

    /// Whether `bundle` is a project this writer wrote under `name`: its root object has the
    /// identifier the writer gives a project of that name.
    public static func isWritten(_ bundle: URL, name: String) -> Bool {
        guard let project = try? XcodeProject(bundle: bundle) else { return false }
        return project.rootID == StableIdentifier.make(project: name, role: "project")
    }

    /// The entries of each folder ``write(_:to:)`` puts files in, by the folder's path in the
    /// project folder (the catalog, written beside, included): anything else in them is not
    /// the writer's, and would be lost were the folder replaced. Xcode's own per-user state
    /// (`xcuserdata`) is taken as part of the bundle.
    public static func entriesWritten(for spec: StickerAppSpec) -> [String: Set<String>] {
        let catalog = String(spec.catalogPath.split(separator: "/").last ?? "")
        return [
            spec.projectBundleName: ["project.pbxproj", "project.xcworkspace", "xcshareddata", "xcuserdata"],
            spec.name: ["Info.plist"],
            spec.extensionName: ["Info.plist", catalog]
        ]
    }

    // MARK: - Info.plist

    /// The keys both bundles share: identity and versions from the build settings.
    static func bundleKeys(_ spec: StickerAppSpec) -> [String: XMLPropertyList] {
        var keys: [String: XMLPropertyList] = [
            "CFBundleDevelopmentRegion": .string("$(DEVELOPMENT_LANGUAGE)"),
            "CFBundleDisplayName": .string(spec.displayName),
            "CFBundleExecutable": .string("$(EXECUTABLE_NAME)"),
            "CFBundleIdentifier": .string("$(PRODUCT_BUNDLE_IDENTIFIER)"),
            "CFBundleInfoDictionaryVersion": .string("6.0"),
            "CFBundleName": .string("$(PRODUCT_NAME)"),
            "CFBundlePackageType": .string("$(PRODUCT_BUNDLE_PACKAGE_TYPE)"),
            "CFBundleShortVersionString": .string("$(MARKETING_VERSION)"),
            "CFBundleVersion": .string("$(CURRENT_PROJECT_VERSION)")
        ]
        if let copyright = spec.copyright { keys["NSHumanReadableCopyright"] = .string(copyright) }
        return keys
    }

    /// The app's `Info.plist`.
    static func appInfo(_ spec: StickerAppSpec) -> XMLPropertyList {
        var keys = bundleKeys(spec)
        keys["LSRequiresIPhoneOS"] = .bool(true)
        return .dictionary(keys)
    }

    /// The extension's `Info.plist`: the Messages extension point and the sticker browser
    /// Messages runs for a pack without code; `NSStickerSharingLevel` `OS` offers the stickers
    /// outside Messages too (iOS 17 and later).
    static func extensionInfo(_ spec: StickerAppSpec) -> XMLPropertyList {
        var keys = bundleKeys(spec)
        keys["NSExtension"] = .dictionary([
            "NSExtensionPointIdentifier": .string(XcodeProjectValidator.extensionPoint),
            "NSExtensionPrincipalClass": .string(XcodeProjectValidator.principalClass)
        ])
        keys["NSStickerSharingLevel"] = .string("OS")
        return .dictionary(keys)
    }

    // MARK: - project.pbxproj

    /// The text of `project.pbxproj`.
    static func projectText(_ spec: StickerAppSpec) -> String {
        let id = { (role: String) in StableIdentifier.make(project: spec.name, role: role) }
        var graph = PBXObjectGraph()
        typealias Object = PBXObjectGraph.Object
        let app = spec.name
        let appex = spec.extensionName
        let embedName = "Embed Foundation Extensions"

        graph.add(
            Object(
                id: id("project"), isa: "PBXProject", comment: "Project object",
                fields: [
                    "attributes": .dictionary([
                        "BuildIndependentTargetsInParallel": .string("1"), "LastUpgradeCheck": .string("1600"),
                        "TargetAttributes": .dictionary([
                            id("target.app"): .dictionary(["CreatedOnToolsVersion": .string("16.0")]),
                            id("target.extension"): .dictionary(["CreatedOnToolsVersion": .string("16.0")])
                        ])
                    ]),
                    "buildConfigurationList": .reference(id("list.project")),
                    "compatibilityVersion": .string("Xcode 14.0"), "developmentRegion": .string("en"),
                    "hasScannedForEncodings": .string("0"), "knownRegions": .list([.string("en"), .string("Base")]),
                    "mainGroup": .reference(id("group.main")), "productRefGroup": .reference(id("group.products")),
                    "projectDirPath": .string(""), "projectRoot": .string(""),
                    "targets": .list([.reference(id("target.app")), .reference(id("target.extension"))])
                ]))

        // Groups and files.
        graph.add(
            Object(
                id: id("group.main"), isa: "PBXGroup", comment: nil,
                fields: [
                    "children": .list([
                        .reference(id("group.extension")), .reference(id("group.app")), .reference(id("group.products"))
                    ]),
                    "sourceTree": .string("<group>")
                ]))
        graph.add(
            Object(
                id: id("group.extension"), isa: "PBXGroup", comment: appex,
                fields: [
                    "children": .list([.reference(id("file.catalog")), .reference(id("file.extension.info"))]),
                    "path": .string(appex), "sourceTree": .string("<group>")
                ]))
        graph.add(
            Object(
                id: id("group.app"), isa: "PBXGroup", comment: app,
                fields: [
                    "children": .list([.reference(id("file.app.info"))]), "path": .string(app),
                    "sourceTree": .string("<group>")
                ]))
        graph.add(
            Object(
                id: id("group.products"), isa: "PBXGroup", comment: "Products",
                fields: [
                    "children": .list([.reference(id("product.app")), .reference(id("product.extension"))]),
                    "name": .string("Products"), "sourceTree": .string("<group>")
                ]))
        graph.add(
            Object(
                id: id("file.catalog"), isa: "PBXFileReference", comment: "Stickers.xcstickers",
                fields: [
                    "lastKnownFileType": .string("folder.stickers"), "path": .string("Stickers.xcstickers"),
                    "sourceTree": .string("<group>")
                ]))
        for role in ["file.extension.info", "file.app.info"] {
            graph.add(
                Object(
                    id: id(role), isa: "PBXFileReference", comment: "Info.plist",
                    fields: [
                        "lastKnownFileType": .string("text.plist.xml"), "path": .string("Info.plist"),
                        "sourceTree": .string("<group>")
                    ]))
        }
        graph.add(
            Object(
                id: id("product.app"), isa: "PBXFileReference", comment: "\(app).app",
                fields: [
                    "explicitFileType": .string("wrapper.application"), "includeInIndex": .string("0"),
                    "path": .string("\(app).app"), "sourceTree": .string("BUILT_PRODUCTS_DIR")
                ]))
        graph.add(
            Object(
                id: id("product.extension"), isa: "PBXFileReference", comment: "\(appex).appex",
                fields: [
                    "explicitFileType": .string("wrapper.app-extension"), "includeInIndex": .string("0"),
                    "path": .string("\(appex).appex"), "sourceTree": .string("BUILT_PRODUCTS_DIR")
                ]))

        // Build files and phases: the catalog in both targets' resources (the app's icon comes
        // from its icon set too), the extension embedded in the app's plug-ins.
        for target in ["app", "extension"] {
            graph.add(
                Object(
                    id: id("build.catalog.\(target)"), isa: "PBXBuildFile", comment: "Stickers.xcstickers in Resources",
                    fields: ["fileRef": .reference(id("file.catalog"))]))
            graph.add(
                Object(
                    id: id("phase.resources.\(target)"), isa: "PBXResourcesBuildPhase", comment: "Resources",
                    fields: [
                        "buildActionMask": .string("2147483647"),
                        "files": .list([.reference(id("build.catalog.\(target)"))]),
                        "runOnlyForDeploymentPostprocessing": .string("0")
                    ]))
        }
        graph.add(
            Object(
                id: id("build.embed"), isa: "PBXBuildFile", comment: "\(appex).appex in \(embedName)",
                fields: [
                    "fileRef": .reference(id("product.extension")),
                    "settings": .dictionary(["ATTRIBUTES": .list([.string("RemoveHeadersOnCopy")])])
                ]))
        graph.add(
            Object(
                id: id("phase.embed"), isa: "PBXCopyFilesBuildPhase", comment: embedName,
                fields: [
                    "buildActionMask": .string("2147483647"), "dstPath": .string(""), "dstSubfolderSpec": .string("13"),
                    "files": .list([.reference(id("build.embed"))]), "name": .string(embedName),
                    "runOnlyForDeploymentPostprocessing": .string("0")
                ]))
        graph.add(
            Object(
                id: id("proxy.extension"), isa: "PBXContainerItemProxy", comment: "PBXContainerItemProxy",
                fields: [
                    "containerPortal": .reference(id("project")), "proxyType": .string("1"),
                    "remoteGlobalIDString": .string(id("target.extension")), "remoteInfo": .string(appex)
                ]))
        graph.add(
            Object(
                id: id("dependency.extension"), isa: "PBXTargetDependency", comment: "PBXTargetDependency",
                fields: ["target": .reference(id("target.extension")), "targetProxy": .reference(id("proxy.extension"))]
            ))

        // Targets.
        graph.add(
            Object(
                id: id("target.app"), isa: "PBXNativeTarget", comment: app,
                fields: [
                    "buildConfigurationList": .reference(id("list.app")),
                    "buildPhases": .list([.reference(id("phase.resources.app")), .reference(id("phase.embed"))]),
                    "buildRules": .list([]), "dependencies": .list([.reference(id("dependency.extension"))]),
                    "name": .string(app), "productName": .string(app),
                    "productReference": .reference(id("product.app")),
                    "productType": .string(XcodeProjectValidator.appProductType)
                ]))
        graph.add(
            Object(
                id: id("target.extension"), isa: "PBXNativeTarget", comment: appex,
                fields: [
                    "buildConfigurationList": .reference(id("list.extension")),
                    "buildPhases": .list([.reference(id("phase.resources.extension"))]),
                    "buildRules": .list([]), "dependencies": .list([]),
                    "name": .string(appex), "productName": .string(appex),
                    "productReference": .reference(id("product.extension")),
                    "productType": .string(XcodeProjectValidator.extensionProductType)
                ]))

        // Configurations.
        let lists: [(role: String, comment: String, settings: (Bool) -> [String: PBXObjectGraph.Field])] = [
            ("project", "PBXProject \"\(app)\"", { projectSettings(spec, debug: $0) }),
            ("app", "PBXNativeTarget \"\(app)\"", { _ in targetSettings(spec, extension: false) }),
            ("extension", "PBXNativeTarget \"\(appex)\"", { _ in targetSettings(spec, extension: true) })
        ]
        for list in lists {
            for name in ["Debug", "Release"] {
                graph.add(
                    Object(
                        id: id("configuration.\(list.role).\(name)"), isa: "XCBuildConfiguration", comment: name,
                        fields: [
                            "buildSettings": .dictionary(list.settings(name == "Debug")), "name": .string(name)
                        ]))
            }
            graph.add(
                Object(
                    id: id("list.\(list.role)"), isa: "XCConfigurationList",
                    comment: "Build configuration list for \(list.comment)",
                    fields: [
                        "buildConfigurations": .list([
                            .reference(id("configuration.\(list.role).Debug")),
                            .reference(id("configuration.\(list.role).Release"))
                        ]),
                        "defaultConfigurationIsVisible": .string("0"), "defaultConfigurationName": .string("Release")
                    ]))
        }
        return graph.text(objectVersion: objectVersion, rootID: id("project"))
    }

    /// The project's settings: the SDK, the deployment target and the versions both bundles
    /// share (so they cannot differ).
    static func projectSettings(_ spec: StickerAppSpec, debug: Bool) -> [String: PBXObjectGraph.Field] {
        var settings: [String: PBXObjectGraph.Field] = [
            "ALWAYS_SEARCH_USER_PATHS": .string("NO"), "COPY_PHASE_STRIP": .string("NO"),
            "CURRENT_PROJECT_VERSION": .string(spec.build), "MARKETING_VERSION": .string(spec.version),
            "IPHONEOS_DEPLOYMENT_TARGET": .string(spec.writtenDeploymentTarget), "SDKROOT": .string("iphoneos")
        ]
        if debug {
            settings["DEBUG_INFORMATION_FORMAT"] = .string("dwarf")
            settings["ENABLE_TESTABILITY"] = .string("YES")
            settings["ONLY_ACTIVE_ARCH"] = .string("YES")
        } else {
            settings["DEBUG_INFORMATION_FORMAT"] = .string("dwarf-with-dsym")
            settings["VALIDATE_PRODUCT"] = .string("YES")
        }
        return settings
    }

    /// A target's settings (the same in Debug and Release).
    static func targetSettings(_ spec: StickerAppSpec, extension isExtension: Bool) -> [String: PBXObjectGraph.Field] {
        var settings: [String: PBXObjectGraph.Field] = [
            "ASSETCATALOG_COMPILER_APPICON_NAME": .string(iconSetName), "CODE_SIGN_STYLE": .string("Automatic"),
            "INFOPLIST_FILE": .string("\(isExtension ? spec.extensionName : spec.name)/Info.plist"),
            "PRODUCT_BUNDLE_IDENTIFIER": .string(isExtension ? spec.extensionBundleIdentifier : spec.bundleIdentifier),
            "PRODUCT_NAME": .string("$(TARGET_NAME)"), "TARGETED_DEVICE_FAMILY": .string("1,2")
        ]
        if let team = spec.team { settings["DEVELOPMENT_TEAM"] = .string(team) }
        if isExtension { settings["SKIP_INSTALL"] = .string("YES") }
        return settings
    }

    // MARK: - Workspace and scheme

    static let workspaceText = """
        <?xml version="1.0" encoding="UTF-8"?>
        <Workspace
           version = "1.0">
           <FileRef
              location = "self:">
           </FileRef>
        </Workspace>

        """

    /// The shared scheme: builds and archives the app (the extension first), runs the
    /// extension in Messages.
    static func schemeText(_ spec: StickerAppSpec) -> String {
        let id = { (role: String) in StableIdentifier.make(project: spec.name, role: role) }
        let container = XMLPropertyList.escaped("container:\(spec.projectBundleName)").replacingQuotes
        func reference(_ role: String, _ product: String, _ target: String, indent: String) -> String {
            """
            \(indent)<BuildableReference
            \(indent)   BuildableIdentifier = "primary"
            \(indent)   BlueprintIdentifier = "\(id(role))"
            \(indent)   BuildableName = "\(XMLPropertyList.escaped(product).replacingQuotes)"
            \(indent)   BlueprintName = "\(XMLPropertyList.escaped(target).replacingQuotes)"
            \(indent)   ReferencedContainer = "\(container)">
            \(indent)</BuildableReference>
            """
        }
        let appex = reference(
            "target.extension", "\(spec.extensionName).appex", spec.extensionName, indent: "            ")
        let app = reference("target.app", "\(spec.name).app", spec.name, indent: "            ")
        let entry = """
                     <BuildActionEntry
                        buildForTesting = "YES"
                        buildForRunning = "YES"
                        buildForProfiling = "YES"
                        buildForArchiving = "YES"
                        buildForAnalyzing = "YES">
            """
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <Scheme
               LastUpgradeVersion = "1600"
               wasCreatedForAppExtension = "YES"
               version = "2.0">
               <BuildAction
                  parallelizeBuildables = "YES"
                  buildImplicitDependencies = "YES">
                  <BuildActionEntries>
            \(entry)
            \(appex)
                     </BuildActionEntry>
            \(entry)
            \(app)
                     </BuildActionEntry>
                  </BuildActionEntries>
               </BuildAction>
               <LaunchAction
                  buildConfiguration = "Debug"
                  selectedDebuggerIdentifier = ""
                  selectedLauncherIdentifier = "Xcode.IDEFoundation.Launcher.PosixSpawn"
                  launchStyle = "0"
                  askForAppToLaunch = "Yes"
                  useCustomWorkingDirectory = "NO"
                  ignoresPersistentStateOnLaunch = "NO"
                  debugDocumentVersioning = "YES"
                  debugServiceExtension = "internal"
                  allowLocationSimulation = "YES"
                  launchAutomaticallySubstyle = "2">
                  <RemoteRunnable
                     runnableDebuggingMode = "1"
                     BundleIdentifier = "com.apple.MobileSMS">
            \(reference("target.extension", "\(spec.extensionName).appex", spec.extensionName, indent: "         "))
                  </RemoteRunnable>
                  <MacroExpansion>
            \(reference("target.app", "\(spec.name).app", spec.name, indent: "         "))
                  </MacroExpansion>
               </LaunchAction>
               <AnalyzeAction
                  buildConfiguration = "Debug">
               </AnalyzeAction>
               <ArchiveAction
                  buildConfiguration = "Release"
                  revealArchiveInOrganizer = "YES">
               </ArchiveAction>
            </Scheme>

            """
    }
}

extension String {
    /// `"` as `&quot;`, for an XML attribute.
    fileprivate var replacingQuotes: String { replacing("\"", with: "&quot;") }
}
