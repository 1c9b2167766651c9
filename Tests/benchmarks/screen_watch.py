"""Frames of an X screen, and when they hold still showing pictures: the benchmarks' notion of "painted".

`Screen(display)` grabs the root window (PIL.ImageGrab through XCB, about 3 ms for 1280x1024; python-xlib's
GetImage, about 7 ms, when PIL has no XCB) and sends XTEST keys and button events (python-xlib, no process spawned,
so their times are known to the millisecond).

`Screen.wait_painted(...)` grabs a frame every 50 ms and returns when the screen has held still for `hold` seconds
and its content area shows pictures everywhere (`pictures_everywhere`). The time reported is that of the first frame
of the still run, i.e. the frame that first showed what stayed on screen: a frame's time is the middle of its grab.

`pictures_everywhere(frame, area)`: the area is cut into 16x16 blocks. A block is *flat* when every channel's
standard deviation in it is under 2.5 (a placeholder tile, a grey cell, an empty screen); the photos have grain
everywhere, so a block inside a picture is never flat. Flat blocks of the background's colour (sampled in the
margin left of the first column, `inset` px in from the area's left edge) are the gaps between cells and the space
after the last row. The area shows pictures everywhere when no flat block has another colour, and at least
`min_detail` of the blocks are detailed (not flat), so a black screen or an empty window never counts. Only the
gallery may be looked at so: a sidebar beside it has flat rows of other colours (the selected one) and text that
would count as detail (`wait_painted`'s `pictures_in`).
"""
import os
import time

import numpy

BLOCK = 16
FLAT_STD = 2.5


