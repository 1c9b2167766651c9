/// The connections running transfers hold, by server (host and port), against a limit per server and one in all.
/// A server heard answering over HTTP/2 carries up to `streamsPerConnection` transfers on each connection, so its
/// transfers count as the connections libcurl multiplexes them onto; any other server's transfer holds a connection
/// of its own.
struct ServerConnections {
    /// Transfers one HTTP/2 connection carries at once: libcurl's default, and the least a server should allow.
    static let streamsPerConnection = 100

    let perServer: Int
    let total: Int
    private var transfers: [String: Int] = [:]
    private var multiplexing: Set<String> = []
    private(set) var inUse = 0

    init(perServer: Int, total: Int) {
        self.perServer = perServer
        self.total = total
    }

    /// Whether `server` was heard multiplexing.
    func multiplexes(_ server: String) -> Bool { multiplexing.contains(server) }

    /// Whether every connection in all is in use.
    var isFull: Bool { inUse >= total }

    /// Whether one more transfer to `server` fits within its own limit, whatever the others hold.
    func hasRoom(on server: String) -> Bool {
        connections(server, carrying: transfers[server, default: 0] + 1) <= perServer
    }

    /// Whether one more transfer to `server` fits within its limit and the total.
    func admits(_ server: String) -> Bool {
        let running = transfers[server, default: 0]
        let more = connections(server, carrying: running + 1) - connections(server, carrying: running)
        return hasRoom(on: server) && inUse + more <= total
    }

    mutating func start(on server: String) {
        let running = transfers[server, default: 0]
        inUse += connections(server, carrying: running + 1) - connections(server, carrying: running)
        transfers[server] = running + 1
    }

    mutating func end(on server: String) {
        let running = transfers[server, default: 0]
        guard running > 0 else { return }
        inUse -= connections(server, carrying: running) - connections(server, carrying: running - 1)
        transfers[server] = running > 1 ? running - 1 : nil
    }

    /// Notes how `server` answered a request of its own (no redirect): over HTTP/2 or later, or not.
    mutating func heard(_ server: String, multiplexing answers: Bool) {
        guard answers != multiplexing.contains(server) else { return }
        let running = transfers[server, default: 0]
        inUse -= connections(server, carrying: running)
        if answers { multiplexing.insert(server) } else { multiplexing.remove(server) }
        inUse += connections(server, carrying: running)
    }

    private func connections(_ server: String, carrying count: Int) -> Int {
        guard multiplexing.contains(server) else { return count }
        return (count + Self.streamsPerConnection - 1) / Self.streamsPerConnection
    }
}
