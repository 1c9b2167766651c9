"""`Cell`: one visible cell of the gallery as its accessible object describes it; `format_cells` for messages."""

import dataclasses


@dataclasses.dataclass(frozen=True)
class Cell:
    index: int
    name: str
    description: str
    x: int
    y: int
    width: int
    height: int
    role: str = "image"

    @property
    def url(self):
        return self.description

    @property
    def box(self):
        return (self.x, self.y, self.width, self.height)

    @property
    def center(self):
        return (self.x + self.width // 2, self.y + self.height // 2)

    @property
    def aspect(self):
        return self.width / self.height if self.height else 0.0

    @property
    def label(self):
        return self.name.split(", ")[0]

    @property
    def states(self):
        """The status words after the label: e.g. ["loading"], ["selected"], ["error: HTTP 404"]."""
        return self.name.split(", ")[1:]

    @property
    def loading(self):
        return "loading" in self.states

    @property
    def selected(self):
        return "selected" in self.states

    @property
    def error(self):
        """The reason after ', error: ', or None."""
        for part in self.states:
            if part.startswith("error: "):
                return part[len("error: "):]
        return None

    @property
    def placeholder(self):
        return self.name.startswith("Downloading")

    @property
    def settled(self):
        """Neither loading nor a download placeholder, and laid out (a size on screen)."""
        return not self.loading and not self.placeholder and self.width > 0 and self.height > 0

    def __str__(self):
        return "#%d %r url=%s at (%d,%d %dx%d)" % (self.index, self.name, _short(self.description), self.x,
                                                    self.y, self.width, self.height)


def _short(text, n=80):
    return text if len(text) <= n else text[:n - 20] + "…" + text[-17:]


def format_cells(cells):
    return "%d cells:\n  " % len(cells) + "\n  ".join(str(c) for c in cells) if cells else "no cells"
