import TabModel

/// What the strip above every page needs to know. Its optionals are spelled `Optional<…>` for
/// the reason `StageContext` gives: so its initialiser builds it in place.
// swift-format-ignore: UseShorthandTypeNames
public struct ChromeContext: Sendable, Equatable {
    public var language: PageLanguage
    /// The app being shown, nil on pages about no app (the list, login, most errors).
    public var app: Optional<AppDescription>
    /// The layout on screen, marked in the layout links.
    public var layout: Optional<Layout>
    /// The logged-in visitor's name.
    public var visitorName: Optional<String>
    /// This page's path, where log-in and log-out come back to.
    public var currentPath: String
    /// The session's CSRF token, written into every form that posts; nil without a session.
    public var csrfToken: Optional<String>
    /// Appearance, device frames, and whether the page fills a frame of the stage.
    public var display: DisplaySettings
    /// A follower's page: the header offers only their own language and appearance, nothing
    /// that would leave the presentation without saying so (the banner's button says it).
    public var isFollowing: Bool

    public init(
        language: PageLanguage, app: AppDescription? = nil, layout: Layout? = nil, visitorName: String? = nil,
        currentPath: String = StageLinks.home, csrfToken: String? = nil, display: DisplaySettings = DisplaySettings(),
        isFollowing: Bool = false
    ) {
        self.language = language
        self.app = app
        self.layout = layout
        self.visitorName = visitorName
        self.currentPath = currentPath
        self.csrfToken = csrfToken
        self.display = display
        self.isFollowing = isFollowing
    }
}

/// The document around every page: head, stylesheets, script and the header strip.
///
/// No inline scripts, styles or handlers anywhere: the Content-Security-Policy forbids them,
/// and the app's tint arrives through its own stylesheet.
enum Chrome {
    static func document(title: String, chrome: ChromeContext, body: (inout HTMLWriter) -> Void) -> [UInt8] {
        document(title: { $0.text(title) }, chrome: chrome, body: body)
    }

