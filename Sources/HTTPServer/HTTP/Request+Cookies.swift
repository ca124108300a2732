extension Request {
    /// Cookies from every `Cookie` header; the first of a repeated name wins (the most specific path).
    public var cookies: [String: String] {
        var cookies: [String: String] = [:]
        forEachCookie { header, name, value in
            let key = String(Self.text(of: header, at: name))
            if cookies[key] == nil { cookies[key] = String(Self.text(of: header, at: value)) }
            return true
        }
        return cookies
    }

    /// `cookies[name]`, without building the dictionary: the first pair of that name.
    public func cookie(named name: String) -> Substring? {
        var found: Substring?
        let wanted = name.utf8.span
        forEachCookie { header, pairName, value in
            guard pairName.count == wanted.count else { return true }
            let bytes = header.utf8.span
            for offset in 0..<wanted.count where bytes[pairName.lowerBound + offset] != wanted[offset] { return true }
            found = Self.text(of: header, at: value)
            return false
        }
        return found
    }

    /// Calls `body` with each `name=value` pair of the `Cookie` headers in order (the header, and
    /// where the name and the value lie in its UTF-8), until it returns false. A header is octets
    /// (RFC 6265): pairs are split at `;` and `=` bytes, spaces and tabs around a name and a value
    /// are dropped, as are the quotes around a quoted value, and a pair without `=` or with an
    /// empty name is skipped.
    private func forEachCookie(_ body: (String, Range<Int>, Range<Int>) -> Bool) {
        for field in headers where HTTPHeaders.sameName(field.name, "Cookie") {
            let bytes = field.value.utf8.span
            var pairStart = 0
            while pairStart < bytes.count {
                var pairEnd = pairStart
                while pairEnd < bytes.count && bytes[pairEnd] != UInt8(ascii: ";") { pairEnd += 1 }
                defer { pairStart = pairEnd + 1 }
                var equals = pairStart
                while equals < pairEnd && bytes[equals] != UInt8(ascii: "=") { equals += 1 }
                guard equals < pairEnd else { continue }
                let name = Self.trimmingSpaces(pairStart..<equals, in: bytes)
                var value = Self.trimmingSpaces(equals + 1..<pairEnd, in: bytes)
                if value.count >= 2, bytes[value.lowerBound] == UInt8(ascii: "\""),
                    bytes[value.upperBound - 1] == UInt8(ascii: "\"")
                {
                    value = value.lowerBound + 1..<value.upperBound - 1
                }
                guard !name.isEmpty else { continue }
                guard body(field.value, name, value) else { return }
            }
        }
    }

    private static func trimmingSpaces(_ range: Range<Int>, in bytes: Span<UInt8>) -> Range<Int> {
        func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var start = range.lowerBound
        var end = range.upperBound
        while start < end && isSpace(bytes[start]) { start += 1 }
        while end > start && isSpace(bytes[end - 1]) { end -= 1 }
        return start..<end
    }

    /// The part of `header` at these UTF-8 offsets.
    private static func text(of header: String, at offsets: Range<Int>) -> Substring {
        let utf8 = header.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: offsets.lowerBound)
        return Substring(utf8[start..<utf8.index(start, offsetBy: offsets.count)])
    }
}
