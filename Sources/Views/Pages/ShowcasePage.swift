import TabModel

/// `/{app}/stage`: the app as a phone (bottom bar) and as a tablet (vertical bar) side by side,
/// each a frame showing the real tab pages of the visitor's session, and the delegate timeline
/// beside them. Without JavaScript each frame is an ordinary page and the timeline is current
/// on every load of this one; the script (Public/js/tabstage.js, the stage section) keeps the
/// three in step. See docs/stage.md.
public enum ShowcasePage {
    /// How many of the newest events the timeline shows.
    public static let timelineLength = 40

    /// `log` is nil when the session has no container for the app yet.
    public static func document(app: AppDescription, log: EventLog?, chrome: ChromeContext) -> [UInt8] {
        let language = chrome.language
        let heading = UIString.stageOf(app.name.text(in: language.tag)).text(in: language)
        return Chrome.document(title: Chrome.title([heading], language: language), chrome: chrome) { html in
            html.raw("<main class=\"showcase\"")
            html.attribute("data-app", app.id)
            html.raw(">\n<h1>")
            html.text(heading)
            html.raw("</h1>\n")
            PageParts.paragraph(UIString.stageLead.text(in: language), className: "lead", into: &html)
            html.raw("<div class=\"showcase-body\">\n<div class=\"showcase-devices\">\n")
            device(app: app, layout: .bottom, language: language, into: &html)
            device(app: app, layout: .vertical, language: language, into: &html)
            html.raw("</div>\n")
            timeline(app: app, log: log, language: language, into: &html)
            html.raw("</div>\n</main>\n")
        }
    }

    /// One device: a frame on the layout's entry, which leads to the selected tab.
    private static func device(app: AppDescription, layout: Layout, language: UILanguage, into html: inout HTMLWriter) {
        let isPhone = layout == .bottom
        let caption = (isPhone ? UIString.phoneFrame : .tabletFrame).text(in: language)
        html.raw(
            isPhone
                ? "<figure class=\"showcase-device showcase-phone\">"
                : "<figure class=\"showcase-device showcase-tablet\">")
        html.raw("\n<div class=\"showcase-bezel\"><div class=\"showcase-screen\"><iframe class=\"showcase-frame\"")
        html.attribute("name", isPhone ? "stage-phone" : "stage-tablet")
        html.attribute("title", caption)
        html.attribute("src", StageLinks.layout(app.id, layout))
        html.raw(isPhone ? " width=\"390\" height=\"844\"" : " width=\"1024\" height=\"768\"")
        html.raw("></iframe></div></div>\n<figcaption>")
        html.text(caption)
        html.raw(" · <a")
        html.attribute("href", StageLinks.layout(app.id, layout))
        html.raw(">")
        html.text((isPhone ? UIString.bottomLayout : .verticalLayout).text(in: language))
        html.raw("</a></figcaption>\n</figure>\n")
    }

    /// The newest events, oldest first, numbered by their sequence; the steps of the newest
    /// request (from the event that starts it on) are marked as the newest.
    static func timeline(app: AppDescription, log: EventLog?, language: UILanguage, into html: inout HTMLWriter) {
        html.raw("<section class=\"timeline\" id=\"timeline\" aria-labelledby=\"timeline-title\">\n")
        html.raw("<h2 id=\"timeline-title\">")
        html.text(UIString.timeline.text(in: language))
        html.raw("</h2>\n")
        let events = log.map { Array($0.events.suffix(timelineLength)) } ?? []
        if events.isEmpty {
            PageParts.paragraph(UIString.timelineEmpty.text(in: language), className: "meta", into: &html)
        } else {
            PageParts.paragraph(UIString.timelineLead.text(in: language), className: "meta", into: &html)
            let newestStart = events.lastIndex { startsSteps($0.kind) }
            html.raw("<ol class=\"timeline-steps\">\n")
            for (index, event) in events.enumerated() {
                html.raw("<li")
                html.openAttribute("value")
                html.number(event.sequence)
                html.closeAttribute()
                if let newestStart, index >= newestStart { html.raw(" class=\"step-newest\"") }
                html.raw(">")
                PageParts.englishText(event.kind.description, pageLanguage: language, into: &html)
                html.raw("</li>\n")
            }
            html.raw("</ol>\n")
        }
        html.raw("<p><a")
        html.attribute("href", StageLinks.stage(app.id))
        html.raw(">")
        html.text(UIString.timelineRefresh.text(in: language))
        html.raw("</a> · <a")
        html.attribute("href", StageLinks.events(app.id))
        html.raw(">")
        html.text(UIString.eventLog.text(in: language))
        html.raw("</a></p>\n</section>\n")
    }

    /// Whether an event is the first a visitor's request makes: a selection asked for (its
    /// `shouldSelect` or login guard, or the answer that it changes nothing) or a page action.
    static func startsSteps(_ kind: ContainerEventKind) -> Bool {
        switch kind {
        case .shouldSelect, .guardChecked, .selectionUnchanged, .staleAction, .pageAction, .willBeginCustomizing,
            .tabMoved, .tabHiddenChanged, .arrangementReset, .didEndCustomizing:
            true
        default: false
        }
    }
}
