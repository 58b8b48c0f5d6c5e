import FoundationEssentials

/// What App Store Connect checks of a sticker pack app before a person sees it, read from the
/// project: the targets and phases it must have, its bundle identifiers, version strings and
/// display name. (The catalog and its icon set are the pack validator's.) Each finding names
/// the file it is about.
public enum XcodeProjectValidator {
    /// The product type of a Messages app (the container of a sticker pack extension).
    public static let appProductType = "com.apple.product-type.application.messages"
    /// The product type of a sticker pack extension.
    public static let extensionProductType = "com.apple.product-type.app-extension.messages-sticker-pack"
    /// The extension point of every Messages extension.
    public static let extensionPoint = "com.apple.message-payload-provider"
    /// The class a sticker pack extension without code runs.
    public static let principalClass = "StickerBrowserViewController"
    /// The lowest iOS with Messages apps.
    public static let lowestDeploymentTarget = 10
    /// The lowest iOS that current Xcode (16, 26) builds for.
    public static let lowestBuiltDeploymentTarget = 15

    /// The findings on `project`; empty when it is a sticker pack app App Store Connect takes.
    public static func findings(for project: XcodeProject) -> [ValidationFinding] {
        var check = ProjectCheck(project: project)
        check.run()
        return check.findings
    }

    /// The most findings one project gets (a broken file could otherwise give millions).
    public static let maxFindings = 200

    /// The identifier-valued keys of pbxproj objects (single values and lists).
    static let referenceKeys: Set<String> = [
        "fileRef", "target", "targetProxy", "buildConfigurationList", "mainGroup", "productRefGroup",
        "productReference", "containerPortal", "remoteGlobalIDString", "children", "files", "buildPhases",
        "dependencies", "buildConfigurations", "targets", "fileSystemSynchronizedGroups", "exceptions"
    ]
}

/// One run of the project checks, collecting findings.
private struct ProjectCheck {
    let project: XcodeProject
    var findings: [ValidationFinding] = []

    init(project: XcodeProject) { self.project = project }

    /// `Name.xcodeproj/project.pbxproj`.
    var projectFileName: String { project.bundle.lastPathComponent + "/project.pbxproj" }

    mutating func error(_ rule: StickerRule, _ file: String, _ message: String) {
        guard findings.count < XcodeProjectValidator.maxFindings else { return }
        findings.append(ValidationFinding(.error, sticker: nil, rule: rule, message: "\(file): \(message)"))
    }

    mutating func warning(_ rule: StickerRule, _ file: String, _ message: String) {
        findings.append(ValidationFinding(.warning, sticker: nil, rule: rule, message: "\(file): \(message)"))
    }

    mutating func run() {
        checkReferences()
        if findings.count >= XcodeProjectValidator.maxFindings {
            findings.append(
                ValidationFinding(
                    .error, sticker: nil, rule: .project,
                    message:
                        "\(projectFileName): more than \(XcodeProjectValidator.maxFindings) broken references; the rest are not listed"
                ))
            return
        }
        let targets = project.targets
        let app = targets.first { $0.productType == XcodeProjectValidator.appProductType }
        let stickers = targets.first { $0.productType == XcodeProjectValidator.extensionProductType }
        if app == nil {
            error(
                .project, projectFileName,
                "no Messages app target (product type \(XcodeProjectValidator.appProductType))")
        }
        guard let stickers else {
            error(
                .project, projectFileName,
                "no sticker pack extension target (product type \(XcodeProjectValidator.extensionProductType))")
            return
        }
        checkCatalogPhase(of: stickers)
        if let app { checkEmbedding(stickers, in: app) }
        for target in [app, stickers].compactMap({ $0 }) { checkDeploymentTarget(target) }
        let appInfo = app.flatMap { info(of: $0) }
        guard let stickersInfo = info(of: stickers) else { return }
        checkExtensionKeys(stickersInfo, of: stickers)
        checkIdentity(app: app.map { ($0, appInfo) }, extension: (stickers, stickersInfo))
    }

