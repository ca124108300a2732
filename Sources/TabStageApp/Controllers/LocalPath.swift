/// Where a log-in or log-out may send the visitor back to: a path on this site, never elsewhere.
enum LocalPath {
    /// `candidate` when it is a local absolute path, else nil.
    ///
    /// Refused: anything not starting with one `/` (`https://x`, `//x` and `/\x`, which browsers
    /// read as another host), control characters and spaces, and backslashes anywhere.
    static func validated(_ candidate: String?) -> String? {
        guard let candidate, candidate.utf8.count <= 2048 else { return nil }
        let bytes = Array(candidate.utf8)
        guard bytes.first == UInt8(ascii: "/") else { return nil }
        if bytes.count > 1, bytes[1] == UInt8(ascii: "/") { return nil }
        guard !bytes.contains(where: { $0 <= 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\\") }) else { return nil }
        return candidate
    }
}
