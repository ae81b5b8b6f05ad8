#!/usr/bin/env python3
"""Stand-in for burstd in the plugin's integration tests.

Listens on a UNIX socket like burstd and appends every line the plugin sends
to LOG (one JSON document per line, as received), preceded by a line
{"listener": "connect", "n": N} for every accepted connection.  Whatever a
test writes to OUTBOX (a file path) is sent verbatim to the connected plugin
and the file is removed, which is how tests inject advice.  With --deltas it
answers each hello that offers protocol version 2 with a resync, as burstd
does, so that the plugin sends deltas (and applies none of them: it only logs).

With --read-rate BYTES it reads at most that many bytes a second, as a
burstd busy parsing would.

    snapshot_listener.py SOCKET LOG OUTBOX [--deltas] [--read-rate BYTES]
"""
import json
import os
import selectors
import socket
import sys
import time


def main():
    path, log_path, outbox = sys.argv[1:4]
    deltas = "--deltas" in sys.argv[4:]
    rate = int(sys.argv[sys.argv.index("--read-rate") + 1]) if "--read-rate" in sys.argv else 0
    if os.path.exists(path):
        os.unlink(path)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    server.listen(4)
    server.setblocking(False)
    sel = selectors.DefaultSelector()
    sel.register(server, selectors.EVENT_READ)
    client = None
    pending = b""
    connects = 0
    with open(log_path, "ab", buffering=0) as log:
        while True:
            for key, _ in sel.select(timeout=0.1):
                if key.fileobj is server:
                    conn, _ = server.accept()
                    if client is not None:
                        sel.unregister(client)
                        client.close()
                    client = conn
                    client.setblocking(False)
                    sel.register(client, selectors.EVENT_READ)
                    connects += 1
                    pending = b""
                    log.write(json.dumps({"listener": "connect", "n": connects}).encode() + b"\n")
                else:
                    try:
                        data = client.recv(max(1, rate // 10) if rate else 1 << 20)
                    except BlockingIOError:
                        continue
                    if rate:
                        time.sleep(0.1)
                    if not data:
                        sel.unregister(client)
                        client.close()
                        client = None
                        continue
                    pending += data
                    *lines, pending = pending.split(b"\n")
                    for line in lines:
                        log.write(line + b"\n")
                        if deltas and b'"type":"hello"' in line and 2 in json.loads(line).get("versions", []):
                            resync = {"v": 2, "type": "resync", "cluster": json.loads(line)["cluster"],
                                      "seq": connects, "time": int(time.time()), "reason": "hello"}
                            client.setblocking(True)
                            client.sendall(json.dumps(resync).encode() + b"\n")
                            client.setblocking(False)
            if client is not None and os.path.exists(outbox):
                with open(outbox, "rb") as f:
                    data = f.read()
                os.unlink(outbox)
                client.setblocking(True)
                client.sendall(data)
                client.setblocking(False)


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        pass
