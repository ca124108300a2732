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
    /// A tab the container refused: the bar keeps its selection, the page area says why and
    /// offers to log in, coming back to `tabID` afterwards.
    case refused(tabID: String, reason: LocalizedText)
    /// The bottom bar's More list.
    case more
}

/// Everything one view of the stage (bar + page) depends on.
public struct StageContext: Sendable, Equatable {
    public var chrome: ChromeContext
    public var app: AppDescription
    public var layout: Layout
    public var container: TabContainer
    public var content: StageContent
    public var notice: Notice?

    public init(
        chrome: ChromeContext, app: AppDescription, layout: Layout, container: TabContainer, content: StageContent,
        notice: Notice? = nil
    ) {
        self.chrome = chrome
        self.app = app
        self.layout = layout
        self.container = container
        self.content = content
        self.notice = notice
    }

    var language: UILanguage { chrome.language }

    /// The heading of the page area, also the first part of the document title.
    var pageTitle: String {
        switch content {
        case .tab(let id):
            guard let tab = app.tab(id: id) else { return "" }
            return (tab.page.heading ?? tab.title).text(in: language.tag)
        case .refused: return UIString.loginRequired.text(in: language)
        case .more: return UIString.more.text(in: language)
        }
    }

    var documentTitle: String {
        Chrome.title([pageTitle, app.name.text(in: language.tag)], language: language)
    }

    /// `documentTitle`, escaped into `html` without building it.
    func writeDocumentTitle(pageTitle: String, into html: inout HTMLWriter) {
        Chrome.writeTitle(pageTitle, app.name.text(in: language.tag), language: language, into: &html)
    }
}

/// The prototype itself: the tab bar and the selected page, as a full document or as the
/// `<main id="stage">` fragment the script swaps in.
public enum StagePage {
    public static func document(_ context: StageContext) -> [UInt8] {
        let pageTitle = context.pageTitle
        return Chrome.document(
            title: { context.writeDocumentTitle(pageTitle: pageTitle, into: &$0) }, chrome: context.chrome
        ) { html in
            stage(context, pageTitle: pageTitle, into: &html)
        }
    }

    public static func fragment(_ context: StageContext) -> [UInt8] {
        var html = HTMLWriter()
        stage(context, pageTitle: context.pageTitle, into: &html)
        return html.finish()
    }

    static func stage(_ context: StageContext, pageTitle: String, into html: inout HTMLWriter) {
        html.raw("<main id=\"stage\"")
        html.openAttribute("class")
        html.raw("device device-")
        html.text(context.layout.rawValue)
        html.closeAttribute()
        html.openAttribute("data-title")
        context.writeDocumentTitle(pageTitle: pageTitle, into: &html)
        html.closeAttribute()
        html.raw(">\n")
        TabBarView.render(context, into: &html)
        html.raw("<section id=\"page\" class=\"page\" tabindex=\"-1\" aria-labelledby=\"page-title\">\n")
        html.raw("<h1 id=\"page-title\">")
        html.text(pageTitle)
        html.raw("</h1>\n")
        if let notice = context.notice {
            PageParts.notice(notice.text.text(in: context.language.tag), isError: notice.isError, into: &html)
        }
        switch context.content {
        case .tab(let id):
            if let tab = context.app.tab(id: id) { PageView.render(tab, context, into: &html) }
        case .refused(let tabID, let reason):
            RefusalView.render(tabID: tabID, reason: reason, context, into: &html)
        case .more:
            MoreView.render(context, into: &html)
        }
        html.raw("</section>\n</main>\n")
    }
}
