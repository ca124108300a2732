import Rasterizer
import TabModel

/// Loads an app description and checks what TabModel cannot: that every path-data icon parses
/// (TabModel keeps path data as text and knows no rasterizer). `check`, `snapshot --app` and
/// tests load apps through here, so a malformed path is a problem at load, not a 404 later.
public enum AppLoading {
    public static func load(json: [UInt8]) -> Result<AppDescription, ValidationReport> {
        switch AppDescription.load(json: json) {
        case .failure(let report):
            return .failure(report)
        case .success(let app):
            var problems: [ValidationProblem] = []
            for (index, tab) in app.tabs.enumerated() {
                guard case .path(let data, _) = tab.icon else { continue }
                do throws(PathSyntaxError) {
                    _ = try PathData(parsing: data)
                } catch {
                    problems.append(ValidationProblem(path: "tabs[\(index)].icon.path", message: error.description))
                }
            }
            return problems.isEmpty ? .success(app) : .failure(ValidationReport(problems: problems))
        }
    }
}
