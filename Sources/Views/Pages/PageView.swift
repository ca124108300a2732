import TabModel

/// The selected tab's page, one layout per page kind; every control is a plain form.
enum PageView {
    /// The page of `tab`; `paragraphs`, when given, is its paragraphs' part of the context's
    /// markup, already written.
    static func render(
        _ tab: TabDescription, _ context: StageContext, paragraphs: AppMarkup.Part? = nil,
        into html: inout HTMLWriter
    ) {
        if let paragraphs, let markup = context.markup {
            html.prewritten(paragraphs, of: markup)
        } else {
            writeParagraphs(of: tab.page, language: context.language, into: &html)
        }
        guard let state = context.container.pageState(ofTab: tab.id) else { return }
        switch (tab.page.content, state) {
        case (.text, _):
            break
        case (.counter(let counter), .counter(let count)):
            renderCounter(counter, count: count, tab: tab, context, into: &html)
        case (.search(let placeholder, _), .search(let query)):
            renderSearch(tab, placeholder: placeholder, query: query, context, into: &html)
        case (.wallet(let wallet), .wallet(let balance, let lastTopUp)):
            renderWallet(wallet, balance: balance, lastTopUp: lastTopUp, tab: tab, context, into: &html)
        case (.news(let items), .news(let read)):
            renderNews(items, read: Set(read), tab: tab, context, into: &html)
        case (.profile, .profile(let nickname)):
            renderProfile(nickname: nickname, tab: tab, context, into: &html)
        case (.checklist(let items), .checklist(let checked)):
            renderToggles(items, on: Set(checked), control: .checkbox, tab: tab, context, into: &html)
        case (.settings(let toggles), .settings(let enabled)):
            renderToggles(toggles, on: Set(enabled), control: .switch, tab: tab, context, into: &html)
        case (.screen(let page), .screen(let count)):
            ScreenPageView.render(page, count: count, tab: tab, context, into: &html)
        default:
            // A state of another kind cannot happen: the model creates states from the page.
            break
        }
        // Going back to the page's initial state is TabStage's, not the app's: the presenter's
        // panel offers it, outside the device (`resetForm`).
    }

    /// The tab whose page is on screen and keeps a state that can go back to its initial one
    /// (the counter's own row of buttons has its Reset already); nil for any other screen.
    static func resettableTab(_ context: StageContext) -> TabDescription? {
        let shown: String?
        switch context.content {
        case .tab(let id): shown = id
        case .refused: shown = context.container.selectedTabID
        case .more, .editTabs, .detail: shown = nil
        }
        guard let shown, let position = context.app.index(ofTab: shown) else { return nil }
        let tab = context.app.tabs[position]
        switch tab.page.content {
        case .text, .counter: return nil
        case .screen(let page) where page.counter == nil: return nil
        default: return tab
        }
    }

    /// "Reset this page": a plain form (outside the stage, so the page is read again after it)
    /// posting the page's reset action.
    static func resetForm(_ tab: TabDescription, _ context: StageContext, into html: inout HTMLWriter) {
        html.raw("<form method=\"post\" class=\"page-reset\"")
        html.openAttribute("action")
        StageLinks.writeAction(context.app.id, context.layout, tab.id, into: &html)
        html.closeAttribute()
        html.raw(">")
        CSRFField.render(context.chrome.csrfToken, into: &html)
        html.raw(
            "<input type=\"hidden\" name=\"action\" value=\"reset\"><button type=\"submit\" class=\"button button-quiet\">"
        )
        html.text(UIString.resetPage.text(in: context.language))
        html.raw("</button></form>\n")
    }

    /// The page's fixed paragraphs, which only the app and the language decide.
    static func writeParagraphs(of page: PageDescription, language: PageLanguage, into html: inout HTMLWriter) {
        for paragraph in page.paragraphs {
            PageParts.paragraph(paragraph.text(in: language.tag), into: &html)
        }
    }

    private static func renderCounter(
        _ counter: CounterPage, count: Int, tab: TabDescription, _ context: StageContext, into html: inout HTMLWriter
    ) {
        let language = context.language
        html.raw("<p class=\"meta\" data-announce>")
        html.text(counter.label.text(in: language.tag))
        html.raw("</p>\n<p class=\"balance\" data-announce>")
        html.number(count)
        html.raw("</p>\n")
        PageParts.openActionForm(context, tabID: tab.id, action: nil, into: &html)
        // Three calls, not a loop over an array literal of pairs (allocated on every page).
        func button(_ action: StaticString, _ label: UIString, quiet: Bool = false, into html: inout HTMLWriter) {
            html.raw("<button type=\"submit\" name=\"action\"")
            html.openAttribute("value")
            html.raw(action)  // a word of letters: nothing to escape
            html.closeAttribute()
            if quiet { html.raw(" class=\"button-quiet\"") }
            html.raw(">")
            html.text(label.text(in: language))
            html.raw("</button>")
        }
        button("decrement", .decrement, into: &html)
        button("increment", .increment, into: &html)
        button("reset", .reset, quiet: true, into: &html)
        html.raw("</form>\n")
    }

