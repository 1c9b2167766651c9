"""AT-SPI spoken directly over D-Bus: `A11yBus`, `Node`, role numbers (`ROLE`), and walking a tree.

Why not pyatspi/libatspi: libatspi caches what it has read and updates that cache from events, so a poll can
see stale children; and switching its cache off (Atspi.Accessible.set_cache_mask(Atspi.Cache.NONE)) deadlocks
in at-spi2-core 2.46: an event dispatched while a synchronous call waits for its reply runs a handler that makes
a nested synchronous call, which blocks in dbus_connection_dispatch forever (seen with gdb). This client asks
the application for every value, every time (GDBus, own worker thread, timeouts), and handles no events.
Atspi (gir1.2-atspi-2.0, from python3-pyatspi) is imported for its enums only; it never connects.
"""

from .desktop import current_desktop
from .waiting import HarnessError


_ACCESSIBLE = "org.a11y.atspi.Accessible"
_NULL_PATH = "/org/a11y/atspi/null"
_ROOT_PATH = "/org/a11y/atspi/accessible/root"


class A11yError(HarnessError):
    pass


def _gi():
    import gi
    gi.require_version("Atspi", "2.0")
    from gi.repository import Atspi, Gio, GLib
    return Atspi, Gio, GLib


class Roles:
    """AT-SPI role numbers (AtspiRole), e.g. Roles.FRAME, Roles.IMAGE, Roles.LAYERED_PANE."""

    def __getattr__(self, name):
        Atspi, _, _ = _gi()
        return int(getattr(Atspi.Role, name))

    @staticmethod
    def name(role):
        Atspi, _, _ = _gi()
        return Atspi.role_get_name(Atspi.Role(role))


ROLE = Roles()


class A11yBus:
    """A GDBus connection to the AT-SPI bus."""

    def __init__(self, address, timeout_ms=10000):
        _, Gio, _ = _gi()
        self.address = address
        self.timeout_ms = timeout_ms
        flags = (Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT
                 | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION)
        self.conn = Gio.DBusConnection.new_for_address_sync(address, flags, None, None)

    def call(self, bus_name, path, iface, method, args=None, reply_type=None):
        _, Gio, GLib = _gi()
        try:
            reply = self.conn.call_sync(bus_name, path, iface, method, args,
                                        GLib.VariantType.new(reply_type) if reply_type else None,
                                        Gio.DBusCallFlags.NO_AUTO_START, self.timeout_ms, None)
        except GLib.Error as e:
            raise A11yError("%s.%s on %s%s: %s" % (iface, method, bus_name, path, e.message)) from None
        return reply.unpack()

    def prop(self, bus_name, path, iface, name):
        _, _, GLib = _gi()
        return self.call(bus_name, path, "org.freedesktop.DBus.Properties", "Get",
                         GLib.Variant("(ss)", (iface, name)), "(v)")[0]

    def node(self, bus_name, path):
        return Node(self, bus_name, path)

    def desktop(self):
        return Node(self, "org.a11y.atspi.Registry", _ROOT_PATH)

    def applications(self):
        return self.desktop().children()

    def pid_of(self, bus_name):
        _, _, GLib = _gi()
        return self.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                         "GetConnectionUnixProcessID", GLib.Variant("(s)", (bus_name,)), "(u)")[0]


class Node:
    """One accessible object. Every property access is a D-Bus call (no cache)."""

    def __init__(self, bus, bus_name, path):
        self.bus, self.bus_name, self.path = bus, bus_name, path

    def __eq__(self, other):
        return isinstance(other, Node) and (self.bus_name, self.path) == (other.bus_name, other.path)

    def __hash__(self):
        return hash((self.bus_name, self.path))

    def __repr__(self):
        return "<Node %s%s %s %r>" % (self.bus_name, self.path, _safe(lambda: self.role_name, "?"),
                                      _safe(lambda: self.name, "?"))

    def _call(self, method, args=None, reply_type=None, iface=_ACCESSIBLE):
        return self.bus.call(self.bus_name, self.path, iface, method, args, reply_type)

    @property
    def name(self):
        return self.bus.prop(self.bus_name, self.path, _ACCESSIBLE, "Name")

    @property
    def description(self):
        return self.bus.prop(self.bus_name, self.path, _ACCESSIBLE, "Description")

    @property
    def child_count(self):
        return self.bus.prop(self.bus_name, self.path, _ACCESSIBLE, "ChildCount")

    @property
    def role(self):
        return self._call("GetRole", None, "(u)")[0]

    @property
    def role_name(self):
        return Roles.name(self.role)

    def children(self):
        return [Node(self.bus, b, p) for b, p in self._call("GetChildren", None, "(a(so))")[0]
                if p != _NULL_PATH]

    def child(self, index):
        _, _, GLib = _gi()
        b, p = self._call("GetChildAtIndex", GLib.Variant("(i)", (index,)), "((so))")[0]
        return None if p == _NULL_PATH else Node(self.bus, b, p)

    def parent(self):
        b, p = self.bus.prop(self.bus_name, self.path, _ACCESSIBLE, "Parent")
        return None if p == _NULL_PATH else Node(self.bus, b, p)

    def states(self):
        """The set of AtspiStateType numbers."""
        words = self._call("GetState", None, "(au)")[0]
        return {i * 32 + bit for i, word in enumerate(words) for bit in range(32) if word & (1 << bit)}

    def has_state(self, name):
        Atspi, _, _ = _gi()
        return int(getattr(Atspi.StateType, name)) in self.states()

    def interfaces(self):
        return self._call("GetInterfaces", None, "(as)")[0]

    def attributes(self):
        return self._call("GetAttributes", None, "(a{ss})")[0]

    def extents(self):
        """(x, y, width, height) in screen coordinates (Xvfb has no WM: the same as the root window's)."""
        _, _, GLib = _gi()
        return tuple(self._call("GetExtents", GLib.Variant("(u)", (0,)), "((iiii))",
                                iface="org.a11y.atspi.Component")[0])

    def value(self, name="CurrentValue"):
        """A number of the Value interface (a scroll bar's position: CurrentValue, MaximumValue)."""
        return self.bus.prop(self.bus_name, self.path, "org.a11y.atspi.Value", name)

    def do_action(self, index=0):
        _, _, GLib = _gi()
        return self._call("DoAction", GLib.Variant("(i)", (index,)), "(b)", iface="org.a11y.atspi.Action")[0]

    def text(self):
        """The Text interface's whole text."""
        _, _, GLib = _gi()
        return self._call("GetText", GLib.Variant("(ii)", (0, -1)), "(s)", iface="org.a11y.atspi.Text")[0]

    def process_id(self):
        return self.bus.pid_of(self.bus_name)


_A11Y = None


def a11y():
    """The process's AT-SPI client, on the current Desktop's AT-SPI bus."""
    global _A11Y
    address = current_desktop().a11y_address
    if _A11Y is None or _A11Y.address != address:
        _A11Y = A11yBus(address)
    return _A11Y


def _safe(fn, default=None):
    try:
        return fn()
    except Exception:  # defunct objects, vanished applications, D-Bus timeouts
        return default


def walk(node, max_depth=40, max_children=5000):
    """node and its descendants, depth first; objects that vanish mid-walk are skipped."""
    stack = [(node, 0)]
    while stack:
        current, depth = stack.pop()
        yield current
        if depth >= max_depth:
            continue
        children = _safe(current.children, []) or []
        for child in reversed(children[:max_children]):
            stack.append((child, depth + 1))
