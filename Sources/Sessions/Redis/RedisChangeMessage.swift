/// One message on a Redis store's channel, `<prefix>changes`: the sessions a change wrote,
/// whose copies every instance's cache drops, and the notice for the change hub's subscribers.
/// A change's script publishes it in the same step as its write; the hub publishes notices
/// alone. Each process's one subscription takes it once and hands it to both.
///
/// As bytes: a notice alone is `<version> <topic>` (`RedisChangeHub.payload(of:)`); a change
/// starts with `=` and its sessions' ids, comma-separated, then a space and its notice when it
/// has one.
struct RedisChangeMessage: Equatable {
    var sessions: [SessionID]
    var notice: ChangeNotice?

    init(sessions: [SessionID], notice: ChangeNotice?) {
        self.sessions = sessions
        self.notice = notice
    }

    /// Nil for bytes of another form (a message this build does not know).
    init?(payload: [UInt8]) {
        guard payload.first == UInt8(ascii: "=") else {
            guard let notice = RedisChangeHub.notice(from: payload) else { return nil }
            self.init(sessions: [], notice: notice)
            return
        }
        let space = payload.firstIndex(of: UInt8(ascii: " ")) ?? payload.endIndex
        var sessions: [SessionID] = []
        for id in payload[1..<space].split(separator: UInt8(ascii: ",")) {
            guard let session = SessionID(cookieValue: String(decoding: id, as: UTF8.self)) else { return nil }
            sessions.append(session)
        }
        guard space < payload.endIndex else {
            self.init(sessions: sessions, notice: nil)
            return
        }
        guard let notice = RedisChangeHub.notice(from: Array(payload[(space + 1)...])) else { return nil }
        self.init(sessions: sessions, notice: notice)
    }

    var payload: [UInt8] {
        let notice = self.notice.map(RedisChangeHub.payload(of:))
        guard !sessions.isEmpty else { return notice ?? [] }
        var bytes = Array("=\(sessions.map(\.description).joined(separator: ","))".utf8)
        if let notice { bytes += [UInt8(ascii: " ")] + notice }
        return bytes
    }
}
