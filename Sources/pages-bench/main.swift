import Foundation
import TabModel
import Views

// Page-rendering benchmark: microseconds to render the restaurant app's News tab (the page with
// the most parts: a badge, a list, forms) as a full document and as the fragment the script
// swaps in, from a container in a realistic state, as the server renders them (with the app's
// `AppMarkup`); then the full page without the markup, for comparison; and the stage page
// (`/{app}/stage`: both frames and the timeline of that container). Pure views, in-process.
// `pages-bench [--runs N] [--json]`

func parseOptions() -> (runs: Int, json: Bool) {
    var options = (runs: 2000, json: false)
    var arguments = CommandLine.arguments.dropFirst()
    while let argument = arguments.popFirst() {
        switch argument {
        case "--runs": options.runs = arguments.popFirst().flatMap { Int($0) } ?? options.runs
        case "--json": options.json = true
        default:
            FileHandle.standardError.write(Data("usage: pages-bench [--runs N] [--json]\n".utf8))
            exit(2)
        }
    }
    return options
}
let (runs, json) = parseOptions()

guard let app = BuiltInApps.app(id: BuiltInApps.restaurantID) else {
    FileHandle.standardError.write(Data("pages-bench: the restaurant demo did not load\n".utf8))
    exit(1)
}
let start = Date(timeIntervalSince1970: 1_767_225_600)
var container = TabContainer(app: app)
for tab in ["home", "finding", "wallet", "news"] {
    _ = container.select(.tab(tab), source: .url, isLoggedIn: false, at: start)
}
let chrome = ChromeContext(
    language: .english, app: app, layout: .bottom, currentPath: "/restaurant/bottom/news")
// As the server renders it: with the app's parts written once (`AppMarkup`), at start-up.
let context = StageContext(
    chrome: chrome, app: app, layout: .bottom, container: container, content: .tab(id: "news"),
    markup: AppMarkup(app: app))
var unprepared = context
unprepared.markup = nil

func measure(runs: Int, _ body: () -> [UInt8]) -> (median: Double, min: Double, max: Double, bytes: Int) {
    var samples: [Double] = []
    samples.reserveCapacity(runs)
    var bytes = 0
    let clock = ContinuousClock()
    for _ in 0..<runs {
        let began = clock.now
        bytes = body().count
        let elapsed = clock.now - began
        samples.append(Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
    }
    samples.sort()
    return (samples[samples.count / 2], samples[0], samples[samples.count - 1], bytes)
}

let results = [
    ("full tab page (restaurant/bottom/news)", measure(runs: runs) { StagePage.document(context) }),
    ("fragment (restaurant/bottom/news)", measure(runs: runs) { StagePage.fragment(context) }),
    ("full tab page, no AppMarkup", measure(runs: runs) { StagePage.document(unprepared) }),
    (
        "stage page (restaurant/stage)",
        measure(runs: runs) {
            ShowcasePage.document(
                app: app, log: container.log, chrome: ChromeContext(language: .english, app: app))
        }
    ),
]
if json {
    let rows = results.map { name, figure in
        "{\"name\": \"\(name)\", \"us\": {\"median\": \(figure.median), \"min\": \(figure.min), "
            + "\"max\": \(figure.max), \"runs\": \(runs)}, \"bytes\": \(figure.bytes)}"
    }
    print("{\"pages\": [\(rows.joined(separator: ", "))]}")
} else {
    for (name, figure) in results {
        print(
            String(
                format: "%-42@ %8.1f µs (min %.1f, max %.1f)  %d bytes", name as NSString, figure.median,
                figure.min, figure.max, figure.bytes))
    }
}
