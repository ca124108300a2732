import RedisClient

extension RedisError {
    /// The kind `/metrics` counts and a store error carries.
    var storeErrorKind: SessionStoreError.Kind {
        switch self {
        case .unreachable, .connectionLost: .unavailable
        case .timedOut: .timeout
        case .refused, .unexpectedReply: .failed
        }
    }
}
