import Synchronization

/// A least-recently-used cache bounded by the total byte cost of its values, safe to share between
/// threads (one mutex around everything; the work done under it is a few dictionary operations).
///
/// Its lookup runs on every icon request, from other modules: the reads and writes are
/// `@inlinable`, so that each user compiles them for its own `Key` and `Value`; unspecialised,
/// each lookup would ask the runtime for the generic types' metadata (PERFORMANCE.md).
public final class ByteBoundedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    public let capacityInBytes: Int
    @usableFromInline let cost: @Sendable (Value) -> Int
    @usableFromInline let state: Mutex<LRUState<Key, Value>>

    /// `cost` gives a value's size in bytes; a value larger than the whole capacity is never kept.
    public init(capacityInBytes: Int, cost: @escaping @Sendable (Value) -> Int) {
        self.capacityInBytes = max(0, capacityInBytes)
        self.cost = cost
        self.state = Mutex(LRUState())
    }

    /// The cached value, which becomes the most recently used.
    @inlinable
    public func value(forKey key: Key) -> Value? {
        state.withLock { $0.lookUp(key) }
    }

    @inlinable
    public func insert(_ value: Value, forKey key: Key) {
        let bytes = cost(value)
        let capacity = capacityInBytes
        state.withLock { $0.insert(value, bytes: bytes, forKey: key, capacity: capacity) }
    }

    public func removeAll() {
        state.withLock { $0 = LRUState() }
    }

    public var totalBytes: Int { state.withLock { $0.totalBytes } }
    public var count: Int { state.withLock { $0.slots.count } }
}

/// The cache's bookkeeping: entries in an array linked into a recency list by index, so a hit or
/// an eviction is O(1) and no node is a separate allocation.
@usableFromInline
struct LRUState<Key: Hashable, Value>: ~Copyable {
    @usableFromInline
    struct Entry {
        @usableFromInline var key: Key
        @usableFromInline var value: Value
        @usableFromInline var bytes: Int
        @usableFromInline var newer: Int?
        @usableFromInline var older: Int?

        @inlinable
        init(key: Key, value: Value, bytes: Int, newer: Int?, older: Int?) {
            (self.key, self.value, self.bytes, self.newer, self.older) = (key, value, bytes, newer, older)
        }
    }

    @usableFromInline var entries: [Entry] = []
    @usableFromInline var slots: [Key: Int] = [:]
    @usableFromInline var freeSlots: [Int] = []
    @usableFromInline var newest: Int?
    @usableFromInline var oldest: Int?
    @usableFromInline var totalBytes = 0

    @inlinable
    init() {}

    @inlinable
    mutating func lookUp(_ key: Key) -> Value? {
        guard let slot = slots[key] else { return nil }
        moveToFront(slot)
        return entries[slot].value
    }

    @inlinable
    mutating func insert(_ value: Value, bytes: Int, forKey key: Key, capacity: Int) {
        if let slot = slots[key] { remove(slot) }
        guard bytes <= capacity else { return }
        while totalBytes + bytes > capacity, let victim = oldest { remove(victim) }
        let entry = Entry(key: key, value: value, bytes: bytes, newer: nil, older: newest)
        let slot: Int
        if let reused = freeSlots.popLast() {
            entries[reused] = entry
            slot = reused
        } else {
            entries.append(entry)
            slot = entries.count - 1
        }
        if let previous = newest { entries[previous].newer = slot }
        newest = slot
        if oldest == nil { oldest = slot }
        slots[key] = slot
        totalBytes += bytes
    }

    @inlinable
    mutating func unlink(_ slot: Int) {
        let (newer, older) = (entries[slot].newer, entries[slot].older)
        if let newer { entries[newer].older = older } else { newest = older }
        if let older { entries[older].newer = newer } else { oldest = newer }
        entries[slot].newer = nil
        entries[slot].older = nil
    }

    @inlinable
    mutating func moveToFront(_ slot: Int) {
        guard newest != slot else { return }
        unlink(slot)
        entries[slot].older = newest
        if let previous = newest { entries[previous].newer = slot }
        newest = slot
        if oldest == nil { oldest = slot }
    }

    @inlinable
    mutating func remove(_ slot: Int) {
        unlink(slot)
        slots[entries[slot].key] = nil
        totalBytes -= entries[slot].bytes
        freeSlots.append(slot)
    }
}
