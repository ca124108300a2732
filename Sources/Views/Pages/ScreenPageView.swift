import TabModel

/// A screen page (``ScreenPage``): the designer's image filling the screen's width, and its
/// hotspots over it as real links and buttons, in reading order, that work without the script.
///
/// The page's content security policy allows no inline styles, so the hotspots are placed by an
/// SVG's coordinates: the SVG covers the image with the image's size in points as its viewBox,
/// and each hotspot is a `foreignObject` holding its link or form at its rectangle.
enum ScreenPageView {
    /// The tab's own screen.
    static func render(
        _ page: ScreenPage, count: Int, tab: TabDescription, _ context: StageContext, into html: inout HTMLWriter
    ) {
        render(page.screen, page: page, count: count, tabID: tab.id, context, into: &html)
    }

    /// A detail screen, under the navigation bar its caller wrote.
    static func renderDetail(
        _ detail: ScreenDetail, page: ScreenPage, tabID: String, _ context: StageContext, into html: inout HTMLWriter
    ) {
        let count: Int
        if case .screen(let value)? = context.container.pageState(ofTab: tabID) { count = value } else { count = 0 }
        render(detail.screen, page: page, count: count, tabID: tabID, context, into: &html)
    }

    private static func render(
        _ screen: ScreenView, page: ScreenPage, count: Int, tabID: String, _ context: StageContext,
        into html: inout HTMLWriter
    ) {
        let language = context.language
        let device = ScreenDevice(context.layout)
        let size = screen.size
        html.raw("<div class=\"screen-page\" data-screen")
        if page.counter != nil {
            html.raw(" data-count=\"")
            html.number(count)
            html.raw("\"")
        }
        html.raw("><div class=\"screen\"><picture>")
        // With the appearance left to the system, a dark image (when there is one) is the
        // browser's to choose.
        let chosen: ScreenAppearance? =
            switch context.chrome.display.appearance {
            case .light: .light
            case .dark: .dark
            case .auto: nil
            }
        let image = screen.image(for: device, appearance: chosen ?? .light)
        if chosen == nil {
            let dark = screen.image(for: device, appearance: .dark)
            if dark != image {
                html.raw("<source media=\"(prefers-color-scheme: dark)\"")
                writeSourceSet(dark, into: &html)
                html.raw(">")
            }
        }
        html.raw("<img class=\"screen-image\"")
        html.attribute("src", image.path)
        writeSourceSet(image, into: &html)
        html.raw(" width=\"")
        html.number(size.width)
        html.raw("\" height=\"")
        html.number(size.height)
        html.raw("\"")
        html.attribute("alt", screen.alt.text(in: language.tag))
        html.raw("></picture>")
        if !screen.hotspots.isEmpty {
            html.raw("<svg class=\"hotspots\" preserveAspectRatio=\"none\" viewBox=\"0 0 ")
            html.number(size.width)
            html.raw(" ")
            html.number(size.height)
            html.raw("\">")
            // Reading order: top to bottom, then left to right.
            let ordered = screen.hotspots.sorted { ($0.y, $0.x) < ($1.y, $1.x) }
            for hotspot in ordered {
                hotspotElement(hotspot, tabID: tabID, context, into: &html)
            }
            html.raw("</svg>")
        }
        html.raw("</div></div>\n")
    }

    /// `srcset="PATH Nx"`: the browser knows the image's pixels per point.
    private static func writeSourceSet(_ image: ScreenImage, into html: inout HTMLWriter) {
        html.attribute("srcset", image.path + " \(image.scale)x")
    }

    private static func hotspotElement(
        _ hotspot: Hotspot, tabID: String, _ context: StageContext, into html: inout HTMLWriter
    ) {
        html.raw("<foreignObject x=\"")
        html.number(hotspot.x)
        html.raw("\" y=\"")
        html.number(hotspot.y)
        html.raw("\" width=\"")
        html.number(hotspot.width)
        html.raw("\" height=\"")
        html.number(hotspot.height)
        html.raw("\">")
        let label = hotspot.label.text(in: context.language.tag)
        let app = context.app.id
        switch hotspot.action {
        case .push(let detailID):
            link(
                StageLinks.detail(app, context.layout, tabID, detailID), label, marker: " data-stage-link", into: &html)
        case .back:
            link(StageLinks.tab(app, context.layout, tabID), label, marker: " data-stage-link", into: &html)
        case .tab(let target):
            link(StageLinks.tab(app, context.layout, target), label, marker: " data-tap", into: &html)
        case .pageAction(let action):
            PageParts.openActionForm(context, tabID: tabID, action: nil, into: &html)
            html.raw("<button type=\"submit\" class=\"hotspot\" name=\"action\"")
            html.attribute("value", action.description)
            html.raw("><span class=\"visually-hidden\">")
            html.text(label)
            html.raw("</span></button></form>")
        }
        html.raw("</foreignObject>")
    }

    private static func link(_ href: String, _ label: String, marker: StaticString, into html: inout HTMLWriter) {
        html.raw("<a class=\"hotspot\"")
        html.raw(marker)
        html.attribute("href", href)
        html.raw("><span class=\"visually-hidden\">")
        html.text(label)
        html.raw("</span></a>")
    }
}
