import Foundation
import Sessions
import TabModel

// Session store benchmark: what one tab switch costs to encode and to commit, with each
// durability level, against the in-memory store.
//   sessions-bench [--switches N] [--folder DIR]
//   sessions-bench --write-then-kill PATH N   commits N sessions, then SIGKILLs itself
//   sessions-bench --count PATH               prints how many sessions PATH holds
//   sessions-bench --memory N                 resident bytes per idle session in memory
// `bench/sessions-crash.sh` uses the last two to show commits survive a SIGKILL.

/// What decoders of stored containers need: the apps they belong to.
let catalogInfo: [CodingUserInfoKey: any Sendable] = [.appCatalog: AppCatalog(BuiltInApps.all)]

func jsonDecoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.userInfo = catalogInfo
    return decoder
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(1)
}

func sampleContainer() -> TabContainer {
    guard let app = BuiltInApps.all.first else { fail("no built-in app") }
    var container = TabContainer(app: app)
    for index in [0, 1, 2, 1, 3] {
        _ = container.select(.index(index), source: .tap, isLoggedIn: true, at: Date(timeIntervalSince1970: 0))
    }
    return container
}

/// Median microseconds per call of `body` over `runs` calls.
func median(runs: Int, _ body: (Int) throws -> Void) rethrows -> Double {
    let clock = ContinuousClock()
    var samples: [Double] = []
    for run in 0..<runs {
        let start = clock.now
        try body(run)
        let elapsed = clock.now - start
        samples.append(Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
    }
    samples.sort()
    return samples[samples.count / 2]
}

func format(_ microseconds: Double) -> String { String(format: "%9.1f us", microseconds) }

/// One tab switch per modify: select the next tab of one visitor's container.
func switchTab(_ container: inout TabContainer?, run: Int) {
    guard var state = container else { return }
    let count = state.app.tabs.count
    _ = state.select(.index(run % count), source: .tap, isLoggedIn: true, at: Date(timeIntervalSince1970: Double(run)))
    container = state
}

func row(_ name: String, _ microseconds: Double) {
    print("  " + name.padding(toLength: 40, withPad: " ", startingAt: 0) + format(microseconds))
}

/// A container whose event log is full (500 events): every visitor's state after ~35 switches.
func fullLogContainer() -> TabContainer {
    var container: TabContainer? = sampleContainer()
    for run in 0..<100 { switchTab(&container, run: run) }
    return container ?? sampleContainer()
}

func benchmark(switches: Int, folder: String) throws {
    let plistEncoder = PropertyListEncoder()
    plistEncoder.outputFormat = .binary
    let plistDecoder = PropertyListDecoder()
    plistDecoder.userInfo = catalogInfo
    let decoder = jsonDecoder()
    print("median per call over \(switches) calls")
    for (name, container) in [("5 selections", sampleContainer()), ("full event log", fullLogContainer())] {
        let json = try JSONEncoder().encode(container)
        let plist = try plistEncoder.encode(container)
        print("state after \(name): JSON \(json.count) bytes, binary plist \(plist.count) bytes")
        row("JSON encode", try median(runs: switches) { _ in _ = try JSONEncoder().encode(container) })
        row(
            "JSON decode",
            try median(runs: switches) { _ in _ = try decoder.decode(TabContainer.self, from: json) })
        row("binary plist encode", try median(runs: switches) { _ in _ = try plistEncoder.encode(container) })
        row(
            "binary plist decode",
            try median(runs: switches) { _ in _ = try plistDecoder.decode(TabContainer.self, from: plist) })
    }

    let id = SessionID(high: 1, low: 1)
    let container = fullLogContainer()
    let memory = MemorySessionStore<TabContainer>()
    try memory.modify(id, now: 0) { $0 = container }
    print("one visitor switching tabs (full event log):")
    row(
        "memory: tab switch",
        try median(runs: switches) { run in try memory.modify(id, now: Double(run)) { switchTab(&$0, run: run) } })

    let durabilities: [(String, SessionDurability)] = [
        ("NORMAL", .processCrash), ("FULL", .powerLoss),
    ]
    for (name, durability) in durabilities {
        let path = folder + "/bench-\(name).sqlite"
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let store = try SQLiteSessionStore<TabContainer>.open(
            path: path, durability: durability, decoderUserInfo: catalogInfo)
        try store.modify(id, now: 0) { $0 = container }
        row(
            "sqlite \(name): tab switch",
            try median(runs: switches) { run in try store.modify(id, now: Double(run)) { switchTab(&$0, run: run) } })
        row(
            "sqlite \(name): read",
            try median(runs: switches) { run in _ = try store.state(of: id, now: Double(switches + run)) })
        row(
            "sqlite \(name): unchanged modify",
            try median(runs: switches) { run in try store.modify(id, now: Double(2 * switches + run)) { _ in } })
        try store.close()

        // The commit alone, without the cost of encoding a large state.
        let smallPath = folder + "/bench-small-\(name).sqlite"
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: smallPath + suffix) }
        let small = try SQLiteSessionStore<Int>.open(path: smallPath, durability: durability)
        row(
            "sqlite \(name): change of an Int state",
            try median(runs: switches) { run in try small.modify(id, now: Double(run)) { $0 = run } })
        try small.close()
    }
}

