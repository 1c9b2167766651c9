import CGtk
import GLibKit

public final class ProgressBar: Widget {
    public init() { super.init(owning: gtk_progress_bar_new()) }

    public var fraction: Double {
        get { gtk_progress_bar_get_fraction(typed()) }
        set { gtk_progress_bar_set_fraction(typed(), min(max(newValue, 0), 1)) }
    }
}
