import CShim
import Foundation
import GLibKit
import GalleryCore

#if canImport(Glibc)
    import Glibc
#endif

/// Decoding in a separate process (the app's own program, started with `option`), for the formats whose cost the header
/// does not bound (an SVG's filters, AVIF, TIFF, any format without a header reader here): the process holds at most
/// `ImageLimits.decodeBudgetBytes` of data, `decodeSeconds` of processor time, and is stopped after
/// `decodeWallSeconds`; only the fitted pixels come back, over a pipe. GNOME's glycin does the same for Loupe.
public enum DecoderProcess {
    /// The hidden first argument that makes the app's program a decoder process.
    public static let option = "--decode-image"
    /// The app's program: this process's executable, or the one beside it (the unit tests' runner).
    static let programName = "image-gallery"

    /// What the decoder process answers: `status` is a `Status`; the rest depends on it.
    private struct Answer {
        static let fieldCount = 8
        var fields: [Int64]
        var payload: Data
    }

    private enum Status: Int64 {
        case decoded = 0
        case notAnImage
        case tooLarge
        case incomplete
        case damaged
        case undecodable
    }

    /// Address space the decoder's threads' stacks and its loader modules map without touching it, on
    /// top of the budget: the limit counts mappings, not the memory used.
    static let mappingAllowance = 32 << 20

    // MARK: The app's side

