import TabModel

/// Small pieces the page views share.
enum PageParts {
    /// A notice is no live region of its own: the page's one region (`#announcer`) reads it out
    /// when the script swaps it in; a page loaded whole is read from its start.
    static func notice(_ text: String, isError: Bool, into html: inout HTMLWriter) {
        html.raw(isError ? "<p class=\"notice notice-error\">" : "<p class=\"notice\">")
        html.text(text)
        html.raw("</p>\n")
    }

    /// `announced` marks a line that states an action's outcome (a count, a result count): the
    /// script reads the marked lines out after the action, unless a notice says more.
    static func paragraph(
        _ text: String, className: String? = nil, announced: Bool = false, into html: inout HTMLWriter
    ) {
        html.raw("<p")
        if let className { html.attribute("class", className) }
        if announced { html.raw(" data-announce") }
        html.raw(">")
        html.text(text)
        html.raw("</p>\n")
    }

    /// Text that is always English, such as the model's event sentences: on a page in another
    /// language it is marked `lang="en"` so a screen reader reads it with an English voice.
    static func englishText(_ text: String, pageLanguage: PageLanguage, into html: inout HTMLWriter) {
        guard pageLanguage.tag != UILanguage.english.tag else { return html.text(text) }
        html.raw("<span lang=\"en\">")
        html.text(text)
        html.raw("</span>")
    }

    /// A one-button form posting an action to the tab; `data-fragment` lets the script send it
    /// and swap in the page the 303 leads to. `pressed` marks a toggle button's state.
    static func actionButton(
        _ context: StageContext, tabID: String, action: String, item: String? = nil, label: String,
        itemName: String? = nil, pressed: Bool? = nil, quiet: Bool = false, into html: inout HTMLWriter
    ) {
        openActionForm(context, tabID: tabID, action: action, row: item, into: &html)
        if let item {
            html.raw("<input type=\"hidden\" name=\"item\"")
            html.attribute("value", item)
            html.raw(">")
        }
        html.raw("<button type=\"submit\"")
        if quiet { html.raw(" class=\"button-quiet\"") }
        if let pressed { html.attribute("aria-pressed", pressed ? "true" : "false") }
        html.raw(">")
        html.text(label)
        // Screen readers hear which item a row's button acts on; the visible text stays short.
        if let itemName {
            html.raw("<span class=\"visually-hidden\">")
            html.text(UIString.itemSeparator.text(in: context.language))
            html.text(itemName)
            html.raw("</span>")
        }
        html.raw("</button></form>\n")
    }

    /// Opens a form posting to the tab's action URL; without `action`, its buttons carry it. A
    /// form on an item's row (`row`) posts to the row's fragment, `#item-ID`: the page the 303
    /// leads to keeps it, and opens scrolled to the row, without JavaScript too.
    static func openActionForm(
        _ context: StageContext, tabID: String, action: String?, row: String? = nil, into html: inout HTMLWriter
    ) {
        html.raw("<form method=\"post\"")
        html.openAttribute("action")
        StageLinks.writeAction(context.app.id, context.layout, tabID, into: &html)
        if let row {
            html.raw("#")
            writeRowID(row, into: &html)
        }
        html.closeAttribute()
        html.raw(" data-fragment>")
        CSRFField.render(context.chrome.csrfToken, into: &html)
        if let action {
            html.raw("<input type=\"hidden\" name=\"action\"")
            html.attribute("value", action)
            html.raw(">")
        }
    }

    /// `item-ID`, the id of an item's row on a list page (ids are unique within a tab, and a page
    /// shows one tab).
    static func writeRowID(_ itemID: String, into html: inout HTMLWriter) {
        html.raw("item-")
        html.text(itemID)
    }

    /// `<li id="item-ID"`, a list row's opening up to its attributes.
    static func openRow(_ itemID: String, into html: inout HTMLWriter) {
        html.raw("<li")
        html.openAttribute("id")
        writeRowID(itemID, into: &html)
        html.closeAttribute()
    }

    /// An amount as the currency's own apps write it: `NT$1,850` for New Taiwan dollars (in
    /// both languages, as Taiwanese apps do), else the code before the grouped number.
    static func amount(_ value: Int, currency: String) -> String {
        currency == "TWD" ? "NT$" + grouped(value) : currency + " " + grouped(value)
    }

    /// `1,234,567`: grouping by thousands, the same in both languages.
    static func grouped(_ value: Int) -> String {
        let digits = Array(String(value.magnitude))
        var output = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { output.append(",") }
            output.append(digit)
        }
        return value < 0 ? "-" + output : output
    }
}

