import Colour
import Foundation
import IconCatalog
import PathGeometry
import Rasterizer
import Snapshots
import TabModel
import TabStageApp

/// `tabstage icon`: renders one tab icon (or its coverage mask) to a PNG file.
enum IconCommand: Subcommand {
    static let name = "icon"
    static let summary = "Render a tab icon to a PNG file"
    static let usage = """
        Usage: tabstage icon (--name NAME | --path-data D [--fill-rule nonzero|evenodd] | --app FILE --tab ID)
                             [--state selected|unselected|tinted] [--scale 1|2|3] [--tint '#RRGGBB']
                             [--color '#RRGGBB'] [--mask] --output FILE.png
               tabstage icon --list

        Options:
          --name NAME        A built-in icon: \(IconCatalog.names.joined(separator: ", "))
          --path-data D      SVG path data in a 0 0 24 24 viewBox, instead of --name
          --fill-rule RULE   nonzero or evenodd, for --path-data (default nonzero)
          --app FILE         An app description: draw the icon of its tab --tab as the app does,
                             in its tint and icon style (checked as by tabstage check)
          --tab ID           The tab of --app whose icon to draw
          --state STATE      selected (gradient glow), unselected (flat fill) or tinted (flat fill
                             in the tint) (default selected; with --app, the app's icon style)
          --scale S          1, 2 or 3: the 80 x 80 pt cell becomes 80S x 80S pixels (default 1)
          --tint COLOR       Tint of the selected states (default #FF9500; with --app, its tint)
          --color COLOR      Fill of the unselected state (default #8E8E93, as the server draws it)
          --mask             Write the coverage alone: black, alpha = covered area
          --output FILE      Where to write the PNG
          --list             Print the built-in icons' names, one a line, and draw nothing

        """
    static let options: [OptionSpec] = [
        OptionSpec("name"), OptionSpec("path-data"), OptionSpec("fill-rule"), OptionSpec("app"), OptionSpec("tab"),
        OptionSpec("state"),
        OptionSpec("scale"), OptionSpec("tint"), OptionSpec("color"), .flag("mask"), OptionSpec("output"),
        .flag("list"),
    ]

    static func run(_ parsed: ParsedArguments, console: Console) -> Int32 {
        if parsed.has("list") {
            guard parsed.positionals.isEmpty, parsed.values.isEmpty else {
                return TabStageCLI.usageError(
                    UsageError("--list takes no other option"), for: Self.self, console: console)
            }
            console.out(IconCatalog.names.map { $0 + "\n" }.joined())
            return ExitCode.success
        }
        var job: Job
        do {
            job = try Job(parsed)
        } catch {
            return TabStageCLI.usageError(error, for: Self.self, console: console)
        }
        guard let (path, fillRule) = shape(of: &job, console: console) else { return ExitCode.failure }
        let raster =
            job.maskOnly
            ? renderMask(path, fillRule: fillRule, scale: job.scale)
            : renderIcon(
                path, fillRule: fillRule, state: job.state ?? .selected, scale: job.scale,
                tint: job.tint ?? .defaultTint,
                color: job.color)
        do {
            try writeAtomically(encodePNG(raster), to: job.output)
        } catch {
            console.err("tabstage icon: cannot write \(job.output): \(error.localizedDescription)\n")
            return ExitCode.failure
        }
        return ExitCode.success
    }

    /// The path and fill rule to draw; with `--app`, the job takes the app's tint and selected
    /// picture where the command line left them out. nil after printing why not.
    private static func shape(of job: inout Job, console: Console) -> (PathData, PathGeometry.FillRule)? {
        var source: IconSource
        switch job.shape {
        case .source(let given): source = given
        case .appTab(let file, let tabID):
            // The file's app comes first; its problems are printed as `check` prints them.
            guard let app = AppFile.apps(adding: file, command: name, console: console)?.first else { return nil }
            guard let appSource = AppIcons.source(app: app, tabID: tabID) else {
                let ids = app.tabs.map(\.id).joined(separator: ", ")
                console.err("tabstage icon: \(file) has no tab '\(tabID)' (its tabs: \(ids))\n")
                return nil
            }
            source = appSource
            job.tint = job.tint ?? AppIcons.tint(of: app)
            job.state = job.state ?? AppIcons.selectedState(of: app)
        }
        switch source {
        case .builtIn(let name):
            guard let icon = IconCatalog.icon(named: name) else {
                console.err("tabstage icon: \(IconRequestError.unknownIcon(name).description)\n")
                return nil
            }
            return (icon.path, icon.fillRule)
        case .pathData(let text, let rule):
            do {
                let path = try PathData(parsing: text)
                return (path, rule)
            } catch {
                console.err("tabstage icon: \(error.description)\n")
                return nil
            }
        }
    }

