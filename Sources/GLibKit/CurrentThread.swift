import CShim

/// The thread that calls it.
public enum CurrentThread {
    /// Names it where top, perf and /proc see it (Foundation's `Thread.name` does not always reach the
    /// system: a pool's new thread kept the name of the thread that started it).
    public static func name(_ name: String) {
        cshim_name_thread(name)
    }
}
