import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// A short reason for a failed file operation, for messages: the system's text for the POSIX
/// error underneath ("No such file or directory"), else the error's own description.
public func errorReason(_ error: any Error) -> String {
    if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
    if let cocoa = error as? CocoaError, let underlying = cocoa.userInfo["NSUnderlyingError"] as? POSIXError {
        return String(cString: strerror(underlying.code.rawValue))
    }
    return String(describing: error)
}
