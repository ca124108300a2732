import TabModel

/// `/`: the start page, every app as a card: its icons as the rasterizer draws them, its tab
/// count, and links to its stage, both layouts and its event log.
public enum HomePage {
    /// `files` names the file an app came from (`serve --app`), by app id.
    public static func document(apps: [AppDescription], files: [String: String] = [:], chrome: ChromeContext)
        -> [UInt8]
    {
        let language = chrome.language
        return Chrome.document(title: Chrome.title([], language: language), chrome: chrome) { html in
            html.raw("<main class=\"sheet\">\n<h1>")
            html.text(UIString.appList.text(in: language))
            html.raw("</h1>\n")
            PageParts.paragraph(UIString.appListLead.text(in: language), className: "lead", into: &html)
            html.raw("<ul class=\"app-cards\">\n")
            for app in apps { card(app, file: files[app.id], language: language, into: &html) }
            html.raw("</ul>\n<p><a")
            html.attribute("href", StageLinks.iconGallery)
            html.raw(">")
            html.text(UIString.iconGallery.text(in: language))
            html.raw("</a></p>\n</main>\n")
        }
    }

    private static func card(_ app: AppDescription, file: String?, language: PageLanguage, into html: inout HTMLWriter)
    {
        html.raw("<li class=\"app-card\">\n<h2")
        let shown = app.shownLanguage(onAPageIn: language.tag)
        if shown != language.tag { html.attribute("lang", shown) }
        html.raw(">")
        html.text(app.name.text(in: shown))
        html.raw("</h2>\n<p class=\"app-icons\">")
        // Each tab's glow cell in the app's tint, which reads on light and dark alike.
        for tab in app.tabs {
            func writeURL(scale: Int) {
                StageLinks.writeIcon(
                    .beforeScale, app: app, icon: tab.icon, tabID: tab.id, selected: true, into: &html)
                html.number(scale)
                StageLinks.writeIcon(.afterScale, app: app, icon: tab.icon, tabID: tab.id, selected: true, into: &html)
            }
            html.raw("<img alt=\"\" width=\"48\" height=\"48\"")
            html.openAttribute("src")
            writeURL(scale: 1)
            html.closeAttribute()
            html.openAttribute("srcset")
            for scale in 1...3 {
                if scale > 1 { html.raw(", ") }
                writeURL(scale: scale)
                html.raw(" ")
                html.number(scale)
                html.raw("x")
            }
            html.closeAttribute()
            html.raw(">")
        }
        html.raw("</p>\n")
        PageParts.paragraph(UIString.tabCount(app.tabs.count).text(in: language), className: "meta", into: &html)
        PageParts.paragraph(
            (file.map { UIString.loadedFrom($0) } ?? .builtInApp).text(in: language), className: "meta", into: &html)
        html.raw("<p class=\"app-card-actions\"><a class=\"button\"")
        html.attribute("href", StageLinks.stage(app.id))
        html.raw(">")
        html.text(UIString.openStage.text(in: language))
        appName(app, language: language, into: &html)
        html.raw("</a></p>\n<div class=\"links\">")
        for layout in Layout.allCases {
            html.raw("<a")
            html.attribute("href", StageLinks.layout(app.id, layout))
            html.raw(">")
            html.text(UIString.layoutName(layout).text(in: language))
            appName(app, language: language, into: &html)
            html.raw("</a>")
        }
        html.raw("<a")
        html.attribute("href", StageLinks.events(app.id))
        html.raw(">")
        html.text(UIString.eventLog.text(in: language))
        appName(app, language: language, into: &html)
        html.raw("</a></div>\n</li>\n")
    }

    /// After a link's visible text, which every card repeats: the card's app, for a listener
    /// going through the page's links (`Vertical – Restaurant`).
    private static func appName(_ app: AppDescription, language: PageLanguage, into html: inout HTMLWriter) {
        html.raw("<span class=\"visually-hidden\"> – ")
        html.text(app.name.text(in: app.shownLanguage(onAPageIn: language.tag)))
        html.raw("</span>")
    }
}

/// `/login`: the log-in form on its own, and again with a problem after a bad name.
public enum LoginPage {
    public static func document(next: String, problem: UIString?, chrome: ChromeContext) -> [UInt8] {
        let language = chrome.language
        let heading = UIString.logIn.text(in: language)
        return Chrome.document(title: Chrome.title([heading], language: language), chrome: chrome) { html in
            html.raw("<main class=\"sheet\">\n<h1>")
            html.text(heading)
            html.raw("</h1>\n")
            if let problem { PageParts.notice(problem.text(in: language), isError: true, into: &html) }
            PageParts.paragraph(UIString.loginLead.text(in: language), className: "lead", into: &html)
            LoginForm.render(next: next, language: language, csrfToken: chrome.csrfToken, into: &html)
            html.raw("</main>\n")
        }
    }
}

/// 400, 403, 404 and other failures, in the same look as every page.
public enum ErrorPage {
    public static func document(status: Int, message: UIString?, chrome: ChromeContext) -> [UInt8] {
        let language = chrome.language
        let heading: UIString =
            switch status {
            // A follow link after its presentation: it did exist, and is over.
            case 404 where message == .presentationEnded: .presentationEndedTitle
            case 400: .badRequestTitle
            case 403: .forbiddenTitle
            case 404: .notFoundTitle
            default: .errorTitle
            }
        let title = heading.text(in: language)
        return Chrome.document(title: Chrome.title([title], language: language), chrome: chrome) { html in
            html.raw("<main class=\"sheet\">\n<h1>")
            html.text(title)
            html.raw("</h1>\n")
            if let message { PageParts.paragraph(message.text(in: language), into: &html) }
            html.raw("<p><a")
            html.attribute("href", StageLinks.home)
            html.raw(">")
            html.text(UIString.backHome.text(in: language))
            html.raw("</a></p>\n</main>\n")
        }
    }
}

/// `/theme/{app}.css`: the app's tint and the contrast-checked shades of it (`TintPalette`)
/// that Public/css/tabstage.css uses for accents, as custom properties, because inline styles
/// are forbidden.
public enum ThemeStylesheet {
    public static func css(for app: AppDescription) -> [UInt8] {
        let palette = TintPalette(app: app)
        return Array(
            (":root { --tint: \(palette.tint); --tint-text: \(palette.text); "
                + "--tint-ring: light-dark(\(palette.ring), \(palette.ringOnDark)); }\n").utf8)
    }
}
