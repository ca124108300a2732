/// A store could not read or keep a change (a full disk, a locked file): the request fails
/// with 503 and nothing is half-applied; the change was not made unless `outcomeUnknown`.
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
    /// A change was sent and its answer never came, and the store could not tell afterwards
    /// whether it was made (Redis hung or went away just then): the one failure after which
    /// the change may be there. False for every other failure, which changed nothing.
    public let outcomeUnknown: Bool

    public init(_ description: String, kind: Kind = .failed, outcomeUnknown: Bool = false) {
        self.description = description
        self.kind = kind
        self.outcomeUnknown = outcomeUnknown
    }
}
