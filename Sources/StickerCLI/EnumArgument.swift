import ArgumentParser

/// An option value that is one of a string enum's cases (`--style expanded`), described
/// directly from its raw values. swift-argument-parser asks for an option's value list and its
/// default's description every time it describes a command's options, several times per
/// parse; its generic versions of these cost runtime type lookups on every call, at a
/// process's start.
public protocol EnumArgument: ExpressibleByArgument, CaseIterable, RawRepresentable where RawValue == String {}

extension EnumArgument {
    /// Every case's raw value, in case order.
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
    /// None: a case's description is its raw value.
    public static var allValueDescriptions: [String: String] { [:] }
    /// Completion offers the cases' raw values.
    public static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
    /// The raw value, as shown for a default in help.
    public var defaultValueDescription: String { rawValue }
}
