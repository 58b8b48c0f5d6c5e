/// What a sticker pack app project is made from: its name, identifiers and versions. The
/// layout follows Xcode's Sticker Pack App template (see ``XcodeProjectWriter``).
public struct StickerAppSpec: Sendable, Hashable {
    /// The project's and the app target's name (`My Stickers`).
    public var name: String
    /// The app's bundle identifier; the extension's is this plus `.StickerPackExtension`.
    public var bundleIdentifier: String
    /// The development team (`DEVELOPMENT_TEAM`), or `nil` to choose it in Xcode.
    public var team: String?
    /// `CFBundleShortVersionString` (`MARKETING_VERSION`).
    public var version: String
    /// `CFBundleVersion` (`CURRENT_PROJECT_VERSION`).
    public var build: String
    /// `IPHONEOS_DEPLOYMENT_TARGET`.
    public var deploymentTarget: String
    /// The name under the icon in Messages and on the home screen.
    public var displayName: String
    /// `NSHumanReadableCopyright`, when given.
    public var copyright: String?

    /// The lowest iOS that Xcode 16 and Xcode 26 build for (Apple's "Xcode system
    /// requirements": iOS 15 to 18 and 15 to 26).
    public static let defaultDeploymentTarget = "15.0"

    /// Creates a spec; the display name defaults to the name.
    public init(
        name: String, bundleIdentifier: String, team: String? = nil, version: String = "1.0", build: String = "1",
        deploymentTarget: String = StickerAppSpec.defaultDeploymentTarget, displayName: String? = nil,
        copyright: String? = nil
    ) {
        self.name = name
        self.bundleIdentifier = bundleIdentifier
        self.team = team
        self.version = version
        self.build = build
        self.deploymentTarget = deploymentTarget
        self.displayName = displayName ?? name
        self.copyright = copyright
    }

    /// The deployment target as Xcode writes it: whole numbers, with a minor version (`15.0`
    /// for `15`, `17.0` for `017`, `15.0.1` as it is); as given when it is not a version
    /// (``problems`` names that).
    public var writtenDeploymentTarget: String {
        let parts = deploymentTarget.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
        guard (1...3).contains(parts.count), !parts.contains(nil) else { return deploymentTarget }
        let numbers = parts.map { $0! } + (parts.count == 1 ? [0] : [])
        return numbers.map(String.init).joined(separator: ".")
    }

    /// The extension target's name, as Xcode's template names it.
    public var extensionName: String { "\(name) StickerPackExtension" }
    /// The extension's bundle identifier.
    public var extensionBundleIdentifier: String { bundleIdentifier + ".StickerPackExtension" }
    /// The catalog's path inside the project folder.
    public var catalogPath: String { "\(extensionName)/Stickers.xcstickers" }
    /// The `.xcodeproj` bundle's name.
    public var projectBundleName: String { "\(name).xcodeproj" }

    /// The longest name in UTF-8 bytes: the longest file a build makes of it, the extension's
    /// product with its symbols (`NAME StickerPackExtension.appex.dSYM`, a Release build's), is
    /// then at most 255 bytes, the longest file name.
    static let longestName = 255 - " StickerPackExtension.appex.dSYM".utf8.count

    /// A character no name, display name or copyright may hold: the C0 controls and DEL, and
    /// U+FFFE and U+FFFF, which XML 1.0 (the Info.plist, the scheme) cannot hold at all.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0xFFFE || scalar.value == 0xFFFF
    }

    /// What is wrong with the spec before anything is written: a name that cannot be a
    /// folder, identifiers, versions or a display name App Store Connect refuses. Empty when
    /// it is good.
    public var problems: [String] {
        var problems: [String] = []
        if name.isEmpty || name.hasPrefix(".") || name.contains("/") || name.contains(where: \.isNewline)
            || name.unicodeScalars.contains(where: { Self.isControl($0) || $0 == "\"" || $0 == "\\" || $0 == "$" })
        {
            problems.append(
                "the name \"\(name)\" cannot name a project (no '/', '\\', '$', double quotes, control characters or leading '.')"
            )
        } else if name.first?.isWhitespace == true || name.last?.isWhitespace == true {
            problems.append("the name \"\(name)\" starts or ends with a space, which its folders would keep")
        } else if name.utf8.count > Self.longestName {
            problems.append(
                "the name is \(name.utf8.count) bytes; at most \(Self.longestName) keep what a build makes of it (\"NAME StickerPackExtension.appex.dSYM\") within a file name's 255 bytes"
            )
        }
        for (label, text) in [("display name", displayName), ("copyright", copyright ?? "")] {
            if let opening = ["$(", "${"].first(where: text.contains) {
                problems.append(
                    "the \(label) \"\(text)\" holds \"\(opening)\", which Xcode expands as a build setting in the Info.plist"
                )
            } else if text.unicodeScalars.contains(where: Self.isControl) {
                problems.append(
                    "the \(label) \"\(text.unicodeScalars.map { Self.isControl($0) ? "?" : String($0) }.joined())\" holds a control character (shown as ?), which no name in an Info.plist should hold"
                )
            }
        }
        if let problem = AppStoreRules.bundleIdentifierProblem(bundleIdentifier) {
            problems.append("the bundle identifier \(problem)")
        }
        if let team, team.count != 10 || !team.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }) {
            problems.append(
                "the team \"\(team)\" is not a team identifier (ten capital letters and digits, such as A1B2C3D4E5)")
        }
        if let problem = AppStoreRules.versionProblem(version) { problems.append("the version \(problem)") }
        if let problem = AppStoreRules.versionProblem(build) { problems.append("the build \(problem)") }
        let target = deploymentTarget.split(separator: ".", omittingEmptySubsequences: false)
        if !(1...3).contains(target.count)
            || target.contains(where: { Int($0) == nil || $0.hasPrefix("-") || $0.hasPrefix("+") })
        {
            problems.append("the deployment target \"\(deploymentTarget)\" is not an iOS version such as 15.0")
        } else if let major = Int(target[0]), major < XcodeProjectValidator.lowestDeploymentTarget {
            problems.append(
                "the deployment target \(deploymentTarget) is before iOS \(XcodeProjectValidator.lowestDeploymentTarget), which has no Messages apps"
            )
        }
        if let problem = AppStoreRules.displayNameProblem(displayName) {
            problems.append("the display name \(problem)")
        }
        return problems
    }
}
