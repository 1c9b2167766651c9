/// A C object (a GdkPixbuf, a cairo image surface) that its maker hands to another thread once and
/// that is only read from then on.
///
/// Safe to mark Sendable because nobody writes the object after the handover and its reference
/// count, the one thing two threads may change at once, is atomic (GObject's and cairo's both are).
struct ReadOnlyPointer: @unchecked Sendable {
    let pointer: OpaquePointer
}
