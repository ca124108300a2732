import Sessions
import Synchronization

/// Which session presents under which follow code. The presenter's session is the truth (its
/// `presentation` names the code); this only finds the session from a code, so a code is
/// honoured only while both agree: revoked when the presenter stops, gone with their session.
final class Presentations: Sendable {
    private let presenters = Mutex([String: SessionID]())

    func register(_ code: String, presenter: SessionID) {
        presenters.withLock { $0[code] = presenter }
    }

    func revoke(_ code: String) {
        _ = presenters.withLock { $0.removeValue(forKey: code) }
    }

    func presenter(of code: String) -> SessionID? { presenters.withLock { $0[code] } }

    /// A follow code is the session id source's next draw: 128 random bits (seeded in
    /// deterministic mode), written as 32 hexadecimal digits, which any URL carries as they are.
    static func isWellFormed(_ code: String) -> Bool {
        code.utf8.count == 32 && code.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
