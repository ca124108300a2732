import TabModel

/// The bar: one link per tab (the WAI-ARIA navigation pattern with `aria-current`), icon cells
/// drawn by the rasterizer, localized titles and badges.
enum TabBarView {
    static func render(_ context: StageContext, into html: inout HTMLWriter) {
        if context.layout == .adaptive { return renderAdaptive(context, into: &html) }
        let app = context.app
        html.raw("<nav")
        html.openAttribute("class")
        html.raw("tab-bar tab-bar-")
        html.text(context.layout.rawValue)
        html.closeAttribute()
        html.attribute("data-axis", context.layout == .vertical ? "vertical" : "horizontal")
        html.attribute("aria-label", UIString.tabsNavigation.text(in: context.language))
        html.raw("><ul>\n")
        // The bar's layout from the container, without building its items (an array of ids).
        let bar =
            context.layout == .vertical
            ? BottomBarLayout.all(context.container.shownPositions) : context.container.bottomBar()
        let selectedIndex = context.container.selectedIndex
        // On the More list no tab is on screen, so none is current.
        let showsMore = context.content.showsMoreList
        let markup = context.markup
        let markupLanguage = context.markupLanguage
        // The container is of this app (same tabs); `min` only keeps a mismatch from reading past them.
        for position in bar.barPositions where position < app.tabs.count {
            let isCurrent = position == selectedIndex && !showsMore
            if let markup, let markupLanguage {
                html.prewritten(
                    markup.cellOpening(
                        layout: context.layout, language: markupLanguage, position: position, isCurrent: isCurrent),
                    of: markup)
            } else {
                cellOpening(
                    app: app, layout: context.layout, position: position, isCurrent: isCurrent,
                    language: context.language, into: &html)
            }
            if let markup, let markupLanguage, context.container.showsStartingBadge(at: position) {
                // The tab's starting badge, which its description decides: written with the markup.
                html.prewritten(markup.startingCellClosing(language: markupLanguage, position: position), of: markup)
            } else {
                cellClosing(
                    badge: context.container.badge(at: position), of: app.tabs[position], language: context.language,
                    into: &html)
            }
        }
        if let more = bar.more { moreCell(more, context, into: &html) }
        html.raw("</ul></nav>\n")
    }

    /// UIKit's More item, current while the More list or a tab it holds is on screen.
    private static func moreCell(
        _ more: BottomBarLayout.MoreItem, _ context: StageContext, listItemClass: StaticString? = nil,
        into html: inout HTMLWriter
    ) {
        let app = context.app
        let isCurrent = more.isSelected || context.content.showsMoreList
        // The bottom layout's More list has always been under `bottom`; the adaptive one has its own.
        let layout: Layout = context.layout == .adaptive ? .adaptive : .bottom
        cellOpening(
            tabID: StageLinks.moreSegment,
            href: { StageLinks.writeTab(app.id, layout, StageLinks.moreSegment, into: &$0) },
            isCurrent: isCurrent,
            iconURL: { StageLinks.writeMoreIcon($0, app: app, selected: isCurrent, onDark: $1, into: &$2) },
            title: UIString.more.text(in: context.language), listItemClass: listItemClass, into: &html)
        html.raw("</span></a></li>\n")
    }

    /// The adaptive layout's bar: one list in the visitor's order, each section a titled group
    /// with a disclosure button, then More and Edit. The stylesheet decides how it is drawn: below
    /// its breakpoint a bottom bar (sections flattened; past five tabs the first four and More,
    /// the others marked `tab-overflow`), above it a sidebar (every tab, sections, Edit).
    static func renderAdaptive(_ context: StageContext, into html: inout HTMLWriter) {
        let app = context.app
        let language = context.language
        html.raw("<nav class=\"tab-bar tab-bar-adaptive\" data-axis=\"adaptive\"")
        html.attribute("aria-label", UIString.tabsNavigation.text(in: language))
        html.raw("><ul>\n")
        let bar = context.container.bottomBar()
        let showsMore = context.content.showsMoreList
        var openSection: Int?
        for (slot, position) in bar.positions.enumerated() where position < app.tabs.count {
            let section = app.sectionIndex(ofTabAt: position)
            if section != openSection {
                if openSection != nil { html.raw("</ul></li>\n") }
                if let section { openSectionGroup(app.sections[section], language: language, into: &html) }
                openSection = section
            }
            let isCurrent = position == context.container.selectedIndex && !showsMore
            let isOverflow = bar.more != nil && slot >= bar.tabsShown
            cellOpening(
                app: app, layout: .adaptive, position: position, isCurrent: isCurrent, language: language,
                listItemClass: isOverflow ? "tab-overflow" : nil, into: &html)
            cellClosing(
                badge: context.container.badge(at: position), of: app.tabs[position], language: language, into: &html)
        }
        if openSection != nil { html.raw("</ul></li>\n") }
        if let more = bar.more { moreCell(more, context, listItemClass: "more-cell", into: &html) }
        if app.allowsCustomization {
            html.raw("<li class=\"edit-cell\"><a class=\"edit-tabs\"")
            html.attribute("href", StageLinks.editTabs(app.id, .adaptive))
            html.raw(">")
            html.text(UIString.editTabs.text(in: language))
            html.raw("</a></li>\n")
        }
        html.raw("</ul></nav>\n")
    }

