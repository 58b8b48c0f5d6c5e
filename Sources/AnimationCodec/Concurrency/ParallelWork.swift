import Dispatch
import Synchronization

/// Independent pieces of work spread over threads, results kept in order: the encoder's
/// candidates and frames, and `stickers fit`'s frames, icons and stickers.
public enum ParallelWork {
    /// `transform` of every element of `items`, at most `threads` at a time (each thread takes
    /// the next element when it is free), the results in the elements' order.
    public static func map<T: Sendable, R: Sendable>(_ items: [T], threads: Int, _ transform: @Sendable (T) -> R) -> [R]
    {
        guard threads > 1 && items.count > 1 else { return items.map(transform) }
        let results = Mutex<[R?]>(Array(repeating: nil, count: items.count))
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: min(threads, items.count)) { _ in
            while true {
                let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard index < items.count else { return }
                let result = transform(items[index])
                results.withLock { $0[index] = result }
            }
        }
        return results.withLock { $0.map { $0! } }
    }
}
