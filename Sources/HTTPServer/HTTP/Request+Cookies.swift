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

    private static func scanCookie(named name: String, in header: String) -> CookieScan {
        let utf8 = header.utf8
        guard utf8.allSatisfy({ (0x20...0x7E).contains($0) || $0 == 0x09 }) else { return .notPlain }
        var pairStart = utf8.startIndex
        while pairStart < utf8.endIndex {
            let pairEnd = utf8[pairStart...].firstIndex(of: UInt8(ascii: ";")) ?? utf8.endIndex
            defer { pairStart = pairEnd < utf8.endIndex ? utf8.index(after: pairEnd) : pairEnd }
            guard let equals = utf8[pairStart..<pairEnd].firstIndex(of: UInt8(ascii: "=")) else { continue }
            let pairName = header[pairStart..<equals].trimmingSpaces
            var value = header[utf8.index(after: equals)..<pairEnd].trimmingSpaces
            if value.utf8.count >= 2, value.utf8.first == UInt8(ascii: "\""), value.utf8.last == UInt8(ascii: "\"") {
                value = value.dropFirst().dropLast()
            }
            // The first pair of the name wins, as in `cookies`.
            if !pairName.isEmpty && pairName == name { return .found(value) }
        }
        return .absent
    }
}