    /// A section of the sidebar: its title on a disclosure button, then the list of its tabs.
    private static func openSectionGroup(
        _ section: TabSectionDescription, language: PageLanguage, into html: inout HTMLWriter
    ) {
        html.raw("<li class=\"tab-section\"><button type=\"button\" class=\"section-toggle\" aria-expanded=\"true\"")
        html.openAttribute("aria-controls")
        html.raw("tab-section-")
        html.text(section.id)
        html.closeAttribute()
        html.raw(">")
        html.text(section.title.text(in: language.tag))
        html.raw("</button><ul")
        html.openAttribute("id")
        html.raw("tab-section-")
        html.text(section.id)
        html.closeAttribute()
        html.raw(">\n")
    }

    /// The cell of the tab at `position` up to the end of its title's text, its title's `<span>`
    /// left open for `cellClosing`: everything in it that the app, the layout and the language
    /// decide (an `AppMarkup` holds these written).
    static func cellOpening(
        app: AppDescription, layout: Layout, position: Int, isCurrent: Bool, language: PageLanguage,
        listItemClass: StaticString? = nil, into html: inout HTMLWriter
    ) {
        // The fields the cell needs, read in place: do not copy `app.tabs[position]` whole.
        let tabID = app.tabs[position].id
        let icon = app.tabs[position].icon
        let title = app.tabs[position].title.text(in: language.tag)
        cellOpening(
            tabID: tabID, href: { StageLinks.writeTab(app.id, layout, tabID, into: &$0) },
            tooltip: TitleFit.fits(title, in: layout, tabCount: app.tabs.count) ? nil : title, isCurrent: isCurrent,
            iconURL: {
                StageLinks.writeIcon(
                    $0, app: app, icon: icon, tabID: tabID, selected: isCurrent, onDark: $1, into: &$2)
            },
            title: title, listItemClass: listItemClass, into: &html)
    }

    /// The padlock on a login-only tab, heard as "(requires login)" after its title; when a
    /// badge follows, the separator ends its words (`Savings (requires login), New`).
    static func lock(language: PageLanguage, badgeFollows: Bool = false, into html: inout HTMLWriter) {
        html.raw("<svg class=\"lock\" viewBox=\"0 0 16 16\" width=\"12\" height=\"12\" aria-hidden=\"true\">")
        html.raw(
            "<path d=\"M4.5 7V5a3.5 3.5 0 0 1 7 0v2h.5a1 1 0 0 1 1 1v6a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V8a1 1 0 0 1 1-1z")
        html.raw("M6 7h4V5a2 2 0 0 0-4 0z\" fill-rule=\"evenodd\"/></svg><span class=\"visually-hidden\"> ")
        html.text(UIString.requiresLogin.text(in: language))
        if badgeFollows { writeBadgeSeparator(language: language, into: &html) }
        html.raw("</span>")
    }

    /// `tooltip`, a title the cell cuts, is the link's `title`: the full title on hover (its
    /// accessible name has it whole either way).
    private static func cellOpening(
        tabID: String, href: (inout HTMLWriter) -> Void, tooltip: String? = nil, isCurrent: Bool,
        iconURL: (StageLinks.IconURLHalf, _ onDark: Bool, inout HTMLWriter) -> Void, title: String,
        listItemClass: StaticString? = nil, into html: inout HTMLWriter
    ) {
        if let listItemClass {
            html.raw("<li class=\"")
            html.raw(listItemClass)
            html.raw("\"><a class=\"tab\"")
        } else {
            html.raw("<li><a class=\"tab\"")
        }
        html.attribute("data-tab", tabID)
        html.openAttribute("href")
        href(&html)
        html.closeAttribute()
        if let tooltip { html.attribute("title", tooltip) }
        if isCurrent {
            // The glow keeps the app's tint in either appearance: one picture.
            html.raw(" aria-current=\"page\"><img class=\"tab-icon\"")
            iconImage(iconURL, onDark: false, into: &html)
        } else {
            // The unselected fill is grey on light and light on dark: the stylesheet shows one of
            // the two, and a lazy image that is not displayed is never fetched.
            html.raw("><img class=\"tab-icon tab-icon-on-light\" loading=\"lazy\"")
            iconImage(iconURL, onDark: false, into: &html)
            html.raw("<img class=\"tab-icon tab-icon-on-dark\" loading=\"lazy\"")
            iconImage(iconURL, onDark: true, into: &html)
        }
        html.raw("<span class=\"tab-title\">")
        html.text(title)
    }

