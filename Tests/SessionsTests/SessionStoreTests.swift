import Testing

@testable import Sessions

private func id(_ number: Int) -> SessionID { SessionID(high: 0, low: UInt64(number)) }

@Test func sessionIDRoundTripsThroughItsCookieForm() throws {
    let original = SessionID(high: 0x0123_4567_89ab_cdef, low: 0x0000_0000_0000_00ff)
    #expect(original.description == "0123456789abcdef00000000000000ff")
    #expect(SessionID(cookieValue: original.description) == original)
}

/// Every byte value at every position of a good id, as a `String`, as the `Substring` a
/// cookie lookup gives and as the bytes `init(cookieBytes:)` reads eight at a time, and ids of
/// varied digits in every position.
@Test func sessionIDParsingAcceptsExactlyLowercaseHexDigits() {
    func fromBytes(_ text: String) -> SessionID? {
        Array(text.utf8).withUnsafeBufferPointer { SessionID(cookieBytes: $0) }
    }
    let good = Array("0123456789abcdef0123456789abcdef".utf8)
    let hexDigits = Set("0123456789abcdef".utf8)
    for position in 0..<32 {
        for byte in UInt8.min...UInt8.max {
            var bytes = good
            bytes[position] = byte
            let text = String(decoding: bytes, as: UTF8.self)
            let parsed = SessionID(cookieValue: Substring(text))
            #expect((parsed != nil) == hexDigits.contains(byte), "byte \(byte) at \(position)")
            if let parsed { #expect(parsed.description == text) }
            #expect(fromBytes(text) == parsed, "byte \(byte) at \(position), read as bytes")
        }
    }
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<1000 {
        let id = SessionID(high: generator.next(), low: generator.next())
        #expect(SessionID(cookieValue: Substring("x" + id.description).dropFirst()) == id)
        #expect(SessionID(cookieValue: id.description) == id)
        #expect(fromBytes(id.description) == id)
    }
}

@Test(arguments: [
    "", "abc", "0123456789abcdef00000000000000f", "0123456789abcdef00000000000000fff",
    "0123456789ABCDEF00000000000000ff", "0123456789abcdeg00000000000000ff", "../../../../etc/passwd0000000000",
])
func malformedCookieValuesNameNoSession(_ value: String) {
    #expect(SessionID(cookieValue: value) == nil)
    #expect(Array(value.utf8).withUnsafeBufferPointer { SessionID(cookieBytes: $0) } == nil)
}

@Test func seededIDsRepeatAndDiffer() {
    let first = SeededSessionIDs(seed: 42)
    let second = SeededSessionIDs(seed: 42)
    let a = (first.next(), first.next())
    #expect(a.0 != a.1)
    #expect(second.next() == a.0)
    #expect(second.next() == a.1)
    #expect(SeededSessionIDs(seed: 43).next() != a.0)
}

@Test func randomIDsDiffer() {
    let source = RandomSessionIDs()
    let ids = Set((0..<100).map { _ in source.next() })
    #expect(ids.count == 100)
}

@Test func modifyCreatesUpdatesAndRemoves() throws {
    let store = MemorySessionStore<Int>()
    let absent = try store.modify(id(1), now: 0) { state in state }
    #expect(absent == nil)
    #expect(store.count == 0)
    try store.modify(id(1), now: 0) { state in state = 5 }
    try store.modify(id(1), now: 1) { state in state? += 1 }
    #expect(try store.state(of: id(1), now: 2) == 6)
    try store.modify(id(1), now: 3) { state in state = nil }
    #expect(try store.state(of: id(1), now: 4) == nil)
    #expect(store.count == 0)
}

@Test func idleSessionsExpire() throws {
    let store = MemorySessionStore<String>(limits: SessionLimits(idleTimeout: 10, maxSessions: 10))
    try store.modify(id(1), now: 0) { $0 = "old" }
    try store.modify(id(2), now: 5) { $0 = "young" }
    #expect(try store.state(of: id(1), now: 9.9) == "old")  // a use at 9.9 keeps it alive
    #expect(try store.state(of: id(1), now: 19.8) == "old")
    #expect(try store.state(of: id(2), now: 19.8) == nil)  // idle since 5
    #expect(store.count == 1)
}

@Test func theLeastRecentlyUsedSessionGoesFirstAtTheCap() throws {
    let store = MemorySessionStore<Int>(limits: SessionLimits(idleTimeout: 1000, maxSessions: 3))
    for number in 1...3 { try store.modify(id(number), now: Double(number)) { $0 = Int(number) } }
    _ = try store.state(of: id(1), now: 4)  // 1 is now the most recent; 2 the least
    try store.modify(id(4), now: 5) { $0 = 4 }
    #expect(store.count == 3)
    #expect(try store.state(of: id(2), now: 6) == nil)
    #expect(try store.state(of: id(1), now: 6) == 1)
    #expect(try store.state(of: id(3), now: 6) == 3)
    #expect(try store.state(of: id(4), now: 6) == 4)
}

@Test func recencyOrderSurvivesRemovalsAndSlotReuse() {
    var table = RecencyTable<Int>()
    for number in 1...5 { table.store(Int(number), for: id(number), at: Double(number)) }
    table.remove(id(3))
    table.remove(id(1))
    table.store(6, for: id(6), at: 6)
    table.store(2, for: id(2), at: 7)
    #expect(table.idsByRecency == [id(2), id(6), id(5), id(4)])
    table.expire(before: 5.5)
    #expect(table.idsByRecency == [id(2), id(6)])
    table.evict(downTo: 1)
    #expect(table.idsByRecency == [id(2)])
    #expect(table.count == 1)
}

@Test func aReadLendsTheStateAndCountsAsAUse() throws {
    let store = MemorySessionStore<String>(limits: SessionLimits(idleTimeout: 10, maxSessions: 2))
    try store.modify(id(1), now: 0) { $0 = "first" }
    try store.modify(id(2), now: 1) { $0 = "second" }
    var seen: [String] = []
    #expect(try store.read(id(1), now: 9) { seen.append($0) })  // 1 is now the most recent
    #expect(try !store.read(id(3), now: 9) { seen.append($0) })
    #expect(seen == ["first"])
    try store.modify(id(3), now: 9) { $0 = "third" }  // evicts 2, the least recently used
    #expect(try store.state(of: id(2), now: 9) == nil)
    #expect(try store.read(id(1), now: 18) { seen.append($0) })  // used at 9, so alive at 18
    #expect(seen == ["first", "first"])
}
