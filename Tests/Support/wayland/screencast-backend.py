#!/usr/bin/python3
"""A ScreenCast portal backend for tests: org.freedesktop.impl.portal.ScreenCast (version 4) on
the session bus as org.freedesktop.impl.portal.desktop.rectest, answering the real
xdg-desktop-portal frontend as a backend must, with no dialog, and handing out REAL PipeWire
nodes made by mutter through its own org.gnome.Mutter.ScreenCast D-Bus API.

Sources: monitor (1) -> Session.RecordMonitor(connector of the first monitor), virtual (4) ->
Session.RecordVirtual (a new virtual monitor whose size follows the consumer's negotiation),
window (2) -> Session.RecordWindow: with no 'window-id' mutter 43 records the FOCUSED window
(plain mutter has no window list on D-Bus); REC_WL_WINDOW_ID=N passes 'window-id' N instead.
Cursor modes: portal 1 hidden / 2 embedded / 4 metadata -> mutter 'cursor-mode' 0 / 1 / 2.
Restore: Start answers persist_mode and restore_data ("rectest", 1, {source: <s>, connector: <s>});
SelectSources with restore_data of that shape skips the "selection" (logged as RESTORED, else
SELECTED), so a test can tell whether a new selection was made.

Control interface for tests (same name, path /org/freedesktop/portal/desktop,
interface org.freedesktop.impl.portal.desktop.rectest.Control):
  SetNextResponse(u)      next Start answers this response (1 cancelled, 2 other) instead of 0
  RefuseRestore(b)        ignore any restore_data (a token the backend refuses)
  CloseSessions()         emit Session.Closed for every portal session and stop mutter's
  Events() -> as          what happened so far (also printed to stdout, one line each)
Environment: REC_WL_SOURCE_TYPES (default 7 = monitor|window|virtual),
REC_WL_CURSOR_MODES (default 7), REC_WL_ANIMATIONS=1 (keep mutter's animations; default off).
"""
import os
import sys
import time

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

NAME = "org.freedesktop.impl.portal.desktop.rectest"
PATH = "/org/freedesktop/portal/desktop"
IMPL = "org.freedesktop.impl.portal.ScreenCast"
CONTROL = NAME + ".Control"
PROPS = "org.freedesktop.DBus.Properties"
MUTTER = "org.gnome.Mutter.ScreenCast"
MUTTER_PATH = "/org/gnome/Mutter/ScreenCast"
VENDOR = "rectest"

CURSOR_TO_MUTTER = {1: 0, 2: 1, 4: 2}
WINDOW_ID = os.environ.get("REC_WL_WINDOW_ID")
SOURCE_TYPES = int(os.environ.get("REC_WL_SOURCE_TYPES", "7"))
CURSOR_MODES = int(os.environ.get("REC_WL_CURSOR_MODES", "7"))
# Mutter's ScreenCast CreateSession 'disable-animations' (asked for; a window mapped just before
# the session still fades in over ~150 ms: wait ~0.3 s after it is mapped).
DISABLE_ANIMATIONS = os.environ.get("REC_WL_ANIMATIONS", "0") != "1"

events = []
T0 = time.monotonic()


def log(*words):
    line = "%.3f %s" % (time.monotonic() - T0, " ".join(str(w) for w in words))
    events.append(line)
    print(line, flush=True)


def plain(value):
    """dbus-python values to plain Python, for logging."""
    if isinstance(value, (dbus.Dictionary, dict)):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (dbus.Array, dbus.Struct, list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dbus.Boolean):
        return bool(value)
    if isinstance(value, (dbus.String, dbus.ObjectPath)):
        return str(value)
    if isinstance(value, (int, dbus.UInt32, dbus.Int32, dbus.UInt64)):
        return int(value)
    return value


class Request(dbus.service.Object):
    """org.freedesktop.impl.portal.Request at the handle the frontend gives: Close cancels."""

    def __init__(self, bus, handle):
        super().__init__(bus, handle)
        self.closed = False

    @dbus.service.method("org.freedesktop.impl.portal.Request", in_signature="", out_signature="")
    def Close(self):
        log("REQUEST-CLOSE", self.__dbus_object_path__)
        self.closed = True
        self.done()

    def done(self):
        try:
            self.remove_from_connection()
        except LookupError:
            pass


