/// The upper median of `values` (the middle one once sorted; of two middles, the higher), or
/// nil when there are none: the bench reports medians over its repeats.
func median<Value: Comparable>(_ values: [Value]) -> Value? {
    values.isEmpty ? nil : values.sorted()[values.count / 2]
}
