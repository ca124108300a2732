/// The Prometheus text exposition format (version 0.0.4): `# HELP` and `# TYPE` once per
/// metric, then one line per labelled sample.
public struct PrometheusText {
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    public private(set) var text = ""

    public init() {}

    /// Starts a metric: its help line and its type (`counter`, `gauge` or `histogram`).
    public mutating func metric(_ name: String, type: String, help: String) {
        text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
    }

    public mutating func sample(_ name: String, _ labels: KeyValuePairs<String, String>, _ value: String) {
        text += name
        if !labels.isEmpty {
            text += "{" + labels.map { "\($0.key)=\"\(Self.escaped($0.value))\"" }.joined(separator: ",") + "}"
        }
        text += " \(value)\n"
    }

    public mutating func sample(_ name: String, _ labels: KeyValuePairs<String, String>, _ value: UInt64) {
        sample(name, labels, String(value))
    }

    public mutating func sample(_ name: String, _ labels: KeyValuePairs<String, String>, _ value: Int) {
        sample(name, labels, String(value))
    }

    /// A histogram's buckets, sum and count under `name`, with `labels` on each line.
    public mutating func histogram(_ name: String, label: (name: String, value: String)?, _ histogram: Histogram) {
        let counts = histogram.cumulativeCounts
        func labelled(_ extra: String?) -> String {
            var parts: [String] = []
            if let label { parts.append("\(label.name)=\"\(Self.escaped(label.value))\"") }
            if let extra { parts.append(extra) }
            return parts.isEmpty ? "" : "{" + parts.joined(separator: ",") + "}"
        }
        for (bound, count) in zip(histogram.bounds, counts) {
            text += "\(name)_bucket\(labelled("le=\"\(bound)\"")) \(count)\n"
        }
        text += "\(name)_bucket\(labelled("le=\"+Inf\"")) \(counts[counts.count - 1])\n"
        text += "\(name)_sum\(labelled(nil)) \(histogram.sumSeconds)\n"
        text += "\(name)_count\(labelled(nil)) \(counts[counts.count - 1])\n"
    }

    /// A label value with `\`, `"` and newlines escaped, as the format requires.
    static func escaped(_ value: String) -> String {
        var escaped = ""
        for character in value {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