class Screen:
    def __init__(self, display):
        from Xlib import X, display as xdisplay
        from Xlib.ext import xtest  # noqa: F401  (registers the extension methods)
        self.name = display
        self.X = X
        self.d = xdisplay.Display(display)
        self.root = self.d.screen().root
        geometry = self.root.get_geometry()
        self.size = (geometry.width, geometry.height)
        self._pil = None
        try:
            from PIL import ImageGrab
            ImageGrab.grab(xdisplay=display)
            self._pil = ImageGrab
        except Exception:
            self._pil = None

    def close(self):
        try:
            self.d.close()
        except Exception:
            pass

    # --- frames ---
    def grab(self, region=None):
        """(time in the middle of the grab, HxWx3 uint8 array): the whole screen, or region (x, y, w, h) of it,
        which costs the X server only that rectangle."""
        started = time.monotonic()
        if region is not None:
            x, y, w, h = region
            raw = self.root.get_image(x, y, w, h, self.X.ZPixmap, 0xffffffff)
            array = numpy.frombuffer(raw.data, numpy.uint8).reshape(h, w, 4)[:, :, 2::-1]
        elif self._pil is not None:
            image = self._pil.grab(xdisplay=self.name)
            array = numpy.asarray(image.convert("RGB"))
        else:
            raw = self.root.get_image(0, 0, self.size[0], self.size[1], self.X.ZPixmap, 0xffffffff)
            array = numpy.frombuffer(raw.data, numpy.uint8).reshape(self.size[1], self.size[0], 4)[:, :, 2::-1]
        return (started + time.monotonic()) / 2, array

    # --- input (XTEST) ---
    def keycode(self, name):
        from Xlib import XK
        return self.d.keysym_to_keycode(XK.string_to_keysym(name))

    def key(self, name):
        """Presses and releases a key; returns the time of the press."""
        return self.press_code(self.keycode(name))

    def map_characters(self, characters):
        """Binds each of `characters` (those no key of the keyboard types, such as Cyrillic letters) to a spare
        keycode, as a keyboard layout that has them would, so that `press_code` types them with one XTEST press; a
        remapping at each key (xdotool's) changes the keyboard at the server and every client between two keys.
        Returns {character: keycode}; `unmap_characters` gives the keycodes back."""
        info = self.d.display.info
        first, count = info.min_keycode, info.max_keycode - info.min_keycode + 1
        mapping = self.d.get_keyboard_mapping(first, count)
        spare = [first + index for index, keysyms in enumerate(mapping) if not any(keysyms)]
        if len(spare) < len(characters):
            raise RuntimeError("the keyboard has %d spare keycodes, not %d" % (len(spare), len(characters)))
        width = len(mapping[0])
        codes = {}
        for character, code in zip(characters, spare):
            # A Unicode keysym: what X and GTK read as the character itself.
            self.d.change_keyboard_mapping(code, [(0x01000000 | ord(character),) * width])
            codes[character] = code
        self.d.sync()
        self._mapped = getattr(self, "_mapped", []) + [(code, width) for code in codes.values()]
        return codes

    def unmap_characters(self):
        for code, width in getattr(self, "_mapped", []):
            self.d.change_keyboard_mapping(code, [(0,) * width])
        self._mapped = []
        self.d.sync()

    def press_code(self, code):
        """Presses and releases keycode `code`; returns the time of the press."""
        from Xlib.ext import xtest
        at = time.monotonic()
        xtest.fake_input(self.d, self.X.KeyPress, code)
        self.d.sync()
        xtest.fake_input(self.d, self.X.KeyRelease, code)
        self.d.sync()
        return at

    def keys(self, name, count, interval):
        """count presses interval seconds apart (from press to press); returns their times."""
        times = []
        start = time.monotonic()
        for i in range(count):
            delay = start + i * interval - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            times.append(self.key(name))
        return times

    def button(self, press, button=1):
        from Xlib.ext import xtest
        at = time.monotonic()
        xtest.fake_input(self.d, self.X.ButtonPress if press else self.X.ButtonRelease, button)
        self.d.sync()
        return at

    # --- windows ---
    def windows_of(self, pid):
        """Top-level windows (ids) whose _NET_WM_PID is pid and that are mapped."""
        atom = self.d.intern_atom("_NET_WM_PID")
        found = []
        try:
            children = self.root.query_tree().children
        except Exception:
            return found
        for window in children:
            try:
                prop = window.get_full_property(atom, self.X.AnyPropertyType)
                if prop and prop.value and int(prop.value[0]) == pid \
                        and window.get_attributes().map_state == self.X.IsViewable:
                    found.append(window)
            except Exception:
                continue
        return found

    def place(self, window, x, y, width, height):
        window.configure(x=x, y=y, width=width, height=height)
        self.d.sync()

    def focus(self, window):
        window.set_input_focus(self.X.RevertToParent, self.X.CurrentTime)
        self.d.sync()

    # --- painted ---
    def wait_painted(self, area, since, timeout, hold=0.5, interval=0.05, cpu=None, what="the screen",
                     min_detail=0.25, artifacts=None, on_frame=None, quiet_after=None, pictures_in=None, inset=10):
        """Waits until `area` (x, y, w, h) holds still for `hold` s with pictures everywhere in it. Only the area
        is compared: GTK's overlay scrollbar beside it fades out for about 0.85 s after every scroll in both apps,
        and a status bar's text is no picture. pictures_in() : the rectangle whose part in the area must show
        pictures everywhere (the gallery beside a sidebar), or None while it cannot be told, asked each time the
        area has held still; its background is sampled `inset` px in from its left edge (`pictures_everywhere`).
        Returns a dict: t (first frame of the still run, seconds after `since`), frame (the array), cpu (cpu()
        at that frame, if given), frames (how many were grabbed). Raises TimeoutError with a clear message (and
        the last frame saved under `artifacts`) after `timeout` s. quiet_after() (a time, or None) : the still
        run must also last `hold` s past it (the last key sent), so an app that has not yet reacted does not count
        as painted."""
        deadline = time.monotonic() + timeout
        previous = None
        first_t, first_cpu = None, None
        count = 0
        last_check = None
        checked = area
        while True:
            next_at = time.monotonic() + interval
            t, frame = self.grab()
            sample = cpu() if cpu else None
            count += 1
            if on_frame:
                on_frame(t, frame)
            x, y, w, h = area
            content = frame[y:y + h, x:x + w]
            if previous is None or not numpy.array_equal(content, previous[y:y + h, x:x + w]):
                previous = frame
                first_t, first_cpu = t, sample
                last_check = None
            elif t - max(first_t, (quiet_after() if quiet_after else None) or first_t) >= hold:
                if last_check is None:
                    checked = overlap(pictures_in(), area) if pictures_in else area
                    last_check = pictures_everywhere(frame, checked, min_detail, inset) if checked else \
                        (False, "no gallery on screen to look at")
                if last_check[0]:
                    return {"t": first_t - since, "frame": frame, "cpu": first_cpu, "frames": count}
            if time.monotonic() > deadline:
                path = None
                if artifacts:
                    os.makedirs(artifacts, exist_ok=True)
                    path = os.path.join(artifacts, "timeout-%d.png" % int(time.time() * 1000))
                    from PIL import Image
                    Image.fromarray(previous).save(path)
                check = pictures_everywhere(previous, checked, min_detail, inset) if checked else \
                    (False, "no gallery on screen to look at")
                raise TimeoutError("%s not painted within %.0f s (still for %.2f s; %s)%s"
                                   % (what, timeout, t - first_t, check[1],
                                      "; last frame: %s" % path if path else ""))
            delay = next_at - time.monotonic()
            if delay > 0:
                time.sleep(delay)


