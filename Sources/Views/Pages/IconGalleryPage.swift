import TabModel

/// `/icons`: every built-in icon unselected, with the glow and tinted, at 1×, 2× and 3×; then
/// each loaded app's own icons, unselected and selected in its icon style, as its bar shows them.
public enum IconGalleryPage {
    /// - Parameters:
    ///   - names: the built-in icons, in the order shown.
    ///   - tint: the built-ins' selected colour as `RRGGBB`.
    ///   - apps: the apps served, in the order shown.
    public static func document(names: [String], tint: String, apps: [AppDescription], chrome: ChromeContext)
        -> [UInt8]
    {
        let language = chrome.language
        let title = UIString.iconGallery.text(in: language)
        return Chrome.document(title: Chrome.title([title], language: language), chrome: chrome) { html in
            html.raw("<main class=\"sheet\">\n<h1>")
            html.text(title)
            html.raw("</h1>\n")
            PageParts.paragraph(UIString.iconGalleryLead.text(in: language), className: "lead", into: &html)
            let pictures: [StageLinks.IconPicture] = [.unselected, .selected(.glow), .selected(.tinted)]
            table(rows: names.map { ($0, $0) }, pictures: pictures, region: title, language: language, into: &html) {
                name, picture, scale in
                StageLinks.builtInIcon(name, state: picture, scale: scale, tint: tint)
            }
            for app in apps {
                let shown = app.shownLanguage(onAPageIn: language.tag)
                html.raw("<h2")
                if shown != language.tag { html.attribute("lang", shown) }
                html.raw(">")
                html.text(app.name.text(in: shown))
                html.raw("</h2>\n")
                PageParts.paragraph(UIString.appIconsLead.text(in: language), className: "lead", into: &html)
                let rows = app.tabs.map { ($0.title.text(in: shown), $0.id) }
                let region = app.name.text(in: shown)
                table(
                    rows: rows, pictures: [.unselected, .selected(app.iconStyle)], region: region, language: language,
                    into: &html
                ) { tabID, picture, scale in
                    guard let tab = app.tab(id: tabID) else { return "" }
                    return StageLinks.url {
                        StageLinks.writeIcon(
                            app: app, tab: tab, selected: picture != .unselected, scale: scale, into: &$0)
                    }
                }
            }
            html.raw("</main>\n")
        }
    }

    /// A table of icons: a row per `(label, key)`, a column group per picture with the three
    /// scales; `url` gives each cell's image. The table scrolls sideways in a region named
    /// `region` (its section's heading) that takes the focus, so a keyboard can scroll it too.
    private static func table(
        rows: [(label: String, key: String)], pictures: [StageLinks.IconPicture], region: String,
        language: PageLanguage, into html: inout HTMLWriter, url: (String, StageLinks.IconPicture, Int) -> String
    ) {
        html.raw("<div class=\"gallery\" role=\"region\" tabindex=\"0\"")
        html.attribute("aria-label", region)
        html.raw("><table>\n<thead>\n<tr><th scope=\"col\" rowspan=\"2\">")
        html.text(UIString.iconColumn.text(in: language))
        html.raw("</th>")
        for picture in pictures {
            html.raw("<th scope=\"colgroup\" colspan=\"3\">")
            html.text(name(of: picture, language: language))
            html.raw("</th>")
        }
        html.raw("</tr>\n<tr>")
        for _ in pictures {
            for scale in 1...3 {
                html.raw("<th scope=\"col\">")
                html.number(scale)
                html.raw("×</th>")
            }
        }
        html.raw("</tr>\n</thead>\n<tbody>\n")
        for row in rows {
            html.raw("<tr><th scope=\"row\">")
            html.text(row.label)
            html.raw("</th>")
            for picture in pictures {
                let state = name(of: picture, language: language)
                // Each picture at its own pixel size, cropped to the middle of its cell, so that
                // 1x, 2x and 3x are seen as drawn (the whole 80 pt cell at 3x is 240 px).
                for scale in 1...3 {
                    html.raw("<td><span class=\"gallery-crop gallery-x")
                    html.number(scale)
                    html.raw("\"><img width=\"80\" height=\"80\"")
                    html.attribute("src", url(row.key, picture, scale))
                    html.attribute(
                        "alt", UIString.iconDescription(name: row.label, state: state, scale: scale).text(in: language))
                    html.raw("></span></td>")
                }
            }
            html.raw("</tr>\n")
        }
        html.raw("</tbody>\n</table></div>\n")
    }

    private static func name(of picture: StageLinks.IconPicture, language: PageLanguage) -> String {
        switch picture {
        case .unselected: UIString.unselectedState.text(in: language)
        case .selected(.glow): UIString.selectedState.text(in: language)
        case .selected(.tinted): UIString.tintedState.text(in: language)
        }
    }
}
