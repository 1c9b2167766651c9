import CCurl

/// An easy handle set up on the caller's thread, with the buffer its callbacks fill and what to do when
/// it ends.
///
/// Safety: it belongs to one thread at a time: the caller builds it and hands it over once
/// (`TransferThread.run`); from then on only the transfer thread touches the handle and the buffer.
struct CurlTransfer: @unchecked Sendable {
    let handle: UnsafeMutableRawPointer
    let buffer: TransferBuffer
    let finished: (UnsafeMutableRawPointer, TransferBuffer, CURLcode) -> Void

    init(
        handle: UnsafeMutableRawPointer, transfer: TransferBuffer,
        finished: @escaping (UnsafeMutableRawPointer, TransferBuffer, CURLcode) -> Void
    ) {
        self.handle = handle
        self.buffer = transfer
        self.finished = finished
    }

    /// Runs `finished` with the transfer's result; the buffer lives at least as long as the handle that
    /// points at it.
    func finish(_ code: CURLcode) {
        withExtendedLifetime(buffer) { finished(handle, buffer, code) }
    }
}