/// VmRSS of this process in bytes, from /proc/self/status (nil where there is none).
func residentBytes() -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        let fields = line.split(separator: " ")
        guard fields.count >= 2, let kilobytes = Int(fields[1]) else { return nil }
        return kilobytes * 1024
    }
    return nil
}

/// Makes `count` idle sessions the way a first `GET /restaurant/bottom/home` does (one container,
/// one `.url` selection) in a memory store, and prints the growth of resident memory per session.
func measureMemory(sessions count: Int) throws {
    guard let app = BuiltInApps.app(id: BuiltInApps.restaurantID), let home = app.tabs.first else {
        fail("no restaurant app")
    }
    let store = MemorySessionStore<VisitorSession>(limits: SessionLimits(maxSessions: count))
    let time = Date(timeIntervalSince1970: 1_767_225_600)
    let ids = RandomSessionIDs()
    // Warm up allocator and store code paths before the baseline, then start from an empty store.
    try store.modify(ids.next(), now: 0) { $0 = VisitorSession() }
    guard let before = residentBytes() else { fail("no /proc/self/status here") }
    for _ in 0..<count {
        try store.modify(ids.next(), now: time.timeIntervalSince1970) { state in
            var session = VisitorSession()
            session.withContainer(for: app) { container in
                _ = container.select(.tab(home.id), source: .url, isLoggedIn: false, at: time)
            }
            state = session
        }
    }
    guard let after = residentBytes() else { fail("no /proc/self/status here") }
    let perSession = Double(after - before) / Double(count)
    let growth = "VmRSS +\((after - before) / 1024) KiB"
    print("\(count) idle sessions: \(growth), \(String(format: "%.0f", perSession)) bytes each")
    print(
        "(store holds \(store.count.map(String.init) ?? "no") sessions; inline sizes: VisitorSession \(MemoryLayout<VisitorSession>.size),"
            + " TabContainer \(MemoryLayout<TabContainer>.size), EventLog \(MemoryLayout<EventLog>.size),"
            + " AppDescription \(MemoryLayout<AppDescription>.size) bytes)")
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "--write-then-kill":
        guard arguments.count == 3, let sessions = Int(arguments[2]) else { fail("usage: --write-then-kill PATH N") }
        let store = try SQLiteSessionStore<TabContainer>.open(path: arguments[1], decoderUserInfo: catalogInfo)
        let container = sampleContainer()
        for number in 0..<sessions {
            try store.modify(SessionID(high: 7, low: UInt64(number)), now: Date().timeIntervalSince1970) {
                $0 = container
            }
        }
        FileHandle.standardOutput.write(Data("committed \(sessions) sessions; SIGKILL now\n".utf8))
        kill(getpid(), SIGKILL)
    case "--memory":
        guard arguments.count == 2, let sessions = Int(arguments[1]), sessions > 0 else { fail("usage: --memory N") }
        try measureMemory(sessions: sessions)
    case "--count":
        guard arguments.count == 2 else { fail("usage: --count PATH") }
        let store = try SQLiteSessionStore<TabContainer>.open(path: arguments[1], decoderUserInfo: catalogInfo)
        let container = sampleContainer()
        var intact = 0
        for number in 0..<(store.count ?? 0) {
            if try store.state(of: SessionID(high: 7, low: UInt64(number)), now: Date().timeIntervalSince1970)
                == container
            {
                intact += 1
            }
        }
        print("\(store.count.map(String.init) ?? "no") sessions, \(intact) equal to what was written")
    default:
        var switches = 300
        var folder = NSTemporaryDirectory()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--switches": switches = rest.popFirst().flatMap { Int($0) } ?? switches
            case "--folder": folder = rest.popFirst() ?? folder
            default:
                fail("usage: sessions-bench [--switches N] [--folder DIR] | --write-then-kill PATH N | --count PATH")
            }
        }
        try benchmark(switches: max(1, switches), folder: folder)
    }
} catch {
    fail("sessions-bench: \(error)")
}
