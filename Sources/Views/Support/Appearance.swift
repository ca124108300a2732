/// The colours a visitor sees: the browser's choice (`prefers-color-scheme`), or one they forced
/// with `?appearance=`, which their session keeps.
public enum Appearance: String, Sendable, Equatable, CaseIterable {
    case auto
    case light
    case dark

    /// A `?appearance=` value: exactly one of the names, ignoring case.
    public init?(name: some StringProtocol) {
        let lowered = name.lowercased()
        guard let match = Self.allCases.first(where: { $0.rawValue == lowered }) else { return nil }
        self = match
    }
}

/// How the pages around the prototype are drawn for this visitor, beside the language.
public struct DisplaySettings: Sendable, Equatable {
    public var appearance: Appearance
    /// False after `?frame=none`: tab pages draw no phone or tablet frame on wide windows.
    public var showsDeviceFrames: Bool
    /// The page fills a frame of the stage (`GET /{app}/stage`, see `ShowcasePage`): no header
    /// strip, the device's status bar and home indicator always drawn, nothing around them.
    public var isEmbedded: Bool

    public init(appearance: Appearance = .auto, showsDeviceFrames: Bool = true, isEmbedded: Bool = false) {
        self.appearance = appearance
        self.showsDeviceFrames = showsDeviceFrames
        self.isEmbedded = isEmbedded
    }

    /// The `<html>` element's attributes that the stylesheet reads; none for the defaults.
    func writeRootAttributes(into html: inout HTMLWriter) {
        switch appearance {
        case .auto: break
        case .light: html.raw(" data-appearance=\"light\"")
        case .dark: html.raw(" data-appearance=\"dark\"")
        }
        if !showsDeviceFrames { html.raw(" data-frame=\"none\"") }
        if isEmbedded { html.raw(" data-embedded=\"true\"") }
    }
}
