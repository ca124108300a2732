import TabModel

/// A one-shot message above a page: an action's refusal, a log-out confirmation.
public struct Notice: Sendable, Equatable {
    public var text: LocalizedText
    public var isError: Bool

    public init(text: LocalizedText, isError: Bool) {
        self.text = text
        self.isError = isError
    }
}

/// What the page area of the stage shows.
public enum StageContent: Sendable, Equatable {
    /// The selected tab's page.
    case tab(id: String)
    /// A tab the container refused: the bar and the page keep the container's selection, and a
    /// sheet over them says why and offers to log in, coming back to `tabID` afterwards.
    case refused(tabID: String, reason: SelectionRefusal)
    /// The bottom bar's More list.
    case more
    /// The edit list under the More list (and the sidebar's Edit).
    case editTabs
    /// The detail screen pushed onto a tab's navigation stack for one of its page's items.
    case detail(tabID: String, itemID: String)
}

extension StageContent {
    /// The More list, or the edit list under it: the bar's More item is current, no tab is.
    var showsMoreList: Bool {
        switch self {
        case .more, .editTabs: true
        default: false
        }
    }
}

/// Everything one view of the stage (bar + page) depends on.
///
/// Its optionals are spelled `Optional<…>`: a `T?` variable starts out nil, and an initialiser
/// that then sets it writes over an already whole value, which copies the context. Spelled out,
/// they are set once, and the context is built in place.
// swift-format-ignore: UseShorthandTypeNames
public struct StageContext: Sendable, Equatable {
    /// A language the markup has no version in drops `markup`.
    public var chrome: ChromeContext {
        didSet { if markup?.holds(chrome.language) == false { markup = nil } }
    }
    /// Changing it drops `markup`, which was written from the app as it was.
    public var app: AppDescription {
        didSet { markup = nil }
    }
    public var layout: Layout
    public var container: TabContainer
    public var content: StageContent
    public var notice: Optional<Notice>
    /// `app`'s parts written once (see `AppMarkup`); without it the page writes them itself, to
    /// the same bytes. Markup of another app, or without the page's language, is not used.
    public var markup: Optional<AppMarkup> {
        didSet { if markup?.appID != app.id || markup?.holds(chrome.language) == false { markup = nil } }
    }
    /// What makes the page live (see `LiveStage`); nil draws none of it.
    public var live: Optional<LiveStage>

    public init(
        chrome: ChromeContext, app: AppDescription, layout: Layout, container: TabContainer, content: StageContent,
        notice: Notice? = nil, markup: AppMarkup? = nil, live: LiveStage? = nil
    ) {
        self.live = live
        self.chrome = chrome
        self.app = app
        self.layout = layout
        self.container = container
        self.content = content
        self.notice = notice
        self.markup = markup?.appID == app.id && markup?.holds(chrome.language) == true ? markup : nil
    }

    var language: PageLanguage { chrome.language }

    /// The version of `markup` in the page's language, found once by each writer that reads
    /// several parts of it.
    var markupLanguage: AppMarkup.Place? { markup?.place(of: chrome.language) }

    /// The heading of the page area, also the first part of the document title.
    var pageTitle: String {
        switch content {
        case .tab(let id):
            guard let tab = app.tab(id: id) else { return "" }
            return Self.pageTitle(ofTab: tab, language: language)
        case .refused:
            guard let tab = container.selectedTab else { return UIString.loginRequired.text(in: language) }
            return Self.pageTitle(ofTab: tab, language: language)
        case .more: return UIString.more.text(in: language)
        case .editTabs: return UIString.editTabsTitle.text(in: language)
        case .detail(let tabID, let itemID):
            let item = app.tab(id: tabID)?.page.content.items.first { $0.id == itemID }
            return item?.title.text(in: language.tag) ?? itemID
        }
    }

    public static func pageTitle(ofTab tab: TabDescription, language: PageLanguage) -> String {
        (tab.page.heading ?? tab.title).text(in: language.tag)
    }

