import RedisClient
import Testing

@testable import Sessions

@Test func sessionStoreOptionsParse() throws {
    #expect(try SessionStoreOption.parse("memory") == .memory)
    #expect(try SessionStoreOption.parse("sqlite") == .sqlite(path: "data/sessions.sqlite"))
    #expect(try SessionStoreOption.parse("sqlite:/var/lib/tabstage/s.db") == .sqlite(path: "/var/lib/tabstage/s.db"))
    #expect(try SessionStoreOption.parse("sqlite:relative dir/a:b.db") == .sqlite(path: "relative dir/a:b.db"))
}

@Test(arguments: ["", "Memory", "sqlite:", "sqlite3:x.db", "redis:localhost", "file:x"])
func badSessionStoreOptionsAreRefusedWithTheExpectedForms(_ value: String) {
    #expect(throws: SessionStoreOptionError(value: value)) { try SessionStoreOption.parse(value) }
    #expect(SessionStoreOptionError(value: value).description.contains("sqlite:PATH"))
}

@Test func redisURLsParseIntoEndpoints() throws {
    func parsed(_ value: String, password: String? = nil) throws -> RedisEndpoint {
        guard case .redis(let settings) = try SessionStoreOption.parse(value, redisPassword: password) else {
            throw SessionStoreOptionError(value: value)
        }
        #expect(settings.keyPrefix == "tabstage:")
        return settings.endpoint
    }
    #expect(try parsed("redis://localhost") == RedisEndpoint(address: .tcp(host: "localhost", port: 6379)))
    #expect(
        try parsed("redis://10.0.0.5:7000/3") == RedisEndpoint(address: .tcp(host: "10.0.0.5", port: 7000), database: 3)
    )
    #expect(try parsed("redis://[::1]:6380") == RedisEndpoint(address: .tcp(host: "::1", port: 6380)))
    #expect(
        try parsed("redis://:s%40cret@db:6379", password: "ignored")
            == RedisEndpoint(address: .tcp(host: "db", port: 6379), password: "s@cret"))
    #expect(
        try parsed("redis://app:pw@db")
            == RedisEndpoint(address: .tcp(host: "db", port: 6379), user: "app", password: "pw"))
    #expect(
        try parsed("redis://db", password: "from-env")
            == RedisEndpoint(address: .tcp(host: "db", port: 6379), password: "from-env"))
    #expect(
        try parsed("redis+unix:///run/redis.sock?db=2")
            == RedisEndpoint(address: .unixSocket(path: "/run/redis.sock"), database: 2))
}

@Test(arguments: [
    "redis://", "redis://:pw@", "redis://db:0", "redis://db:99999", "redis://db:port", "redis://db/x",
    "redis://[::1", "redis+unix://relative.sock", "redis+unix:///s.sock?db=x", "redis+unix:///s.sock?x=1",
    "redis://:bad%zz@db",
])
func malformedRedisURLsAreRefusedWithoutTheirPassword(_ value: String) {
    do {
        _ = try SessionStoreOption.parse(value)
        Issue.record("accepted \(value)")
    } catch {
        #expect(error.redisProblem != nil, "\(value)")
        #expect(!error.description.contains("pw"), "\(error.description)")
        #expect(!error.description.contains("bad%zz"), "\(error.description)")
    }
}
