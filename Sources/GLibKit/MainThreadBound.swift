/// A value that belongs to the GTK thread, carried through code the compiler cannot see run there:
/// a C callback that wraps its arguments (a drag context, a cairo context) for a main-actor handler.
///
/// Safe to mark Sendable because it is made and read only on the GTK thread, which both the
/// initializer and the getter check (the pattern of swift-nio's `NIOLoopBound`).
package struct MainThreadBound<Value>: @unchecked Sendable {
    private let stored: Value

    package init(_ value: Value) {
        MainActor.preconditionIsolated("made off the GTK thread")
        stored = value
    }

    package var value: Value {
        MainActor.preconditionIsolated("read off the GTK thread")
        return stored
    }
}
