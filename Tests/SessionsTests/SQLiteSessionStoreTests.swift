import Dispatch
import Foundation
import Synchronization
import TabModel
import Testing

@testable import Sessions

private func id(_ number: Int) -> SessionID { SessionID(high: 0xfeed, low: UInt64(number)) }

/// A fresh folder per test, removed at the end.
private final class TemporaryFolder {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("tabstage-sessions-\(UUID())").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { path + "/" + name }
}

private func restaurantContainerAfterSelections() throws -> TabContainer {
    let app = try #require(BuiltInApps.app(id: BuiltInApps.restaurantID))
    var container = TabContainer(app: app)
    for index in [1, 2, 0, 3] {
        _ = container.select(.index(index), source: .tap, isLoggedIn: false, at: Date(timeIntervalSince1970: 100))
    }
    return container
}

/// Opening must fail with `problem` and leave the file byte for byte as it was.
private func expectRefusal(
    at path: String, _ problem: SessionDatabaseError.Problem, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let before = FileManager.default.contents(atPath: path)
    do {
        _ = try SQLiteSessionStore<Int>.open(path: path)
        Issue.record("opened \(path)", sourceLocation: sourceLocation)
    } catch {
        #expect(error.problem == problem, sourceLocation: sourceLocation)
        #expect(error.description.contains(path), sourceLocation: sourceLocation)
        #expect(error.description.contains("--sessions memory"), sourceLocation: sourceLocation)
    }
    #expect(FileManager.default.contents(atPath: path) == before, sourceLocation: sourceLocation)
}

@Test func sessionIDKeysRoundTrip() {
    let original = SessionID(high: 0x0123_4567_89ab_cdef, low: 0xfedc_ba98_7654_3210)
    #expect(original.key.count == 16)
    #expect(SessionID(key: original.key) == original)
    #expect(SessionID(key: [1, 2, 3]) == nil)
}

@Test func aContainerSurvivesCloseAndReopen() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("nested/folder/sessions.sqlite")  // the folders are made on open
    let container = try restaurantContainerAfterSelections()
    let store = try SQLiteSessionStore<TabContainer>.open(path: path)
    try store.modify(id(1), now: 10) { $0 = container }
    try store.close()
    #expect(throws: SessionStoreError.self) { try store.state(of: id(1), now: 11) }

    let reopened = try SQLiteSessionStore<TabContainer>.open(
        path: path, decoderUserInfo: [.appCatalog: AppCatalog(BuiltInApps.all)])
    #expect(reopened.count == 1)
    #expect(try reopened.state(of: id(1), now: 11) == container)
    #expect(try reopened.state(of: id(2), now: 11) == nil)
}

@Test func withoutAnAppCatalogAStoredContainerIsNoSession() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("sessions.sqlite")
    let store = try SQLiteSessionStore<TabContainer>.open(path: path)
    try store.modify(id(1), now: 10) { $0 = try? restaurantContainerAfterSelections() }
    try store.close()

    let reopened = try SQLiteSessionStore<TabContainer>.open(path: path)
    #expect(try reopened.state(of: id(1), now: 11) == nil)
    #expect(reopened.count == 0)
}

@Test func aVisitorSessionKeepsItsStateThroughTheFileWithoutTheAppDescription() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("sessions.sqlite")
    let app = try #require(BuiltInApps.app(id: BuiltInApps.restaurantID))
    var session = VisitorSession(visitorName: "Ada")
    session.withContainer(for: app) { container in
        _ = container.select(.tab("wallet"), source: .url, isLoggedIn: true, at: Date(timeIntervalSince1970: 5))
    }
    let info: [CodingUserInfoKey: any Sendable] = [.appCatalog: AppCatalog(BuiltInApps.all)]
    let store = try SQLiteSessionStore<VisitorSession>.open(path: path, decoderUserInfo: info)
    try store.modify(id(1), now: 10) { $0 = session }
    try store.close()

    let reopened = try SQLiteSessionStore<VisitorSession>.open(path: path, decoderUserInfo: info)
    #expect(try reopened.state(of: id(1), now: 11) == session)
}

@Test func aStoreDroppedWithoutClosingKeepsItsCommits() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("sessions.sqlite")
    do {
        let store = try SQLiteSessionStore<Int>.open(path: path)
        for number in 1...3 { try store.modify(id(number), now: 1) { $0 = number * 10 } }
    }
    let reopened = try SQLiteSessionStore<Int>.open(path: path)
    #expect(try (1...3).map { try reopened.state(of: id($0), now: 2) } == [10, 20, 30])
}