/// A tab the container refused, as a sheet over the page that stays: a `<dialog>` open in the
/// markup, so that without JavaScript it is a plain part of the page with a link back; the
/// script makes it modal (focus inside, Escape closes, focus back on the tab).
enum RefusalView {
    static func render(tabID: String, reason: SelectionRefusal, _ context: StageContext, into html: inout HTMLWriter) {
        let language = context.language
        html.raw("<dialog id=\"login-sheet\" class=\"login-sheet\" open aria-labelledby=\"login-sheet-title\"")
        html.attribute("data-tab", tabID)
        html.raw(">\n<h2 id=\"login-sheet-title\">")
        html.text(UIString.loginRequired.text(in: language))
        html.raw("</h2>\n")
        let title = context.app.tab(id: tabID)?.title ?? LocalizedText(en: tabID, zhHant: tabID)
        PageParts.paragraph(
            UIString.selectionRefused(reason, tabTitle: title).text(in: language), className: "notice notice-error",
            into: &html)
        PageParts.paragraph(UIString.loginLead.text(in: language), className: "lead", into: &html)
        // A full page load, not a fragment: logging in changes the header too.
        LoginForm.render(
            next: StageLinks.tab(context.app.id, context.layout, tabID), language: language,
            csrfToken: context.chrome.csrfToken, into: &html)
        // Back to the page under the sheet (the selected tab), or to the app's entry without one.
        html.raw("<a class=\"sheet-close\"")
        html.openAttribute("href")
        if let selected = context.container.selectedTabID {
            StageLinks.writeTab(context.app.id, context.layout, selected, into: &html)
        } else {
            html.raw("/")
            html.text(context.app.id)
        }
        html.closeAttribute()
        html.raw(">")
        html.text(UIString.cancel.text(in: language))
        html.raw("</a>\n</dialog>\n")
    }
}

/// The log-in form, on the refusal page and on `/login`.
enum LoginForm {
    static func render(next: String, language: PageLanguage, csrfToken: String?, into html: inout HTMLWriter) {
        html.raw("<form method=\"post\" class=\"login-form\"")
        html.attribute("action", StageLinks.login)
        html.raw("><input type=\"hidden\" name=\"next\"")
        html.attribute("value", next)
        html.raw(">")
        CSRFField.render(csrfToken, into: &html)
        html.raw("<label>")
        html.text(UIString.loginNameLabel.text(in: language))
        html.raw(" <input type=\"text\" name=\"name\" required maxlength=\"40\" autocomplete=\"username\"></label>")
        html.raw("<button type=\"submit\">")
        html.text(UIString.logIn.text(in: language))
        html.raw("</button></form>\n")
    }
}

/// The bottom bar's More list, as UIKit draws it: a row per tab that did not fit, with its
/// icon, title, badge pill, a padlock when it needs a login and a chevron; the selected tab's
/// row is marked. The rows are links like the bar's cells, and the script swaps them in the same
/// way, marked as rows (under UIKit's presets a row pushes its tab onto More; docs/container.md).
enum MoreView {
    static func render(_ context: StageContext, into html: inout HTMLWriter) {
        PageParts.paragraph(UIString.moreLead.text(in: context.language), className: "lead", into: &html)
        // UIKit's Edit button, for an app whose visitor can change something.
        if context.app.allowsCustomization {
            html.raw("<p class=\"more-edit\"><a class=\"button button-quiet\"")
            html.attribute("href", StageLinks.editTabs(context.app.id, context.layout))
            html.raw(">")
            html.text(UIString.editTabs.text(in: context.language))
            html.raw("</a></p>\n")
        }
        let hidden = context.container.bottomBarItems().flatMap { item -> [String] in
            if case .more(let tabIDs, _) = item { return tabIDs }
            return []
        }
        let selected = context.container.selectedTabID
        html.raw("<ul class=\"more-list\">\n")
        for tabID in hidden {
            guard let tab = context.app.tab(id: tabID) else { continue }
            html.raw("<li><a class=\"more-row\"")
            html.attribute("data-tab", tab.id)
            html.openAttribute("href")
            StageLinks.writeTab(context.app.id, context.layout, tab.id, into: &html)
            html.closeAttribute()
            if tab.id == selected { html.raw(" aria-current=\"page\"") }
            html.raw("><span class=\"more-icon\"><img alt=\"\" width=\"80\" height=\"80\"")
            html.openAttribute("src")
            writeUnselectedIcon(of: tab, scale: 1, context, into: &html)
            html.closeAttribute()
            html.openAttribute("srcset")
            writeUnselectedIcon(of: tab, scale: 2, context, into: &html)
            html.raw(" 2x")
            html.closeAttribute()
            html.raw("></span><span class=\"more-title\">")
            html.text(tab.title.text(in: context.language.tag))
            let badge = context.container.badge(ofTab: tab.id).flatMap { $0.isVisible ? $0 : nil }
            if badge != nil && !tab.requiresLogin {
                TabBarView.writeBadgeSeparator(language: context.language, into: &html)
            }
            html.raw("</span>")
            if tab.requiresLogin {
                TabBarView.lock(language: context.language, badgeFollows: badge != nil, into: &html)
            }
            if let badge {
                TabBarView.writeBadge(
                    badge, of: tab, className: "badge more-badge", language: context.language, into: &html)
            }
            html.raw("<span class=\"chevron\" aria-hidden=\"true\"></span></a></li>\n")
        }
        html.raw("</ul>\n")
    }

    /// The URL of the tab's unselected bar cell at `scale`, as the bar writes it.
    private static func writeUnselectedIcon(
        of tab: TabDescription, scale: Int, _ context: StageContext, into html: inout HTMLWriter
    ) {
        StageLinks.writeIcon(
            .beforeScale, app: context.app, icon: tab.icon, tabID: tab.id, selected: false, into: &html)
        html.number(scale)
        StageLinks.writeIcon(.afterScale, app: context.app, icon: tab.icon, tabID: tab.id, selected: false, into: &html)
    }
}

/// The hidden field with the session's CSRF token, in every form that posts.
public enum CSRFField {
    /// The form field's name; the routes read it back.
    public static let name = "csrf"

    static func render(_ token: String?, into html: inout HTMLWriter) {
        guard let token else { return }
        html.raw("<input type=\"hidden\" name=\"csrf\" value=\"")
        html.repeatedText(token)
        html.raw("\">")
    }
}
