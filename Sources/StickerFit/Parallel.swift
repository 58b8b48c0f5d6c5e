import Dispatch
import Synchronization

/// `transform` of each index in `indices`, at most `threads` at a time, results in order.
func parallelMap<R: Sendable>(_ indices: Range<Int>, threads: Int, _ transform: @Sendable (Int) -> R) -> [R] {
    guard threads > 1 && indices.count > 1 else { return indices.map(transform) }
    let slots = Mutex<[R?]>(Array(repeating: nil, count: indices.count))
    let next = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: min(threads, indices.count)) { _ in
        while true {
            let offset = next.wrappingAdd(1, ordering: .relaxed).oldValue
            guard offset < indices.count else { return }
            let result = transform(indices.lowerBound + offset)
            slots.withLock { $0[offset] = result }
        }
    }
    return slots.withLock { $0.map { $0! } }
}
