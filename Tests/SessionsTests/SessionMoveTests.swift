import Dispatch
import Foundation
import Synchronization
import Testing

@testable import Sessions

private func id(_ number: Int) -> SessionID { SessionID(high: 0xabc, low: UInt64(number)) }

/// Both stores, each fresh: in memory, and in a SQLite file removed at the end.
private func withEachStore(_ body: (any SessionStore<Int>) throws -> Void) throws {
    try body(MemorySessionStore<Int>())
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tabstage-move-\(UUID())").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let store = try SQLiteSessionStore<Int>.open(path: folder + "/sessions.sqlite")
    try body(store)
    try store.close()
}

@Test func moveKeepsTheChangedStateUnderTheNewIDAndRemovesTheOld() throws {
    try withEachStore { store in
        try store.modify(id(1), now: 10) { $0 = 41 }
        var seen: Int??
        try store.move(from: id(1), to: id(2), now: 11) { old in
            seen = old
            return (old ?? 0) + 1
        }
        #expect(seen == .some(41))
        #expect(try store.state(of: id(2), now: 12) == 42)
        #expect(try store.state(of: id(1), now: 12) == nil)
        #expect(store.count == 1)
    }
}

@Test func moveFromNoSessionStartsFromNothing() throws {
    try withEachStore { store in
        for old in [nil, id(7)] {
            var seen: Int?? = .some(-1)
            try store.move(from: old, to: id(8), now: 10) { previous in
                seen = previous
                return 5
            }
            #expect(seen == .some(nil))
            #expect(try store.state(of: id(8), now: 11) == 5)
            #expect(store.count == 1)
        }
    }
}

/// Requests keep changing the old id while another moves it: every change that found the
/// session must be in the moved state. (Read, write and remove as three steps lost a change
/// that fell between the read and the removal.)
@Test func aChangeRacingAMoveIsNeverLost() throws {
    try withEachStore { store in
        for round in 0..<20 {
            let old = id(100 + round)
            let new = id(1000 + round)
            try store.modify(old, now: 10) { $0 = 0 }
            let applied = Atomic<Int>(0)
            let started = DispatchSemaphore(value: 0)
            let changer = DispatchQueue(label: "changer")
            let finished = DispatchSemaphore(value: 0)
            changer.async {
                started.signal()
                // Until the old id is gone: each change that found the session counts.
                while (try? store.modify(
                    old, now: 10,
                    { state -> Bool in
                        guard let value = state else { return false }
                        state = value + 1
                        return true
                    })) == true
                {
                    applied.wrappingAdd(1, ordering: .relaxed)
                }
                finished.signal()
            }
            started.wait()
            try store.move(from: old, to: new, now: 10) { $0 ?? 0 }
            finished.wait()
            #expect(try store.state(of: new, now: 10) == applied.load(ordering: .relaxed), "round \(round)")
            #expect(try store.state(of: old, now: 10) == nil)
        }
    }
}
