#!/usr/bin/env python3
"""One viewer of the review page (docs/REVIEW.md) without a browser, for bench/review.sh.

Does what the page does, minus decoding and drawing: for every camera, GET /cam/NAME/api/live once,
then holds one GET /api/grid?cams=... open carrying every camera's live stream (REVIEW_STREAMS=each:
one GET /cam/NAME/live.mp4 per camera instead, as the page did before the grid), reading it to nowhere; every 2 s, GET /api/box, then
each camera's /cam/NAME/api/recordings at once (the page's Promise.all) and, when that answers,
its /api/events for the last 5 minutes (those two every third time, 6 s, as the page). Requests carry the watch token in X-Rec-Token. The short
requests go over at most 6 kept-alive connections, as a browser's per-host pool.

Runs for SECONDS, then prints one JSON line: bytes read per stream, the streams' statuses, and
the refresh requests by path kind and status, with the slowest refresh round.

  review-viewer.py URL TOKEN SECONDS NAME...      (URL: http://127.0.0.1:PORT/)

REVIEW_LOAD=streams does only the streams, REVIEW_LOAD=refresh only the refreshes (to tell their
costs apart); the default is both.
"""
import concurrent.futures
import http.client
import json
import socket
import sys
import threading
import time
import os
import urllib.parse

url, token, seconds, names = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4:]
parsed = urllib.parse.urlparse(url)
host, port = parsed.hostname, parsed.port
deadline = time.monotonic() + seconds
lock = threading.Lock()
counts = {}          # "kind status" -> requests
streams = {}         # name -> {"status", "bytes"}
rounds = []          # seconds per refresh round
local = threading.local()


def count(kind, status):
    with lock:
        key = f"{kind} {status}"
        counts[key] = counts.get(key, 0) + 1


def get(path):
    """A short GET over this thread's kept-alive connection; returns (status, body)."""
    for attempt in (0, 1):
        conn = getattr(local, "conn", None)
        if conn is None:
            conn = local.conn = http.client.HTTPConnection(host, port, timeout=30)
        try:
            conn.request("GET", path, headers={"X-Rec-Token": token})
            response = conn.getresponse()
            return response.status, response.read()
        except (http.client.HTTPException, OSError):
            conn.close()
            local.conn = None
            if attempt:
                return 0, b""
    return 0, b""


def stream(name, target=None):
    for n in name.split(","):
        status, _ = get(f"/cam/{n}/api/live")
        count("api/live", status)
    total, code = 0, 0
    try:
        s = socket.create_connection((host, port), timeout=5)
        s.settimeout(1)
        s.sendall(f"GET {target or '/cam/' + name + '/live.mp4'} HTTP/1.1\r\nHost: {host}:{port}\r\nX-Rec-Token: {token}\r\n\r\n".encode())
        head = b""
        buffer = bytearray(256 * 1024)
        while time.monotonic() < deadline:
            try:
                n = s.recv_into(buffer)
            except socket.timeout:
                continue
            if n == 0:
                break
            if not code:
                head += bytes(buffer[:n])
                if b"\r\n\r\n" in head:
                    code = int(head.split(b" ", 2)[1])
                    total += len(head) - head.index(b"\r\n\r\n") - 4
                continue
            total += n
        s.close()
    except OSError as e:
        code = code or f"error {e.errno}"
    with lock:
        streams[name] = {"status": code, "bytes": total}


def camera_refresh(name):
    status, body = get(f"/cam/{name}/api/recordings")
    count("recordings", status)
    if status == 200:
        try:
            started = json.loads(body).get("started_at")
        except ValueError:
            started = None
        if started:
            b = time.time() - started
            status, _ = get(f"/cam/{name}/api/events?from={max(0, b - 300):.3f}&to={b:.3f}&levels=1")
            count("events", status)


def refresher():
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=6)
    while time.monotonic() < deadline - 0.5:
        start = time.monotonic()
        status, body = get("/api/box")
        count("box", status)
        live = names
        if status == 200:
            live = [c["name"] for c in json.loads(body)["cameras"] if c.get("live") and c["name"] in names]
        # Recordings and motion every third round (6 s), as the page asks for them.
        if len(rounds) % 3 == 0:
            list(pool.map(camera_refresh, live))
        rounds.append(time.monotonic() - start)
        time.sleep(max(0, start + 2 - time.monotonic()))
    pool.shutdown()


load = os.environ.get("REVIEW_LOAD", "all")
each = os.environ.get("REVIEW_STREAMS", "grid") == "each"
streamers = [threading.Thread(target=stream, args=(n,)) for n in names] if each \
    else [threading.Thread(target=stream, args=(",".join(names), "/api/grid?cams=" + ",".join(names)))]
threads = (streamers if load != "refresh" else []) \
    + ([threading.Thread(target=refresher)] if load != "streams" else [])
for t in threads:
    t.start()
for t in threads:
    t.join()
print(json.dumps({"streams": streams, "requests": counts,
                  "refresh_rounds": len(rounds), "slowest_round_s": round(max(rounds, default=0), 3)}))
