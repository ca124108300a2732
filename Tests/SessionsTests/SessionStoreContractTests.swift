import Dispatch
import Foundation
import RedisClient
import ServiceTesting
import Synchronization
import Testing

@testable import Sessions

private func id(_ number: Int) -> SessionID { SessionID(high: 0xc0de, low: UInt64(number)) }

/// The wall clock, as serving passes it: Redis expires keys by its own clock, so the contract
/// is checked in real seconds for every store.
private func now() -> Double { Date().timeIntervalSince1970 }

/// One store of each kind, fresh for one test; `second` is another connection to the same
/// sessions where the kind has one (a second Redis client), else the same store.
final class ContractStore {
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case memory, sqlite, redis
        var testDescription: String { rawValue }
    }

    let store: any SessionStore<Int>
    let second: any SessionStore<Int>
    let redis: RedisServer?
    let folder: URL?
    let logged = LoggedLines()

    init(_ kind: Kind, limits: SessionLimits = SessionLimits()) throws {
        switch kind {
        case .memory:
            store = MemorySessionStore<Int>(limits: limits)
            second = store
            redis = nil
            folder = nil
        case .sqlite:
            let made = FileManager.default.temporaryDirectory.appendingPathComponent("tabstage-contract-\(UUID())")
            try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
            store = try SQLiteSessionStore<Int>.open(path: made.appendingPathComponent("s.sqlite").path, limits: limits)
            second = store
            redis = nil
            folder = made
        case .redis:
            let server = try RedisServer()
            let endpoint = try RedisEndpoint.parse(server.url)
            let lines = logged
            store = try RedisSessionStore<Int>.open(
                endpoint: endpoint, limits: limits, log: { line in lines.lines.withLock { $0.append(line) } })
            second = try RedisSessionStore<Int>.open(endpoint: endpoint, limits: limits)
            redis = server
            folder = nil
        }
    }

    deinit {
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    /// A command on a connection of the test's own (to plant or read raw values).
    func redisCommand(_ command: RedisCommand) throws -> RedisReply {
        let server = try #require(redis)
        let connection = try RedisConnection(try RedisEndpoint.parse(server.url), timeouts: RedisTimeouts())
        return try connection.run(command)
    }
}

/// What a store logged.
final class LoggedLines: Sendable {
    let lines = Mutex<[String]>([])
}

@Suite struct SessionStoreContractTests {
    @Test(arguments: ContractStore.Kind.allCases)
    func aSessionIsCreatedChangedAndRemoved(_ kind: ContractStore.Kind) throws {
        let fixture = try ContractStore(kind)
        let store = fixture.store
        #expect(try store.modify(id(1), now: now()) { $0 } == nil)
        try store.modify(id(1), now: now()) { $0 = 5 }
        try store.modify(id(1), now: now()) { $0? += 1 }
        #expect(try store.state(of: id(1), now: now()) == 6)
        #expect(try fixture.second.state(of: id(1), now: now()) == 6, "seen through the other connection")
        var lent: Int?
        #expect(try store.read(id(1), now: now()) { lent = $0 })
        #expect(lent == 6)
        #expect(store.count == 1)
        try store.modify(id(1), now: now()) { $0 = nil }
        #expect(try store.state(of: id(1), now: now()) == nil)
        #expect(store.count == 0)
    }

