import Foundation

/// Temporary folders that live as long as the test process: fixtures made once and shared by
/// many tests. Each is removed, with everything in it, when the process exits, so a run leaves
/// nothing of them behind.
public enum RunFolders {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var folders: [URL] = []
    nonisolated(unsafe) private static var handlerInstalled = false

    /// Registers `url` for removal at exit and returns it.
    @discardableResult
    public static func removedAtExit(_ url: URL) -> URL {
        lock.lock()
        defer { lock.unlock() }
        folders.append(url)
        if !handlerInstalled {
            handlerInstalled = true
            atexit { RunFolders.removeAll() }
        }
        return url
    }

    /// Removes every registered folder (the exit handler).
    static func removeAll() {
        lock.lock()
        let registered = folders
        folders = []
        lock.unlock()
        for url in registered { try? FileManager.default.removeItem(at: url) }
    }
}