def overlap(inner, area):
    """The part of rectangle `inner` (x, y, w, h) inside `area`, or None when there is none (or no `inner`)."""
    if inner is None:
        return None
    left, top = max(inner[0], area[0]), max(inner[1], area[1])
    right = min(inner[0] + inner[2], area[0] + area[2])
    bottom = min(inner[1] + inner[3], area[1] + area[3])
    return (left, top, right - left, bottom - top) if right - left >= BLOCK and bottom - top >= BLOCK else None


def block_stats(frame, area):
    """(flat mask, block mean colours) over the 16x16 blocks of area."""
    x, y, w, h = area
    w, h = (w // BLOCK) * BLOCK, (h // BLOCK) * BLOCK
    region = frame[y:y + h, x:x + w].astype(numpy.float32)
    blocks = region.reshape(h // BLOCK, BLOCK, w // BLOCK, BLOCK, 3)
    std = blocks.std(axis=(1, 3))
    mean = blocks.mean(axis=(1, 3))
    flat = (std < FLAT_STD).all(axis=2)
    return flat, mean


def background_of(frame, area, inset=10):
    """The colour `inset` px in from the area's left edge, halfway down: the margin left of the first column, in
    both apps' grids (10 px: past the window's light border, which is 2 px wide at scale 2; a gallery's own edge
    has no border, and its margin is 8 px wide at scale 1)."""
    x, y, _, h = area
    return frame[y + h // 2, x + inset].astype(numpy.float32)


def pictures_everywhere(frame, area, min_detail=0.25, inset=10):
    """(ok, reason): see the module's docstring."""
    flat, mean = block_stats(frame, area)
    background = background_of(frame, area, inset)
    off = flat & (numpy.abs(mean - background).max(axis=2) > 6)
    detail = 1 - flat.mean()
    if off.sum() > 0:
        return False, "%d flat blocks not of the background's colour (placeholders?), %.0f%% detailed" \
            % (off.sum(), 100 * detail)
    if detail < min_detail:
        return False, "only %.0f%% of the area is detailed" % (100 * detail)
    return True, "%.0f%% detailed" % (100 * detail)


def flat_grey_blocks(frame, area, tolerance=6):
    """Flat blocks, not of the background's colour, that are grey (the channels within `tolerance`): placeholder
    tiles, not the accent-tinted drop gap."""
    flat, mean = block_stats(frame, area)
    background = background_of(frame, area)
    off = flat & (numpy.abs(mean - background).max(axis=2) > 6)
    grey = (mean.max(axis=2) - mean.min(axis=2)) <= tolerance
    return int((off & grey).sum())


def neighbour_step(array):
    """The sharpness measure: the mean absolute difference between horizontally and vertically neighbouring
    pixels, over R, G and B (0..255): all horizontal pairs and all vertical pairs of the region, averaged together."""
    a = array.astype(numpy.int16)
    horizontal = numpy.abs(a[:, 1:] - a[:, :-1])
    vertical = numpy.abs(a[1:, :] - a[:-1, :])
    return float((horizontal.sum() + vertical.sum()) / (horizontal.size + vertical.size))
