import Foundation
import ImageGalleryUI

exit(ImageGalleryApplication.run(arguments: CommandLine.arguments))
