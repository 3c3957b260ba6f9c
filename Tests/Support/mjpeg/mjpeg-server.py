#!/usr/bin/python3
"""A stand-in HTTP MJPEG camera for rec's tests: multipart/x-mixed-replace JPEGs, as cameras serve them.

Run with Debian's /usr/bin/python3 (standard library only). It listens on 127.0.0.1 and prints one line,
`READY http://127.0.0.1:PORT/cam.mjpg`, on stdout once it accepts connections; errors go to stderr.

Options:
  --folder DIR   the JPEGs, 00000.jpg, 00001.jpg, ... (made by the test from the stand-in picture, so each
                 carries its frame counter: rtsp-server.py's header); served in order, from the first, to
                 every client, and again from the first after the last
  --fps N        pictures a second (default 15), paced on the monotonic clock from the client's connection:
                 picture n leaves at n / N s (a multipart stream carries no times; the client times it)
  --port N       the port (0, the default, picks a free one)
  --parent PID   exit when process PID exits (the test that started us)
"""

import argparse
import http.server
import os
import select
import sys
import threading
import time

BOUNDARY = "standinframe"


def main():
    parser = argparse.ArgumentParser(description="HTTP MJPEG test server for rec's tests.")
    parser.add_argument("--folder", required=True)
    parser.add_argument("--fps", type=float, default=15)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--parent", type=int)
    args = parser.parse_args()
    names = sorted(name for name in os.listdir(args.folder) if name.endswith(".jpg"))
    if not names:
        print(f"mjpeg-server: no JPEGs in {args.folder}", file=sys.stderr)
        return 1
    pictures = []
    for name in names:
        with open(os.path.join(args.folder, name), "rb") as file:
            pictures.append(file.read())

    class Camera(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.0"

        def do_GET(self):
            if self.path != "/cam.mjpg":
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Type", f"multipart/x-mixed-replace; boundary={BOUNDARY}")
            self.send_header("Cache-Control", "no-cache")
            self.end_headers()
            start, n = time.monotonic(), 0
            try:
                while True:
                    picture = pictures[n % len(pictures)]
                    self.wfile.write(f"--{BOUNDARY}\r\nContent-Type: image/jpeg\r\nContent-Length: {len(picture)}\r\n\r\n"
                                     .encode() + picture + b"\r\n")
                    self.wfile.flush()
                    n += 1
                    left = start + n / args.fps - time.monotonic()
                    if left > 0:
                        time.sleep(left)   # the camera's pace, not a wait for anything
            except (BrokenPipeError, ConnectionResetError):
                pass

        def log_message(self, *_):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", args.port), Camera)
    server.daemon_threads = True
    if args.parent:
        def watch():
            try:
                parent = os.pidfd_open(args.parent)
                select.select([parent], [], [])
            except ProcessLookupError:
                pass
            os._exit(0)
        threading.Thread(target=watch, daemon=True).start()
    print(f"READY http://127.0.0.1:{server.server_address[1]}/cam.mjpg", flush=True)
    server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