    /// Every identifier an object names exists, and every file reference's file (or
    /// synchronized folder) does.
    mutating func checkReferences() {
        for id in project.objects.keys.sorted() {
            let object = project.objects[id]!
            for key in XcodeProjectValidator.referenceKeys.sorted() {
                guard let value = object[key] else { continue }
                let named = value.string.map { [$0] } ?? value.array?.compactMap(\.string) ?? []
                let missing = named.filter { project.objects[$0] == nil }
                if missing.count == 1 {
                    error(.project, projectFileName, "object \(id)'s \(key) names \(missing[0]), which does not exist")
                } else if let first = missing.first {
                    error(
                        .project, projectFileName,
                        "object \(id)'s \(key) names \(missing.count) objects that do not exist, \(first) the first")
                }
            }
            // A file reference, or a folder Xcode 16 keeps in step with the disk.
            if ["PBXFileReference", "PBXFileSystemSynchronizedRootGroup"].contains(object["isa"]?.string),
                let url = project.location(of: id),
                !FileManager.default.fileExists(atPath: url.path)
            {
                let path = object["path"]?.string ?? id
                // From the project folder, as the findings name files, when it is inside it.
                let folder = project.bundle.deletingLastPathComponent().standardizedFileURL.path + "/"
                let target = url.standardizedFileURL.path
                let shown = target.hasPrefix(folder) ? String(target.dropFirst(folder.count)) : target
                error(.project, projectFileName, "the file reference \(path) points at \(shown), which does not exist")
            }
        }
    }

    /// The files of the target's phases of the given kind, as file reference identifiers.
    func files(of target: XcodeProject.Target, in isa: String, where accept: (String) -> Bool = { _ in true })
        -> [String]
    {
        target.phases.filter { project.string($0, "isa") == isa && accept($0) }
            .flatMap { project.list($0, "files") }
            .compactMap { project.string($0, "fileRef") }
    }

    mutating func checkCatalogPhase(of stickers: XcodeProject.Target) {
        let catalogs = project.catalogs(of: stickers)
        if catalogs.isEmpty {
            error(
                .project, projectFileName,
                "the extension \(stickers.name) has no .xcstickers catalog in its Copy Bundle Resources phase or its synchronized folders"
            )
        }
        let iconSetName = stickers.settings["ASSETCATALOG_COMPILER_APPICON_NAME"].map(stickers.expand)
        guard let iconSetName, !iconSetName.isEmpty else {
            error(
                .project, projectFileName,
                "the extension \(stickers.name) does not set ASSETCATALOG_COMPILER_APPICON_NAME to its iMessage app icon set"
            )
            return
        }
        let hasSet = catalogs.contains { catalog in
            FileManager.default.fileExists(
                atPath: catalog.appendingPathComponent(iconSetName + ".stickersiconset").path)
        }
        if !catalogs.isEmpty && !hasSet {
            error(
                .project, projectFileName,
                "ASSETCATALOG_COMPILER_APPICON_NAME is \"\(iconSetName)\", but the catalog has no \(iconSetName).stickersiconset"
            )
        }
    }

    mutating func checkEmbedding(_ stickers: XcodeProject.Target, in app: XcodeProject.Target) {
        let embedded = files(of: app, in: "PBXCopyFilesBuildPhase") { project.string($0, "dstSubfolderSpec") == "13" }
        if stickers.productReference == nil || !embedded.contains(stickers.productReference!) {
            error(
                .project, projectFileName,
                "the app \(app.name) does not embed \(stickers.name) (a Copy Files phase to Plug-ins, dstSubfolderSpec 13)"
            )
        }
        if !app.dependencies.contains(stickers.id) {
            error(
                .project, projectFileName,
                "the app \(app.name) does not depend on \(stickers.name), so it is not built first")
        }
    }

    mutating func checkDeploymentTarget(_ target: XcodeProject.Target) {
        guard let value = target.settings["IPHONEOS_DEPLOYMENT_TARGET"].map(target.expand) else { return }
        let major = Int(value.split(separator: ".").first ?? "") ?? 0
        if major < XcodeProjectValidator.lowestDeploymentTarget {
            error(
                .project, projectFileName,
                "\(target.name)'s IPHONEOS_DEPLOYMENT_TARGET \(value) is not iOS \(XcodeProjectValidator.lowestDeploymentTarget).0 or later, where Messages apps begin"
            )
        } else if major < XcodeProjectValidator.lowestBuiltDeploymentTarget {
            warning(
                .project, projectFileName,
                "\(target.name)'s IPHONEOS_DEPLOYMENT_TARGET \(value) is under iOS \(XcodeProjectValidator.lowestBuiltDeploymentTarget).0, the lowest Xcode 16 and 26 build for"
            )
        }
    }