@Test func removingASessionRemovesItFromTheFile() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("sessions.sqlite")
    let store = try SQLiteSessionStore<Int>.open(path: path)
    try store.modify(id(1), now: 0) { $0 = 1 }
    try store.modify(id(2), now: 0) { $0 = 2 }
    try store.modify(id(1), now: 1) { $0 = nil }
    #expect(store.count == 1)
    try store.close()
    let reopened = try SQLiteSessionStore<Int>.open(path: path)
    #expect(reopened.count == 1)
    #expect(try reopened.state(of: id(1), now: 2) == nil)
    #expect(try reopened.state(of: id(2), now: 2) == 2)
}

@Test func idleSessionsExpireInMemoryAndInTheFile() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("sessions.sqlite")
    let limits = SessionLimits(idleTimeout: 10, maxSessions: 10)
    let store = try SQLiteSessionStore<String>.open(path: path, limits: limits)
    try store.modify(id(1), now: 0) { $0 = "old" }
    try store.modify(id(2), now: 5) { $0 = "young" }
    #expect(try store.state(of: id(1), now: 9.9) == "old")  // a read keeps it alive, as in memory
    #expect(try store.state(of: id(1), now: 19.8) == "old")
    #expect(try store.state(of: id(2), now: 19.8) == nil)
    #expect(store.count == 1)
    try store.close()

    // The read's recency was written at close, so session 1 is still young after a restart.
    let reopened = try SQLiteSessionStore<String>.open(path: path, limits: limits)
    #expect(reopened.count == 1)
    #expect(try reopened.state(of: id(1), now: 29) == "old")
    #expect(try reopened.state(of: id(1), now: 39.1) == nil)
}

@Test func theLeastRecentlyUsedSessionGoesFirstAtTheCapAcrossARestart() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("sessions.sqlite")
    let limits = SessionLimits(idleTimeout: 1000, maxSessions: 3)
    let store = try SQLiteSessionStore<Int>.open(path: path, limits: limits)
    for number in 1...3 { try store.modify(id(number), now: Double(number)) { $0 = number } }
    _ = try store.state(of: id(1), now: 4)  // 1 is now the most recent; 2 the least
    try store.close()

    let reopened = try SQLiteSessionStore<Int>.open(path: path, limits: limits)
    try reopened.modify(id(4), now: 5) { $0 = 4 }
    #expect(reopened.count == 3)
    #expect(try reopened.state(of: id(2), now: 6) == nil)
    #expect(try [1, 3, 4].map { try reopened.state(of: id($0), now: 6) } == [1, 3, 4])
    try reopened.close()
    #expect(try SQLiteSessionStore<Int>.open(path: path, limits: limits).count == 3)
}

@Test func aSmallCacheStillAnswersFromTheFile() throws {
    let folder = try TemporaryFolder()
    let store = try SQLiteSessionStore<Int>.open(path: folder.file("sessions.sqlite"), cachedStates: 2)
    for number in 1...10 { try store.modify(id(number), now: 1) { $0 = number } }
    for number in 1...10 { try store.modify(id(number), now: 2) { $0? += 100 } }
    #expect(try (1...10).map { try store.state(of: id($0), now: 3) } == Array(101...110))
}

@Test func concurrentModifiesLoseNoUpdate() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("sessions.sqlite")
    let store = try SQLiteSessionStore<[Int]>.open(path: path, cachedStates: 1)
    let failures = Mutex(0)
    DispatchQueue.concurrentPerform(iterations: 8) { worker in
        for step in 0..<24 {
            do {
                // Two shared sessions, so workers contend; the cache of one forces file reads.
                try store.modify(id(step % 2), now: 1) { state in state = (state ?? []) + [worker] }
            } catch {
                failures.withLock { $0 += 1 }
            }
        }
    }
    #expect(failures.withLock { $0 } == 0)
    try store.close()
    let reopened = try SQLiteSessionStore<[Int]>.open(path: path)
    for session in [0, 1] {
        let workers = try #require(try reopened.state(of: id(session), now: 2))
        // Every worker's 12 appends to this session are there.
        #expect((0..<8).map { worker in workers.count { $0 == worker } } == Array(repeating: 12, count: 8))
    }
}

