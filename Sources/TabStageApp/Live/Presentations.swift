/// Follow codes: which session presents under which code is an alias in the session store
/// (`SessionStore.setAlias`), so every instance sharing the store finds the presenter. The
/// presenter's session is the truth (its `presentation` names the code); a code is honoured
/// only while both agree: revoked when the presenter stops, gone with their session.
enum Presentations {
    /// A follow code is the session id source's next draw: 128 random bits (seeded in
    /// deterministic mode), written as 32 hexadecimal digits, which any URL carries as they are.
    static func isWellFormed(_ code: String) -> Bool {
        code.utf8.count == 32 && code.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
