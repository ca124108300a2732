import TabModel

/// The parts of an app's stage pages that depend only on the app, the layout and the language,
/// written once when the app is loaded, so that a page request writes only what its session
/// decides (the selection, badges, counters, the visitor, the CSRF token, the appearance chosen).
///
/// Every part is written by the very function that writes it on a page without markup
/// (`Chrome.headAfterTitle`, `TabBarView.cellOpening`, ...), so the bytes are the same either
/// way; the tests render every built-in page both ways and compare.
///
/// A page names a part by a `Part` key and copies its bytes with `HTMLWriter.prewritten(_:of:)`.
/// The markup never changes after `init`, so every server thread reads it at once.
public final class AppMarkup: Sendable {
    /// The id of the app this was written for; a context only uses markup of its own app.
    public let appID: String
    let tabCount: Int
    /// The app's languages, in its order: the markup holds a version of each.
    let languages: [String]
    /// The same, each with its labels chosen: the languages a page of the app may be in.
    public let pageLanguages: PageLanguages
    /// Every part's bytes, one after another.
    let bytes: [UInt8]
    /// Where each part lies in `bytes`, in the order the `Part` keys count.
    private let spans: [Range<Int>]

    /// One part of this markup: its place in `bytes`.
    struct Part {
        let range: Range<Int>
    }

    public init(app: AppDescription) {
        appID = app.id
        tabCount = app.tabs.count
        languages = app.languages
        pageLanguages = PageLanguages(tags: app.languages)
        precondition(
            Layout.allCases.count == Layout.markupCount && Appearance.allCases.count == Appearance.markupCount)
        var html = HTMLWriter(capacity: 16 * 1024)
        var spans: [Range<Int>] = []
        func record(_ html: inout HTMLWriter, _ write: (inout HTMLWriter) -> Void) {
            let start = html.position
            write(&html)
            spans.append(start..<html.position)
        }
        // In the order `chromeIndex`, `cellIndex` and `titleIndex` count.
        for (layoutIndex, layout) in Layout.allCases.enumerated() {
            precondition(layout.markupIndex == layoutIndex, "Layout.markupIndex follows allCases")
            for language in pageLanguages.all {
                record(&html) { html in
                    Chrome.headAfterTitle(app: app, into: &html)
                    Chrome.headerUpToAccount(app: app, layout: layout, language: language, into: &html)
                }
                record(&html) { html in
                    LiveStageView.openPanel(language: language, into: &html)
                    LiveStageView.presentFormOpening(appID: app.id, layout: layout, language: language, into: &html)
                }
                for position in app.tabs.indices {
                    for isCurrent in [false, true] {
                        record(&html) { html in
                            TabBarView.cellOpening(
                                app: app, layout: layout, position: position, isCurrent: isCurrent,
                                language: language, into: &html)
                        }
                    }
                }
            }
        }
        for language in pageLanguages.all {
            for tab in app.tabs {
                let pageTitle = StageContext.pageTitle(ofTab: tab, language: language)
                record(&html) { html in StageContext.writeDocumentTitle(app: app, pageTitle, language, into: &html) }
                record(&html) { html in html.text(pageTitle) }
                record(&html) { html in PageView.writeParagraphs(of: tab.page, language: language, into: &html) }
                record(&html) { html in
                    TabBarView.cellClosing(
                        badge: TabContainer.startingBadge(of: tab), of: tab, language: language, into: &html)
                }
            }
        }
        // In the order `languageIndex` counts.
        for language in pageLanguages.all {
            record(&html) { html in LiveStageView.presentFormClosing(language: language, into: &html) }
            for (appearanceIndex, appearance) in Appearance.allCases.enumerated() {
                precondition(appearance.markupIndex == appearanceIndex, "Appearance.markupIndex follows allCases")
                record(&html) { html in Chrome.appearanceToggle(appearance, language: language, into: &html) }
            }
            record(&html) { html in RecordPanelView.opening(.off, appID: app.id, language: language, into: &html) }
            record(&html) { html in RecordPanelView.closing(.off, appID: app.id, language: language, into: &html) }
        }
        bytes = html.finish()
        self.spans = spans
    }

    /// Whether the markup has a version in `language` (one of its app's languages).
    func holds(_ language: PageLanguage) -> Bool { markupIndex(of: language) != nil }

    /// The version of one language among the markup's: found once for a page (`place(of:)`), it
    /// names the language to every part the page reads, so the tags are compared once a page.
    struct Place {
        fileprivate let index: Int
    }

    /// The version in `language`, nil when the markup has none.
    func place(of language: PageLanguage) -> Place? { markupIndex(of: language).map(Place.init) }

