/// Something that happened without being asked on this connection: a route change, a button, the end of
/// a track. Streamed to connections that said `events on`, as `EVENT <kind> <detail>`.
struct ApplianceEvent: Hashable, Sendable {
    enum Kind: String, Hashable, Sendable, CaseIterable {
        case route, volume, transport, record, xrun, button, jack, meter, eq, input, settings, selftest, shutdown, error, device
    }

    var kind: Kind
    var detail: String

    init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    var line: String { detail.isEmpty ? "EVENT \(kind.rawValue)" : "EVENT \(kind.rawValue) \(detail)" }
}

/// Where parts of the appliance send their events; the console fans them out. Callable from any thread.
typealias EventSink = @Sendable (ApplianceEvent) -> Void
