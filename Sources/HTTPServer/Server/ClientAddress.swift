import CMicroHTTPD

/// A request's client address: the socket's bytes, made text only when read. Most handlers
/// never read it (the metrics allow list does), so a request does not pay for formatting it.
enum ClientAddress: Sendable {
    /// Text already (a trusted proxy's forwarded address, or a request made without a server).
    case text(String)
    /// The connection's peer, as the socket holds it.
    case peer(tabstage_peer)

    /// The numeric address, or an empty string when unknown.
    var text: String {
        switch self {
        case .text(let text): text
        case .peer(let peer): Self.format(peer)
        }
    }

    static func format(_ peer: tabstage_peer) -> String {
        var peer = peer
        let size = Int(INET6_ADDRSTRLEN) + 1
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: size) { buffer in
            guard let base = buffer.baseAddress, tabstage_format_peer(&peer, base, socklen_t(size)) == 0 else {
                return ""
            }
            return String(cString: base)
        }
    }
}