    mutating func info(of target: XcodeProject.Target) -> InfoPlist? {
        do {
            return try InfoPlist(target: target, project: project)
        } catch {
            self.error(.project, error.file, error.reason)
            return nil
        }
    }

    func infoFile(of target: XcodeProject.Target) -> String {
        target.settings["INFOPLIST_FILE"].map(target.expand)
            ?? "\(projectFileName) (\(target.name)'s generated Info.plist)"
    }

    mutating func checkExtensionKeys(_ info: InfoPlist, of stickers: XcodeProject.Target) {
        let file = infoFile(of: stickers)
        let point = info.extensionKeys["NSExtensionPointIdentifier"] ?? ""
        if point != XcodeProjectValidator.extensionPoint {
            error(
                .project, file,
                "NSExtension's NSExtensionPointIdentifier is \"\(point)\", not \(XcodeProjectValidator.extensionPoint)")
        }
        let principal = info.extensionKeys["NSExtensionPrincipalClass"] ?? ""
        if principal != XcodeProjectValidator.principalClass {
            error(
                .project, file,
                "NSExtension's NSExtensionPrincipalClass is \"\(principal)\", not \(XcodeProjectValidator.principalClass)"
            )
        }
    }

    mutating func checkIdentity(
        app: (target: XcodeProject.Target, info: InfoPlist?)?,
        extension stickers: (target: XcodeProject.Target, info: InfoPlist)
    ) {
        var appIdentifier: String?
        var appVersions: (String, String)?
        if let (target, info) = app, let info {
            let file = infoFile(of: target)
            let identifier = info.strings["CFBundleIdentifier"] ?? ""
            if let problem = AppStoreRules.bundleIdentifierProblem(identifier) {
                error(.bundleIdentifier, file, "the app's CFBundleIdentifier \(problem)")
            } else {
                appIdentifier = identifier
            }
            appVersions = checkVersions(info, file: file, of: "the app")
            checkDisplayName(info, file: file, of: "the app")
        }
        let file = infoFile(of: stickers.target)
        let identifier = stickers.info.strings["CFBundleIdentifier"] ?? ""
        if let problem = AppStoreRules.bundleIdentifierProblem(identifier) {
            error(.bundleIdentifier, file, "the extension's CFBundleIdentifier \(problem)")
        } else if let appIdentifier,
            let problem = AppStoreRules.extensionIdentifierProblem(identifier, app: appIdentifier)
        {
            error(.bundleIdentifier, file, "the extension's CFBundleIdentifier \(problem)")
        }
        let versions = checkVersions(stickers.info, file: file, of: "the extension")
        if let appVersions, let versions, appVersions != versions {
            error(
                .version, file,
                "the extension's version \(versions.0) (\(versions.1)) differs from the app's \(appVersions.0) (\(appVersions.1)); they must match"
            )
        }
        checkDisplayName(stickers.info, file: file, of: "the extension")
    }

    /// Checks both strings; returns them when both are well formed.
    mutating func checkVersions(_ info: InfoPlist, file: String, of owner: String) -> (String, String)? {
        let version = info.strings["CFBundleShortVersionString"] ?? ""
        let build = info.strings["CFBundleVersion"] ?? ""
        var good = true
        if let problem = AppStoreRules.versionProblem(version) {
            error(.version, file, "\(owner)'s CFBundleShortVersionString \(problem)")
            good = false
        }
        if let problem = AppStoreRules.versionProblem(build) {
            error(.version, file, "\(owner)'s CFBundleVersion \(problem)")
            good = false
        }
        return good ? (version, build) : nil
    }

    mutating func checkDisplayName(_ info: InfoPlist, file: String, of owner: String) {
        let name = info.strings["CFBundleDisplayName"] ?? info.strings["CFBundleName"] ?? ""
        if let problem = AppStoreRules.displayNameProblem(name) {
            error(.displayName, file, "\(owner)'s CFBundleDisplayName \(problem)")
        } else if AppStoreRules.displayNameIsCut(name) {
            warning(
                .displayName, file,
                "\(owner)'s CFBundleDisplayName \"\(name)\" has \(name.count) characters; Messages shows about \(AppStoreRules.shownNameLength) under the icon"
            )
        }
    }
}
