import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// Signals delivered to Dispatch sources rather than to their default actions, from creation
/// until ``remove()``, with none lost in between.
///
/// Dispatch registers a signal source later, on its own thread, and a signal that lands
/// before then would meet whatever action the process had. So the calling thread (the only
/// one not Dispatch's, which block these signals) blocks them first: one that arrives early
/// stays pending until the source reads it. A handler that does nothing stands in for the
/// default action meanwhile; unlike `SIG_IGN`, installing it does not discard a pending signal.
/// Used by the terminal player and by the clean-up of half-written outputs.
public struct SignalRoute {
    private let sources: [DispatchSourceSignal]
    private let numbers: [Int32]
    private let earlierMask: sigset_t

    /// Routes each signal number to its handler, run on `queue`.
    public init(_ handlers: [(number: Int32, handler: @Sendable () -> Void)], queue: DispatchQueue) {
        numbers = handlers.map(\.number)
        var blocked = sigset_t()
        sigemptyset(&blocked)
        for number in numbers { sigaddset(&blocked, number) }
        var earlier = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &earlier)
        earlierMask = earlier
        sources = handlers.map { number, handler in
            signal(number) { _ in }
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler(handler: handler)
            source.resume()
            return source
        }
    }

    /// Ends the routing: the sources are cancelled, the signals get their default actions
    /// back, and the calling thread's earlier signal mask returns (a signal still pending then
    /// takes its default action).
    public func remove() {
        for source in sources { source.cancel() }
        for number in numbers { signal(number, SIG_DFL) }
        var earlier = earlierMask
        pthread_sigmask(SIG_SETMASK, &earlier, nil)
    }
}
