import TabModel

/// The detail screen a list page pushes for one item: a navigation bar with Back and the title,
/// then the item's text and, for a checklist or settings item, whether it is on.
enum DetailView {
    /// Opens the navigation bar and writes its Back link; the caller writes the title and closes it.
    static func openNavigationBar(tabID: String, _ context: StageContext, into html: inout HTMLWriter) {
        let language = context.language
        let tabTitle = context.app.tab(id: tabID)?.title.text(in: language.tag) ?? tabID
        html.raw("<div class=\"nav-bar\"><a class=\"back\" data-stage-link")
        html.openAttribute("href")
        StageLinks.writeTab(context.app.id, context.layout, tabID, into: &html)
        html.closeAttribute()
        html.raw("><span aria-hidden=\"true\">‹ </span>")
        html.text(UIString.back.text(in: language))
        html.raw("<span class=\"visually-hidden\">")
        html.text(UIString.backTo(tabTitle).text(in: language))
        html.raw("</span></a>\n")
    }

    static func render(tabID: String, itemID: String, _ context: StageContext, into html: inout HTMLWriter) {
        let language = context.language
        guard let tab = context.app.tab(id: tabID), let item = tab.page.content.items.first(where: { $0.id == itemID })
        else { return }
        if case .screen(let page) = tab.page.content, let detail = page.details.first(where: { $0.id == itemID }) {
            ScreenPageView.renderDetail(detail, page: page, tabID: tabID, context, into: &html)
            return
        }
        if let detail = item.detail { PageParts.paragraph(detail.text(in: language.tag), into: &html) }
        let state = context.container.pageState(ofTab: tabID)
        let line: UIString? =
            switch state {
            case .checklist(let checked)?: checked.contains(itemID) ? .checked : .unchecked
            case .settings(let enabled)?: enabled.contains(itemID) ? .switchedOn : .switchedOff
            case .news(let read)?: read.contains(itemID) ? .read : nil
            default: nil
            }
        if let line { PageParts.paragraph(line.text(in: language), className: "meta", into: &html) }
    }

    /// An item's title as a link to its detail screen, on a list page.
    static func itemLink(_ item: PageItem, tabID: String, _ context: StageContext, into html: inout HTMLWriter) {
        html.raw("<a class=\"item-link\" data-stage-link")
        html.attribute("href", StageLinks.detail(context.app.id, context.layout, tabID, item.id))
        html.raw(">")
        html.text(item.title.text(in: context.language.tag))
        html.raw("</a>")
    }
}
