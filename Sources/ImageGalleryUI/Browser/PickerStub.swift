import GalleryCore

extension MainWindow {
    func pickImages(from capture: PageCapture) {}
}
