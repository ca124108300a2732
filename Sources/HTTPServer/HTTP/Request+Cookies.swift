extension Request {
    /// Cookies from every `Cookie` header; the first of a repeated name wins (the most specific path).
    public var cookies: [String: String] {
        var cookies: [String: String] = [:]
        forEachCookie { name, value in
            if cookies[String(name)] == nil { cookies[String(name)] = String(value) }
            return true
        }
        return cookies
    }

    /// `cookies[name]`, without building the dictionary: the first pair of that name.
    public func cookie(named name: String) -> Substring? {
        var found: Substring?
        forEachCookie { pairName, value in
            guard pairName == name else { return true }
            found = value
            return false
        }
        return found
    }

    /// Calls `body` with each `name=value` pair of the `Cookie` headers in order, until it
    /// returns false. Spaces and tabs around a name and a value are dropped, as are the quotes
    /// around a quoted value; a pair without `=` or with an empty name is skipped.
    private func forEachCookie(_ body: (Substring, Substring) -> Bool) {
        for field in headers where HTTPHeaders.sameName(field.name, "Cookie") {
            for pair in field.value.split(separator: ";") {
                guard let equals = pair.firstIndex(of: "=") else { continue }
                let name = pair[..<equals].trimmingSpaces
                var value = pair[pair.index(after: equals)...].trimmingSpaces
                if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                    value = value.dropFirst().dropLast()
                }
                guard !name.isEmpty else { continue }
                guard body(name, value) else { return }
            }
        }
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
