import HTTPServer
import IconCatalog
import QRCode
import Views

/// The follow link a presenter hands over, absolute: under `serve --public-url` when given,
/// else under the host the presenter's own request named (`Host`), with its QR code. A `Host`
/// that is not a plain host and port is not repeated: the link is then the path alone.
public struct FollowLinks: Sendable {
    /// `scheme://host[:port][/prefix]`, without a trailing slash.
    var publicURL: String?
    /// The scheme of a link made from the request's host: `https` when cookies are `Secure`
    /// (the server is then behind HTTPS).
    var scheme = "http"
    /// libqrencode, asked for at each link: the process's, looked for once at the first
    /// (`QRCodeLibrary.shared`); nil draws the link and its copy button without a code.
    var qrCodes: @Sendable () -> QRCodeLibrary? = { QRCodeLibrary.shared.library }
    /// Links already made, by URL: a presenter's every page shows its link, and encoding its QR
    /// code costs more than the rest of the page. A link is the same whoever asks for its URL.
    let made = ByteBoundedCache<String, FollowLink>(capacityInBytes: 1 << 20) {
        $0.url.utf8.count + $0.qrModules.count + 64
    }

    func link(_ appID: String, _ code: String, request: Request) -> FollowLink {
        let path = StageLinks.follow(appID, code)
        let url: String
        if let publicURL {
            url = publicURL + path
        } else if let host = request.headers["Host"], Self.isPlainHost(host) {
            url = scheme + "://" + host + path
        } else {
            url = path
        }
        if let known = made.value(forKey: url) { return known }
        guard let code = QRCode(url, from: qrCodes()) else { return FollowLink(url: url) }
        let link = FollowLink(url: url, qrSize: code.size, qrModules: code.modules)
        made.insert(link, forKey: url)
        return link
    }

    /// A host name or address, with a port or not: letters, digits, `.-:[]`, at most 255 bytes.
    static func isPlainHost(_ host: String) -> Bool {
        !host.isEmpty && host.utf8.count <= 255
            && host.utf8.allSatisfy { byte in
                (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
                    || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ":")
                    || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]")
            }
    }

    /// `--public-url`'s value made canonical (no trailing slash), or nil when it is not an
    /// absolute http or https URL without a query or fragment.
    public static func publicURL(_ text: String) -> String? {
        var url = text
        while url.hasSuffix("/") { url.removeLast() }
        let lower = url.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://"),
            let rest = url.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false).dropFirst(2).first,
            !rest.isEmpty, !url.contains("?"), !url.contains("#"), !url.contains(where: { $0.isWhitespace }),
            url.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 32 && $0 != "\"" && $0 != "<" && $0 != ">" })
        else { return nil }
        return url
    }
}