    /// Where the shape comes from: given on the command line, or a tab of an app file.
    private enum Shape {
        case source(IconSource)
        case appTab(file: String, tabID: String)
    }

    /// The validated command line; `state` and `tint` are nil when left to the app of `--app`.
    private struct Job {
        var shape: Shape
        var state: IconState?
        var scale: IconScale
        var tint: RGBColor?
        var color: RGBColor
        var maskOnly: Bool
        var output: String

        init(_ parsed: ParsedArguments) throws(UsageError) {
            if let extra = parsed.positionals.first { throw UsageError("unexpected argument '\(extra)'") }
            shape = try Self.shape(parsed)
            let isApp = if case .appTab = shape { true } else { false }
            if isApp && parsed.value("state") == nil {
                state = nil
            } else {
                let name = try parsed.choice("state", default: "selected", among: IconState.allCases.map(\.rawValue))
                state = IconState(rawValue: name) ?? .selected
            }
            scale = IconScale(rawValue: try parsed.integer("scale", default: 1, in: 1...3)) ?? .x1
            tint = try Self.color(parsed, "tint") ?? (isApp ? nil : .defaultTint)
            color = try Self.color(parsed, "color") ?? .unselectedGrey
            maskOnly = parsed.has("mask")
            guard let output = parsed.value("output"), !output.isEmpty else {
                throw UsageError("--output FILE is required")
            }
            self.output = output
        }

        /// `--name`, `--path-data` (with `--fill-rule`) or `--app` with `--tab`: exactly one.
        private static func shape(_ parsed: ParsedArguments) throws(UsageError) -> Shape {
            let given = ["name", "path-data", "app"].filter { parsed.value($0) != nil }
            guard given.count == 1 else {
                throw UsageError(
                    given.isEmpty
                        ? "give --name NAME, --path-data D or --app FILE --tab ID"
                        : "give one of --name, --path-data and --app, not "
                            + given.map { "--" + $0 }.joined(separator: " and "))
            }
            if given[0] != "path-data" && parsed.value("fill-rule") != nil {
                throw UsageError("--fill-rule goes with --path-data; a built-in icon or an app's tab has its own")
            }
            if given[0] != "app" && parsed.value("tab") != nil { throw UsageError("--tab goes with --app FILE") }
            switch given[0] {
            case "name":
                let name = parsed.value("name") ?? ""
                guard IconCatalog.icon(named: name) != nil else {
                    throw UsageError(IconRequestError.unknownIcon(name).description)
                }
                return .source(.builtIn(name: name))
            case "path-data":
                let rule = try parsed.choice(
                    "fill-rule", default: "nonzero", among: PathGeometry.FillRule.allCases.map(\.rawValue))
                return .source(
                    .pathData(
                        parsed.value("path-data") ?? "", fillRule: PathGeometry.FillRule(rawValue: rule) ?? .nonZero))
            default:
                guard let tabID = parsed.value("tab") else { throw UsageError("--app FILE needs --tab ID") }
                return .appTab(file: parsed.value("app") ?? "", tabID: tabID)
            }
        }

        private static func color(_ parsed: ParsedArguments, _ name: String) throws(UsageError) -> RGBColor? {
            guard let text = parsed.value(name) else { return nil }
            guard let color = RGBColor(hex: text) else {
                throw UsageError("--\(name) must be a colour written #RRGGBB or RRGGBB, not '\(text)'")
            }
            return color
        }
    }

    /// Writes next to the target and renames, so a reader never sees half a file.
    private static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        let target = URL(fileURLWithPath: path)
        let temporary = target.deletingLastPathComponent()
            .appendingPathComponent(".\(target.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
        do {
            try Data(bytes).write(to: temporary)
            if rename(temporary.path, target.path) != 0 {
                throw CocoaError(
                    .fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: String(cString: strerror(errno))])
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }
}
