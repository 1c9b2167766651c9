"""`XSettings`: an XSETTINGS manager on the test's display, as a desktop's settings daemon is: GTK applications on X11
take their font and theme from it, and take a change while they run. Over ctypes and libX11 (no python-xlib)."""

import ctypes
import struct

_x11 = ctypes.CDLL("libX11.so.6")
_x11.XOpenDisplay.restype = ctypes.c_void_p
_x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
_x11.XDefaultRootWindow.restype = ctypes.c_ulong
_x11.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
_x11.XCreateSimpleWindow.restype = ctypes.c_ulong
_x11.XCreateSimpleWindow.argtypes = [ctypes.c_void_p, ctypes.c_ulong] + [ctypes.c_int] * 2 + [ctypes.c_uint] * 3 + \
    [ctypes.c_ulong] * 2
_x11.XInternAtom.restype = ctypes.c_ulong
_x11.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
_x11.XSetSelectionOwner.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
_x11.XChangeProperty.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_int,
                                 ctypes.c_int, ctypes.c_char_p, ctypes.c_int]
_x11.XSendEvent.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_long, ctypes.c_void_p]
_x11.XFlush.argtypes = [ctypes.c_void_p]
_x11.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
_x11.XCloseDisplay.argtypes = [ctypes.c_void_p]

_CLIENT_MESSAGE = 33
_STRUCTURE_NOTIFY_MASK = 1 << 17
_PROP_MODE_REPLACE = 0


class _ClientMessage(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                ("display", ctypes.c_void_p), ("window", ctypes.c_ulong), ("message_type", ctypes.c_ulong),
                ("format", ctypes.c_int), ("data", ctypes.c_long * 5), ("pad", ctypes.c_long * 12)]


def _padded(data):
    return data + b"\0" * (-len(data) % 4)


class XSettings:
    """Owns the display's XSETTINGS selection (screen 0) with string settings ({"Gtk/FontName": "Sans 20"});
    set() changes them for every client at once. close() gives the selection up."""

    def __init__(self, display, settings):
        self._display = _x11.XOpenDisplay(display.encode())
        if not self._display:
            raise OSError("cannot open display %s" % display)
        root = _x11.XDefaultRootWindow(self._display)
        self._window = _x11.XCreateSimpleWindow(self._display, root, 0, 0, 1, 1, 0, 0, 0)
        self._property = _x11.XInternAtom(self._display, b"_XSETTINGS_SETTINGS", 0)
        selection = _x11.XInternAtom(self._display, b"_XSETTINGS_S0", 0)
        self._serial = 0
        self.set(settings)
        _x11.XSetSelectionOwner(self._display, selection, self._window, 0)
        # Clients started before the manager learn of it from this message on the root window.
        event = _ClientMessage(type=_CLIENT_MESSAGE, send_event=1, window=root, format=32,
                               message_type=_x11.XInternAtom(self._display, b"MANAGER", 0))
        event.data[:] = [0, selection, self._window, 0, 0]
        _x11.XSendEvent(self._display, root, 0, _STRUCTURE_NOTIFY_MASK, ctypes.byref(event))
        _x11.XSync(self._display, 0)

    def set(self, settings):
        self._serial += 1
        body = b""
        for name, value in settings.items():
            name, value = name.encode(), value.encode()
            body += struct.pack("<BxH", 1, len(name)) + _padded(name) + struct.pack("<II", self._serial, len(value))
            body += _padded(value)
        data = struct.pack("<BxxxII", 0, self._serial, len(settings)) + body
        _x11.XChangeProperty(self._display, self._window, self._property, self._property, 8, _PROP_MODE_REPLACE,
                             data, len(data))
        _x11.XSync(self._display, 0)

    def close(self):
        if self._display:
            _x11.XCloseDisplay(self._display)
            self._display = None
