#if canImport(Glibc)
import Glibc
#endif

/// A mutual-exclusion lock over a POSIX mutex (what `NSLock` is, without Foundation).
public final class Lock: @unchecked Sendable {
    // @unchecked: the mutex is the synchronisation; it lives at a fixed heap address.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    /// Creates an unlocked lock.
    public init() {
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Waits for the lock and takes it.
    public func lock() { pthread_mutex_lock(mutex) }

    /// Releases the lock.
    public func unlock() { pthread_mutex_unlock(mutex) }

    /// `body`'s result, computed while holding the lock.
    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
