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