    /// `Page – App · TabStage`, escaped into `html`.
    func writeDocumentTitle(pageTitle: String, into html: inout HTMLWriter) {
        Self.writeDocumentTitle(app: app, pageTitle, language, into: &html)
    }

    static func writeDocumentTitle(
        app: AppDescription, _ pageTitle: String, _ language: PageLanguage, into html: inout HTMLWriter
    ) {
        Chrome.writeTitle(pageTitle, app.name.text(in: language.tag), language: language, into: &html)
    }
}

/// The two titles of a stage view (the page heading and the document title), from the app's
/// markup when it has them, else written from the texts.
private enum StageTitles {
    case written(markup: AppMarkup, language: AppMarkup.Place, position: Int)
    case text(String)

    init(_ context: borrowing StageContext) {
        if let markup = context.markup, let position = Self.tabPosition(context),
            let language = markup.place(of: context.language)
        {
            self = .written(markup: markup, language: language, position: position)
        } else {
            self = .text(context.pageTitle)
        }
    }

    /// The position of the tab on screen, nil when the stage shows no tab's page. Under a
    /// refusal's sheet it is the selected tab.
    private static func tabPosition(_ context: borrowing StageContext) -> Int? {
        switch context.content {
        case .tab(let id): return context.app.index(ofTab: id)
        case .refused: return context.container.selectedIndex
        case .more, .editTabs, .detail: return nil
        }
    }

    func writeDocumentTitle(_ context: StageContext, into html: inout HTMLWriter) {
        switch self {
        case .written(let markup, let language, let position):
            html.prewritten(markup.documentTitle(language: language, position: position), of: markup)
        case .text(let pageTitle):
            context.writeDocumentTitle(pageTitle: pageTitle, into: &html)
        }
    }

    /// The position of the tab whose titles these are, when the markup has them.
    var position: Int? {
        guard case .written(_, _, let position) = self else { return nil }
        return position
    }

    /// The tab page's paragraphs, when the markup has them written.
    func paragraphs(_ context: StageContext) -> AppMarkup.Part? {
        guard case .written(let markup, let language, let position) = self else { return nil }
        return markup.paragraphs(language: language, position: position)
    }

    func writePageTitle(_ context: StageContext, into html: inout HTMLWriter) {
        switch self {
        case .written(let markup, let language, let position):
            html.prewritten(markup.pageTitle(language: language, position: position), of: markup)
        case .text(let pageTitle):
            html.text(pageTitle)
        }
    }
}

/// The prototype itself: the tab bar and the selected page, as a full document or as the
/// `<main id="stage">` fragment the script swaps in.
public enum StagePage {
    public static func document(_ context: StageContext) -> [UInt8] {
        let titles = StageTitles(context)
        return Chrome.document(
            title: { titles.writeDocumentTitle(context, into: &$0) }, chrome: context.chrome, markup: context.markup
        ) { html in
            stage(context, titles: titles, into: &html)
            LiveStageView.panel(context, into: &html)
            // The page's one live region, outside the stage the script swaps: it says what an
            // action did, which page a tab opened, why a tab was refused.
            html.raw("<div id=\"announcer\" class=\"visually-hidden\" role=\"status\"></div>\n")
        }
    }

    /// The stage, and the presenter's panel after it (its page reset follows the tab shown).
    public static func fragment(_ context: StageContext) -> [UInt8] {
        var html = HTMLWriter()
        stage(context, titles: StageTitles(context), into: &html)
        LiveStageView.panel(context, into: &html)
        return html.finish()
    }

