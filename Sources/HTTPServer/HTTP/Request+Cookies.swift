extension Request {
    /// Cookies from every `Cookie` header; the first of a repeated name wins (the most specific path).
    public var cookies: [String: String] {
        var cookies: [String: String] = [:]
        forEachCookie { name, value in
            let key = String(Substring(name))
            if cookies[key] == nil { cookies[key] = String(Substring(value)) }
            return true
        }
        return cookies
    }

    /// `cookies[name]`, without building the dictionary: the first pair of that name.
    public func cookie(named name: String) -> Substring? {
        var found: Substring?
        forEachCookie { pairName, value in
            guard pairName.elementsEqual(name.utf8) else { return true }
            found = Substring(value)
            return false
        }
        return found
    }

    /// Calls `body` with each `name=value` pair of the `Cookie` headers in order, until it
    /// returns false. A header is octets (RFC 6265): pairs are split at `;` and `=` bytes, spaces
    /// and tabs around a name and a value are dropped, as are the quotes around a quoted value,
    /// and a pair without `=` or with an empty name is skipped.
    private func forEachCookie(_ body: (Substring.UTF8View, Substring.UTF8View) -> Bool) {
        for field in headers where HTTPHeaders.sameName(field.name, "Cookie") {
            let bytes = field.value[...].utf8
            var pairStart = bytes.startIndex
            while pairStart < bytes.endIndex {
                let pairEnd = bytes[pairStart...].firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex
                let pair = bytes[pairStart..<pairEnd]
                pairStart = pairEnd < bytes.endIndex ? bytes.index(after: pairEnd) : pairEnd
                guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else { continue }
                let name = Self.trimmingSpaces(pair[..<equals])
                var value = Self.trimmingSpaces(pair[bytes.index(after: equals)...])
                if value.count >= 2, value.first == UInt8(ascii: "\""), value.last == UInt8(ascii: "\"") {
                    value = value.dropFirst().dropLast()
                }
                guard !name.isEmpty else { continue }
                guard body(name, value) else { return }
            }
        }
    }

    private static func trimmingSpaces(_ bytes: Substring.UTF8View) -> Substring.UTF8View {
        func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var trimmed = bytes
        while let first = trimmed.first, isSpace(first) { trimmed = trimmed.dropFirst() }
        while let last = trimmed.last, isSpace(last) { trimmed = trimmed.dropLast() }
        return trimmed
    }
}
