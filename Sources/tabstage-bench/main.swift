import Foundation
import IconCatalog
import PNGCodec
import PathGeometry
import Rasterizer

// Rasterizer benchmark: median time per icon to render, and to render + encode, for docs/glow.md's two
// reference icons in both states at 1x/2x/3x.
// `tabstage-bench [--runs N] [--level L] [--state S] [--icon NAME] [--scale 1|2|3] [--json] [--write DIR]`;
// --state / --icon run a subset (handy under callgrind), --json prints the same figures as one JSON
// object, --write also saves every PNG and coverage mask, to compare by hand with the fixtures.
// `tabstage-bench --stdin` measures on demand: each line `ICON STATE SCALE RUNS` read gets one JSON
// line back, so that bench/icons.py can alternate short batches of ours and Skia's.

let referenceIcons: [(name: String, data: String, fillRule: FillRule)] = [
    (
        "house",
        "M12 2.5 L22.2 11.1 Q22.8 11.7 22.1 12.3 Q21.7 12.6 21.2 12.6 L19.5 12.6 L19.5 21.5 L14.2 21.5 "
            + "L14.2 15.8 L9.8 15.8 L9.8 21.5 L4.5 21.5 L4.5 12.6 L2.8 12.6 Q2.3 12.6 1.9 12.3 Q1.2 11.7 1.8 11.1 Z "
            + "M13.6000 9.3000 C13.6000 8.4163 12.8837 7.7000 12.0000 7.7000 C11.1163 7.7000 10.4000 8.4163 "
            + "10.4000 9.3000 C10.4000 10.1837 11.1163 10.9000 12.0000 10.9000 C12.8837 10.9000 13.6000 10.1837 "
            + "13.6000 9.3000 Z",
        .nonZero
    ),
    (
        "magnifier",
        "M17.0000 10.0000 C17.0000 13.8660 13.8660 17.0000 10.0000 17.0000 C6.1340 17.0000 3.0000 13.8660 "
            + "3.0000 10.0000 C3.0000 6.1340 6.1340 3.0000 10.0000 3.0000 C13.8660 3.0000 17.0000 6.1340 "
            + "17.0000 10.0000 Z M14.6000 10.0000 C14.6000 12.5405 12.5405 14.6000 10.0000 14.6000 C7.4595 "
            + "14.6000 5.4000 12.5405 5.4000 10.0000 C5.4000 7.4595 7.4595 5.4000 10.0000 5.4000 C12.5405 "
            + "5.4000 14.6000 7.4595 14.6000 10.0000 Z M13.9598 16.0104 L16.0104 13.9598 L20.6420 18.5913 "
            + "L18.5913 20.6420 Z",
        .evenOdd
    ),
]

struct Options {
    var runs = 200
    var level = PNGEncoder.defaultCompressionLevel
    var writeDirectory: String?
    var json = false
    var states: [IconState] = [.selected, .unselected]
    var iconName: String?
    var scales: [IconScale] = IconScale.allCases
    var onDemand = false
}

let usage =
    "usage: tabstage-bench [--runs N] [--level L] [--state selected|unselected] [--icon NAME] [--scale 1|2|3] [--json] [--write DIR]\n"
    + "       tabstage-bench --stdin   (then lines: ICON STATE SCALE RUNS)\n"

/// The usage line on standard error, exit status 2.
func exitWithUsage() -> Never {
    FileHandle.standardError.write(Data(usage.utf8))
    exit(2)
}

/// `1`, `2` or `3`.
func iconScale(_ text: String) -> IconScale? { Int(text).flatMap { IconScale(rawValue: $0) } }

func parseOptions() -> Options {
    var options = Options()
    var arguments = CommandLine.arguments.dropFirst()
    while let argument = arguments.popFirst() {
        switch argument {
        case "--runs": options.runs = arguments.popFirst().flatMap { Int($0) } ?? options.runs
        case "--level": options.level = arguments.popFirst().flatMap { Int32($0) } ?? options.level
        case "--write": options.writeDirectory = arguments.popFirst()
        case "--json": options.json = true
        case "--stdin": options.onDemand = true
        case "--icon": options.iconName = arguments.popFirst()
        case "--scale":
            guard let scale = arguments.popFirst().flatMap(iconScale) else { exitWithUsage() }
            options.scales = [scale]
        case "--state":
            guard let state = arguments.popFirst().flatMap({ IconState(rawValue: $0) }) else { exitWithUsage() }
            options.states = [state]
        default:
            exitWithUsage()
        }
    }
    return options
}

/// Where warm-up results go, so that the calls are not optimised away.
nonisolated(unsafe) var warmUpSink = 0