class Session(dbus.service.Object):
    """org.freedesktop.impl.portal.Session: Close from the frontend; Closed when mutter ends it."""

    def __init__(self, backend, handle, app_id):
        super().__init__(backend.bus, handle)
        self.backend = backend
        self.handle = str(handle)
        self.app_id = app_id
        self.types = 1
        self.cursor = None
        self.persist = 0
        self.choice = None          # {"source": "monitor"|"virtual"|"window", "connector": ...}
        self.mutter = None          # mutter's session path
        self.streams = []
        self.signals = []
        self.open = True

    @dbus.service.method("org.freedesktop.impl.portal.Session", in_signature="", out_signature="")
    def Close(self):
        log("SESSION-CLOSE", self.handle)
        self.end(emit=False)

    @dbus.service.signal("org.freedesktop.impl.portal.Session", signature="")
    def Closed(self):
        pass

    @dbus.service.method(PROPS, in_signature="ss", out_signature="v")
    def Get(self, interface, prop):
        return self.GetAll(interface)[prop]

    @dbus.service.method(PROPS, in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        return {"version": dbus.UInt32(1)}

    def end(self, emit):
        if not self.open:
            return
        self.open = False
        for s in self.signals:
            s.remove()
        self.signals = []
        if self.mutter:
            try:
                self.backend.mutter_session(self.mutter).Stop()
            except dbus.DBusException as e:
                log("mutter Stop failed:", e.get_dbus_name())
        if emit:
            log("SESSION-CLOSED-SIGNAL", self.handle)
            self.Closed()
        self.backend.sessions.pop(self.handle, None)
        try:
            self.remove_from_connection()
        except LookupError:
            pass


class Backend(dbus.service.Object):
    def __init__(self, bus):
        super().__init__(bus, PATH)
        self.bus = bus
        self.sessions = {}
        self.next_response = 0
        self.refuse_restore = False

    def mutter_session(self, path):
        return dbus.Interface(self.bus.get_object(MUTTER, path), MUTTER + ".Session")

    # --- properties -------------------------------------------------------------------------
    @dbus.service.method(PROPS, in_signature="ss", out_signature="v")
    def Get(self, interface, prop):
        return self.GetAll(interface)[prop]

    @dbus.service.method(PROPS, in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        if interface != IMPL:
            return {}
        return {"AvailableSourceTypes": dbus.UInt32(SOURCE_TYPES),
                "AvailableCursorModes": dbus.UInt32(CURSOR_MODES),
                "version": dbus.UInt32(4)}

    @dbus.service.method(PROPS, in_signature="ssv", out_signature="")
    def Set(self, interface, prop, value):
        raise dbus.DBusException("read only", name="org.freedesktop.DBus.Error.PropertyReadOnly")

    # --- the portal -------------------------------------------------------------------------
    @dbus.service.method(IMPL, in_signature="oosa{sv}", out_signature="ua{sv}")
    def CreateSession(self, handle, session_handle, app_id, options):
        log("CreateSession", session_handle, "app_id=%r" % str(app_id), plain(options))
        self.sessions[str(session_handle)] = Session(self, session_handle, str(app_id))
        return dbus.UInt32(0), dbus.Dictionary({"session_id": dbus.String(str(session_handle))}, signature="sv")

    @dbus.service.method(IMPL, in_signature="oosa{sv}", out_signature="ua{sv}")
    def SelectSources(self, handle, session_handle, app_id, options):
        log("SelectSources", session_handle, plain(options))
        session = self.sessions.get(str(session_handle))
        if session is None:
            return dbus.UInt32(2), dbus.Dictionary({}, signature="sv")
        session.types = int(options.get("types", 1))
        if "cursor_mode" in options:
            session.cursor = int(options["cursor_mode"])
        session.persist = int(options.get("persist_mode", 0))
        restore = options.get("restore_data")
        session.choice = None
        if restore is not None and not self.refuse_restore:
            vendor, version, data = restore
            if str(vendor) == VENDOR and int(version) == 1 and "source" in data:
                session.choice = {str(k): str(v) for k, v in data.items()}
                log("RESTORED", session.choice)
        if session.choice is None:
            # What a dialog would ask: the first offered type that was asked for.
            if session.types & 1:
                session.choice = {"source": "monitor", "connector": self.first_connector()}
            elif session.types & 4:
                session.choice = {"source": "virtual"}
            elif session.types & 2:
                session.choice = {"source": "window", "window": WINDOW_ID or ""}
            else:
                return dbus.UInt32(2), dbus.Dictionary({}, signature="sv")
            log("SELECTED", session.choice, "restore_data was", "refused" if restore is not None else "absent")
        return dbus.UInt32(0), dbus.Dictionary({}, signature="sv")

    def first_connector(self):
        dc = dbus.Interface(self.bus.get_object("org.gnome.Mutter.DisplayConfig", "/org/gnome/Mutter/DisplayConfig"),
                            "org.gnome.Mutter.DisplayConfig")
        serial, monitors, logical, props = dc.GetCurrentState()
        return str(monitors[0][0][0])

    @dbus.service.method(IMPL, in_signature="oossa{sv}", out_signature="ua{sv}",
                         async_callbacks=("reply", "error"))
    def Start(self, handle, session_handle, app_id, parent_window, options, reply, error):
        log("Start", session_handle, "parent=%r" % str(parent_window), plain(options))
        session = self.sessions.get(str(session_handle))
        empty = dbus.Dictionary({}, signature="sv")
        if self.next_response:
            code, self.next_response = self.next_response, 0
            log("Start answers", code)
            reply(dbus.UInt32(code), empty)
            return
        if session is None or session.choice is None:
            reply(dbus.UInt32(2), empty)
            return
        request = Request(self.bus, handle)
        t_start = time.monotonic()
        try:
            sc = dbus.Interface(self.bus.get_object(MUTTER, MUTTER_PATH), MUTTER)
            session.mutter = str(sc.CreateSession(dbus.Dictionary(
                {"disable-animations": dbus.Boolean(DISABLE_ANIMATIONS)}, signature="sv")))
            ms = self.mutter_session(session.mutter)
            props = {}
            if session.cursor is not None:
                props["cursor-mode"] = dbus.UInt32(CURSOR_TO_MUTTER[session.cursor])
            choice = session.choice
            if choice["source"] == "monitor":
                stream = str(ms.RecordMonitor(choice["connector"], dbus.Dictionary(props, signature="sv")))
                source_type = 1
            elif choice["source"] == "virtual":
                props["is-platform"] = dbus.Boolean(False)
                stream = str(ms.RecordVirtual(dbus.Dictionary(props, signature="sv")))
                source_type = 4
            else:
                if choice.get("window"):
                    props["window-id"] = dbus.UInt64(int(choice["window"]))
                stream = str(ms.RecordWindow(dbus.Dictionary(props, signature="sv")))
                source_type = 2
        except dbus.DBusException as e:
            log("mutter refused:", e.get_dbus_name(), e.get_dbus_message())
            request.done()
            reply(dbus.UInt32(2), empty)
            return
        log("mutter session", session.mutter, "stream", stream, "props", plain(props))

        answered = []

        def on_closed():
            log("mutter session Closed", session.mutter)
            if not answered:
                answered.append(True)
                reply(dbus.UInt32(2), empty)
            session.end(emit=True)

        def on_node(node_id):
            if answered:
                return
            answered.append(True)
            request.done()
            params = {}
            try:
                params = dbus.Interface(self.bus.get_object(MUTTER, stream), PROPS).Get(
                    MUTTER + ".Stream", "Parameters")
            except dbus.DBusException:
                pass
            entry = {"source_type": dbus.UInt32(source_type), "id": dbus.String("0")}
            if "position" in params:
                entry["position"] = dbus.Struct([dbus.Int32(v) for v in params["position"]], signature="ii")
            if "size" in params:
                entry["size"] = dbus.Struct([dbus.Int32(v) for v in params["size"]], signature="ii")
            results = {"streams": dbus.Array([dbus.Struct((dbus.UInt32(node_id), dbus.Dictionary(entry, signature="sv")),
                                                          signature="ua{sv}")], signature="(ua{sv})")}
            if session.persist:
                results["persist_mode"] = dbus.UInt32(session.persist)
                results["restore_data"] = dbus.Struct(
                    (dbus.String(VENDOR), dbus.UInt32(1),
                     dbus.Dictionary(session.choice, signature="ss", variant_level=1)), signature="suv")
            log("PipeWireStreamAdded node", int(node_id), "after %.3fs" % (time.monotonic() - t_start),
                "params", plain(params))
            reply(dbus.UInt32(0), dbus.Dictionary(results, signature="sv"))

        session.signals.append(self.bus.add_signal_receiver(
            on_node, "PipeWireStreamAdded", MUTTER + ".Stream", MUTTER, stream))
        session.signals.append(self.bus.add_signal_receiver(
            on_closed, "Closed", MUTTER + ".Session", MUTTER, session.mutter))
        session.streams.append(stream)
        try:
            ms.Start()
        except dbus.DBusException as e:
            log("mutter Start refused:", e.get_dbus_name(), e.get_dbus_message())
            if not answered:
                answered.append(True)
                request.done()
                reply(dbus.UInt32(2), empty)

    # --- control for tests ------------------------------------------------------------------
    @dbus.service.method(CONTROL, in_signature="u", out_signature="")
    def SetNextResponse(self, code):
        self.next_response = int(code)
        log("control: next Start answers", int(code))

    @dbus.service.method(CONTROL, in_signature="b", out_signature="")
    def RefuseRestore(self, refuse):
        self.refuse_restore = bool(refuse)
        log("control: refuse restore", bool(refuse))

    @dbus.service.method(CONTROL, in_signature="", out_signature="u")
    def CloseSessions(self):
        n = len(self.sessions)
        log("control: closing", n, "sessions")
        for session in list(self.sessions.values()):
            session.end(emit=True)
        return dbus.UInt32(n)

    @dbus.service.method(CONTROL, in_signature="", out_signature="as")
    def Events(self):
        return dbus.Array(events, signature="s")


def main():
    DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    backend = Backend(bus)
    # Mutter leaving the bus (killed): every session is over.
    def owner_changed(name, old, new):
        if name == MUTTER and old and not new:
            log("mutter left the bus; closing", len(backend.sessions), "sessions")
            for session in list(backend.sessions.values()):
                session.mutter = None
                session.end(emit=True)
    bus.add_signal_receiver(owner_changed, "NameOwnerChanged", "org.freedesktop.DBus", "org.freedesktop.DBus",
                            "/org/freedesktop/DBus", arg0=MUTTER)
    name = dbus.service.BusName(NAME, bus, do_not_queue=True)
    log("backend ready as", NAME, "types", SOURCE_TYPES, "cursor modes", CURSOR_MODES)
    GLib.MainLoop().run()


if __name__ == "__main__":
    main()
