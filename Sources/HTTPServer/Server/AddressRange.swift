#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An IP address, or a block of them (`10.0.0.0/8`, `::1`), as `--trust-proxy` and
/// `--metrics-from` name them. An IPv4 address also matches its IPv6-mapped form
/// (`::ffff:127.0.0.1`), which is how a dual-stack socket reports IPv4 peers.
public struct AddressRange: Sendable, Equatable, CustomStringConvertible {
    /// 4 bytes for IPv4, 16 for IPv6.
    let network: [UInt8]
    let prefixLength: Int

    /// Parses `ADDRESS` or `ADDRESS/BITS`; nil for anything else (host names included: a
    /// proxy is named by its address, never looked up).
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = Self.bytes(of: parts[0]) else { return nil }
        var bits = address.count * 8
        if parts.count == 2 {
            guard let given = Int(parts[1]), (0...bits).contains(given) else { return nil }
            bits = given
        }
        network = address
        prefixLength = bits
    }

    /// Both loopback blocks: the default of `--metrics-from`.
    public static let loopback: [AddressRange] = ["127.0.0.0/8", "::1"].compactMap { AddressRange($0) }

    /// Parses a comma-separated list; nil when any entry is not an address or block.
    public static func list(_ text: String) -> [AddressRange]? {
        let entries = text.split(separator: ",").map { $0.trimmingSpaces }
        guard !entries.isEmpty else { return nil }
        var ranges: [AddressRange] = []
        for entry in entries {
            guard let range = AddressRange(entry) else { return nil }
            ranges.append(range)
        }
        return ranges
    }

    public func contains(_ address: some StringProtocol) -> Bool {
        guard var bytes = Self.bytes(of: address) else { return false }
        if bytes.count == 16 && network.count == 4 && bytes[0..<12] == Self.mappedPrefix[...] {
            bytes = Array(bytes[12...])
        }
        guard bytes.count == network.count else { return false }
        var remaining = prefixLength
        for index in network.indices where remaining > 0 {
            let bits = min(8, remaining)
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
            if bytes[index] & mask != network[index] & mask { return false }
            remaining -= bits
        }
        return true
    }

    public var description: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let family = network.count == 4 ? AF_INET : AF_INET6
        _ = network.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &text, socklen_t(text.count)) }
        let address = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return prefixLength == network.count * 8 ? address : "\(address)/\(prefixLength)"
    }

    private static let mappedPrefix: [UInt8] = Array(repeating: 0, count: 10) + [0xFF, 0xFF]

    private static func bytes(of text: some StringProtocol) -> [UInt8]? {
        let string = String(text)
        var v4 = in_addr()
        if inet_pton(AF_INET, string, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, string, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }
}

extension [AddressRange] {
    public func containsAddress(_ address: some StringProtocol) -> Bool { contains { $0.contains(address) } }

    /// The client behind `peer`: when `peer` is one of these trusted proxies, the nearest address
    /// in `X-Forwarded-For` (read from the right) that is not one of them; otherwise `peer`
    /// itself. A forwarded entry that is not an address stops the walk at the last trusted hop.
    public func client(peer: String, forwardedFor: String?) -> String {
        guard containsAddress(peer), let forwardedFor else { return peer }
        var client = peer
        for entry in forwardedFor.split(separator: ",").reversed().map({ $0.trimmingSpaces }) {
            guard AddressRange(entry) != nil else { break }
            client = String(entry)
            if !containsAddress(entry) { break }
        }
        return client
    }
}

extension StringProtocol {
    fileprivate var trimmingSpaces: SubSequence {
        let start = firstIndex { $0 != " " && $0 != "\t" } ?? endIndex
        let end = lastIndex { $0 != " " && $0 != "\t" }.map { index(after: $0) } ?? start
        return self[start..<Swift.max(start, end)]
    }
}
