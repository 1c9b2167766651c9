import Foundation

/// What one transfer has received so far, written by libcurl's callbacks on the transfer thread.
final class TransferBuffer {
    var body = Data()
    var exceeded = false
    /// Set from the limits: a page's answer is stopped past this many bytes.
    var pageLimit: Int64?
    /// The answer is a page, stopped at `pageLimit`: what came is the answer.
    var cutPage = false
    /// The answer's Content-Type, as libcurl has it once the headers are in.
    var contentType: () -> String? = { nil }
    var bytesSoFar: Int64 = 0
    /// When the last byte arrived: a stopped server times out, a trickling one is too slow.
    var lastByteArrival = Date()
    let limit: Int64
    let progress: @Sendable (_ received: Int64, _ expected: Int64?) -> Bool
    /// Every byte of `body` is counted here.
    let budget: TransferBudget
    /// Set by the transfer thread on the oldest running transfer, which goes on over the budget.
    var mayExceedBudget = false
    /// Paused by the write callback for want of budget, until the transfer thread resumes it.
    var paused = false
    let addressScope: @Sendable (_ address: String, _ port: Int) -> AddressScope
    /// The scope of the first address a request of this transfer went to.
    var firstScope: AddressScope?
    /// A redirect or a later request would have gone closer to the user's machine: stopped.
    var refusedAddress = false
    /// Set from the limits: the first request, too, must go to the internet.
    var publicAddressesOnly = false
    /// The first request would have gone into the user's network or machine: stopped.
    var refusedLocalAddress = false

    init(
        limit: Int64, budget: TransferBudget, addressScope: @escaping @Sendable (String, Int) -> AddressScope,
        progress: @escaping @Sendable (Int64, Int64?) -> Bool
    ) {
        self.limit = limit
        self.budget = budget
        self.addressScope = addressScope
        self.progress = progress
    }

    /// Whether a request to `address` may be sent: the first sets the scope, later ones may not go closer.
    func allowsRequest(to address: String, port: Int) -> Bool {
        let scope = addressScope(address, port)
        guard let firstScope else {
            firstScope = scope
            refusedLocalAddress = publicAddressesOnly && scope != .publicInternet
            return !refusedLocalAddress
        }
        refusedAddress = !firstScope.mayLead(to: scope)
        return !refusedAddress
    }
}
