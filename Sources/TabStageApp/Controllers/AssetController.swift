import Colour
import HTTPServer
import IconCatalog
import Rasterizer
import Sessions
import TabModel
import Views

/// What pages load beside themselves: the app's theme, the icon gallery and the icons, drawn by
/// the rasterizer once and kept as ready answers.
struct AssetController: Sendable {
    let pages: PageRoutes
    let icons: IconRenderer
    /// Ready answers for rendered icons, bounded like the renderer's own cache.
    let iconResponses: ByteBoundedCache<CachedIcon, TaggedResponses>

    /// An icon's answers, which differ in how long they may be kept.
    struct CachedIcon: Hashable, Sendable {
        var request: IconRequest
        var cacheControl: String
    }

    /// A URL that names one picture for good, kept a year: an icon whose URL carries its current
    /// content version (`?v=`: a built-in icon's art, or an app's own path data with its tint and
    /// style; the rest of the picture is in the URL itself), or a screen image named by its
    /// content hash. It carries no credentials.
    static let immutableCacheControl = "public, max-age=31536000, immutable"
    /// An icon asked for without its current version (an old page's, or none): the picture
    /// drawn now, checked again on every use.
    static let unversionedIconCacheControl = "no-cache"

    init(pages: PageRoutes, icons: IconRenderer) {
        self.pages = pages
        self.icons = icons
        iconResponses = ByteBoundedCache(capacityInBytes: IconRenderer.defaultCapacityInBytes) { $0.costInBytes }
    }

    /// Fixed paths: before any app's, which they would otherwise shadow.
    func addRoutes(to router: inout Router) {
        router.get(StageLinks.iconGallery, pages.page(.site, find: Self.requestedTint, iconGallery))
        router.get("/theme/{file}", pages.plain(.site, theme))
        router.get("/icons/apps/{app}/{tab}/{file}", pages.plain(.app, appIcon))
        router.get("/icons/{name}/{file}", pages.plain(.site, builtInIcon))
        router.get("/screens/{file}", pages.plain(.site, screenImage))
    }

    /// `/screens/{fingerprint}.{png|jpg}`: a screen page's image, from the served apps' table
    /// (a request's path never reaches the file system).
    func screenImage(_ page: PageRequest) -> PageAnswer {
        guard let answers = page.served.screenImages[page.parameter("file")] else {
            return .refusal(.notFound(.unknownPage))
        }
        return .response(answers.response(to: page.request))
    }

    /// `/theme/{app}.css`: the app's tint, for the stylesheet's `--tint`.
    func theme(_ page: PageRequest) -> PageAnswer {
        let file = page.parameter("file")
        guard file.hasSuffix(".css"), let app = page.served.app(id: String(file.dropLast(4))) else {
            return .refusal(.notFound(.unknownPage))
        }
        var response = Response(
            status: .ok, headers: ["Content-Type": "text/css; charset=utf-8"], body: ThemeStylesheet.css(for: app))
        response.headers["Cache-Control"] = "no-cache"
        return .response(response)
    }

    /// The colour `?tint=RRGGBB` asks for (the default tint without one); 400 for a malformed one.
    static func requestedTint(_ page: PageRequest) -> Result<RGBColor, Refusal> {
        guard let text = page.query["tint"] else { return .success(.defaultTint) }
        guard let tint = RGBColor(hex: text) else { return .failure(Refusal(.badRequest)) }
        return .success(tint)
    }

    /// `/icons[?tint=RRGGBB]`: the gallery of built-in icons, then every served app's own.
    func iconGallery(_ visit: PageVisit, _ tint: RGBColor, _ session: inout VisitorSession) -> PageAnswer {
        let hex = String(tint.description.drop { $0 == "#" })
        let apps = visit.page.served.apps
        return .page(Page { IconGalleryPage.document(names: IconCatalog.names, tint: hex, apps: apps, chrome: $0) })
    }

