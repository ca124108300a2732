import Colour
import IconCatalog
import PathGeometry
import Rasterizer
import TabModel
import Views

/// How an app draws its tabs' icons: one answer for the icon routes and `tabstage icon --app`.
public enum AppIcons {
    /// The More item's three dots, in the same 24 × 24 box as the built-in icons.
    static let moreIconPath =
        "M5 10a2 2 0 1 0 0 4a2 2 0 1 0 0-4zM12 10a2 2 0 1 0 0 4a2 2 0 1 0 0-4zM19 10a2 2 0 1 0 0 4a2 2 0 1 0 0-4z"

    /// The shape of the icon of the tab `tabID` (the More item for `StageLinks.moreSegment`), or
    /// nil when the app has no such tab.
    public static func source(app: AppDescription, tabID: String) -> IconSource? {
        if tabID == StageLinks.moreSegment { return .pathData(moreIconPath, fillRule: .nonZero) }
        guard let tab = app.tab(id: tabID) else { return nil }
        switch tab.icon {
        case .builtIn(let icon): return .builtIn(name: icon.rawValue)
        case .path(let data, let rule): return .pathData(data, fillRule: PathGeometry.FillRule(rule))
        }
    }

    /// The app's tint as the rasterizer takes it.
    public static func tint(of app: AppDescription) -> RGBColor {
        app.tintColor ?? .defaultTint
    }

    /// The picture of a selected tab in the app's `iconStyle`.
    public static func selectedState(of app: AppDescription) -> IconState {
        switch app.iconStyle {
        case .glow: .selected
        case .tinted: .tinted
        }
    }
}
