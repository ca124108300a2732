import Foundation
import IconCatalog
import Rasterizer

/// `tabstage icon`: renders one tab icon (or its coverage mask) to a PNG file.
enum IconCommand: Subcommand {
    static let name = "icon"
    static let summary = "Render a tab icon to a PNG file"
    static let usage = """
        Usage: tabstage icon (--name NAME | --path-data D [--fill-rule nonzero|evenodd])
                             [--state selected|unselected] [--scale 1|2|3] [--tint '#RRGGBB']
                             [--color '#RRGGBB'] [--mask] --output FILE.png

        Options:
          --name NAME        A built-in icon: \(IconCatalog.names.joined(separator: ", "))
          --path-data D      SVG path data in a 0 0 24 24 viewBox, instead of --name
          --fill-rule RULE   nonzero or evenodd, for --path-data (default nonzero)
          --state STATE      selected (gradient glow) or unselected (flat fill) (default selected)
          --scale S          1, 2 or 3: the 80 x 80 pt cell becomes 80S x 80S pixels (default 1)
          --tint COLOR       Tint of the selected state (default #FF9500)
          --color COLOR      Fill of the unselected state (default #000000)
          --mask             Write the coverage alone: black, alpha = covered area
          --output FILE      Where to write the PNG

        """
    static let options: [OptionSpec] = [
        OptionSpec("name"), OptionSpec("path-data"), OptionSpec("fill-rule"), OptionSpec("state"),
        OptionSpec("scale"), OptionSpec("tint"), OptionSpec("color"), .flag("mask"), OptionSpec("output"),
    ]

    static func run(_ parsed: ParsedArguments, console: Console) -> Int32 {
        let job: Job
        do {
            job = try Job(parsed)
        } catch {
            return TabStageCLI.usageError(error, for: Self.self, console: console)
        }
        let path: PathData
        let fillRule: FillRule
        switch job.source {
        case .builtIn(let name):
            guard let icon = IconCatalog.icon(named: name) else {
                return TabStageCLI.usageError(
                    UsageError(IconRequestError.unknownIcon(name).description), for: Self.self, console: console)
            }
            (path, fillRule) = (icon.path, icon.fillRule)
        case .pathData(let text, let rule):
            do {
                path = try PathData(parsing: text)
            } catch {
                console.err("tabstage icon: \(error.description)\n")
                return ExitCode.failure
            }
            fillRule = rule
        }
        let raster =
            job.maskOnly
            ? renderMask(path, fillRule: fillRule, scale: job.scale)
            : renderIcon(path, fillRule: fillRule, state: job.state, scale: job.scale, tint: job.tint, color: job.color)
        do {
            try writeAtomically(encodePNG(raster), to: job.output)
        } catch {
            console.err("tabstage icon: cannot write \(job.output): \(error.localizedDescription)\n")
            return ExitCode.failure
        }
        return ExitCode.success
    }

    /// The validated command line.
    private struct Job {
        var source: IconSource
        var state: IconState
        var scale: IconScale
        var tint: RGBColor
        var color: RGBColor
        var maskOnly: Bool
        var output: String

        init(_ parsed: ParsedArguments) throws(UsageError) {
            if let extra = parsed.positionals.first { throw UsageError("unexpected argument '\(extra)'") }
            switch (parsed.value("name"), parsed.value("path-data")) {
            case (let name?, nil):
                if parsed.value("fill-rule") != nil {
                    throw UsageError("--fill-rule goes with --path-data; a built-in icon has its own")
                }
                source = .builtIn(name: name)
            case (nil, let data?):
                let rule = try parsed.choice("fill-rule", default: "nonzero", among: FillRule.allCases.map(\.rawValue))
                source = .pathData(data, fillRule: FillRule(rawValue: rule) ?? .nonZero)
            case (.some, .some): throw UsageError("give either --name or --path-data, not both")
            case (nil, nil): throw UsageError("give --name NAME or --path-data D")
            }
            let stateName = try parsed.choice("state", default: "selected", among: IconState.allCases.map(\.rawValue))
            state = IconState(rawValue: stateName) ?? .selected
            scale = IconScale(rawValue: try parsed.integer("scale", default: 1, in: 1...3)) ?? .x1
            tint = try Self.color(parsed, "tint", default: .defaultTint)
            color = try Self.color(parsed, "color", default: .black)
            maskOnly = parsed.has("mask")
            guard let output = parsed.value("output"), !output.isEmpty else {
                throw UsageError("--output FILE is required")
            }
            self.output = output
        }

        private static func color(_ parsed: ParsedArguments, _ name: String, default fallback: RGBColor)
            throws(UsageError)
            -> RGBColor
        {
            guard let text = parsed.value(name) else { return fallback }
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