    /// Decodes `bytes` in the decoder process, fitted inside `fit` as `ImageDecoder.decodePicture` does.
    static func decode(_ bytes: Data, fit: (width: Int, height: Int)?) -> Result<DecodedImage<Pixbuf>, DecodeError> {
        guard let program = programPath() else { return .failure(.undecodable(nil)) }
        let input = cshim_memory_file()
        guard input >= 0 else { return .failure(.undecodable(nil)) }
        defer { close(input) }
        guard writeAll(bytes, to: input), lseek(input, 0, SEEK_SET) == 0 else { return .failure(.undecodable(nil)) }
        var pipeEnds: [Int32] = [0, 0]
        guard cshim_pipe(&pipeEnds) == 0 else { return .failure(.undecodable(nil)) }
        let argument = fit.map { "\($0.width)x\($0.height)" } ?? "whole"
        let pid = cshim_spawn_with_pipes(program, option, argument, input, pipeEnds[1])
        close(pipeEnds[1])
        defer { close(pipeEnds[0]) }
        guard pid > 0 else { return .failure(.undecodable(nil)) }
        let (output, timedOut) = readAnswer(from: pipeEnds[0])
        if timedOut { kill(pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7F
        if timedOut || signal == SIGXCPU || signal == SIGKILL { return .failure(.tookTooLong) }
        // g_malloc aborts when the memory limit refuses it; a decoder that does not check crashes.
        if signal != 0 { return .failure(.tooMuchMemory) }
        guard let answer = output.flatMap(parse) else { return .failure(.undecodable(nil)) }
        return result(of: answer)
    }

    private static func programPath() -> String? {
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            return nil
        }
        let path = URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent(programName).path
        return access(path, X_OK) == 0 ? path : nil
    }

    private static func writeAll(_ bytes: Data, to descriptor: Int32) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return false }
                offset += written
            }
            return true
        }
    }

    /// Everything the process writes until it closes its output, or nil past the size an answer can
    /// have; timed out when `decodeWallSeconds` pass first.
    private static func readAnswer(from descriptor: Int32) -> (Data?, timedOut: Bool) {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(ImageLimits.decodeWallSeconds) * 1_000_000_000
        let limit = Answer.fieldCount * 8 + ImageLimits.maximumWholePixels * 4 + 64 * 1024
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { return (nil, true) }
            var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&waiting, 1, Int32(min((deadline - now) / 1_000_000 + 1, 1000)))
            if ready < 0 && errno != EINTR { return (nil, false) }
            guard ready > 0 else { continue }
            let count = read(descriptor, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return (data, false) }
            data.append(contentsOf: chunk[0..<count])
            guard data.count <= limit else { return (nil, false) }
        }
    }

    private static func parse(_ data: Data) -> Answer? {
        let headerBytes = Answer.fieldCount * 8
        guard data.count >= headerBytes else { return nil }
        let fields = (0..<Answer.fieldCount).map { index in
            data.dropFirst(index * 8).prefix(8).reversed().reduce(Int64(0)) { $0 << 8 | Int64($1) }
        }
        let payload = Data(data.dropFirst(headerBytes))
        guard fields[7] == Int64(payload.count) else { return nil }
        return Answer(fields: fields, payload: payload)
    }

    private static func result(of answer: Answer) -> Result<DecodedImage<Pixbuf>, DecodeError> {
        let f = answer.fields.map { Int(clamping: $0) }
        switch Status(rawValue: answer.fields[0]) {
        case .decoded:
            let pixels = Pixbuf.Pixels(
                width: f[3], height: f[4], rowstride: f[5], hasAlpha: f[6] != 0, bytes: answer.payload)
            guard let pixbuf = Pixbuf(pixels) else { return .failure(.undecodable(nil)) }
            return .success(DecodedImage(bitmap: pixbuf, originalWidth: f[1], originalHeight: f[2]))
        case .notAnImage: return .failure(.notAnImage)
        case .tooLarge: return .failure(.tooLarge(width: f[1], height: f[2]))
        case .incomplete: return .failure(.incomplete)
        case .damaged: return .failure(.damaged)
        case .undecodable:
            return .failure(
                .undecodable(answer.payload.isEmpty ? nil : String(decoding: answer.payload, as: UTF8.self)))
        case nil: return .failure(.undecodable(nil))
        }
    }

    // MARK: The decoder process's side

    /// The decoder process: limits itself, reads the image from its standard input, decodes it within
    /// `arguments[0]` ("640x480" or "whole") and writes the answer to its standard output. Its exit status.
    public static func serve(arguments: [String]) -> Int32 {
        limitThisProcess()
        guard sandbox() else { return 1 }
        var fit: (width: Int, height: Int)?
        if let size = arguments.first, size != "whole" {
            let sides = size.split(separator: "x").compactMap { Int($0) }
            guard sides.count == 2 else { return 2 }
            fit = (sides[0], sides[1])
        }
        guard let bytes = try? FileReader.read("/dev/stdin") else { return 1 }
        var fields = [Int64](repeating: 0, count: Answer.fieldCount)
        var payload = Data()
        let decoded =
            ImageHeader.read(bytes)?.formatName == "XPM"
            ? decodeXPM(fit: fit) : ImageDecoder.decodeInThisProcess(bytes, fit: fit)
        switch decoded {
        case .success(let picture):
            let pixels = picture.bitmap.pixels
            fields[0] = Status.decoded.rawValue
            fields[1...6] =
                [
                    picture.originalWidth, picture.originalHeight, pixels.width, pixels.height, pixels.rowstride,
                    pixels.hasAlpha ? 1 : 0,
                ].map { Int64($0) }[...]
            payload = pixels.bytes
        case .failure(.notAnImage): fields[0] = Status.notAnImage.rawValue
        case .failure(.tooLarge(let width, let height)):
            fields[0...2] = [Status.tooLarge.rawValue, Int64(width), Int64(height)]
        case .failure(.incomplete): fields[0] = Status.incomplete.rawValue
        case .failure(.damaged): fields[0] = Status.damaged.rawValue
        case .failure(.undecodable(let message)):
            fields[0] = Status.undecodable.rawValue
            payload = Data((message ?? "").utf8)
        case .failure(.tookTooLong), .failure(.tooMuchMemory): return 1
        }
        fields[7] = Int64(payload.count)
        var answer = Data(fields.flatMap { field in (0..<8).map { UInt8(truncatingIfNeeded: field >> ($0 * 8)) } })
        answer.append(payload)
        return writeAll(answer, to: 1) ? 0 : 1
    }

    /// gdk-pixbuf's XPM loader copies what it is fed into a temporary file, which this process may not create:
    /// it reads the image's own file instead, standard input, whose size the app's side checked from its header.
    private static func decodeXPM(fit: (width: Int, height: Int)?) -> Result<DecodedImage<Pixbuf>, DecodeError> {
        guard let pixbuf = Pixbuf.load(contentsOf: "/dev/stdin") else { return .failure(.undecodable(nil)) }
        let (width, height) = (pixbuf.width, pixbuf.height)
        guard let fit, fit.width > 0, fit.height > 0, width > fit.width || height > fit.height else {
            return .success(DecodedImage(bitmap: pixbuf, originalWidth: width, originalHeight: height))
        }
        let factor = min(Double(fit.width) / Double(width), Double(fit.height) / Double(height))
        let fitted = pixbuf.scaled(
            width: max(1, Int((Double(width) * factor).rounded())),
            height: max(1, Int((Double(height) * factor).rounded())))
        return .success(DecodedImage(bitmap: fitted, originalWidth: width, originalHeight: height))
    }

    /// Confines this process before it reads a byte of the image, whose decoder may be made to run any code:
    /// it creates, changes and removes no file, opens no socket, starts no process, dumps no core (see
    /// `cshim_decoder_sandbox`). Whether all of it holds: a process that cannot confine itself decodes nothing.
    public static func sandbox() -> Bool {
        cshim_decoder_sandbox(Int32(maximumOpenFiles)) == 0
    }

    /// Descriptors the decoder process may hold at once: standard input, output and error and the few a loader opens
    /// at a time (a module, a font), with room to spare.
    static let maximumOpenFiles = 16

    /// Data (heap and private mappings) up to what it holds now plus the budget, processor time up to
    /// `decodeSeconds` (then SIGXCPU ends it).
    private static func limitThisProcess() {
        let status = String(
            decoding: (try? FileReader.read("/proc/self/status", limit: 64 * 1024)) ?? Data(), as: UTF8.self)
        let dataKiB =
            status.split(separator: "\n").first { $0.hasPrefix("VmData:") }
            .flatMap { line in line.split(separator: " ").dropFirst().first.flatMap { Int($0) } } ?? 0
        let data = rlim_t(dataKiB * 1024 + ImageLimits.decodeBudgetBytes + mappingAllowance)
        var memory = rlimit(rlim_cur: data, rlim_max: data)
        setrlimit(__rlimit_resource_t(RLIMIT_DATA.rawValue), &memory)
        let seconds = rlim_t(ImageLimits.decodeSeconds)
        var processor = rlimit(rlim_cur: seconds, rlim_max: seconds + 1)
        setrlimit(__rlimit_resource_t(RLIMIT_CPU.rawValue), &processor)
    }
}
