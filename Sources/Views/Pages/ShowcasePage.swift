import TabModel

/// `/{app}/stage`: the app as a phone (bottom bar) and as a tablet (vertical bar) side by side,
/// each a frame showing the real tab pages of the visitor's session, and the delegate timeline
/// beside them. Without JavaScript each frame is an ordinary page and the timeline is current
/// on every load of this one; the script (Public/js/stage.js) keeps the
/// three in step. See docs/stage.md.
public enum ShowcasePage {
    /// How many of the newest events the timeline shows.
    public static let timelineLength = 40

    /// `log` is nil when the session has no container for the app yet; `live` is the session's
    /// part in presenting (nil draws no presenter panel).
    public static func document(
        app: AppDescription, log: EventLog?, live: LiveStage? = nil, chrome: ChromeContext
    ) -> [UInt8] {
        let language = chrome.language
        let heading = UIString.stageOf(app.name.text(in: language.tag)).text(in: language)
        return Chrome.document(title: Chrome.title([heading], language: language), chrome: chrome) { html in
            html.raw("<main class=\"showcase\"")
            html.attribute("data-app", app.id)
            html.raw(">\n<header class=\"showcase-head\"><h1>")
            html.text(heading)
            html.raw("</h1>\n")
            PageParts.paragraph(UIString.stageLead.text(in: language), className: "lead", into: &html)
            html.raw("</header>\n")
            // The presenter's controls are the stage's own: beside the devices, never in a screen.
            if let live {
                LiveStageView.openPanel(language: language, into: &html)
                LiveStageView.panel(
                    live, appID: app.id, layout: .bottom, returnTo: "stage", language: language,
                    csrfToken: chrome.csrfToken, into: &html)
                RecordPanelView.render(
                    live, appID: app.id, returnPath: StageLinks.stage(app.id), language: language,
                    csrfToken: chrome.csrfToken, into: &html)
                // The stage's reset: every page of the app back to its start, after a confirmation.
                html.raw("<p class=\"stage-reset\"><a class=\"button button-quiet\"")
                html.attribute("href", StageLinks.resetDemo(app.id))
                html.raw(">")
                html.text(UIString.resetDemo.text(in: language))
                html.raw("</a></p>\n</aside>\n")
            }
            html.raw("<div class=\"showcase-devices\">\n")
            deviceSwitch(language: language, into: &html)
            device(app: app, layout: .bottom, language: language, into: &html)
            device(app: app, layout: .vertical, language: language, into: &html)
            html.raw("</div>\n")
            timeline(app: app, log: log, language: language, into: &html)
            html.raw("</main>\n")
        }
    }

    /// Below 1024 px the stage shows one device: two radio buttons choose which, with or without
    /// the script (the stylesheet reads which is checked).
    private static func deviceSwitch(language: PageLanguage, into html: inout HTMLWriter) {
        html.raw("<fieldset class=\"device-switch\"><legend class=\"visually-hidden\">")
        html.text(UIString.deviceSwitch.text(in: language))
        html.raw("</legend>")
        html.raw("<input type=\"radio\" name=\"stage-device\" id=\"stage-show-phone\" value=\"phone\" checked>")
        html.raw("<label for=\"stage-show-phone\">")
        html.text(UIString.phoneName.text(in: language))
        html.raw("</label><input type=\"radio\" name=\"stage-device\" id=\"stage-show-tablet\" value=\"tablet\">")
        html.raw("<label for=\"stage-show-tablet\">")
        html.text(UIString.tabletName.text(in: language))
        html.raw("</label></fieldset>\n")
    }

    /// One device: a frame on the layout's entry, which leads to the selected tab.
    private static func device(app: AppDescription, layout: Layout, language: PageLanguage, into html: inout HTMLWriter)
    {
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
    /// request (from the event that starts it on) are marked as the newest, and the view
    /// controller containment steps as such (shown when the presenter asks). Two switches, outside
    /// the part the script reads again, show those steps and hide the timeline.
    static func timeline(app: AppDescription, log: EventLog?, language: PageLanguage, into html: inout HTMLWriter) {
        html.raw("<section class=\"timeline\" id=\"timeline\" aria-labelledby=\"timeline-title\">\n")
        html.raw("<div class=\"timeline-head\"><h2 id=\"timeline-title\">")
        html.text(UIString.timeline.text(in: language))
        html.raw("</h2>\n<label for=\"timeline-containment\"><input type=\"checkbox\" id=\"timeline-containment\"> ")
        html.text(UIString.timelineContainment.text(in: language))
        html.raw("</label> <label for=\"timeline-hidden\"><input type=\"checkbox\" id=\"timeline-hidden\"> ")
        html.text(UIString.timelineHide.text(in: language))
        html.raw("</label></div>\n<div class=\"timeline-scroll\" id=\"timeline-steps\">\n")
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
                let isNewest = newestStart.map { index >= $0 } ?? false
                switch (isNewest, isContainmentStep(event.kind)) {
                case (true, true): html.raw(" class=\"step-newest step-containment\"")
                case (true, false): html.raw(" class=\"step-newest\"")
                case (false, true): html.raw(" class=\"step-containment\"")
                case (false, false): break
                }
                html.raw(">")
                PageParts.englishText(event.kind.description, pageLanguage: language, into: &html)
                html.raw("</li>\n")
            }
            html.raw("</ol>\n")
        }
        html.raw("</div>\n<p class=\"timeline-links\"><a")
        html.attribute("href", StageLinks.stage(app.id))
        html.raw(">")
        html.text(UIString.timelineRefresh.text(in: language))
        html.raw("</a> · <a")
        html.attribute("href", StageLinks.events(app.id))
        html.raw(">")
        html.text(UIString.eventLog.text(in: language))
        html.raw("</a></p>\n</section>\n")
    }

    /// Whether an event is a step of view controller containment (a child added or removed, its
    /// view's appearance), which says little to a client: the timeline shows the delegate calls
    /// and what the container decided, and these when asked.
    static func isContainmentStep(_ kind: ContainerEventKind) -> Bool {
        switch kind {
        case .childCreated, .willMoveToParent, .addChild, .viewDidLoad, .viewWillAppear, .viewAdded, .viewDidAppear,
            .willMoveToNoParent, .viewWillDisappear, .viewRemoved, .viewDidDisappear, .removeFromParent,
            .didMoveToNoParent, .didMoveToParent, .childDiscarded, .detailAppearance, .detailViewDidLoad,
            .moreListAppearance, .moreViewAdded, .moreViewRemoved:
            true
        default: false
        }
    }

    /// Whether an event is the first a visitor's request makes: a selection asked for (its
    /// `shouldSelect` or login guard, or the answer that it changes nothing) or a page action.
    static func startsSteps(_ kind: ContainerEventKind) -> Bool {
        switch kind {
        case .shouldSelect, .shouldSelectTab, .moreShouldSelect, .guardChecked, .selectionUnchanged, .staleAction,
            .pageAction, .willBeginCustomizing, .willBeginEditing, .tabMoved, .tabHiddenChanged, .arrangementReset,
            .didEndCustomizing:
            true
        default: false
        }
    }
}
