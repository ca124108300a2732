/// The follow link a presenter hands over: the absolute address (`serve --public-url`, else the
/// request's host), and its QR code's modules, encoded by the shell (this module draws them).
public struct FollowLink: Sendable, Equatable {
    public var url: String
    /// The QR code's side in modules, and its modules row by row (true: dark); size 0 for none.
    public var qrSize: Int
    public var qrModules: [Bool]

    public init(url: String, qrSize: Int = 0, qrModules: [Bool] = []) {
        precondition(qrModules.count == qrSize * qrSize, "a QR code has size × size modules")
        self.url = url
        self.qrSize = qrSize
        self.qrModules = qrModules
    }
}

enum FollowLinkView {
    /// The quiet zone a reader needs around a QR code, in modules.
    static let quietZone = 4
    /// How wide the code is drawn, in CSS pixels.
    static let drawnWidth = 180

    /// The link, a copy button (shown by the stylesheet only with the script, which copies), and the
    /// QR code.
    static func render(_ link: FollowLink, language: PageLanguage, into html: inout HTMLWriter) {
        html.raw("<p class=\"follow-link-row\"><a class=\"follow-link\"")
        html.attribute("href", link.url)
        html.raw(">")
        html.text(link.url)
        html.raw("</a> <button type=\"button\" class=\"button button-quiet copy-link\"")
        html.attribute("data-copy", link.url)
        html.attribute("data-copied", UIString.linkCopied.text(in: language))
        html.raw(">")
        html.text(UIString.copyLink.text(in: language))
        html.raw("</button></p>\n")
        qrCode(link, language: language, into: &html)
    }

    /// The QR code as SVG: a white square with the quiet zone, and one path of the dark
    /// modules, a rectangle per run of them in a row.
    static func qrCode(_ link: FollowLink, language: PageLanguage, into html: inout HTMLWriter) {
        guard link.qrSize > 0 else { return }
        let side = link.qrSize + 2 * quietZone
        html.raw("<svg class=\"follow-qr\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" viewBox=\"0 0 ")
        html.number(side)
        html.raw(" ")
        html.number(side)
        html.raw("\" width=\"")
        html.number(drawnWidth)
        html.raw("\" height=\"")
        html.number(drawnWidth)
        html.raw("\" shape-rendering=\"crispEdges\"")
        html.attribute("aria-label", UIString.followQRCode.text(in: language))
        html.raw("><rect width=\"100%\" height=\"100%\" fill=\"#fff\"/><path fill=\"#000\" d=\"")
        for y in 0..<link.qrSize {
            var x = 0
            while x < link.qrSize {
                guard link.qrModules[y * link.qrSize + x] else {
                    x += 1
                    continue
                }
                let start = x
                while x < link.qrSize && link.qrModules[y * link.qrSize + x] { x += 1 }
                html.raw("M")
                html.number(start + quietZone)
                html.raw(" ")
                html.number(y + quietZone)
                html.raw("h")
                html.number(x - start)
                html.raw("v1h-")
                html.number(x - start)
                html.raw("z")
            }
        }
        html.raw("\"/></svg>\n")
    }
}