    /// Two writers on two connections increment one session: every increment is kept.
    @Test(arguments: ContractStore.Kind.allCases)
    func concurrentChangesFromTwoConnectionsLoseNoUpdate(_ kind: ContractStore.Kind) throws {
        let fixture = try ContractStore(kind)
        try fixture.store.modify(id(2), now: now()) { $0 = 0 }
        let stores = [fixture.store, fixture.second]
        let perWriter = 150
        let failures = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 2) { writer in
            for _ in 0..<perWriter {
                do {
                    try stores[writer].modify(id(2), now: now()) { $0? += 1 }
                } catch {
                    failures.wrappingAdd(1, ordering: .relaxed)
                }
            }
        }
        #expect(failures.load(ordering: .relaxed) == 0)
        #expect(try fixture.store.state(of: id(2), now: now()) == 2 * perWriter)
    }

    /// Another instance's change lands between this change's read and its commit (every time,
    /// not by chance): the commit sees it, the change runs again on the new value, both count.
    /// Redis only: the other stores run `body` under the lock the other change would need.
    @Test func aChangeCommittedBetweenAReadAndItsCommitIsNotLost() throws {
        let fixture = try ContractStore(.redis)
        try fixture.store.modify(id(4), now: now()) { $0 = 0 }
        var runs = 0
        try fixture.store.modify(id(4), now: now()) { state in
            runs += 1
            if runs == 1 { _ = try? fixture.second.modify(id(4), now: now()) { $0? += 10 } }
            state? += 1
        }
        #expect(try fixture.second.state(of: id(4), now: now()) == 11)
        #expect(runs == 2, "run again once, on the other change's value")
    }

    /// The same for a move (log-in, log-out): a change to the old id committed between the
    /// move's read and its commit moves with it, and the old id is gone.
    @Test func aChangeCommittedBetweenAMovesReadAndItsCommitMovesWithIt() throws {
        let fixture = try ContractStore(.redis)
        try fixture.store.modify(id(20), now: now()) { $0 = 0 }
        var runs = 0
        try fixture.store.move(from: id(20), to: id(21), now: now()) { state in
            runs += 1
            if runs == 1 { _ = try? fixture.second.modify(id(20), now: now()) { $0? += 10 } }
            return (state ?? 0) + 1
        }
        #expect(try fixture.second.state(of: id(21), now: now()) == 11)
        #expect(try fixture.second.state(of: id(20), now: now()) == nil)
        #expect(runs == 2, "run again once, on the other change's value")
    }

    /// A writer on the other connection keeps changing the old id while it is moved: the moved
    /// state holds every change that found the session, and the old id is gone.
    @Test(arguments: ContractStore.Kind.allCases)
    func aMoveCarriesARacingChangeOverAndRemovesTheOldID(_ kind: ContractStore.Kind) throws {
        let fixture = try ContractStore(kind)
        for round in 0..<10 {
            let old = id(100 + round)
            let new = id(1000 + round)
            try fixture.store.modify(old, now: now()) { $0 = 0 }
            let applied = Atomic<Int>(0)
            let started = DispatchSemaphore(value: 0)
            let finished = DispatchSemaphore(value: 0)
            let writer = fixture.second
            DispatchQueue.global().async {
                started.signal()
                while (try? writer.modify(
                    old, now: now(),
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
            try fixture.store.move(from: old, to: new, now: now()) { $0 ?? 0 }
            finished.wait()
            #expect(try fixture.store.state(of: new, now: now()) == applied.load(ordering: .relaxed), "round \(round)")
            #expect(try fixture.store.state(of: old, now: now()) == nil)
        }
    }

    /// A use keeps a session alive; left idle past the timeout, it is gone. (Every read is a
    /// use, so the idle stretch is waited out before the one read that finds it gone.)
    @Test(arguments: ContractStore.Kind.allCases)
    func anIdleSessionExpiresAndAUseKeepsItAlive(_ kind: ContractStore.Kind) throws {
        let fixture = try ContractStore(kind, limits: SessionLimits(idleTimeout: 2, maxSessions: 100))
        let store = fixture.store
        try store.modify(id(3), now: now()) { $0 = 7 }
        Thread.sleep(forTimeInterval: 1.2)
        #expect(try store.state(of: id(3), now: now()) == 7, "a use at 1.2 s of 2")
        Thread.sleep(forTimeInterval: 1.2)
        #expect(try store.state(of: id(3), now: now()) == 7, "2.4 s after the write, 1.2 s after the use")
        Thread.sleep(forTimeInterval: 2.6)
        #expect(try store.state(of: id(3), now: now()) == nil, "idle for 2.6 s")
    }

    /// An alias set on one connection is found on the other, follows its last setting, is gone
    /// once removed, and lapses when no one uses it for the idle timeout.
    @Test(arguments: ContractStore.Kind.allCases)
    func anAliasNamesItsSessionEverywhereUntilRemovedOrIdle(_ kind: ContractStore.Kind) throws {
        let fixture = try ContractStore(kind, limits: SessionLimits(idleTimeout: 2, maxSessions: 100))
        let (store, other) = (fixture.store, fixture.second)
        #expect(try other.session(forAlias: "code-a", now: now()) == nil)
        try store.setAlias("code-a", to: id(7), now: now())
        try store.setAlias("code-b", to: id(8), now: now())
        #expect(try other.session(forAlias: "code-a", now: now()) == id(7))
        try other.setAlias("code-a", to: id(9), now: now())
        #expect(try store.session(forAlias: "code-a", now: now()) == id(9))
        #expect(try store.session(forAlias: "code-b", now: now()) == id(8))
        try store.setAlias("code-b", to: nil, now: now())
        #expect(try other.session(forAlias: "code-b", now: now()) == nil)
        Thread.sleep(forTimeInterval: 1.2)
        #expect(try store.session(forAlias: "code-a", now: now()) == id(9), "a lookup at 1.2 s of 2")
        Thread.sleep(forTimeInterval: 1.2)
        #expect(try other.session(forAlias: "code-a", now: now()) == id(9), "1.2 s after the lookup")
        Thread.sleep(forTimeInterval: 2.6)
        #expect(try store.session(forAlias: "code-a", now: now()) == nil, "idle for 2.6 s")
    }

    /// Bytes this build cannot decode count as no session. In Redis, a change that leaves
    /// nothing there writes nothing, so the stored bytes stay as they were, and a line says so;
    /// SQLite drops such a row with its next batch (its behaviour before Redis, kept).
    @Test(arguments: [ContractStore.Kind.sqlite, .redis])
    func anUndecodableStateIsNoSessionAndIsLeftAlone(_ kind: ContractStore.Kind) throws {
        let fixture = try ContractStore(kind)
        let store = fixture.store
        try store.modify(id(5), now: now()) { $0 = 1 }
        switch kind {
        case .sqlite:
            let sqlite = try #require(store as? SQLiteSessionStore<Int>)
            try sqlite.close()
            let reopened = try SQLiteSessionStore<Int>.open(path: sqlite.path)
            try reopened.executeForTesting("UPDATE sessions SET state = CAST('{{not json' AS BLOB)")
            #expect(try reopened.state(of: id(5), now: now()) == nil)
            #expect(try reopened.modify(id(5), now: now()) { $0 } == nil)
            try reopened.close()
        case .redis, .memory:
            let key = "tabstage:session:\(id(5))"
            _ = try fixture.redisCommand(.set(key.utf8, "{{not json".utf8, expiringAfterMilliseconds: 60000))
            #expect(try store.state(of: id(5), now: now()) == nil)
            #expect(try store.modify(id(5), now: now()) { $0 } == nil)
            #expect(try fixture.redisCommand(.get(key.utf8)) == .bulk(Array("{{not json".utf8)), "left alone")
            #expect(fixture.logged.lines.withLock { $0.count } == 2, "a line per read of it")
            #expect(fixture.logged.lines.withLock { $0.first ?? "" }.contains("does not decode"))
        }
    }

    /// Redis killed mid-test: operations fail as unavailable (never a silent empty session);
    /// started again on its append-only file, the same store serves the kept state again.
    @Test func aRedisKilledAndRestartedFailsCleanlyThenServesTheKeptState() throws {
        let fixture = try ContractStore(.redis)
        let redis = try #require(fixture.redis)
        try fixture.store.modify(id(6), now: now()) { $0 = 41 }
        try fixture.store.modify(id(6), now: now()) { $0? += 1 }
        redis.kill()
        #expect(throws: SessionStoreError.self) { try fixture.store.state(of: id(6), now: now()) }
        do {
            try fixture.store.modify(id(6), now: now()) { $0? += 1 }
            Issue.record("a change succeeded without Redis")
        } catch {
            #expect(error.kind == .unavailable)
        }
        #expect(throws: SessionStoreError.self) { try fixture.store.checkHealth() }
        try redis.start()
        let deadline = Date().addingTimeInterval(10)
        var value: Int?
        while value == nil && Date() < deadline {
            value = try? fixture.store.state(of: id(6), now: now())
            if value == nil { usleep(20_000) }
        }
        #expect(value == 42)
        try fixture.store.checkHealth()
        try fixture.store.modify(id(6), now: now()) { $0? += 1 }
        #expect(try fixture.second.state(of: id(6), now: now()) == 43)
    }

    /// A change and a move sent to a Redis that hangs fail as timed out within the command
    /// timeout, and neither lands when Redis goes on and reads what was sent to it meanwhile:
    /// a visitor answered 503 finds the session as it was.
    @Test func changesAHungRedisTakesTooLateDoNotLandWhenItGoesOn() throws {
        let fixture = try ContractStore(.redis)
        let redis = try #require(fixture.redis)
        try fixture.store.modify(id(7), now: now()) { $0 = 1 }
        redis.pause()
        do {
            try fixture.store.modify(id(7), now: now()) { $0 = 2 }
            Issue.record("a change succeeded while Redis hung")
        } catch {
            #expect(error.kind == .timeout)
        }
        do {
            try fixture.store.move(from: id(7), to: id(8), now: now()) { ($0 ?? 0) + 10 }
            Issue.record("a move succeeded while Redis hung")
        } catch {
            #expect(error.kind == .timeout)
        }
        redis.resume()
        // Redis runs what the dropped connections sent before it answers a new one.
        let deadline = Date().addingTimeInterval(10)
        while (try? fixture.second.checkHealth()) == nil && Date() < deadline { usleep(20_000) }
        #expect(try fixture.second.state(of: id(7), now: now()) == 1, "the change did not land")
        #expect(try fixture.second.state(of: id(8), now: now()) == nil, "the move did not land")
    }
}

extension SessionStoreContractTests {
    /// The one read: `answer` gives what its closure takes out of the session, and nil when
    /// there is no session or the closure gives nothing.
    @Test(arguments: ContractStore.Kind.allCases)
    func anAnswerIsWhatItsClosureTakesOut(_ kind: ContractStore.Kind) throws {
        let fixture = try ContractStore(kind)
        let store = fixture.store
        try store.modify(id(30), now: now()) { $0 = 12 }
        #expect(try store.answer(id(30), now: now()) { $0 * 2 } == 24)
        #expect(try store.answer(id(30), now: now()) { _ -> Int? in nil } == nil, "the closure gave nothing")
        #expect(try store.answer(id(31), now: now()) { $0 } == nil, "no session")
        #expect(try fixture.second.answer(id(30), now: now()) { String($0) } == "12")
    }

    /// A change's notice is published through the hub once the change is committed (a
    /// subscriber that reads the store then finds it), and a change that gives no notice, or
    /// one made without a hub, publishes nothing.
    @Test(arguments: ContractStore.Kind.allCases)
    func aChangeIsAnnouncedOnceItIsCommitted(_ kind: ContractStore.Kind) throws {
        let fixture = try ContractStore(kind)
        let store = fixture.store
        let second = fixture.second
        let hub = LocalChangeHub()
        let heard = Mutex<[String]>([])
        _ = hub.subscribe { notice in
            let found = (try? second.state(of: id(32), now: now())).map(String.init) ?? "nothing"
            heard.withLock { $0.append("\(notice.topic) \(notice.version) found \(found)") }
        }
        let result = try store.modify(id(32), now: now(), announcingThrough: hub) { state in
            state = 7
            return Announced("changed", notice: ChangeNotice(topic: "session:32", version: 1))
        }
        #expect(result == "changed")
        #expect(heard.withLock { $0 } == ["session:32 1 found 7"])
        try store.modify(id(32), now: now(), announcingThrough: hub) { _ in Announced((), notice: nil) }
        try store.modify(id(32), now: now()) { $0 = 8 }
        #expect(heard.withLock { $0 }.count == 1, "nothing more announced")
    }
}