    private static func renderSearch(
        _ tab: TabDescription, placeholder: LocalizedText?, query: String, _ context: StageContext,
        into html: inout HTMLWriter
    ) {
        let language = context.language
        // A GET form: the query is in the URL, so a search can be shared and reloaded.
        html.raw("<form method=\"get\" role=\"search\"")
        html.openAttribute("action")
        StageLinks.writeTab(context.app.id, context.layout, tab.id, into: &html)
        html.closeAttribute()
        html.raw(" data-fragment><label>")
        html.text(UIString.searchLabel.text(in: language))
        html.raw(" <input type=\"search\" name=\"q\" maxlength=\"100\"")
        html.attribute("value", query)
        if let placeholder { html.attribute("placeholder", placeholder.text(in: language.tag)) }
        html.raw("></label><button type=\"submit\">")
        html.text(UIString.searchButton.text(in: language))
        html.raw("</button></form>\n")
        let results = tab.page.searchResults(for: query)
        PageParts.paragraph(
            UIString.searchResults(results.count).text(in: language), className: "meta", announced: true, into: &html)
        guard !results.isEmpty else {
            PageParts.paragraph(UIString.searchNoResults.text(in: language), into: &html)
            return
        }
        html.raw("<ul class=\"items\">\n")
        for item in results {
            PageParts.openRow(item.id, into: &html)
            html.raw(">")
            writeItem(item, tabID: tab.id, context, into: &html)
            html.raw("</li>\n")
        }
        html.raw("</ul>\n")
    }

    private static func renderWallet(
        _ wallet: WalletPage, balance: Int, lastTopUp: Int?, tab: TabDescription, _ context: StageContext,
        into html: inout HTMLWriter
    ) {
        let language = context.language
        html.raw("<p class=\"meta\" data-announce>")
        html.text(UIString.balance.text(in: language))
        html.raw("</p>\n<p class=\"balance\" data-announce>")
        html.text(PageParts.amount(balance, currency: wallet.currency))
        html.raw("</p>\n")
        // The last top-up's confirmation would read as if a refused one had gone through.
        if let lastTopUp, context.notice?.isError != true {
            let amount = PageParts.amount(lastTopUp, currency: wallet.currency)
            PageParts.notice(UIString.toppedUp(amount).text(in: language), isError: false, into: &html)
        }
        PageParts.openActionForm(context, tabID: tab.id, action: "top-up", into: &html)
        html.raw("<label>")
        html.text(UIString.topUpLabelIn(wallet.currency).text(in: language))
        html.raw(" <input type=\"number\" name=\"amount\" min=\"1\" step=\"1\" inputmode=\"numeric\" required")
        html.attribute("max", String(wallet.topUpCap))
        html.raw("></label><button type=\"submit\">")
        html.text(UIString.topUpButton.text(in: language))
        html.raw("</button></form>\n")
    }

    private static func renderNews(
        _ items: [PageItem], read: Set<String>, tab: TabDescription, _ context: StageContext,
        into html: inout HTMLWriter
    ) {
        let language = context.language
        let unread = items.count { !read.contains($0.id) }
        let summary = unread == 0 ? UIString.allRead : .unreadCount(unread)
        PageParts.paragraph(summary.text(in: language), className: "meta", announced: true, into: &html)
        if unread > 0 {
            PageParts.actionButton(
                context, tabID: tab.id, action: "mark-all-read", label: UIString.markAllRead.text(in: language),
                quiet: true, into: &html)
        }
        html.raw("<ul class=\"items\">\n")
        for item in items {
            let isRead = read.contains(item.id)
            PageParts.openRow(item.id, into: &html)
            html.raw(isRead ? ">" : " class=\"unread\">")
            writeItem(item, tabID: tab.id, context, into: &html)
            if isRead {
                html.raw("<span class=\"meta\">")
                html.text(UIString.read.text(in: language))
                html.raw("</span></li>\n")
            } else {
                html.raw("\n")
                PageParts.actionButton(
                    context, tabID: tab.id, action: "mark-read", item: item.id,
                    label: UIString.markRead.text(in: language), itemName: item.title.text(in: language.tag),
                    quiet: true, into: &html)
                html.raw("</li>\n")
            }
        }
        html.raw("</ul>\n")
    }

