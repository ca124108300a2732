import Foundation

/// The addresses of this machine's network interfaces that others can type: listening on
/// `0.0.0.0` or `::`, the server names them, since neither is an address anyone can reach.
enum ReachableAddresses {
    /// The interfaces' addresses that are up, of the families `host` listens on (IPv4 for
    /// `0.0.0.0`, both for `::`): loopback last, IPv6 link-local addresses left out (they need
    /// a zone to be typed). Empty for any other host.
    static func forWildcard(_ host: String) -> [String] {
        let families: [Int32]
        switch host {
        case "0.0.0.0": families = [Int32(AF_INET)]
        case "::", "[::]": families = [Int32(AF_INET), Int32(AF_INET6)]
        default: return []
        }
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var found: [(address: String, loopback: Bool)] = []
        var next: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = next {
            next = entry.pointee.ifa_next
            let flags = Int32(entry.pointee.ifa_flags)
            guard let socketAddress = entry.pointee.ifa_addr, flags & Int32(IFF_UP) != 0 else { continue }
            let family = Int32(socketAddress.pointee.sa_family)
            guard families.contains(family), let text = numeric(socketAddress, family: family) else { continue }
            if family == Int32(AF_INET6) && text.lowercased().hasPrefix("fe80") { continue }
            let shown = family == Int32(AF_INET6) ? "[\(text)]" : text
            if !found.contains(where: { $0.address == shown }) {
                found.append((shown, flags & Int32(IFF_LOOPBACK) != 0))
            }
        }
        return found.filter { !$0.loopback }.map(\.address) + found.filter(\.loopback).map(\.address)
    }

    private static func numeric(_ address: UnsafeMutablePointer<sockaddr>, family: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let length = socklen_t(
            family == Int32(AF_INET6) ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
        guard getnameinfo(address, length, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) == 0 else {
            return nil
        }
        return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
