import ASCII

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Request {
    /// Cookies from every `Cookie` header; the first of a repeated name wins (the most specific path).
    public var cookies: [String: String] {
        var cookies: [String: String] = [:]
        forEachCookie { header, _, name, value in
            let key = String(Self.text(of: header, at: name))
            if cookies[key] == nil { cookies[key] = String(Self.text(of: header, at: value)) }
            return true
        }
        return cookies
    }

    /// `cookies[name]`, without building the dictionary: the first pair of that name.
    public func cookie(named name: String) -> Substring? {
        var found: Substring?
        _ = firstCookie(named: name) { header, _, value in found = Self.text(of: header, at: value) }
        return found
    }

    /// Lends the bytes of the first cookie named `name` (as `cookie(named:)` finds it) to `body`,
    /// without making a String of them; false when there is none. For values read as bytes,
    /// such as a session id.
    public func withCookie(named name: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) -> Bool {
        firstCookie(named: name) { _, bytes, value in body(UnsafeBufferPointer(rebasing: bytes[value])) }
    }

    /// Calls `body` with the first pair named `name` (its header, the header's UTF-8 and where
    /// the value lies in it), the name compared by `memcmp`; false when there is none.
    private func firstCookie(
        named name: String, _ body: (String, UnsafeBufferPointer<UInt8>, Range<Int>) -> Void
    ) -> Bool {
        var found = false
        var name = name
        name.withUTF8 { wanted in
            forEachCookie { header, bytes, pairName, value in
                guard pairName.count == wanted.count,
                    memcmp(bytes.baseAddress! + pairName.lowerBound, wanted.baseAddress!, wanted.count) == 0
                else { return true }
                body(header, bytes, value)
                found = true
                return false
            }
        }
        return found
    }

    /// Calls `body` with each `name=value` pair of the `Cookie` headers in order (the header, its
    /// UTF-8, and where the name and the value lie in it), until it returns false. A header is
    /// octets (RFC 6265): pairs are split at `;` and `=` bytes, spaces and tabs around a name and
    /// a value are dropped, as are the quotes around a quoted value, and a pair without `=` or
    /// with an empty name is skipped. The bytes are read in place (`withUTF8`), the separators
    /// found by `memchr`.
    private func forEachCookie(_ body: (String, UnsafeBufferPointer<UInt8>, Range<Int>, Range<Int>) -> Bool) {
        for field in headers where HTTPHeaders.sameName(field.name, "Cookie") {
            var header = field.value
            let goesOn = header.withUTF8 { bytes in
                Self.forEachPair(in: bytes) { name, value in body(field.value, bytes, name, value) }
            }
            guard goesOn else { return }
        }
    }

    /// The pairs of one header's bytes, as `forEachCookie` reads them; false when `body` stopped.
    private static func forEachPair(
        in bytes: UnsafeBufferPointer<UInt8>, _ body: (Range<Int>, Range<Int>) -> Bool
    ) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        /// The offset of the first `byte` in `range`, else its end.
        func first(_ byte: UInt8, in range: Range<Int>) -> Int {
            guard let found = memchr(base + range.lowerBound, Int32(byte), range.count) else { return range.upperBound }
            return UnsafeRawPointer(found) - UnsafeRawPointer(base)
        }
        var pairStart = 0
        while pairStart < bytes.count {
            let pairEnd = first(UInt8(ascii: ";"), in: pairStart..<bytes.count)
            defer { pairStart = pairEnd + 1 }
            let equals = first(UInt8(ascii: "="), in: pairStart..<pairEnd)
            guard equals < pairEnd else { continue }
            let name = OptionalWhitespace.trimmed(pairStart..<equals, in: bytes.span)
            var value = OptionalWhitespace.trimmed(equals + 1..<pairEnd, in: bytes.span)
            if value.count >= 2, bytes[value.lowerBound] == UInt8(ascii: "\""),
                bytes[value.upperBound - 1] == UInt8(ascii: "\"")
            {
                value = value.lowerBound + 1..<value.upperBound - 1
            }
            guard !name.isEmpty else { continue }
            guard body(name, value) else { return false }
        }
        return true
    }

    /// The part of `header` at these UTF-8 offsets.
    private static func text(of header: String, at offsets: Range<Int>) -> Substring {
        let utf8 = header.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: offsets.lowerBound)
        return Substring(utf8[start..<utf8.index(start, offsetBy: offsets.count)])
    }
}
