import TabModel
import Testing
import Views

@testable import TabStageApp

@Suite struct RoutePathTests {
    /// `tabPath` is `StageLinks.tab` built faster: every tab of every app, both layouts.
    @Test func tabPathIsStageLinksTab() {
        for app in BuiltInApps.all {
            for layout in Layout.allCases {
                for tab in app.tabs {
                    let path = StageApplication.tabPath(app.id, layout, tab.id)
                    #expect(Array(path.utf8) == Array(StageLinks.tab(app.id, layout, tab.id).utf8))
                }
            }
        }
        // Bridged or otherwise non-contiguous ids take the byte-by-byte way to the same bytes.
        let lazy = String(Substring("x-app-1"))
        #expect(StageApplication.tabPath(lazy, .vertical, "t") == "/x-app-1/vertical/t")
    }
}
