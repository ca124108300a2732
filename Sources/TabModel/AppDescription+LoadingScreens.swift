// Screen pages: the designer's images, their hotspots and detail screens (``ScreenPage``).
extension DescriptionValidator {
    /// The keys of a screen page beside `kind`, `heading` and `paragraphs`.
    static let screenPageKeys = ["image", "alt", "hotspots", "details", "counter"]

    mutating func parseScreenPage(_ members: Members) -> PageContent? {
        let details = members.values["details"].flatMap { parseScreenDetails($0, at: members.path("details")) }
        let detailIDs = Set(details?.map(\.id) ?? [])
        var counter: CounterPage?? = .some(nil)
        if let value = members.values["counter"] { counter = parseScreenCounter(value, at: members.path("counter")) }
        let screen = parseScreenView(members, detailIDs: detailIDs, isDetail: false)
        guard let screen, let counter, members.values["details"] == nil || details != nil else { return nil }
        let changesCount = ([screen] + (details ?? []).map(\.screen)).flatMap(\.hotspots).contains {
            if case .pageAction = $0.action { true } else { false }
        }
        if changesCount && counter == nil {
            report(
                members.path("hotspots"), "a hotspot changes the count, but the page has no 'counter' (start, maximum)")
            return nil
        }
        return .screen(ScreenPage(screen: screen, details: details ?? [], counter: counter))
    }

    private mutating func parseScreenCounter(_ value: JSONValue, at path: String) -> CounterPage?? {
        guard let members = members(value, at: path, allowed: ["start", "maximum"]) else { return nil }
        let limits = AppDescription.Limits.self
        let maximum = members.values["maximum"].map {
            integer($0, at: members.path("maximum"), in: limits.counterMaximum)
        }
        let start = members.values["start"].map {
            integer($0, at: members.path("start"), in: 0...limits.counterMaximum.upperBound)
        }
        guard let maximumValue = maximum ?? 99, let startValue = start ?? 0 else { return nil }
        guard startValue <= maximumValue else {
            report(members.path("start"), "\(startValue) is above the maximum \(maximumValue)")
            return nil
        }
        let label = LocalizedText([:])
        return .some(CounterPage(label: label, start: startValue, maximum: maximumValue))
    }

    private mutating func parseScreenDetails(_ value: JSONValue, at path: String) -> [ScreenDetail]? {
        guard let elements = array(value, at: path) else { return nil }
        var ids: [String: Int] = [:]
        var details: [ScreenDetail] = []
        var isValid = true
        // Every id first: a detail's hotspot may push another.
        for (index, element) in elements.enumerated() {
            if case .object(let fields) = element,
                case .string(let id)? = fields.first(where: { $0.key == "id" })?.value
            {
                ids[id] = ids[id] ?? index
            }
        }
        for (index, element) in elements.enumerated() {
            let detailPath = "\(path)[\(index)]"
            guard let members = members(element, at: detailPath, allowed: ["id", "title", "image", "alt", "hotspots"])
            else {
                isValid = false
                continue
            }
            let id = required(members, "id").flatMap { identifier($0, at: members.path("id")) }
            if let id, let first = ids[id], first != index {
                report(members.path("id"), "duplicate detail id '\(id)'; \(path)[\(first)] has it already")
                isValid = false
            }
            let title = required(members, "title").flatMap {
                localizedText(
                    $0, at: members.path("title"), what: "a detail's title",
                    maximumLength: AppDescription.Limits.headingLength)
            }
            let screen = parseScreenView(members, detailIDs: Set(ids.keys), isDetail: true)
            guard let id, let title, let screen else {
                isValid = false
                continue
            }
            details.append(ScreenDetail(id: id, title: title, screen: screen))
        }
        return isValid ? details : nil
    }

