#if canImport(Glibc)
    import Glibc
#endif

extension String {
    /// `format` filled in by C's `vsnprintf` (`%.2f`, `%5ld`, `%02X`...): numbers formatted as
    /// `printf` does, without Foundation. Pass Swift `Int`s to `%ld`, not `%d`.
    public init(cFormat format: String, _ arguments: CVarArg...) {
        // A va_list is used up by one pass, so each pass gets its own.
        let length = Int(withVaList(arguments) { vsnprintf(nil, 0, format, $0) })
        guard length > 0 else {
            self = ""
            return
        }
        var buffer = [CChar](repeating: 0, count: length + 1)
        _ = withVaList(arguments) { vsnprintf(&buffer, buffer.count, format, $0) }
        self = String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
