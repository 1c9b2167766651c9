import Foundation
import GLibKit
import GalleryCore

/// Why an image could not be shown, in words short enough for a cell or a toast.
public struct LoadFailure: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
    /// The library names the image's original, which has not arrived yet (a synced folder still
    /// receiving it), and there is nowhere else to get it from: no error, it fills in when it lands.
    public private(set) var isWaitingForSync = false
    /// Its address is on the user's own network or machine and came from another computer: no error, it loads
    /// once the user here says so.
    public private(set) var isOnLocalNetwork = false

    public init(description: String) {
        self.description = description
    }

    private init(waitingForSync description: String) {
        self.description = description
        isWaitingForSync = true
    }

    private init(onLocalNetwork description: String) {
        self.description = description
        isOnLocalNetwork = true
    }

    public static var waitingForSync: LoadFailure { LoadFailure(waitingForSync: tr("waiting for sync")) }

    public static var onLocalNetwork: LoadFailure { LoadFailure(onLocalNetwork: tr("on your local network")) }
}

extension LoadFailure {
    /// The library's copy of an image is missing bytes or has other bytes than those it is named after.
    public static var damagedOriginal: LoadFailure {
        LoadFailure(description: tr("the library’s copy of it is damaged"))
    }

    public init(_ error: DownloadError) {
        if error == .localNetwork {
            self = .onLocalNetwork
            return
        }
        description =
            switch error {
            case .status(let code): tr("HTTP {code}", ["code": String(code)])
            case .tooLarge(let limit):
                tr("larger than {megabytes} MB", ["megabytes": Localization.number(Int(limit / 1_000_000))])
            case .timedOut: tr("timed out")
            case .tooSlow: tr("the server is too slow")
            case .cancelled: tr("cancelled")
            case .refusedProtocol: tr("only http and https are downloaded")
            case .tooManyRedirects: tr("too many redirects")
            case .serverNotFound: tr("server not found")
            case .couldNotConnect: tr("could not connect")
            case .closedEarly: tr("the connection closed early")
            case .insecure: tr("the secure connection failed")
            case .refusedAddress: tr("refused a redirect to a local address")
            case .localNetwork: tr("on your local network")
            case .network(let code): tr("download failed ({code})", ["code": String(code)])
            }
    }

    /// A local file that was not read.
    public init(_ error: FileReader.Failure) {
        description =
            switch error {
            case .missing: tr("file not found")
            case .notRegularFile: tr("not a regular file")
            case .tooLarge(let limit):
                tr("larger than {megabytes} MB", ["megabytes": Localization.number(limit / 1_000_000)])
            case .unreadable(let code): tr("could not be read: {reason}", ["reason": FileError(code: code).description])
            }
    }

    /// An image in a format this system has no decoder for says which package would show it.
    public init(_ error: DecodeError, decoding bytes: Data) {
        description =
            switch error {
            case .notAnImage:
                if let format = ImageFormat.sniff(Array(bytes.prefix(4096))), let package = format.loaderPackage {
                    tr("{format} images need {package}", ["format": format.name, "package": package])
                } else {
                    tr("not an image")
                }
            case .tooLarge(let width, let height):
                tr(
                    "image too large ({width}×{height})",
                    ["width": Localization.number(width), "height": Localization.number(height)])
            case .incomplete: tr("the image is incomplete")
            case .damaged: tr("the image is damaged")
            case .tookTooLong: tr("decoding took too long")
            case .tooMuchMemory: tr("decoding needs too much memory")
            case .undecodable(let reason): reason ?? tr("the image could not be decoded")
            }
    }
}