    private static func renderProfile(
        nickname: String?, tab: TabDescription, _ context: StageContext, into html: inout HTMLWriter
    ) {
        let language = context.language
        if let name = context.chrome.visitorName {
            PageParts.paragraph(UIString.profileName(name).text(in: language), into: &html)
        }
        let nicknameLine = nickname.map { UIString.nicknameCurrent($0) } ?? .nicknameNone
        PageParts.paragraph(nicknameLine.text(in: language), className: "meta", announced: true, into: &html)
        PageParts.openActionForm(context, tabID: tab.id, action: "nickname", into: &html)
        html.raw("<label>")
        html.text(UIString.nicknameLabel.text(in: language))
        html.raw(" <input type=\"text\" name=\"nickname\" maxlength=\"30\" required")
        html.attribute("value", nickname ?? "")
        html.raw("></label><button type=\"submit\">")
        html.text(UIString.saveButton.text(in: language))
        html.raw("</button></form>\n")
    }

    /// How a list of on/off items is drawn, in the iOS idiom: a checklist's rows carry a
    /// checkmark, a settings page's a switch (the WAI-ARIA checkbox and switch patterns).
    private enum ToggleControl {
        case checkbox
        case `switch`

        /// The button's opening up to its text: class, role and state.
        func opening(isOn: Bool) -> StaticString {
            switch (self, isOn) {
            case (.checkbox, true): "class=\"toggle toggle-checkbox\" role=\"checkbox\" aria-checked=\"true\">"
            case (.checkbox, false): "class=\"toggle toggle-checkbox\" role=\"checkbox\" aria-checked=\"false\">"
            case (.switch, true): "class=\"toggle toggle-switch\" role=\"switch\" aria-checked=\"true\">"
            case (.switch, false): "class=\"toggle toggle-switch\" role=\"switch\" aria-checked=\"false\">"
            }
        }
    }

    /// `toggle-TAB-ITEM`: ids are unique within a page, as item ids are within a tab.
    private static func writeToggleTitleID(tabID: String, itemID: String, into html: inout HTMLWriter) {
        html.raw("toggle-")
        html.text(tabID)
        html.raw("-")
        html.text(itemID)
    }

    /// Each row's control is one button posting `toggle`: its role and `aria-checked` say what it
    /// is and whether it is on, and the item's title (a link to its page) is its name.
    private static func renderToggles(
        _ items: [PageItem], on: Set<String>, control: ToggleControl, tab: TabDescription, _ context: StageContext,
        into html: inout HTMLWriter
    ) {
        html.raw("<ul class=\"items toggles\">\n")
        for item in items {
            let isOn = on.contains(item.id)
            // The title links to the item's page; the switch or checkmark beside it is named by it.
            PageParts.openRow(item.id, into: &html)
            html.raw("><span class=\"toggle-title\"")
            html.openAttribute("id")
            writeToggleTitleID(tabID: tab.id, itemID: item.id, into: &html)
            html.closeAttribute()
            html.raw(">")
            DetailView.itemLink(item, tabID: tab.id, context, into: &html)
            html.raw("</span>\n")
            PageParts.openActionForm(context, tabID: tab.id, action: "toggle", row: item.id, into: &html)
            html.raw("<input type=\"hidden\" name=\"item\"")
            html.attribute("value", item.id)
            html.raw("><button type=\"submit\"")
            html.openAttribute("aria-labelledby")
            writeToggleTitleID(tabID: tab.id, itemID: item.id, into: &html)
            html.closeAttribute()
            html.raw(" ")
            html.raw(control.opening(isOn: isOn))
            html.raw("<span class=\"toggle-control\"></span></button></form></li>\n")
        }
        html.raw("</ul>\n")
    }

    /// An item of a list page: its title, the link that pushes its detail screen, over its detail.
    private static func writeItem(
        _ item: PageItem, tabID: String, _ context: StageContext, into html: inout HTMLWriter
    ) {
        html.raw("<div><div>")
        DetailView.itemLink(item, tabID: tabID, context, into: &html)
        html.raw("</div>")
        if let detail = item.detail {
            html.raw("<div class=\"detail\">")
            html.text(detail.text(in: context.language.tag))
            html.raw("</div>")
        }
        html.raw("</div>")
    }
}