    /// The document, its `<title>` text written (escaped) by `title`. `markup`, of the chrome's
    /// app, holds the part from `</title>` to the visitor's part of the header already written.
    static func document(
        title: (inout HTMLWriter) -> Void, chrome: ChromeContext, markup: AppMarkup? = nil,
        body: (inout HTMLWriter) -> Void
    ) -> [UInt8] {
        var html = HTMLWriter()
        html.raw("<!doctype html>\n<html")
        html.attribute("lang", chrome.language.tag)
        chrome.display.writeRootAttributes(into: &html)
        html.raw(">\n<head>\n<meta charset=\"utf-8\">\n")
        // `viewport-fit=cover` lets a phone report its safe areas, which the bottom bar keeps clear.
        html.raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1, viewport-fit=cover\">\n")
        html.raw("<meta name=\"color-scheme\" content=\"light dark\">\n<title>")
        title(&html)
        if chrome.display.isEmbedded {
            // In a frame of the stage the page is the device's screen: the stage's header serves.
            headAfterTitle(app: chrome.app, into: &html)
        } else if chrome.isFollowing {
            headAfterTitle(app: chrome.app, into: &html)
            followerHeader(chrome, into: &html)
        } else if let markup, let layout = chrome.layout, chrome.app?.id == markup.appID,
            let language = markup.place(of: chrome.language)
        {
            html.prewritten(markup.chrome(layout: layout, language: language), of: markup)
            html.prewritten(markup.appearanceToggle(language: language, current: chrome.display.appearance), of: markup)
            visitor(chrome, into: &html)
        } else {
            headAfterTitle(app: chrome.app, into: &html)
            headerUpToAccount(app: chrome.app, layout: chrome.layout, language: chrome.language, into: &html)
            appearanceToggle(chrome.display.appearance, language: chrome.language, into: &html)
            visitor(chrome, into: &html)
        }
        body(&html)
        html.raw("</body>\n</html>\n")
        return html.finish()
    }

    /// From `</title>` to the start of the body: the stylesheets (the app's theme) and the script.
    static func headAfterTitle(app: AppDescription?, into html: inout HTMLWriter) {
        html.raw("</title>\n<link rel=\"icon\" type=\"image/svg+xml\"")
        html.attribute("href", StageLinks.favicon)
        html.raw(">\n<link rel=\"stylesheet\"")
        html.attribute("href", StageLinks.stylesheet)
        html.raw(">\n")
        if let app {
            html.raw("<link rel=\"stylesheet\"")
            html.openAttribute("href")
            StageLinks.writeTheme(app, into: &html)
            html.closeAttribute()
            html.raw(">\n")
        }
        html.raw("<script")
        html.attribute("src", StageLinks.script)
        html.raw(" defer></script>\n<script")
        html.attribute("src", StageLinks.liveScript)
        html.raw(" defer></script>\n<script")
        html.attribute("src", StageLinks.stageScript)
        html.raw(" defer></script>\n</head>\n<body>\n")
    }

    /// `Page – App · TabStage`, also the stage's `data-title` so the script can set it.
    static func title(_ parts: [String], language: PageLanguage) -> String {
        let brand = UIString.brand.text(in: language)
        let named = parts.filter { !$0.isEmpty }
        return named.isEmpty ? brand : named.joined(separator: " – ") + " · " + brand
    }

    /// `title([first, second], language:)`, escaped into `html` without building it.
    static func writeTitle(_ first: String, _ second: String, language: PageLanguage, into html: inout HTMLWriter) {
        // The two parts in turn, without an array to hold them.
        if !first.isEmpty { html.text(first) }
        if !second.isEmpty {
            if !first.isEmpty { html.raw(" – ") }
            html.text(second)
        }
        if !first.isEmpty || !second.isEmpty { html.raw(" · ") }
        html.text(UIString.brand.text(in: language))
    }

    /// The header strip up to the visitor's part: brand, app, layout and language links, and the
    /// app's event log link.
    static func headerUpToAccount(
        app: AppDescription?, layout currentLayout: Layout?, language: PageLanguage, into html: inout HTMLWriter
    ) {
        if currentLayout != nil {
            // Past the header's links to the prototype (`<main id="stage">`).
            html.raw("<a class=\"skip-link\" href=\"#stage\">")
            html.text(UIString.skipToApp.text(in: language))
            html.raw("</a>\n")
        }
        openHeader(language, into: &html)
        html.raw("<a class=\"brand\"")
        html.attribute("href", StageLinks.home)
        html.raw(">")
        html.text(UIString.brand.text(in: language))
        html.raw("</a>\n")
        if let app { appName(app, language, into: &html) }
        // On a phone the rest folds into a menu (a popover, which needs no script), so the header
        // is one row; wider, the stylesheet lays the menu's contents out in the row.
        html.raw("<button type=\"button\" class=\"header-menu-button\" popovertarget=\"header-menu\">")
        html.text(UIString.headerMenu.text(in: language))
        html.raw("</button>\n<div id=\"header-menu\" class=\"header-menu\" popover>\n")
        if let app {
            html.raw("<nav")
            html.attribute("aria-label", UIString.layoutNavigation.text(in: language))
            html.raw("><ul>\n")
            for layout in Layout.allCases {
                html.raw("<li><a")
                html.openAttribute("href")
                StageLinks.writeLayout(app.id, layout, into: &html)
                html.closeAttribute()
                if layout == currentLayout { html.raw(" aria-current=\"page\"") }
                html.raw(">")
                html.text(UIString.layoutName(layout).text(in: language))
                html.raw("</a></li>\n")
            }
            html.raw("</ul></nav>\n")
        }
        languageNavigation(language, app: app, into: &html)
        html.raw("<div class=\"account\">\n")
        if let app {
            html.raw("<a class=\"stage-link\"")
            html.openAttribute("href")
            StageLinks.writeStage(app.id, into: &html)
            html.closeAttribute()
            html.raw(">")
            html.text(UIString.stage.text(in: language))
            html.raw("</a>\n<a class=\"event-log-link\"")
            html.openAttribute("href")
            StageLinks.writeEvents(app.id, into: &html)
            html.closeAttribute()
            html.raw(">")
            html.text(UIString.eventLog.text(in: language))
            html.raw("</a>\n")
        }
    }

    /// `<header class="stage-header">`, in the labels' language when the page is in another.
    private static func openHeader(_ language: PageLanguage, into html: inout HTMLWriter) {
        html.raw("<header class=\"stage-header\"")
        if !language.labelsAreInPageLanguage { html.attribute("lang", language.labels.tag) }
        html.raw(">\n")
    }

    /// The app's name, in the page's language (marked so when the header's labels are not).
    private static func appName(_ app: AppDescription, _ language: PageLanguage, into html: inout HTMLWriter) {
        html.raw("<span class=\"app-name\"")
        if !language.labelsAreInPageLanguage { html.attribute("lang", language.tag) }
        html.raw(">")
        html.text(app.name.text(in: language.tag))
        html.raw("</span>\n")
    }

    /// This page in each of its languages (the app's, or TabStage's own on a page about no app),
    /// as `?lang=` links, each named in its own language; nothing when there is one language.
    private static func languageNavigation(_ language: PageLanguage, app: AppDescription?, into html: inout HTMLWriter)
    {
        let tags = app?.languages ?? UILanguage.tags
        guard tags.count > 1 else { return }
        html.raw("<nav")
        html.attribute("aria-label", UIString.languageNavigation.text(in: language))
        html.raw("><ul>\n")
        for tag in tags {
            html.raw("<li><a")
            html.openAttribute("href")
            StageLinks.writeLanguage(tag, into: &html)
            html.closeAttribute()
            html.attribute("hreflang", tag)
            html.attribute("lang", tag)
            if tag == language.tag { html.raw(" aria-current=\"true\"") }
            html.raw(">")
            html.text(LanguageNames.name(of: tag))
            html.raw("</a></li>\n")
        }
        html.raw("</ul></nav>\n")
    }

    /// A follower's header: the brand and the app's name as text, their language and their
    /// appearance (links to this page), and nothing else.
    private static func followerHeader(_ chrome: ChromeContext, into html: inout HTMLWriter) {
        let language = chrome.language
        openHeader(language, into: &html)
        html.raw("<span class=\"brand\">")
        html.text(UIString.brand.text(in: language))
        html.raw("</span>\n")
        if let app = chrome.app { appName(app, language, into: &html) }
        html.raw("<button type=\"button\" class=\"header-menu-button\" popovertarget=\"header-menu\">")
        html.text(UIString.headerMenu.text(in: language))
        html.raw("</button>\n<div id=\"header-menu\" class=\"header-menu\" popover>\n")
        languageNavigation(language, app: chrome.app, into: &html)
        appearanceToggle(chrome.display.appearance, language: language, into: &html)
        html.raw("</div>\n</header>\n")
    }

    /// The visitor's part of the header (log-out form or log-in link), and the header's end.
    private static func visitor(_ chrome: ChromeContext, into html: inout HTMLWriter) {
        let language = chrome.language
        if let name = chrome.visitorName {
            html.raw("<span class=\"visitor\">")
            html.text(UIString.loggedInAs(name).text(in: language))
            html.raw("</span>\n<form method=\"post\"")
            html.attribute("action", StageLinks.logout)
            html.raw("><input type=\"hidden\" name=\"next\"")
            html.attribute("value", chrome.currentPath)
            html.raw(">")
            CSRFField.render(chrome.csrfToken, into: &html)
            html.raw("<button type=\"submit\" class=\"button button-quiet\">")
            html.text(UIString.logOut.text(in: language))
            html.raw("</button></form>\n")
        } else {
            html.raw("<a class=\"login-link\"")
            html.openAttribute("href")
            StageLinks.writeLogin(next: chrome.currentPath, into: &html)
            html.closeAttribute()
            html.raw(">")
            html.text(UIString.logIn.text(in: language))
            html.raw("</a>\n")
        }
        html.raw("</div>\n</div>\n</header>\n")
    }

    /// Auto, light or dark, as links that set `?appearance=` on this page; the session keeps it.
    static func appearanceToggle(_ current: Appearance, language: PageLanguage, into html: inout HTMLWriter) {
        html.raw("<nav class=\"appearance\"")
        html.attribute("aria-label", UIString.appearanceNavigation.text(in: language))
        html.raw("><ul>\n")
        for option in Appearance.allCases {
            html.raw("<li><a")
            html.openAttribute("href")
            html.raw("?appearance=")
            html.text(option.rawValue)
            html.closeAttribute()
            if option == current { html.raw(" aria-current=\"true\"") }
            html.raw(">")
            html.text(UIString.appearanceName(option).text(in: language))
            html.raw("</a></li>\n")
        }
        html.raw("</ul></nav>\n")
    }
}
