/// A store could not read or keep a change (a full disk, a locked file): the request fails
/// with 503 and nothing is half-applied.
public struct SessionStoreError: Error, Equatable, CustomStringConvertible {
    /// What went wrong, as `/metrics` counts it.
    public enum Kind: String, Sendable, CaseIterable {
        /// The store could not be reached (Redis down, a connection dropped).
        case unavailable
        /// The store did not answer in time.
        case timeout
        /// Other writers kept changing the session: the change was given up, not half-made.
        case conflict
        /// Anything else: a full disk, a refused command, a state that would not encode.
        case failed
    }

    public let description: String
    public let kind: Kind

    public init(_ description: String, kind: Kind = .failed) {
        self.description = description
        self.kind = kind
    }
}
