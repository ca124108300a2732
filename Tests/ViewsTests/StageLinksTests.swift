import TabModel
import Testing

@testable import Views

/// `StageLinks.tab` is the joined path for every tab of every app in both layouts, and for ids
/// that are not native strings.
@Test func tabLinksAreTheJoinedPath() {
    for app in BuiltInApps.all {
        for layout in Layout.allCases {
            for tab in app.tabs {
                let path = StageLinks.tab(app.id, layout, tab.id)
                #expect(Array(path.utf8) == Array("/\(app.id)/\(layout.rawValue)/\(tab.id)".utf8))
            }
        }
    }
    let lazy = String(Substring("x-app-1"))
    #expect(StageLinks.tab(lazy, .vertical, "t") == "/x-app-1/vertical/t")
}