    /// `/icons/{name}/{state}@{scale}x.png?tint=RRGGBB&v=VERSION`.
    func builtInIcon(_ page: PageRequest) -> PageAnswer {
        let name = page.parameter("name")
        guard let builtIn = BuiltInIcon(rawValue: name), let (state, scale) = Self.iconFile(page.parameter("file"))
        else {
            return .refusal(.notFound(.unknownPage))
        }
        let current = page.request.query["v"] == builtIn.artVersion
        switch Self.requestedTint(page) {
        case .success(let tint):
            return icon(
                IconRequest(source: .builtIn(name: name), state: state, scale: scale, tint: tint), page.request,
                cacheControl: current ? Self.immutableCacheControl : Self.unversionedIconCacheControl)
        case .failure(let refusal):
            return .refusal(refusal)
        }
    }

    /// `/icons/apps/{app}/{tab}/{state}@{scale}x.png`: an app's own path data, in its tint.
    func appIcon(_ page: PageRequest) -> PageAnswer {
        guard let (state, scale) = Self.iconFile(page.parameter("file")) else {
            return .refusal(.notFound(.unknownPage))
        }
        let tabID = page.parameter("tab")
        guard let source = AppIcons.source(app: page.app, tabID: tabID) else {
            return .refusal(.notFound(.unknownTab(tabID)))
        }
        let version = tabID == StageLinks.moreSegment ? page.app.moreIconVersion : page.app.iconVersion(of: tabID)
        let current = !version.isEmpty && page.request.query["v"] == version
        return icon(
            IconRequest(source: source, state: state, scale: scale, tint: AppIcons.tint(of: page.app)), page.request,
            cacheControl: current ? Self.immutableCacheControl : Self.unversionedIconCacheControl)
    }

    /// Both icon routes take the unselected fill as `?color=RRGGBB` (the light fill of a dark
    /// bar, say); without it, `RGBColor.unselectedGrey`. A selected icon is drawn in the tint.
    private func icon(_ iconRequest: IconRequest, _ request: Request, cacheControl: String) -> PageAnswer {
        var iconRequest = iconRequest
        iconRequest.color = .unselectedGrey
        if let text = request.query["color"] {
            guard let parsed = RGBColor(hex: text) else { return .refusal(Refusal(.badRequest)) }
            iconRequest.color = parsed
        }
        let responses: TaggedResponses
        let key = CachedIcon(request: iconRequest, cacheControl: cacheControl)
        if let cached = iconResponses.value(forKey: key) {
            responses = cached
        } else {
            let rendered: RenderedIcon
            do {
                rendered = try icons.render(iconRequest)
            } catch {
                // Path data was checked when the app loaded; a failure here is a bad icon, not a crash.
                return .refusal(.notFound(.unknownPage))
            }
            responses = TaggedResponses(
                body: rendered.png, contentType: "image/png", entityTag: rendered.etag,
                cacheControl: cacheControl)
            iconResponses.insert(responses, forKey: key)
        }
        return .response(responses.response(to: request))
    }

    /// `selected@2x.png` → (selected, x2). Only the canonical spellings of the scale, `1`, `2` or
    /// `3`: `+2` or `02` would be other URLs of one image. Read as bytes: it is on every icon request.
    static func iconFile(_ file: String) -> (IconState, IconScale)? {
        var file = file
        return file.withUTF8 { bytes -> (IconState, IconScale)? in
            let count = bytes.count
            let suffix: StaticString = "x.png"
            guard count > 7, let start = bytes.baseAddress, bytes[count - 7] == UInt8(ascii: "@"),
                (0..<5).allSatisfy({ start[count - 5 + $0] == suffix.utf8Start[$0] }),
                let scale = IconScale(rawValue: Int(bytes[count - 6]) - Int(UInt8(ascii: "0")))
            else { return nil }
            // The state names are short enough to be small strings: no allocation.
            let name = String(decoding: UnsafeBufferPointer(start: start, count: count - 7), as: UTF8.self)
            return IconState(rawValue: name).map { ($0, scale) }
        }
    }
}

extension TaggedResponses {
    /// What an icon's answers cost the cache: the PNG twice (ours and libmicrohttpd's copy), the
    /// tag, and the headers and bookkeeping.
    var costInBytes: Int { ok.body.count * 2 + entityTag.utf8.count + 512 }
}
