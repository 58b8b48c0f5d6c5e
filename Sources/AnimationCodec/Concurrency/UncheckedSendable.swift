/// A value handed to `concurrentPerform` workers that Swift cannot prove safe to share: a
/// pointer or buffer of which each worker touches only its own elements, so no two workers
/// ever write the same memory and none reads what another writes.
package struct UncheckedSendable<Value>: @unchecked Sendable {
    /// The shared value.
    package let value: Value

    /// Wraps `value`; the caller vouches for the disjoint use described above.
    package init(_ value: Value) { self.value = value }
}
