import TabModel

/// `GET /{app}/export.swift`: the SwiftUI `TabView` (iOS 18) that builds the app's tabs in their
/// default order, its sections as `TabSection`s, each tab's starting badge and a customization
/// ID, in the `.sidebarAdaptable` style with the visitor's customization kept in `@AppStorage`.
/// Plain Swift source: the texts in the app's first language, each page a `Text` of its heading,
/// to replace.
///
/// What may be customized follows the description: a tab neither `customizable` nor
/// `allowsHiding` is `.disabled`; a customizable tab that may not be hidden is `.reorderable`; one
/// that may move and hide keeps SwiftUI's default. SwiftUI has no behaviour for a tab that hides
/// but does not move: such a tab is `.automatic`, said in full with a comment that SwiftUI lets it
/// move too.
public enum SwiftUIExport {
    public static func source(of app: AppDescription) -> String {
        let typeName = Self.typeName(app.id)
        let name = String(app.name.text(in: app.defaultLanguage).map { $0.isNewline ? " " : $0 })
        var lines = [
            "// The tabs of \(name), exported by TabStage from its app description '\(app.id)'.",
            "import SwiftUI",
            "",
            "struct \(typeName): View {",
            "    @AppStorage(\(literal(app.id + ".tabs"))) private var customization = TabViewCustomization()",
            "",
            "    var body: some View {",
            "        TabView {",
        ]
        var openSection: Int?
        for position in app.defaultOrder {
            let section = app.sectionIndex(ofTabAt: position)
            if section != openSection {
                if let openSection { lines += closeSection(app.sections[openSection], app: app) }
                if let section {
                    lines.append(
                        "            TabSection(\(literal(app.sections[section].title.text(in: app.defaultLanguage)))) {"
                    )
                }
                openSection = section
            }
            lines += tab(app.tabs[position], app: app, indent: section == nil ? 12 : 16)
        }
        if let openSection { lines += closeSection(app.sections[openSection], app: app) }
        lines += [
            "        }",
            "        .tabViewStyle(.sidebarAdaptable)",
            "        .tabViewCustomization($customization)",
            "    }",
            "}",
            "",
        ]
        return lines.joined(separator: "\n")
    }

    private static func closeSection(_ section: TabSectionDescription, app: AppDescription) -> [String] {
        ["            }", "            .customizationID(\(literal(app.id + ".section." + section.id)))"]
    }

    /// One `Tab(…)` with its modifiers.
    private static func tab(_ tab: TabDescription, app: AppDescription, indent: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        let heading = (tab.page.heading ?? tab.title).text(in: app.defaultLanguage)
        var lines = [
            pad
                + "Tab(\(literal(tab.title.text(in: app.defaultLanguage))), systemImage: \(literal(symbolName(tab.icon)))) {"
        ]
        if case .screen(let page) = tab.page.content {
            lines += screen(page.screen, language: app.defaultLanguage, pad: pad + "    ")
        } else {
            lines.append(pad + "    Text(\(literal(heading)))")
        }
        lines.append(pad + "}")
        switch TabContainer.startingBadge(of: tab) {
        case .count(let count)?: lines.append(pad + ".badge(\(count))")
        case .text(let text)?: lines.append(pad + ".badge(\(literal(text.text(in: app.defaultLanguage))))")
        case nil: break
        }
        lines.append(pad + ".customizationID(\(literal(app.id + "." + tab.id)))")
        let movable = app.customizableTabIDs.contains(tab.id)
        switch (movable, tab.allowsHiding) {
        case (false, false): lines.append(pad + ".customizationBehavior(.disabled, for: .sidebar, .tabBar)")
        case (true, false): lines.append(pad + ".customizationBehavior(.reorderable, for: .sidebar, .tabBar)")
        case (false, true):
            lines.append(
                pad + "// Hides but does not move in TabStage; SwiftUI has no such behaviour, so it may move too.")
            lines.append(pad + ".customizationBehavior(.automatic, for: .sidebar, .tabBar)")
        case (true, true): break
        }
        return lines
    }

    /// A screen page's image as an `Image` placeholder named after its file, for the asset
    /// catalog, and each hotspot as a commented `Button` with its place and what it does.
    static func screen(_ screen: ScreenView, language: String, pad: String) -> [String] {
        let image = screen.images[0]
        let file = image.file.split(separator: "/").last.map(String.init) ?? image.file
        var asset = file.split(separator: ".").first.map(String.init) ?? file
        for suffix in ["@2x", "@3x"] where asset.hasSuffix(suffix) { asset = String(asset.dropLast(suffix.count)) }
        var lines = [
            pad + "Image(\(literal(asset)))  // \(image.file), \(image.pointWidth)×\(image.pointHeight) points",
            pad + "    .resizable()",
            pad + "    .scaledToFit()",
            pad + "    .accessibilityLabel(\(literal(screen.alt.text(in: language))))",
        ]
        for hotspot in screen.hotspots.sorted(by: { ($0.y, $0.x) < ($1.y, $1.x) }) {
            lines.append(
                pad + "// Button(\(literal(hotspot.label.text(in: language)))) { } at (\(hotspot.x), \(hotspot.y)), "
                    + "\(hotspot.width)×\(hotspot.height) points: \(hotspot.action)")
        }
        return lines
    }

    /// The SF Symbol nearest each built-in icon; a tab drawn from path data gets a placeholder.
    static func symbolName(_ icon: TabIcon) -> String {
        guard case .builtIn(let name) = icon else { return "square.dashed" }
        switch name {
        case .home: return "house"
        case .search: return "magnifyingglass"
        case .wallet: return "wallet.pass"
        case .news: return "newspaper"
        case .person: return "person.crop.circle"
        case .inbox: return "tray"
        case .star: return "star"
        case .settings: return "gearshape"
        case .bell: return "bell"
        case .chart: return "chart.bar"
        case .people: return "person.2"
        case .heart: return "heart"
        case .calendar: return "calendar"
        case .clock: return "clock"
        case .chat: return "bubble.left"
        case .mail: return "envelope"
        case .phone: return "phone"
        case .map: return "map"
        case .pin: return "mappin.and.ellipse"
        case .camera: return "camera"
        case .photo: return "photo"
        case .play: return "play"
        case .music: return "music.note"
        case .book: return "book"
        case .bookmark: return "bookmark"
        case .cart: return "cart"
        case .bag: return "bag"
        case .card: return "creditcard"
        case .gift: return "gift"
        case .list: return "list.bullet"
        case .grid: return "square.grid.2x2"
        case .folder: return "folder"
        case .doc: return "doc.text"
        case .cloud: return "cloud"
        case .download: return "square.and.arrow.down"
        case .share: return "square.and.arrow.up"
        case .plus: return "plus"
        case .compass: return "safari"
        case .flame: return "flame"
        case .bolt: return "bolt"
        case .leaf: return "leaf"
        case .dumbbell: return "dumbbell"
        }
    }

    /// `restaurant` → `RestaurantTabs`, `my-app` → `MyAppTabs`: a type name from an id.
    static func typeName(_ id: String) -> String {
        let words = id.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }
        let name = words.joined() + "Tabs"
        return name.first?.isNumber == true ? "App" + name : name
    }

    /// A Swift string literal of `text`: quotes, backslashes and control characters escaped.
    static func literal(_ text: String) -> String {
        var escaped = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    escaped += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    escaped.unicodeScalars.append(scalar)
                }
            }
        }
        return escaped + "\""
    }
}
