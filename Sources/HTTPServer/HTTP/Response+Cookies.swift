/// The `SameSite` attribute of a cookie.
public enum SameSite: String, Sendable {
    case strict = "Strict"
    case lax = "Lax"
    case none = "None"
}

/// A cookie name or value that cannot be sent safely in a `Set-Cookie` header.
public struct InvalidCookieError: Error, Equatable, CustomStringConvertible {
    public let description: String
}

extension Response {
    /// Adds a `Set-Cookie` header. Defaults suit a session cookie: path `/`, HttpOnly, SameSite=Lax.
    /// A `maxAge` of 0 deletes the cookie.
    public mutating func setCookie(
        _ name: String, _ value: String, path: String = "/", maxAge: Int? = nil, httpOnly: Bool = true,
        secure: Bool = false, sameSite: SameSite = .lax
    ) throws(InvalidCookieError) {
        guard !name.isEmpty, name.utf8.allSatisfy(Self.isTokenByte) else {
            throw InvalidCookieError(description: "invalid cookie name '\(name)'")
        }
        guard value.utf8.allSatisfy(Self.isCookieValueByte) else {
            throw InvalidCookieError(description: "invalid value for cookie '\(name)'")
        }
        guard path.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ";") }) else {
            throw InvalidCookieError(description: "invalid path for cookie '\(name)'")
        }
        var header = "\(name)=\(value); Path=\(path)"
        if let maxAge { header += "; Max-Age=\(maxAge)" }
        if httpOnly { header += "; HttpOnly" }
        if secure || sameSite == .none { header += "; Secure" }
        header += "; SameSite=\(sameSite.rawValue)"
        headers.add(name: "Set-Cookie", value: header)
    }

    /// Asks the browser to forget a cookie.
    public mutating func expireCookie(_ name: String, path: String = "/") throws(InvalidCookieError) {
        try setCookie(name, "", path: path, maxAge: 0)
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        guard byte > 0x20, byte < 0x7F else { return false }
        return !"()<>@,;:\\\"/[]?={}".utf8.contains(byte)
    }

    private static func isCookieValueByte(_ byte: UInt8) -> Bool {
        guard byte > 0x20, byte < 0x7F else { return false }
        return byte != UInt8(ascii: "\"") && byte != UInt8(ascii: ",") && byte != UInt8(ascii: ";")
            && byte != UInt8(ascii: "\\")
    }
}
