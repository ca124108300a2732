/// One Redis reply, copied out of hiredis's tree by the connection that read it (which frees
/// the tree at once): plain values, no pointer into C memory.
public enum RedisReply: Sendable, Equatable {
    case status(String)
    case error(String)
    case integer(Int)
    case bulk([UInt8])
    case null
    case array([RedisReply])
}

extension RedisReply {
    /// Whether this is a bulk string of exactly `bytes`, compared in place (a subscriber checks
    /// each message's kind and channel this way).
    func isBulk(_ bytes: some Sequence<UInt8>) -> Bool {
        guard case .bulk(let value) = self else { return false }
        return value.elementsEqual(bytes)
    }
}
