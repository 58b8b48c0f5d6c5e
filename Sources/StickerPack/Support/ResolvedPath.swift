#if canImport(Glibc)
    import Glibc
#endif

/// `path` with symbolic links and `.` or `..` resolved (`realpath`); nil when it does not exist.
public func resolvedPath(_ path: String) -> String? {
    guard let pointer = realpath(path, nil) else { return nil }
    defer { free(pointer) }
    return String(cString: pointer)
}
