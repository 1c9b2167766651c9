/// The connections running transfers hold, by server (scheme, host and port), against a limit per server and one in
/// all. A server heard answering over HTTP/2 carries up to `streamsPerConnection` transfers on each connection, so its
/// transfers count as the connections libcurl multiplexes them onto; any other server's transfer holds a connection
/// of its own. A server over TLS not heard from yet takes one transfer, whose handshake says whether it multiplexes,
/// before the others: libcurl holds them for that handshake anyway (PIPEWAIT), and each would count as a connection.
struct ServerConnections {
    /// Transfers one HTTP/2 connection carries at once: libcurl's default, and the least a server should allow.
    static let streamsPerConnection = 100
    /// How long a server's first handshake may keep its other transfers waiting: past it, they count the HTTP/1.1 way.
    static let handshakeWait = Duration.seconds(1)

    let perServer: Int
    let total: Int
    private var transfers: [String: Int] = [:]
    private var multiplexing: Set<String> = []
    /// Servers whose protocol a handshake or an answer told, or whose handshake was waited on long enough.
    private var heardFrom: Set<String> = []
    /// When the transfer whose handshake each server over TLS not heard from yet waits on started.
    private var handshakes: [String: ContinuousClock.Instant] = [:]
    private(set) var inUse = 0

    init(perServer: Int, total: Int) {
        self.perServer = perServer
        self.total = total
    }

    /// Whether `server` was heard multiplexing.
    func multiplexes(_ server: String) -> Bool { multiplexing.contains(server) }

    /// Whether `server` is one over TLS whose first handshake is awaited to say whether it multiplexes.
    func awaitsHandshake(_ server: String) -> Bool { server.hasPrefix("https://") && !heardFrom.contains(server) }

    /// Whether every connection in all is in use.
    var isFull: Bool { inUse >= total }

    /// Whether one more transfer to `server` fits within its own limit, whatever the others hold.
    func hasRoom(on server: String) -> Bool {
        let running = transfers[server, default: 0]
        return awaitsHandshake(server) ? running == 0 : connections(server, carrying: running + 1) <= perServer
    }

    /// Whether one more transfer to `server` fits within its limit and the total.
    func admits(_ server: String) -> Bool {
        let running = transfers[server, default: 0]
        let more = connections(server, carrying: running + 1) - connections(server, carrying: running)
        return hasRoom(on: server) && inUse + more <= total
    }

    mutating func start(on server: String, at now: ContinuousClock.Instant = .now) {
        let running = transfers[server, default: 0]
        inUse += connections(server, carrying: running + 1) - connections(server, carrying: running)
        transfers[server] = running + 1
        if awaitsHandshake(server) { handshakes[server] = now }
    }

    mutating func end(on server: String) {
        let running = transfers[server, default: 0]
        guard running > 0 else { return }
        inUse -= connections(server, carrying: running) - connections(server, carrying: running - 1)
        transfers[server] = running > 1 ? running - 1 : nil
        // A transfer that ended unheard leaves the handshake to the server's next one.
        if running == 1 { handshakes[server] = nil }
    }

    /// Notes how `server` answered a request of its own (no redirect), or what its TLS handshake agreed: HTTP/2 or
    /// later, or not.
    mutating func heard(_ server: String, multiplexing answers: Bool) {
        heardFrom.insert(server)
        handshakes[server] = nil
        guard answers != multiplexing.contains(server) else { return }
        let running = transfers[server, default: 0]
        inUse -= connections(server, carrying: running)
        if answers { multiplexing.insert(server) } else { multiplexing.remove(server) }
        inUse += connections(server, carrying: running)
    }

    /// Stops waiting on the handshakes that started `handshakeWait` or more before `now`: those servers count
    /// the HTTP/1.1 way until heard otherwise; whether any did.
    mutating func endLongHandshakeWaits(at now: ContinuousClock.Instant) -> Bool {
        let long = handshakes.filter { now - $0.value >= Self.handshakeWait }.keys
        for server in long { heard(server, multiplexing: false) }
        return !long.isEmpty
    }

    private func connections(_ server: String, carrying count: Int) -> Int {
        guard multiplexing.contains(server) else { return count }
        return (count + Self.streamsPerConnection - 1) / Self.streamsPerConnection
    }
}
