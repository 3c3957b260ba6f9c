#!/usr/bin/python3
"""Moves mutter's pointer to known places, so a screen cast shows (or carries as metadata) a
cursor: a headless mutter has no input devices and shows no cursor until a virtual pointer moves.

Uses mutter's own org.gnome.Mutter.RemoteDesktop: a remote-desktop session with a screen-cast
session tied to it (RecordMonitor of the first monitor, which NotifyPointerMotionAbsolute needs
to map coordinates), started, then absolute motions.

  pointer.py X,Y [X,Y ...] [--every SECONDS] [--hold SECONDS]
Moves to each point in turn (every SECONDS, default 1), then keeps the session (and the
virtual pointer) for --hold seconds (default: until killed). Prints "pointer X Y" after each.
"""
import argparse
import sys
import time

import dbus
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

RD = "org.gnome.Mutter.RemoteDesktop"
SC = "org.gnome.Mutter.ScreenCast"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("points", nargs="+")
    ap.add_argument("--every", type=float, default=1.0)
    ap.add_argument("--hold", type=float)
    args = ap.parse_args()
    points = [tuple(float(v) for v in p.split(",")) for p in args.points]

    DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    rd = dbus.Interface(bus.get_object(RD, "/org/gnome/Mutter/RemoteDesktop"), RD)
    rd_path = rd.CreateSession()
    rd_obj = bus.get_object(RD, rd_path)
    rd_session = dbus.Interface(rd_obj, RD + ".Session")
    session_id = dbus.Interface(rd_obj, "org.freedesktop.DBus.Properties").Get(RD + ".Session", "SessionId")
    sc = dbus.Interface(bus.get_object(SC, "/org/gnome/Mutter/ScreenCast"), SC)
    sc_path = sc.CreateSession(dbus.Dictionary({"remote-desktop-session-id": session_id}, signature="sv"))
    dc = dbus.Interface(bus.get_object("org.gnome.Mutter.DisplayConfig", "/org/gnome/Mutter/DisplayConfig"),
                        "org.gnome.Mutter.DisplayConfig")
    connector = str(dc.GetCurrentState()[1][0][0][0])
    stream = dbus.Interface(bus.get_object(SC, sc_path), SC + ".Session").RecordMonitor(
        connector, dbus.Dictionary({}, signature="sv"))
    loop = GLib.MainLoop()
    ready = []

    def added(node):
        ready.append(int(node))
        loop.quit()

    bus.add_signal_receiver(added, "PipeWireStreamAdded", SC + ".Stream", SC, stream)
    bus.add_signal_receiver(lambda: (print("remote desktop session closed", flush=True), sys.exit(1)),
                            "Closed", RD + ".Session", RD, rd_path)
    rd_session.Start()
    GLib.timeout_add(5000, loop.quit)
    loop.run()
    if not ready:
        print("pointer: no stream within 5 s", flush=True)
        return 1
    todo = list(points)

    def step():
        x, y = todo.pop(0)
        rd_session.NotifyPointerMotionAbsolute(stream, dbus.Double(x), dbus.Double(y))
        print("pointer %g %g" % (x, y), flush=True)
        if not todo:
            if args.hold is not None:
                GLib.timeout_add(int(args.hold * 1000), loop.quit)
            return False
        return True

    step()
    if todo:
        GLib.timeout_add(int(args.every * 1000), step)
    loop.run()
    rd_session.Stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