@Test func aStateThisBuildCannotDecodeIsNoSession() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("sessions.sqlite")
    let store = try SQLiteSessionStore<Int>.open(path: path)
    try store.modify(id(1), now: 0) { $0 = 7 }
    try store.close()
    let changedType = try SQLiteSessionStore<String>.open(path: path)
    #expect(try changedType.state(of: id(1), now: 1) == nil)
    try changedType.modify(id(1), now: 2) { $0 = "fresh" }
    #expect(try changedType.state(of: id(1), now: 3) == "fresh")
}

// MARK: Failures while serving

@Test func aHeldWriteLockMakesChangesFailAndKeepsTheOldState() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("sessions.sqlite")
    let store = try SQLiteSessionStore<Int>.open(path: path, busyTimeout: .milliseconds(20))
    try store.modify(id(1), now: 0) { $0 = 1 }

    let other = try SQLiteConnection(path: path, create: false)
    try other.execute("BEGIN EXCLUSIVE")
    #expect(throws: SessionStoreError.self) { try store.modify(id(1), now: 1) { $0 = 2 } }
    #expect(throws: SessionStoreError.self) { try store.modify(id(2), now: 1) { $0 = 2 } }
    #expect(try store.state(of: id(1), now: 2) == 1)
    #expect(try store.state(of: id(2), now: 2) == nil)
    #expect(store.count == 1)
    // An unchanged state needs no write, so it still succeeds while the lock is held.
    #expect(try store.modify(id(1), now: 3) { state in state ?? 0 } == 1)

    try other.execute("ROLLBACK")
    try store.modify(id(1), now: 4) { $0 = 3 }
    try store.close()
    #expect(try SQLiteSessionStore<Int>.open(path: path).state(of: id(1), now: 5) == 3)
}

@Test func aFullDiskMakesChangesFailAndKeepsTheOldState() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("sessions.sqlite")
    let store = try SQLiteSessionStore<String>.open(path: path)
    try store.modify(id(1), now: 0) { $0 = "small" }
    // The file may not grow past its current pages: SQLite answers SQLITE_FULL, as on a full disk.
    try store.executeForTesting("PRAGMA max_page_count = 1")
    let large = String(repeating: "x", count: 64 * 1024)
    do {
        try store.modify(id(1), now: 1) { $0 = large }
        Issue.record("a write past the page limit succeeded")
    } catch {
        #expect(error.description.contains("full"))
        #expect(error.description.contains(path))
    }
    #expect(try store.state(of: id(1), now: 2) == "small")
    try store.close()
    #expect(try SQLiteSessionStore<String>.open(path: path).state(of: id(1), now: 3) == "small")
}

// MARK: Files that are not ours

@Test func garbageBytesAreReportedAndLeftAlone() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("sessions.sqlite")
    let garbage = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
    #expect(FileManager.default.createFile(atPath: path, contents: garbage))
    try expectRefusal(at: path, .notADatabase(reason: "file is not a database"))
    #expect(FileManager.default.contents(atPath: path) == garbage)
}

@Test func aDirectoryIsReportedAndLeftAlone() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("sessions.sqlite")
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    try expectRefusal(at: path, .isDirectory)
    var isDirectory: ObjCBool = false
    #expect(FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue)
}

@Test func aFolderThatIsAFileIsReported() throws {
    let folder = try TemporaryFolder()
    let blocker = folder.file("data")
    #expect(FileManager.default.createFile(atPath: blocker, contents: Data("not a folder".utf8)))
    do {
        _ = try SQLiteSessionStore<Int>.open(path: blocker + "/sessions.sqlite")
        Issue.record("opened a database inside a file")
    } catch {
        #expect(error.path == blocker + "/sessions.sqlite")
        #expect(error.description.hasPrefix("cannot "))
    }
    #expect(FileManager.default.contents(atPath: blocker) == Data("not a folder".utf8))
}

@Test func anotherProgramsDatabaseIsReportedAndLeftAlone() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("notes.sqlite")
    do {
        let other = try SQLiteConnection(path: path, create: true)
        try other.execute("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me')")
    }
    try expectRefusal(at: path, .foreignSchema(tables: ["notes"]))
}

@Test func aNewerSchemaIsReportedAndLeftAlone() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("sessions.sqlite")
    try SQLiteSessionStore<Int>.open(path: path).close()
    do {
        let connection = try SQLiteConnection(path: path, create: false)
        try connection.execute("PRAGMA user_version = 3")
    }
    try expectRefusal(at: path, .newerSchema(version: 3))
}