    /// The `image`, `alt` and `hotspots` of a screen page or detail.
    private mutating func parseScreenView(_ members: Members, detailIDs: Set<String>, isDetail: Bool) -> ScreenView? {
        let images = required(members, "image").flatMap { parseScreenImages($0, at: members.path("image")) }
        let alt = required(members, "alt").flatMap {
            localizedText(
                $0, at: members.path("alt"), what: "a screen's alt text",
                maximumLength: AppDescription.Limits.paragraphLength)
        }
        var hotspots: [Hotspot]? = []
        if let value = members.values["hotspots"], let images {
            hotspots = parseHotspots(
                value, at: members.path("hotspots"), size: (images[0].pointWidth, images[0].pointHeight),
                detailIDs: detailIDs, isDetail: isDetail)
        }
        guard let images, let alt, let hotspots else { return nil }
        return ScreenView(images: images, alt: alt, hotspots: hotspots)
    }

    /// `"file.png"`, `{"file": ..., "scale": 3, "device": "phone", "appearance": "dark"}`, or a
    /// list of those: the first is the default, and every one has its size in points.
    private mutating func parseScreenImages(_ value: JSONValue, at path: String) -> [ScreenImage]? {
        let entries: [(JSONValue, String)]
        if case .array(let elements) = value {
            guard !elements.isEmpty else {
                report(path, "no image; give a file, or a list of files for devices and appearances")
                return nil
            }
            entries = elements.enumerated().map { ($1, "\(path)[\($0)]") }
        } else {
            entries = [(value, path)]
        }
        var images: [ScreenImage] = []
        var isValid = true
        for (entry, entryPath) in entries {
            guard let image = parseScreenImage(entry, at: entryPath) else {
                isValid = false
                continue
            }
            if let first = images.first, (image.pointWidth, image.pointHeight) != (first.pointWidth, first.pointHeight)
            {
                report(
                    entryPath,
                    "\(image.pointWidth)×\(image.pointHeight) points; every image of a screen has the first's size, "
                        + "\(first.pointWidth)×\(first.pointHeight) points, so that its hotspots fall in the same places"
                )
                isValid = false
                continue
            }
            images.append(image)
        }
        return isValid ? images : nil
    }

    private mutating func parseScreenImage(_ value: JSONValue, at path: String) -> ScreenImage? {
        var filePath = path
        var file: String?
        var scale: Int?? = .some(nil)
        var device: ScreenDevice?? = .some(nil)
        var appearance: ScreenAppearance?? = .some(nil)
        if case .string(let text) = value {
            file = text
        } else {
            guard let members = members(value, at: path, allowed: ["file", "scale", "device", "appearance"]) else {
                return nil
            }
            filePath = members.path("file")
            file = required(members, "file").flatMap { string($0, at: filePath) }
            if let value = members.values["scale"] { scale = integer(value, at: members.path("scale"), in: 1...3) }
            if let value = members.values["device"] {
                device = choice(value, at: members.path("device"), "device", ScreenDevice.self).map(Optional.some)
            }
            if let value = members.values["appearance"] {
                appearance = choice(value, at: members.path("appearance"), "appearance", ScreenAppearance.self)
                    .map(Optional.some)
            }
        }
        guard let file, let scale, let device, let appearance else { return nil }
        let info: ScreenFileInfo
        switch screenFile(file) {
        case .success(let found): info = found
        case .failure(let problem):
            report(filePath, "'\(file)': \(problem)")
            return nil
        }
        if let problem = ScreenFileInfo.sizeProblem(width: info.pixelWidth, height: info.pixelHeight) {
            report(filePath, "'\(file)': \(problem)")
            return nil
        }
        let image = ScreenImage(
            file: file, format: info.format, pixelWidth: info.pixelWidth, pixelHeight: info.pixelHeight,
            scale: scale ?? ScreenImage.scale(declaredBy: file), fingerprint: info.fingerprint, device: device,
            appearance: appearance, bytes: info.bytes)
        // The page shows it and places hotspots in its points: a screen of no width or height
        // would show nothing.
        guard image.pointWidth >= 1, image.pointHeight >= 1 else {
            report(
                filePath,
                "'\(file)': \(image.pixelWidth)×\(image.pixelHeight) pixels at \(image.scale)x is "
                    + "\(image.pointWidth)×\(image.pointHeight) points; a screen is at least a point each way")
            return nil
        }
        return image
    }

