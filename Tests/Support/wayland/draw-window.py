#!/usr/bin/python3
"""A Wayland client (GTK 3) that draws something known on mutter's virtual monitor: a background
colour and one solid rectangle, fullscreen by default, so every pixel's colour is known.

Wayland clients cannot place their own windows, so "a window that moves" is the rectangle
drawn at a new place inside a fullscreen surface (the pixels a test checks are the same).

  draw-window.py [--bg RRGGBB] [--fg RRGGBB] [--rect X,Y,W,H] [--no-fullscreen --size WxH]
                 [--move DX,DY,SECONDS] [--tick SECONDS]
  Standard input, one command a line:  rect X Y W H | bg RRGGBB | fg RRGGBB | resize W H | quit
  --move: moves the rectangle by DX,DY every SECONDS (wrapping at the edges).
  --tick: redraws (same picture) every SECONDS, so the compositor has damage to send.
Prints "mapped WxH" once the window is shown at its size, and "drawn ..." after each change.
Needs WAYLAND_DISPLAY (GDK_BACKEND=wayland is forced).
"""
import argparse
import os
import sys

os.environ["GDK_BACKEND"] = "wayland"
import gi

gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk  # noqa: E402


def colour(hexa):
    v = int(hexa, 16)
    return ((v >> 16) & 255) / 255, ((v >> 8) & 255) / 255, (v & 255) / 255


class Drawing:
    def __init__(self, args):
        self.bg = colour(args.bg)
        self.fg = colour(args.fg)
        self.rect = [int(v) for v in args.rect.split(",")]
        self.window = Gtk.Window(title="rectest-draw")
        self.window.set_app_paintable(True)
        self.window.connect("draw", self.draw)
        self.window.connect("destroy", Gtk.main_quit)
        self.window.connect("configure-event", self.configured)
        self.size = None
        if args.no_fullscreen:
            w, h = (int(v) for v in args.size.split("x"))
            self.window.set_default_size(w, h)
            self.window.set_decorated(False)
        else:
            self.window.fullscreen()
        self.window.show_all()
        if args.move:
            dx, dy, secs = args.move.split(",")
            self.step = (int(dx), int(dy))
            GLib.timeout_add(int(float(secs) * 1000), self.move)
        if args.tick:
            GLib.timeout_add(int(args.tick * 1000), self.tick)
        GLib.io_add_watch(GLib.IOChannel.unix_new(sys.stdin.fileno()), GLib.PRIORITY_DEFAULT,
                          GLib.IO_IN | GLib.IO_HUP, self.command)

    def configured(self, widget, event):
        size = (event.width, event.height)
        if size != self.size:
            self.size = size
            print("mapped %dx%d" % size, flush=True)
        return False

    def draw(self, widget, cr):
        cr.set_source_rgb(*self.bg)
        cr.paint()
        x, y, w, h = self.rect
        cr.set_source_rgb(*self.fg)
        cr.rectangle(x, y, w, h)
        cr.fill()
        return True

    def redraw(self, what):
        self.window.queue_draw()
        print("drawn", what, flush=True)

    def move(self):
        x, y, w, h = self.rect
        W, H = self.size or (640, 480)
        self.rect = [(x + self.step[0]) % max(1, W - w), (y + self.step[1]) % max(1, H - h), w, h]
        self.redraw("rect %d %d %d %d" % tuple(self.rect))
        return True

    def tick(self):
        self.window.queue_draw()
        return True

    def command(self, channel, condition):
        line = sys.stdin.readline()
        if not line:
            return False        # stdin closed: keep drawing
        words = line.split()
        if not words:
            return True
        if words[0] == "quit":
            Gtk.main_quit()
        elif words[0] == "rect" and len(words) == 5:
            self.rect = [int(v) for v in words[1:]]
            self.redraw(line.strip())
        elif words[0] == "resize" and len(words) == 3:
            self.window.resize(int(words[1]), int(words[2]))
            print("resizing", words[1], words[2], flush=True)
        elif words[0] in ("bg", "fg") and len(words) == 2:
            setattr(self, words[0], colour(words[1]))
            self.redraw(line.strip())
        return True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bg", default="000080")
    ap.add_argument("--fg", default="ff0000")
    ap.add_argument("--rect", default="100,100,80,60")
    ap.add_argument("--no-fullscreen", action="store_true")
    ap.add_argument("--size", default="200x150")
    ap.add_argument("--move")
    ap.add_argument("--tick", type=float)
    args = ap.parse_args()
    Drawing(args)
    Gtk.main()


if __name__ == "__main__":
    main()
