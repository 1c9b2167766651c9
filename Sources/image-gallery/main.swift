import Foundation
import GalleryIO
import ImageGalleryUI

// The same program decodes images in a process of their own, with limits (DecoderProcess).
if CommandLine.arguments.count > 1 && CommandLine.arguments[1] == DecoderProcess.option {
    exit(DecoderProcess.serve(arguments: Array(CommandLine.arguments.dropFirst(2))))
}
// And is the browser extension's native messaging host (BrowserHost).
if CommandLine.arguments.count > 1 && CommandLine.arguments[1] == BrowserHost.option {
    exit(BrowserHost.serve())
}
exit(ImageGalleryApplication.run(arguments: CommandLine.arguments))