    private mutating func parseHotspots(
        _ value: JSONValue, at path: String, size: (width: Int, height: Int), detailIDs: Set<String>, isDetail: Bool
    ) -> [Hotspot]? {
        guard let elements = array(value, at: path) else { return nil }
        let actions = ["push", "back", "tab", "action"]
        var hotspots: [Hotspot] = []
        var isValid = true
        for (index, element) in elements.enumerated() {
            let spotPath = "\(path)[\(index)]"
            guard
                let members = members(element, at: spotPath, allowed: ["x", "y", "width", "height", "label"] + actions)
            else {
                isValid = false
                continue
            }
            let box = ["x", "y", "width", "height"].map { key in
                required(members, key).flatMap { integer($0, at: members.path(key), in: 0...100_000) }
            }
            let label = required(members, "label").flatMap {
                localizedText(
                    $0, at: members.path("label"), what: "a hotspot's label",
                    maximumLength: AppDescription.Limits.itemTitleLength)
            }
            let action = hotspotAction(
                members, at: spotPath, actions: actions, detailIDs: detailIDs, isDetail: isDetail)
            guard let x = box[0], let y = box[1], let width = box[2], let height = box[3], let label, let action else {
                isValid = false
                continue
            }
            guard width > 0, height > 0, x + width <= size.width, y + height <= size.height else {
                report(
                    spotPath,
                    "the hotspot (\(x), \(y), \(width)×\(height)) is not inside its image, "
                        + "\(size.width)×\(size.height) points")
                isValid = false
                continue
            }
            hotspots.append(Hotspot(x: x, y: y, width: width, height: height, label: label, action: action))
        }
        return isValid ? hotspots : nil
    }

    private mutating func hotspotAction(
        _ members: Members, at path: String, actions: [String], detailIDs: Set<String>, isDetail: Bool
    ) -> HotspotAction? {
        let given = actions.filter { members.values[$0] != nil }
        guard given.count == 1, let key = given.first, let value = members.values[key] else {
            report(path, "a hotspot does one thing: give one of \(actions.joined(separator: ", "))")
            return nil
        }
        let keyPath = members.path(key)
        switch key {
        case "push":
            guard let id = string(value, at: keyPath) else { return nil }
            guard detailIDs.contains(id) else {
                let known = detailIDs.sorted().joined(separator: ", ")
                report(
                    keyPath,
                    "no detail '\(id)'" + (known.isEmpty ? "; the page has no 'details'" : "; its details are \(known)")
                )
                return nil
            }
            return .push(id)
        case "back":
            guard bool(value, at: keyPath) == true else {
                report(keyPath, "expected true")
                return nil
            }
            guard isDetail else {
                report(keyPath, "a tab's own screen has nothing to go back to; Back is for a detail's hotspots")
                return nil
            }
            return .back
        case "tab":
            guard let id = string(value, at: keyPath) else { return nil }
            let tabs = writtenTabIDs.sorted { $0.key < $1.key }.map(\.value)
            guard tabs.contains(id) else {
                report(keyPath, "no tab '\(id)'; the tabs are \(tabs.joined(separator: ", "))")
                return nil
            }
            return .tab(id)
        default:
            guard let name = string(value, at: keyPath) else { return nil }
            switch name {
            case "increment": return .pageAction(.increment)
            case "decrement": return .pageAction(.decrement)
            case "reset": return .pageAction(.reset)
            default:
                report(keyPath, "no action '\(name)'; a screen's are increment, decrement and reset")
                return nil
            }
        }
    }
}