    /// The document from `</title>` to the visitor's part of the header (log-in link or name).
    func chrome(layout: Layout, language: Place) -> Part {
        part(chromeIndex(layout, language))
    }

    /// The presenter panel's start and the visitor's offer to present this app in `layout`, up
    /// to the form's CSRF field.
    func panelOpening(layout: Layout, language: Place) -> Part {
        part(chromeIndex(layout, language) + 1)
    }

    /// The tab bar cell of the tab at `position`, up to its badge.
    func cellOpening(layout: Layout, language: Place, position: Int, isCurrent: Bool) -> Part {
        precondition(position >= 0 && position < tabCount, "no tab at \(position)")
        return part(chromeIndex(layout, language) + 2 + 2 * position + (isCurrent ? 1 : 0))
    }

    /// `Page – App · TabStage` for the tab at `position`, escaped (the first of the
    /// `partsPerTabAndLanguage` parts of each tab).
    func documentTitle(language: Place, position: Int) -> Part {
        part(titleIndex(language, position))
    }

    /// The page heading of the tab at `position`, escaped.
    func pageTitle(language: Place, position: Int) -> Part {
        part(titleIndex(language, position) + 1)
    }

    /// The fixed paragraphs of the page of the tab at `position`.
    func paragraphs(language: Place, position: Int) -> Part {
        part(titleIndex(language, position) + 2)
    }

    /// The end of the bar cell of the tab at `position` while it shows its starting badge.
    func startingCellClosing(language: Place, position: Int) -> Part {
        part(titleIndex(language, position) + 3)
    }

    /// The offer to present's button, after the CSRF field, and the panel's end.
    func presentFormClosing(language: Place) -> Part {
        part(languageIndex(language))
    }

    /// The appearance links of the header, `current` marked.
    func appearanceToggle(language: Place, current: Appearance) -> Part {
        part(languageIndex(language) + 1 + current.markupIndex)
    }

    /// The record row with nothing recorded, up to its `next` field's value.
    func recordOpening(language: Place) -> Part {
        part(languageIndex(language) + 1 + Appearance.markupCount)
    }

    /// The record row with nothing recorded, from its button to its end.
    func recordClosing(language: Place) -> Part {
        part(languageIndex(language) + 2 + Appearance.markupCount)
    }

    /// Per layout and language: the chrome, the offer to present, two openings of each cell.
    private var partsPerLayoutAndLanguage: Int { 2 + 2 * tabCount }

    private func chromeIndex(_ layout: Layout, _ language: Place) -> Int {
        (layout.markupIndex * languages.count + language.index) * partsPerLayoutAndLanguage
    }

    private func titleIndex(_ language: Place, _ position: Int) -> Int {
        precondition(position >= 0 && position < tabCount, "no tab at \(position)")
        let titlesStart = Layout.markupCount * languages.count * partsPerLayoutAndLanguage
        return titlesStart + Self.partsPerTabAndLanguage * (language.index * tabCount + position)
    }

    /// Per language, after every tab's titles: the offer's end, one toggle per appearance, then
    /// the record row's two parts.
    private func languageIndex(_ language: Place) -> Int {
        let start =
            Layout.markupCount * languages.count * partsPerLayoutAndLanguage
            + Self.partsPerTabAndLanguage * languages.count * tabCount
        return start + language.index * (3 + Appearance.markupCount)
    }

    /// Document title, page title, paragraphs, the cell's end with the starting badge.
    private static var partsPerTabAndLanguage: Int { 4 }

    private func part(_ index: Int) -> Part { Part(range: spans[index]) }

    /// The place of `language` in the app's languages: a few short tags, compared in turn.
    private func markupIndex(of language: PageLanguage) -> Int? {
        languages.firstIndex(of: language.tag)
    }
}

extension AppMarkup: Equatable {
    /// Markup is written from its app alone, and a context compares its apps too: markups of one
    /// app id count as equal.
    public static func == (left: AppMarkup, right: AppMarkup) -> Bool { left.appID == right.appID }
}

extension Layout {
    /// The place in `allCases`, without building that array.
    fileprivate var markupIndex: Int {
        switch self {
        case .vertical: 0
        case .bottom: 1
        case .adaptive: 2
        }
    }

    fileprivate static var markupCount: Int { 3 }
}

extension Appearance {
    /// The place in `allCases`, without building that array.
    fileprivate var markupIndex: Int {
        switch self {
        case .auto: 0
        case .light: 1
        case .dark: 2
        }
    }

    fileprivate static var markupCount: Int { 3 }
}