/// The median time of `runs` calls of `body`, after calling it untimed for 20 ms first (caches,
/// branch predictors and the core's clock settle); and the sum of what the timed calls returned.
func medianMicroseconds(runs: Int, _ body: () -> Int) -> (Double, Int) {
    let clock = ContinuousClock()
    let warmUpEnd = clock.now + .milliseconds(20)
    while clock.now < warmUpEnd { warmUpSink &+= body() }
    var samples: [Double] = []
    samples.reserveCapacity(runs)
    var sink = 0
    for _ in 0..<max(1, runs) {
        let start = clock.now
        sink &+= body()
        let elapsed = clock.now - start
        let (seconds, attoseconds) = elapsed.components
        samples.append(Double(seconds) * 1e6 + Double(attoseconds) / 1e12)
    }
    samples.sort()
    return (samples[samples.count / 2], sink)
}

/// One measured row, printed as a table line or as a JSON object.
struct Row {
    var icon: String
    var state: IconState
    var scale: IconScale
    var renderMicroseconds: Double
    var renderEncodeMicroseconds: Double
    var pngBytes: Int

    var tableLine: String {
        [
            icon.padding(toLength: 10, withPad: " ", startingAt: 0),
            state.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0),
            "\(scale.rawValue)x".padding(toLength: 6, withPad: " ", startingAt: 0),
            String(format: "%9.1f", renderMicroseconds), String(format: "%17.1f", renderEncodeMicroseconds),
            String(format: "%10d", pngBytes),
        ].joined(separator: " ")
    }

    var json: String {
        "{\"icon\": \"\(icon)\", \"state\": \"\(state.rawValue)\", \"scale\": \(scale.rawValue), "
            + "\"render_us\": \(String(format: "%.1f", renderMicroseconds)), "
            + "\"render_encode_us\": \(String(format: "%.1f", renderEncodeMicroseconds)), \"png_bytes\": \(pngBytes)}"
    }
}

/// Median render and render + encode times of one picture, and its PNG size.
func measure(
    _ icon: (name: String, data: String, fillRule: FillRule), _ path: PathData, state: IconState, scale: IconScale,
    runs: Int, level: Int32
) -> Row {
    let (render, _) = medianMicroseconds(runs: runs) {
        renderIcon(path, fillRule: icon.fillRule, state: state, scale: scale).width
    }
    let (renderEncode, size) = medianMicroseconds(runs: runs) {
        encodePNG(renderIcon(path, fillRule: icon.fillRule, state: state, scale: scale), level: level).count
    }
    return Row(
        icon: icon.name, state: state, scale: scale, renderMicroseconds: render,
        renderEncodeMicroseconds: renderEncode, pngBytes: size / max(1, runs))
}

let options = parseOptions()
let parsedIcons = referenceIcons.map { icon in
    guard let path = try? PathData(parsing: icon.data) else {
        print("\(icon.name): the built-in reference path does not parse")
        exit(1)
    }
    return (icon, path)
}
if options.onDemand {
    while let line = readLine() {
        let words = line.split(separator: " ").map(String.init)
        guard words.count == 4, let (icon, path) = parsedIcons.first(where: { $0.0.name == words[0] }),
            let state = IconState(rawValue: words[1]), let scale = iconScale(words[2]),
            let runs = Int(words[3]), runs > 0
        else {
            FileHandle.standardOutput.write(Data("{\"error\": \"expected ICON STATE SCALE RUNS\"}\n".utf8))
            continue
        }
        let row = measure(icon, path, state: state, scale: scale, runs: runs, level: options.level)
        FileHandle.standardOutput.write(Data((row.json + "\n").utf8))
    }
    exit(0)
}
if !options.json {
    print("rasterizer: median of \(options.runs) runs, zlib level \(options.level)")
    print("icon       state       scale  render_us  render+encode_us  png_bytes")
}
var rows: [Row] = []
for (icon, path) in parsedIcons where options.iconName == nil || options.iconName == icon.name {
    for state in options.states {
        for scale in options.scales {
            let row = measure(icon, path, state: state, scale: scale, runs: options.runs, level: options.level)
            rows.append(row)
            if !options.json { print(row.tableLine) }
            if let directory = options.writeDirectory {
                let png = encodePNG(renderIcon(path, fillRule: icon.fillRule, state: state, scale: scale))
                let name = "\(directory)/ours_\(icon.name)_\(state.rawValue)@\(scale.rawValue)x.png"
                _ = FileManager.default.createFile(atPath: name, contents: Data(png))
                let mask = encodePNG(renderMask(path, fillRule: icon.fillRule, scale: scale))
                _ = FileManager.default.createFile(
                    atPath: "\(directory)/ours_\(icon.name)_mask@\(scale.rawValue)x.png", contents: Data(mask))
            }
        }
    }
}
if options.json {
    print("{\"runs\": \(options.runs), \"level\": \(options.level), \"results\": [")
    print(rows.map { "  " + $0.json }.joined(separator: ",\n"))
    print("]}")
}
if let directory = options.writeDirectory {
    for name in IconCatalog.names {
        guard let icon = IconCatalog.icon(named: name) else { continue }
        for state in IconState.allCases {
            let png = encodePNG(renderIcon(icon.path, fillRule: icon.fillRule, state: state, scale: .x3))
            _ = FileManager.default.createFile(
                atPath: "\(directory)/catalog_\(name)_\(state.rawValue)@3x.png", contents: Data(png))
        }
    }
}
