import CGtk
import GLibKit

/// The turning circle that says something is on its way.
public final class Spinner: Widget {
    public init() {
        super.init(owning: gtk_spinner_new())
        gtk_spinner_start(typed())
    }
}
