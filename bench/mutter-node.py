#!/usr/bin/python3
"""Asks mutter (its own org.gnome.Mutter.ScreenCast D-Bus API, no portal) to cast its first
monitor with the cursor hidden, prints the PipeWire node id, and keeps the cast until its standard
input closes. For bench/wayland-screen.sh: another program reads the same kind of node rec gets
through the portal.
"""
import sys

import dbus
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

SC = "org.gnome.Mutter.ScreenCast"
DBusGMainLoop(set_as_default=True)
bus = dbus.SessionBus()
screencast = dbus.Interface(bus.get_object(SC, "/org/gnome/Mutter/ScreenCast"), SC)
session_path = screencast.CreateSession(dbus.Dictionary({}, signature="sv"))
session = dbus.Interface(bus.get_object(SC, session_path), SC + ".Session")
config = dbus.Interface(bus.get_object("org.gnome.Mutter.DisplayConfig", "/org/gnome/Mutter/DisplayConfig"),
                        "org.gnome.Mutter.DisplayConfig")
connector = str(config.GetCurrentState()[1][0][0][0])
stream = session.RecordMonitor(connector, dbus.Dictionary({"cursor-mode": dbus.UInt32(0)}, signature="sv"))
loop = GLib.MainLoop()


def added(node):
    print(int(node), flush=True)


bus.add_signal_receiver(added, "PipeWireStreamAdded", SC + ".Stream", SC, stream)
GLib.io_add_watch(GLib.IOChannel.unix_new(sys.stdin.fileno()), GLib.PRIORITY_DEFAULT, GLib.IO_HUP | GLib.IO_IN,
                  lambda *_: (loop.quit(), False)[1])
session.Start()
loop.run()
session.Stop()
