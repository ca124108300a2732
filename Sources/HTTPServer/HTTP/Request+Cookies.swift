#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Request {
    /// Cookies from every `Cookie` header; the first of a repeated name wins (the most specific path).
    public var cookies: [String: String] {
        var cookies: [String: String] = [:]
        for header in headers.values(for: "Cookie") {
            for pair in header.split(separator: ";") {
                guard let equals = pair.firstIndex(of: "=") else { continue }
                let name = pair[..<equals].trimmingSpaces
                var value = pair[pair.index(after: equals)...].trimmingSpaces
                if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                    value = value.dropFirst().dropLast()
                }
                guard !name.isEmpty, cookies[String(name)] == nil else { continue }
                cookies[String(name)] = String(value)
            }
        }
        return cookies
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var text = self
        while text.first == " " || text.first == "\t" { text = text.dropFirst() }
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        return text
    }
}

extension Request {
    /// `cookies[name]`, without building the dictionary: the `Cookie` headers are scanned on
    /// their bytes for that one name. A header with anything but printable ASCII (where bytes and
    /// Characters could split differently) goes the way of `cookies`, so the answer is the same.
    public func cookie(named name: String) -> Substring? {
        for field in headers where HTTPHeaders.sameName(field.name, "Cookie") {
            switch Self.scanCookie(named: name, in: field.value) {
            case .found(let value): return value
            case .absent: continue
            case .notPlain: return cookies[name].map { Substring($0) }
            }
        }
        return nil
    }

    private enum CookieScan {
        case found(Substring)
        case absent
        case notPlain
    }

    /// On the header's own bytes: the pair boundaries, the trimming of spaces and tabs and the
    /// name comparison are all byte work for printable ASCII, where bytes are Characters. A
    /// name that is not ASCII could still equal an ASCII one as Strings, so it goes the slow way.
    private static func scanCookie(named name: String, in header: String) -> CookieScan {
        let scan = header.utf8.withContiguousStorageIfAvailable { bytes in
            name.utf8.withContiguousStorageIfAvailable { wanted in valueOffsets(named: wanted, in: bytes) }
        }
        switch scan ?? nil {
        case .at(let offsets):
            // Offsets into printable ASCII are Character boundaries.
            let utf8 = header.utf8
            let start = utf8.index(utf8.startIndex, offsetBy: offsets.lowerBound)
            return .found(header[start..<utf8.index(start, offsetBy: offsets.count)])
        case .absent: return .absent
        case .notPlain, nil: return .notPlain
        }
    }

    private enum ByteScan {
        case at(Range<Int>)
        case absent
        case notPlain
    }

    /// Where the value of the first pair named `wanted` lies in `bytes`, as `scanCookie` means it.
    private static func valueOffsets(named wanted: UnsafeBufferPointer<UInt8>, in bytes: UnsafeBufferPointer<UInt8>)
        -> ByteScan
    {
        guard wanted.allSatisfy({ $0 < 0x80 }), let base = bytes.baseAddress else { return .notPlain }
        // Counted rather than stopped at the first: a loop without an exit, which the compiler
        // runs many bytes at a time.
        var notPlain = 0
        for byte in bytes { notPlain &+= (0x20...0x7E).contains(byte) || byte == 0x09 ? 0 : 1 }
        guard notPlain == 0 else { return .notPlain }
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        /// Where `byte` first is in `start..<end`, else `end`. `memchr` looks at many bytes at
        /// a time: a loop byte by byte cost ~5 instructions a byte for the `;` and the `=`.
        func offset(of byte: UInt8, from start: Int, to end: Int) -> Int {
            guard start < end, let found = memchr(base + start, Int32(byte), end - start) else { return end }
            return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
        }
        var pairStart = 0
        while pairStart < bytes.count {
            let pairEnd = offset(of: UInt8(ascii: ";"), from: pairStart, to: bytes.count)
            defer { pairStart = pairEnd + 1 }
            let equals = offset(of: UInt8(ascii: "="), from: pairStart, to: pairEnd)
            guard equals < pairEnd else { continue }
            var nameStart = pairStart
            var nameEnd = equals
            while nameStart < nameEnd && isSpace(bytes[nameStart]) { nameStart += 1 }
            while nameEnd > nameStart && isSpace(bytes[nameEnd - 1]) { nameEnd -= 1 }
            // The first pair of the name wins, as in `cookies`.
            guard nameEnd > nameStart, nameEnd - nameStart == wanted.count,
                (0..<wanted.count).allSatisfy({ bytes[nameStart + $0] == wanted[$0] })
            else { continue }
            var valueStart = equals + 1
            var valueEnd = pairEnd
            while valueStart < valueEnd && isSpace(bytes[valueStart]) { valueStart += 1 }
            while valueEnd > valueStart && isSpace(bytes[valueEnd - 1]) { valueEnd -= 1 }
            if valueEnd - valueStart >= 2, bytes[valueStart] == UInt8(ascii: "\""),
                bytes[valueEnd - 1] == UInt8(ascii: "\"")
            {
                valueStart += 1
                valueEnd -= 1
            }
            return .at(valueStart..<valueEnd)
        }
        return .absent
    }
}
