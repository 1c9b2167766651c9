"""End-to-end test harness for Image Gallery.

Pieces, each usable on its own, one module each:
  - `waiting`: `HarnessError` (a failure of the app or its environment) and `wait_until`;
  - `images`: encoded images made in pure Python (`png_bytes`, `encoded_image`, ...), `data_url`, `file_url`;
  - `colours`: colours read off screenshots (`dominant_colour`, `colour_close`, ...) and the `DISTINCT_IMAGES`;
  - `server`: `ImageServer`, a loopback HTTP server with images that can be slow, fail or lie, and a request log;
  - `desktop`: `Desktop`, Xvfb on a free display + a D-Bus session bus + the AT-SPI bus, and xdotool input on it;
  - `atspi`: `A11yBus` and `Node`, AT-SPI read over D-Bus;
  - `cells`: `Cell`, a visible gallery cell as its accessible object describes it;
  - `app`: `App`, the built `image-gallery` binary launched with its own XDG directories, read over AT-SPI, its
    library read through `image-gallery --print-state`;
  - `processes`: ending child processes, and their memory;
  - `dialogs`: the app's dialogs answered over AT-SPI (`add_images_question`, `press`);
  - `hostile`: image files that declare a huge picture, or cost minutes to draw, one per format (`hostile.cases`).

Tests use the names below as `harness.X`. AT-SPI is read with a small client speaking the AT-SPI D-Bus protocol
through GDBus: always fresh, never deadlocking (see `atspi` on why not libatspi's own client). It needs python3-gi
and gir1.2-atspi-2.0 (both come with python3-pyatspi): run with Debian's /usr/bin/python3.
"""

# With three private helpers (_safe, _short, _png_chunk) that tests and benchmarks call as harness._safe and so on.
from .app import DEFAULT_BINARY, REPO_ROOT, benchmark_binary, WINDOW_TITLE, App, LibraryUnreadable, document
from .atspi import ROLE, A11yBus, A11yError, Node, Roles, _safe, a11y, walk
from .cells import Cell, _short, format_cells
from .colours import (DATA_IMAGE, DISTINCT_IMAGES, FILE_IMAGE, UI_COLOURS, average_colour, colour_bbox,
                      colour_close, dominant_colour)
from .desktop import Desktop, current_desktop, start_desktop, stop_desktop
from .images import (CONTENT_TYPES, _png_chunk, data_url, decode_png_size, encoded_image, file_url,
                     palette_png_bytes, png_bytes)
from . import hostile
from .dialogs import add_images_question, press
from .processes import process_memory_mib
from .server import ImageServer, LoggedRequest, ServedImage
from .waiting import HarnessError, wait_until

__all__ = [
    "A11yBus", "A11yError", "App", "add_images_question", "press", "CONTENT_TYPES", "Cell", "DATA_IMAGE", "DEFAULT_BINARY", "DISTINCT_IMAGES", "benchmark_binary",
    "Desktop", "FILE_IMAGE", "document", "HarnessError", "ImageServer", "LibraryUnreadable", "LoggedRequest", "Node", "REPO_ROOT", "ROLE", "Roles",
    "ServedImage", "UI_COLOURS", "WINDOW_TITLE", "a11y", "average_colour", "colour_bbox", "colour_close",
    "current_desktop", "data_url", "decode_png_size", "dominant_colour", "encoded_image", "file_url",
    "format_cells", "palette_png_bytes", "png_bytes", "process_memory_mib", "start_desktop", "stop_desktop",
    "walk", "wait_until",
]
