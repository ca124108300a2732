import Colour
import HTTPServer
import IconCatalog
import Rasterizer
import TabModel
import Views

extension StageApplication {
    /// An icon's URL names its picture, so it may be kept a day; it carries no credentials.
    static let iconCacheControl = "max-age=86400"

    /// `/theme/{app}.css`: the app's tint, for the stylesheet's `--tint`.
    func theme(_ request: Request, _ parameters: Parameters) throws -> Response {
        let file = try parameters.require("file")
        guard file.hasSuffix(".css"), let app = app(id: String(file.dropLast(4))) else {
            return try errorPage(request, .notFound, .unknownPage)
        }
        var response = Response(
            status: .ok, headers: ["Content-Type": "text/css; charset=utf-8"], body: ThemeStylesheet.css(for: app))
        response.headers["Cache-Control"] = "no-cache"
        return response
    }

    /// `/icons[?tint=RRGGBB]`: the gallery of built-in icons, then every served app's own.
    func iconGallery(_ request: Request) throws -> Response {
        let hex = String(try requestedTint(request).description.drop { $0 == "#" })
        let header = try chrome(request, path: StageLinks.iconGallery)
        var response = StageResponses.page(
            IconGalleryPage.document(names: IconCatalog.names, tint: hex, apps: apps, chrome: header.result))
        attachCookie(header.newSession, to: &response)
        return response
    }

    /// `/icons/{name}/{state}@{scale}x.png?tint=RRGGBB`.
    func builtInIcon(_ request: Request, _ parameters: Parameters) throws -> Response {
        let name = try parameters.require("name")
        guard IconCatalog.names.contains(name), let (state, scale) = Self.iconFile(try parameters.require("file"))
        else { return try errorPage(request, .notFound, .unknownPage) }
        let tint = try requestedTint(request)
        return try icon(IconRequest(source: .builtIn(name: name), state: state, scale: scale, tint: tint), request)
    }

    /// `/icons/apps/{app}/{tab}/{state}@{scale}x.png`: an app's own path data, in its tint.
    func appIcon(_ request: Request, _ parameters: Parameters) throws -> Response {
        let appID = try parameters.require("app")
        let tabID = try parameters.require("tab")
        guard let app = app(id: appID), let (state, scale) = Self.iconFile(try parameters.require("file")) else {
            return try errorPage(request, .notFound, .unknownPage)
        }
        guard let source = AppIcons.source(app: app, tabID: tabID) else {
            return try errorPage(request, .notFound, .unknownTab(tabID), app: app)
        }
        return try icon(
            IconRequest(source: source, state: state, scale: scale, tint: AppIcons.tint(of: app)), request)
    }

    /// Both icon routes take the unselected fill as `?color=RRGGBB` (the light fill of a dark
    /// bar, say); without it, `RGBColor.unselectedGrey`. A selected icon is drawn in the tint.
    private func icon(_ iconRequest: IconRequest, _ request: Request) throws -> Response {
        var iconRequest = iconRequest
        iconRequest.color = .unselectedGrey
        if let text = request.query["color"] {
            guard let parsed = RGBColor(hex: text) else { return try errorPage(request, .badRequest, nil) }
            iconRequest.color = parsed
        }
        let responses: TaggedResponses
        if let cached = iconResponses.value(forKey: iconRequest) {
            responses = cached
        } else {
            let rendered: RenderedIcon
            do {
                rendered = try icons.render(iconRequest)
            } catch {
                // Path data was checked when the app loaded; a failure here is a bad icon, not a crash.
                return try errorPage(request, .notFound, .unknownPage)
            }
            responses = TaggedResponses(
                body: rendered.png, contentType: "image/png", entityTag: rendered.etag,
                cacheControl: Self.iconCacheControl)
            iconResponses.insert(responses, forKey: iconRequest)
        }
        return responses.response(to: request)
    }

    /// `selected@2x.png` → (selected, x2). Only the canonical spellings of the scale, `1`, `2` or
    /// `3`: `+2` or `02` would be other URLs of one image. Read as bytes: it is on every icon request.
    static func iconFile(_ file: String) -> (IconState, IconScale)? {
        var file = file
        return file.withUTF8 { bytes -> (IconState, IconScale)? in
            let count = bytes.count
            guard count > 7, bytes[count - 7] == UInt8(ascii: "@"), bytes[(count - 5)...].elementsEqual("x.png".utf8),
                let scale = IconScale(rawValue: Int(bytes[count - 6]) - Int(UInt8(ascii: "0")))
            else { return nil }
            let name = bytes[..<(count - 7)]
            return IconState.allCases.first { name.elementsEqual($0.rawValue.utf8) }.map { ($0, scale) }
        }
    }
}

extension TaggedResponses {
    /// What an icon's answers cost the cache: the PNG twice (ours and libmicrohttpd's copy), the
    /// tag, and the headers and bookkeeping.
    var costInBytes: Int { ok.body.count * 2 + entityTag.utf8.count + 512 }
}
