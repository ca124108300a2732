/// The demos compiled into the server, loaded through the same validating loader as any file.
public enum BuiltInApps {
    public static let restaurantID = "restaurant"
    public static let verticalID = "vertical"

    /// Each demo's load result; a test keeps them all successful.
    public static let loadResults: [(id: String, result: Result<AppDescription, ValidationReport>)] = [
        (restaurantID, AppDescription.load(jsonText: RestaurantDemo.json)),
        (verticalID, AppDescription.load(jsonText: VerticalDemo.json)),
    ]

    /// Every demo that loaded, restaurant first.
    public static let all: [AppDescription] = loadResults.compactMap { try? $0.result.get() }

    /// The demo with this id.
    public static func app(id: String) -> AppDescription? {
        all.first { $0.id == id }
    }
}
