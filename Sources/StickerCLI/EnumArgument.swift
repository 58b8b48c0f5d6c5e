import ArgumentParser
import StickerPack

/// An option value that is one of a string enum's cases (`--style expanded`). Its value list
/// is worked out once per type: swift-argument-parser asks for it (and for each default's
/// description) every time it describes a command's options, several times per parse, and
/// its generic versions cost runtime type lookups on every call, at a process's start.
public protocol EnumArgument: ExpressibleByArgument, CaseIterable, RawRepresentable where RawValue == String {}

extension EnumArgument {
    /// Every case's raw value, in case order (computed once per type).
    public static var allValueStrings: [String] { EnumArgumentValues.strings(of: Self.self) }
    /// None: a case's description is its raw value.
    public static var allValueDescriptions: [String: String] { [:] }
    /// Completion offers the cases' raw values.
    public static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
    /// The raw value, as shown for a default in help.
    public var defaultValueDescription: String { rawValue }
}

/// The value lists of ``EnumArgument`` types, by type.
private enum EnumArgumentValues {
    private static let lock = Lock()
    // Only touched while holding `lock`.
    nonisolated(unsafe) private static var lists: [ObjectIdentifier: [String]] = [:]

    static func strings<T: EnumArgument>(of type: T.Type) -> [String] {
        lock.withLock {
            if let list = lists[ObjectIdentifier(type)] { return list }
            let list = type.allCases.map(\.rawValue)
            lists[ObjectIdentifier(type)] = list
            return list
        }
    }
}
