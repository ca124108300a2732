import PathGeometry
import Rasterizer
import TabModel

/// The built-in icon set, parsed from the model's art (`BuiltInIcon.art`) and drawn by the
/// rasterizer.
public enum IconCatalog {
    /// Every built-in name, in a stable order (the model's).
    public static let names = BuiltInIcon.allCases.map(\.rawValue)

    public static func icon(named name: String) -> Icon? { icons[name] }

    /// Parsed once from the model's art (`BuiltInIcon.art`); a built-in that failed to parse would
    /// be missing here, which the tests rule out.
    private static let icons: [String: Icon] = {
        var result: [String: Icon] = [:]
        for icon in BuiltInIcon.allCases {
            guard let path = try? PathData(parsing: icon.art) else { continue }
            result[icon.rawValue] = Icon(
                name: icon.rawValue, source: icon.art, path: path, fillRule: PathGeometry.FillRule(icon.artFillRule))
        }
        return result
    }()
}

extension PathGeometry.FillRule {
    /// The rasterizer's fill rule for the model's: the one translation, for the built-in icons'
    /// art and an app's own path data alike.
    public init(_ rule: TabModel.FillRule) {
        switch rule {
        case .nonzero: self = .nonZero
        case .evenodd: self = .evenOdd
        }
    }
}
