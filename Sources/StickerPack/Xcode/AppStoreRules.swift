/// The rules App Store Connect applies to an app's identifiers, version strings and name before
/// a person looks at it, as checks that return what is wrong (`nil`: nothing).
public enum AppStoreRules {
    /// A bundle identifier: letters, digits, `-` and `.` only, no empty component (Apple's
    /// `CFBundleIdentifier`: "alphanumeric characters (A-Z, a-z, and 0-9), hyphens (-), and
    /// periods (.)"); `_` is the usual mistake.
    public static func bundleIdentifierProblem(_ identifier: String) -> String? {
        if identifier.isEmpty { return "is empty" }
        if identifier.contains("$(") || identifier.contains("${") {
            return "\"\(identifier)\" uses a build setting the project does not define"
        }
        if let bad = identifier.first(where: { !($0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".")) }
        ) {
            return "\"\(identifier)\" has '\(bad)'; only letters, digits, '-' and '.' are allowed"
        }
        if identifier.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty) {
            return "\"\(identifier)\" has an empty component (a leading, trailing or doubled '.')"
        }
        return nil
    }

    /// An extension's identifier must be the app's followed by `.` and more.
    public static func extensionIdentifierProblem(_ identifier: String, app: String) -> String? {
        identifier.hasPrefix(app + ".")
            ? nil : "\"\(identifier)\" does not extend the app's \"\(app)\" (it must start with \"\(app).\")"
    }

    /// `CFBundleShortVersionString` and `CFBundleVersion`: one to three non-negative integers
    /// separated by periods (`1`, `1.0`, `2.10.3`).
    public static func versionProblem(_ version: String) -> String? {
        let parts = version.split(separator: ".", omittingEmptySubsequences: false)
        let wellFormed =
            (1...3).contains(parts.count)
            && parts.allSatisfy { part in
                !part.isEmpty && part.count <= 9 && part.allSatisfy { $0.isASCII && $0.isNumber }
            }
        return wellFormed
            ? nil : "\"\(version)\" is not one to three integers separated by periods (such as 1.0 or 2.1.3)"
    }

    /// The longest name Messages' app drawer shows whole under an icon.
    public static let shownNameLength = 12

    /// A display name: given (its length is only a warning, see ``displayNameIsCut(_:)``).
    public static func displayNameProblem(_ name: String) -> String? {
        name.allSatisfy(\.isWhitespace) ? "is empty" : nil
    }

    /// Whether the name is longer than Messages shows under the app's icon.
    public static func displayNameIsCut(_ name: String) -> Bool { name.count > shownNameLength }
}
