import TabModel

/// The bar: one link per tab (the WAI-ARIA navigation pattern with `aria-current`), icon cells
/// drawn by the rasterizer, localized titles and badges.
enum TabBarView {
    static func render(_ context: StageContext, into html: inout HTMLWriter) {
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
        let bar = context.layout == .vertical ? BottomBarLayout.all(app.tabs.count) : context.container.bottomBar()
        let selectedIndex = context.container.selectedIndex
        // On the More list no tab is on screen, so none is current.
        let showsMore = if case .more = context.content { true } else { false }
        let markup = context.markup
        // The container is of this app (same tabs); `min` only keeps a mismatch from reading past them.
        for position in 0..<min(bar.tabsShown, app.tabs.count) {
            let isCurrent = position == selectedIndex && !showsMore
            if let markup {
                html.prewritten(
                    markup.cellOpening(
                        layout: context.layout, language: context.language, position: position, isCurrent: isCurrent),
                    of: markup)
            } else {
                cellOpening(
                    app: app, layout: context.layout, position: position, isCurrent: isCurrent,
                    language: context.language, into: &html)
            }
            if let markup, context.container.showsStartingBadge(at: position) {
                // The tab's starting badge, which its description decides: written with the markup.
                html.prewritten(markup.startingCellClosing(language: context.language, position: position), of: markup)
            } else {
                cellClosing(
                    badge: context.container.badge(at: position), of: app.tabs[position], language: context.language,
                    into: &html)
            }
        }
        if let more = bar.more {
            let isCurrent = more.isSelected || showsMore
            cellOpening(
                tabID: StageLinks.moreSegment,
                href: { StageLinks.writeTab(app.id, .bottom, StageLinks.moreSegment, into: &$0) },
                isCurrent: isCurrent,
                iconURL: { StageLinks.writeMoreIcon($0, app: app, selected: isCurrent, onDark: $1, into: &$2) },
                title: UIString.more.text(in: context.language), into: &html)
            cellClosing(badge: nil, of: nil, language: context.language, into: &html)
        }
        html.raw("</ul></nav>\n")
    }

    /// The cell of the tab at `position` up to its badge: everything in it that the app, the
    /// layout and the language decide (an `AppMarkup` holds these written).
    static func cellOpening(
        app: AppDescription, layout: Layout, position: Int, isCurrent: Bool, language: UILanguage,
        into html: inout HTMLWriter
    ) {
        // The fields the cell needs, read in place: do not copy `app.tabs[position]` whole.
        let tabID = app.tabs[position].id
        let icon = app.tabs[position].icon
        cellOpening(
            tabID: tabID, href: { StageLinks.writeTab(app.id, layout, tabID, into: &$0) }, isCurrent: isCurrent,
            iconURL: {
                StageLinks.writeIcon(
                    $0, app: app, icon: icon, tabID: tabID, selected: isCurrent, onDark: $1, into: &$2)
            },
            title: app.tabs[position].title.text(in: language.tag), into: &html)
        if app.tabs[position].requiresLogin { lock(language: language, into: &html) }
    }

    /// The padlock on a login-only tab, heard as "(requires login)" after its title.
    static func lock(language: UILanguage, into html: inout HTMLWriter) {
        html.raw("<svg class=\"lock\" viewBox=\"0 0 16 16\" width=\"12\" height=\"12\" aria-hidden=\"true\">")
        html.raw(
            "<path d=\"M4.5 7V5a3.5 3.5 0 0 1 7 0v2h.5a1 1 0 0 1 1 1v6a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V8a1 1 0 0 1 1-1z")
        html.raw("M6 7h4V5a2 2 0 0 0-4 0z\" fill-rule=\"evenodd\"/></svg><span class=\"visually-hidden\"> ")
        html.text(UIString.requiresLogin.text(in: language))
        html.raw("</span>")
    }

    private static func cellOpening(
        tabID: String, href: (inout HTMLWriter) -> Void, isCurrent: Bool,
        iconURL: (StageLinks.IconURLHalf, _ onDark: Bool, inout HTMLWriter) -> Void, title: String,
        into html: inout HTMLWriter
    ) {
        html.raw("<li><a class=\"tab\"")
        html.attribute("data-tab", tabID)
        html.openAttribute("href")
        href(&html)
        html.closeAttribute()
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
        html.raw("</span>")
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

    /// The badge, which the container decides, and the end of the cell of `tab`.
    static func cellClosing(badge: Badge?, of tab: TabDescription?, language: UILanguage, into html: inout HTMLWriter) {
        writeBadge(badge, of: tab, className: "badge", language: language, into: &html)
        html.raw("</a></li>\n")
    }

    /// The badge pill of `tab` in `language`: a count is followed, for the ear, by what it
    /// counts (`countLabel`); nothing when the badge is hidden.
    static func writeBadge(
        _ badge: Badge?, of tab: TabDescription?, className: String, language: UILanguage,
        into html: inout HTMLWriter
    ) {
        guard let badge, let label = badge.label(in: language.tag) else { return }
        html.raw("<span")
        html.attribute("class", className)
        html.raw(">")
        html.text(label)
        if case .count = badge, let tab, let counted = countLabel(of: tab, language: language) {
            html.raw("<span class=\"visually-hidden\"> ")
            html.text(counted)
            html.raw("</span>")
        }
        html.raw("</span>")
    }

    /// What a count badge of `tab` counts: its `badgeLabel`, else "unread" on a news page, else
    /// nil (the number alone).
    static func countLabel(of tab: TabDescription, language: UILanguage) -> String? {
        if let label = tab.badgeLabel { return label.text(in: language.tag) }
        return tab.page.kind == .news ? UIString.unread.text(in: language) : nil
    }
}
