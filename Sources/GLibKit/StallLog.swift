#if StallLog
    import CGLib
    import CShim
    import Foundation

    /// For benchmarks only (built with `--traits StallLog`): with `IMAGE_GALLERY_STALL_LOG=<file>`, appends
    /// "stall <seconds since start> <milliseconds> <ran> <waited>" to the file whenever the main loop went
    /// more than 8 ms without running a high-priority 1 ms timer. Of that time, `ran` ms the thread ran
    /// and `waited` ms it was ready but waited for a core; both are left out where Linux does not tell.
    public enum StallLog {
        @MainActor private static var file: FileHandle?

        @MainActor public static func startIfAsked() {
            guard let path = ProcessInfo.processInfo.environment["IMAGE_GALLERY_STALL_LOG"],
                FileManager.default.createFile(atPath: path, contents: nil),
                let file = FileHandle(forWritingAtPath: path)
            else { return }
            self.file = file
            start(writingTo: file, over: 8)
        }

        /// Appends "event <monotonic seconds> <what>": when something a benchmark waits for happened (search
        /// results painted), on the clock other tools read (CLOCK_MONOTONIC).
        @MainActor public static func note(_ what: String) {
            file?.write(Data(String(format: "event %.6f ", Double(g_get_monotonic_time()) / 1_000_000).utf8))
            file?.write(Data((what + "\n").utf8))
        }

        private static func start(writingTo file: FileHandle, over threshold: Double) {
            let start = g_get_monotonic_time()
            var last = start
            let times = ThreadTimes()
            var lastTimes = times?.read()
            // The clock the times count from (CLOCK_MONOTONIC), so other tools' times line up.
            file.write(Data(String(format: "start %.6f\n", Double(start) / 1_000_000).utf8))
            let box = CallbackBox<@MainActor () -> Void> {
                let now = g_get_monotonic_time()
                let nowTimes = times?.read()
                let gap = Double(now - last) / 1000 - 1
                defer {
                    last = now
                    lastTimes = nowTimes
                }
                guard gap > threshold else { return }
                var line = String(format: "stall %.3f %.1f", Double(now - start) / 1_000_000, gap)
                if let before = lastTimes, let after = nowTimes {
                    line += String(
                        format: " %.1f %.1f", after.ranMilliseconds - before.ranMilliseconds,
                        after.waitedMilliseconds - before.waitedMilliseconds)
                }
                file.write(Data((line + "\n").utf8))
            }
            g_timeout_add_full(
                G_PRIORITY_HIGH, 1,
                { userData in
                    let box = CallbackBox<@MainActor () -> Void>.from(userData: userData)
                    onMain { box.handler() }
                    return sourceContinue
                }, box.retainedPointer, CallbackBox<@MainActor () -> Void>.destroyNotify)
        }
    }

    /// How long the thread that made it has run, and waited for a core while ready to run.
    private final class ThreadTimes {
        struct Reading {
            var ranMilliseconds: Double
            var waitedMilliseconds: Double
        }

        private let descriptor: Int32

        /// Nil where the system does not tell.
        init?() {
            descriptor = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC)
            if descriptor < 0 { return nil }
        }

        deinit { close(descriptor) }

        /// "<ns on a core> <ns runnable, waiting for one> <times scheduled>", read again from the start.
        func read() -> Reading? {
            var text = [UInt8](repeating: 0, count: 96)
            let length = text.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 95, 0) }
            guard length > 0 else { return nil }
            let fields = String(decoding: text[..<length], as: UTF8.self).split(separator: " ").compactMap {
                Double($0)
            }
            guard fields.count >= 2 else { return nil }
            return Reading(ranMilliseconds: fields[0] / 1_000_000, waitedMilliseconds: fields[1] / 1_000_000)
        }
    }
#endif
