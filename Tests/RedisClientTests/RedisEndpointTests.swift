import RedisClient
import Testing

@Test func aRedisEndpointIsShownWithoutItsPassword() throws {
    let endpoint = try RedisEndpoint.parse("redis://:hunter2@db:6390/4")
    #expect(endpoint.description == "redis://db:6390/4")
    #expect(try RedisEndpoint.parse("redis+unix:///tmp/r.sock?db=1").description == "redis+unix:///tmp/r.sock?db=1")
    #expect(RedisEndpoint.redacted("redis://user:hunter2@db:x/y") == "redis://db:x/y")
}

@Test func aUserAndPasswordArePercentDecodedOrRefused() throws {
    let endpoint = try RedisEndpoint.parse("redis://ops%2Dteam:p%40ss%3a+w%C3%B6rd@db:6390")
    #expect(endpoint.user == "ops-team" && endpoint.password == "p@ss:+wörd")
    for url in ["redis://:p%4@db", "redis://:p%zz@db", "redis://:%FF@db", "redis://%:pw@db:6390"] {
        #expect(throws: RedisURLError.self, "\(url)") { try RedisEndpoint.parse(url) }
    }
}