@Test func aTabStageFileWithoutItsTableIsReported() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("sessions.sqlite")
    try SQLiteSessionStore<Int>.open(path: path).close()
    do {
        let connection = try SQLiteConnection(path: path, create: false)
        try connection.execute("DROP TABLE sessions; CREATE TABLE other (x)")
    }
    try expectRefusal(at: path, .damagedSchema(reason: "no sessions table"))
}

@Test func anEmptyFileBecomesASessionDatabase() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("sessions.sqlite")
    #expect(FileManager.default.createFile(atPath: path, contents: Data()))
    let store = try SQLiteSessionStore<Int>.open(path: path)
    try store.modify(id(1), now: 0) { $0 = 1 }
    #expect(store.count == 1)
}

@Test func aReadOfTheFileStoreCountsAsAUse() throws {
    let folder = try TemporaryFolder()
    let store = try SQLiteSessionStore<String>.open(
        path: folder.file("sessions.sqlite"), limits: SessionLimits(idleTimeout: 10, maxSessions: 10))
    try store.modify(id(1), now: 0) { $0 = "old" }
    var seen: [String] = []
    #expect(try store.read(id(1), now: 9.9) { seen.append($0) })
    #expect(try !store.read(id(2), now: 9.9) { seen.append($0) })
    #expect(try store.state(of: id(1), now: 19.8) == "old")  // the read at 9.9 kept it alive
    #expect(seen == ["old"])
}

/// Two servers started at once on one new file: both open it. (SQLite answers "busy" at once when
/// two connections switch a new file to WAL together; one of them failed about once in 100.)
@Test func twoStoresOpenedAtOnceOnANewFileBothOpen() throws {
    let folder = try TemporaryFolder()
    for round in 0..<30 {
        let path = folder.file("race-\(round).sqlite")
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            do {
                let store = try SQLiteSessionStore<Int>.open(path: path)
                try store.close()
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [], "round \(round)")
    }
}

/// A presenter's follow code outlives a restart: the alias is in the file, with the last use of
/// a lookup (written on close), so it lapses by the idle timeout counted from that use.
@Test func aPresentersAliasSurvivesCloseAndReopen() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("sessions.sqlite")
    let limits = SessionLimits(idleTimeout: 100, maxSessions: 10)
    let store = try SQLiteSessionStore<Int>.open(path: path, limits: limits)
    try store.modify(id(1), now: 100) { $0 = 1 }
    try store.setAlias("code-kept", to: id(1), now: 100)
    try store.setAlias("code-stopped", to: id(1), now: 100)
    try store.setAlias("code-stopped", to: nil, now: 101)
    #expect(try store.session(forAlias: "code-kept", now: 150) == id(1))
    try store.close()

    let reopened = try SQLiteSessionStore<Int>.open(path: path, limits: limits)
    #expect(try reopened.session(forAlias: "code-kept", now: 240) == id(1), "used at 150, idle 90 s of 100")
    #expect(try reopened.session(forAlias: "code-stopped", now: 240) == nil, "removed before the restart")
    try reopened.close()
    let again = try SQLiteSessionStore<Int>.open(path: path, limits: limits)
    #expect(try again.session(forAlias: "code-kept", now: 345) == nil, "idle 105 s since the lookup at 240")
    try again.close()
}

/// A file of schema version 1 (sessions, no aliases) keeps its sessions and is given the
/// aliases table when opened.
@Test func aFileOfTheFirstSchemaIsGivenTheAliasesTable() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("sessions.sqlite")
    do {
        let connection = try SQLiteConnection(path: path, create: true)
        try connection.execute(
            """
            CREATE TABLE sessions (
                id BLOB PRIMARY KEY NOT NULL CHECK (length(id) = 16), state BLOB NOT NULL, last_used REAL NOT NULL);
            INSERT INTO sessions VALUES (X'000000000000feed0000000000000003', CAST('7' AS BLOB), 100);
            PRAGMA application_id = 1415730036;
            PRAGMA user_version = 1;
            """)
    }
    let store = try SQLiteSessionStore<Int>.open(path: path)
    #expect(try store.state(of: id(3), now: 110) == 7)
    try store.setAlias("code", to: id(3), now: 110)
    try store.close()
    let reopened = try SQLiteSessionStore<Int>.open(path: path)
    #expect(try reopened.session(forAlias: "code", now: 120) == id(3))
    try reopened.close()
}
