/// Repeated measurements of one quantity, summarised as a median with the 10th and 90th percentiles.
struct Samples {
    private(set) var values: [Double] = []

    mutating func add(_ value: Double) { values.append(value) }

    var median: Double { percentile(0.5) }
    var p10: Double { percentile(0.1) }
    var p90: Double { percentile(0.9) }

    func percentile(_ fraction: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let position = fraction * Double(sorted.count - 1)
        let lower = Int(position)
        let upper = min(lower + 1, sorted.count - 1)
        let weight = position - Double(lower)
        return sorted[lower] * (1 - weight) + sorted[upper] * weight
    }
}

/// One row of the report: our figure, the peer's, how they compare, and for a whole process the yardstick's
/// figure from the same run with our ratio to it.
struct Row {
    let name: String
    let ours: String
    let peer: String
    let ratio: String
    var yardstick = "-"
}

enum Report {
    static func print(_ rows: [Row]) {
        let header = Row(
            name: "benchmark", ours: "authvault", peer: "peer (same run)", ratio: "ratio",
            yardstick: "yardstick (same run): ratio")
        let all = [header] + rows
        let widths = [
            all.map(\.name.count).max()!, all.map(\.ours.count).max()!, all.map(\.peer.count).max()!,
            all.map(\.ratio.count).max()!,
        ]
        for (index, row) in all.enumerated() {
            Swift.print(
                pad(row.name, widths[0]) + "  " + pad(row.ours, widths[1]) + "  " + pad(row.peer, widths[2]) + "  "
                    + pad(row.ratio, widths[3]) + "  " + row.yardstick)
            if index == 0 { Swift.print(String(repeating: "-", count: widths.reduce(0, +) + 8 + 30)) }
        }
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}

func formatDuration(_ seconds: Double) -> String {
    if seconds < 1e-3 { return fixed(seconds * 1e6, 1) + " µs" }
    if seconds < 1 { return fixed(seconds * 1e3, 2) + " ms" }
    return fixed(seconds, 2) + " s"
}

func formatSpread(_ samples: Samples) -> String {
    "\(formatDuration(samples.median)) [p10 \(formatDuration(samples.p10)), p90 \(formatDuration(samples.p90))]"
}

func formatMegabytes(_ bytes: Double) -> String {
    fixed(bytes / 1e6, 1) + " MB"
}

func formatRate(_ perSecond: Double) -> String {
    if perSecond >= 1e6 { return fixed(perSecond / 1e6, 2) + " M/s" }
    if perSecond >= 1e3 { return fixed(perSecond / 1e3, 1) + " k/s" }
    return fixed(perSecond, 1) + " /s"
}

/// `value` with `digits` decimals, without String(format:) (which would pull in ICU).
func fixed(_ value: Double, _ digits: Int) -> String {
    guard value.isFinite else { return "n/a" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    var text = String(rounded)
    if let dot = text.firstIndex(of: ".") {
        let decimals = text.distance(from: dot, to: text.endIndex) - 1
        if decimals < digits { text += String(repeating: "0", count: digits - decimals) }
        if digits == 0 { text = String(text[..<dot]) }
    }
    return text
}

/// Ours over the peer's, with enough decimals to show small ratios (0.0023x).
func ratio(_ ours: Double, over peer: Double) -> String {
    let value = ours / peer
    let digits = value >= 0.1 ? 2 : value >= 0.001 ? 4 : 6
    return fixed(value, digits) + "x"
}

/// The yardstick column: its median, and ours over it.
func yardstickColumn(ours: Samples, yardstick: Samples) -> String {
    formatDuration(yardstick.median) + ": " + ratio(ours.median, over: yardstick.median)
}