    private static func stage(_ context: StageContext, titles: StageTitles, into html: inout HTMLWriter) {
        html.raw("<main id=\"stage\"")
        html.openAttribute("class")
        html.raw("device device-")
        html.text(context.layout.rawValue)
        html.closeAttribute()
        html.openAttribute("data-title")
        titles.writeDocumentTitle(context, into: &html)
        html.closeAttribute()
        LiveStageView.versionAttribute(context, into: &html)
        // The skip link's target: focusable by it, not in the Tab order.
        html.raw(" tabindex=\"-1\">\n")
        // The device's own chrome, drawn by the stylesheet only where a frame shows (see
        // docs/stage.md): hidden from assistive technology, it says nothing about the app.
        html.raw("<div class=\"status-bar\" aria-hidden=\"true\"><span class=\"status-time\">9:41</span>")
        html.raw(
            "<span class=\"status-battery\"></span></div>\n<div class=\"home-indicator\" aria-hidden=\"true\"></div>\n")
        let detail: (tabID: String, itemID: String)? =
            if case .detail(let tabID, let itemID) = context.content { (tabID, itemID) } else { nil }
        let showsBar = detail == nil || !context.container.hidesBar
        // The reading order is the visual one: a vertical bar beside the page comes first, a
        // bottom bar under it last (the grid draws each in its place either way). The adaptive
        // page is one document for both its forms: its bar comes first, as its sidebar does.
        if showsBar && context.layout != .bottom { bar(context, into: &html) }
        page(context, titles: titles, detail: detail, into: &html)
        if showsBar && context.layout == .bottom { bar(context, into: &html) }
        if case .refused(let tabID, let reason) = context.content {
            // A follower sees the presenter's sheet, and cannot use it.
            LiveStageView.openInert(context, into: &html)
            RefusalView.render(tabID: tabID, reason: reason, context, into: &html)
            LiveStageView.closeInert(context, into: &html)
        }
        html.raw("</main>\n")
    }

    private static func bar(_ context: StageContext, into html: inout HTMLWriter) {
        LiveStageView.openInert(context, into: &html)
        TabBarView.render(context, into: &html)
        LiveStageView.closeInert(context, into: &html)
    }

    /// Whether the page area shows a screen page's image (its tab's own, or a detail's).
    private static func showsScreen(_ context: StageContext) -> Bool {
        let tabID: String?
        switch context.content {
        case .tab(let id), .detail(let id, _): tabID = id
        case .refused: tabID = context.container.selectedTabID
        case .more, .editTabs: tabID = nil
        }
        guard let tabID, let position = context.app.index(ofTab: tabID) else { return false }
        return context.app.tabs[position].page.kind == .screen
    }

    /// The page area: its heading (in a pushed screen's navigation bar), notice and content.
    private static func page(
        _ context: StageContext, titles: StageTitles, detail: (tabID: String, itemID: String)?,
        into html: inout HTMLWriter
    ) {
        html.raw("<section id=\"page\" class=\"page")
        if showsScreen(context) { html.raw(" page-screen") }
        html.raw("\" tabindex=\"-1\" aria-labelledby=\"page-title\">\n")
        if let detail { DetailView.openNavigationBar(tabID: detail.tabID, context, into: &html) }
        html.raw("<h1 id=\"page-title\">")
        titles.writePageTitle(context, into: &html)
        html.raw("</h1>\n")
        if detail != nil { html.raw("</div>\n") }
        LiveStageView.banner(context, into: &html)
        LiveStageView.openInert(context, into: &html)
        if let notice = context.notice {
            PageParts.notice(notice.text.text(in: context.language.tag), isError: notice.isError, into: &html)
        }
        switch context.content {
        case .tab(let id):
            // The position the titles found, else a search: no copy of the tab description.
            if let position = titles.position ?? context.app.index(ofTab: id) {
                PageView.render(
                    context.app.tabs[position], context, paragraphs: titles.paragraphs(context), into: &html)
            }
        case .refused:
            if let position = titles.position ?? context.container.selectedIndex {
                PageView.render(
                    context.app.tabs[position], context, paragraphs: titles.paragraphs(context), into: &html)
            }
        case .more:
            MoreView.render(context, into: &html)
        case .editTabs:
            EditTabsView.render(context, into: &html)
        case .detail(let tabID, let itemID):
            DetailView.render(tabID: tabID, itemID: itemID, context, into: &html)
        }
        LiveStageView.closeInert(context, into: &html)
        html.raw("</section>\n")
    }
}