    /// The rest of an icon's `<img>`: its size, `src` at scale 1 and `srcset` at 1×, 2× and 3×.
    private static func iconImage(
        _ iconURL: (StageLinks.IconURLHalf, _ onDark: Bool, inout HTMLWriter) -> Void, onDark: Bool,
        into html: inout HTMLWriter
    ) {
        html.raw(" alt=\"\" width=\"80\" height=\"80\"")
        // The URL at scale 1; its halves around the scale are then repeated from the page.
        html.openAttribute("src")
        let beforeStart = html.position
        iconURL(.beforeScale, onDark, &html)
        let beforeScale = beforeStart..<html.position
        html.number(1)
        let afterStart = html.position
        iconURL(.afterScale, onDark, &html)
        let afterScale = afterStart..<html.position
        html.closeAttribute()
        // `url 1x, url 2x, url 3x`
        html.openAttribute("srcset")
        for scale in 1...3 {
            if scale > 1 { html.raw(", ") }
            html.repeatWritten(beforeScale)
            html.number(scale)
            html.repeatWritten(afterScale)
            html.raw(" ")
            html.number(scale)
            html.raw("x")
        }
        html.closeAttribute()
        html.raw(">")
    }

    /// The end of the cell `cellOpening` began: its title's `<span>`, the padlock of a login-only
    /// tab, the badge the container decides.
    static func cellClosing(badge: Badge?, of tab: TabDescription, language: PageLanguage, into html: inout HTMLWriter)
    {
        let visible = badge?.isVisible == true
        // The separator ends the words just before the badge: the title's, or the padlock's.
        if visible && !tab.requiresLogin { writeBadgeSeparator(language: language, into: &html) }
        html.raw("</span>")
        if tab.requiresLogin { lock(language: language, badgeFollows: visible, into: &html) }
        if let badge, visible { writeBadge(badge, of: tab, className: "badge", language: language, into: &html) }
        html.raw("</a></li>\n")
    }

    /// What a listener hears between a title and its badge, written inside the title's element:
    /// a browser puts a space after the element, and a separator after the space would read
    /// `News , 2`. The stylesheet gives `badge-words` no size; it is there for the name alone.
    static func writeBadgeSeparator(language: PageLanguage, into html: inout HTMLWriter) {
        html.raw("<span class=\"badge-words\">")
        html.text(UIString.badgeSeparator.text(in: language))
        html.raw("</span>")
    }

    /// A visible badge, inside its tab's link after `writeBadgeSeparator`, heard as what it
    /// counts: `2 queued` for a tab whose `badgeLabel` says so, else `2 unread` on a news page,
    /// `Items in cart: 2` for a counter's bound count, `2` for a count the description does not
    /// explain; a text badge in the visitor's language. The pill shows the label alone; the
    /// stylesheet may shorten it, the accessible name keeps it whole.
    static func writeBadge(
        _ badge: Badge, of tab: TabDescription, className: StaticString, language: PageLanguage,
        into html: inout HTMLWriter
    ) {
        guard let label = badge.label(in: language.tag) else { return }
        html.raw("<span class=\"")
        html.raw(className)
        html.raw("\">")
        if case .count = badge, let counted = tab.badgeLabel {
            html.text(label)
            html.raw("<span class=\"badge-words\"> ")
            html.text(counted.text(in: language.tag))
            html.raw("</span></span>")
            return
        }
        if case .count = badge, case .counter(let counter) = tab.page.content, tab.badgeBinding == .count {
            html.raw("<span class=\"badge-words\">")
            html.text(UIString.badgeCounting(counter.label.text(in: language.tag)).text(in: language))
            html.raw("</span>")
        }
        html.text(label)
        if case .count = badge, tab.page.kind == .news {
            html.raw("<span class=\"badge-words\">")
            html.text(UIString.unreadSuffix.text(in: language))
            html.raw("</span>")
        }
        html.raw("</span>")
    }
}
