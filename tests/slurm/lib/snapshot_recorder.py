#!/usr/bin/env python3
"""Stands between the job_submit/burst plugin and burstd on their UNIX socket
and keeps every line the plugin sends, as burstd receives it.

    snapshot_recorder.py LISTEN_SOCKET BURSTD_SOCKET RECORDING

The plugin connects to LISTEN_SOCKET (burst.conf SocketPath); each
connection is joined to a new one to BURSTD_SOCKET, both ways (burstd's
advice goes back to the plugin unchanged).  Lines from the plugin are
appended to RECORDING as they pass.  Runs until killed.
"""
import os
import socket
import sys
import threading

listen_path, burstd_path, recording_path = sys.argv[1:4]
recording = open(recording_path, "ab", buffering=0)
lock = threading.Lock()


def pump(source, sink, record):
    pending = b""
    try:
        while True:
            data = source.recv(1 << 16)
            if not data:
                break
            sink.sendall(data)
            if record:
                pending += data
                *lines, pending = pending.split(b"\n")
                with lock:
                    for line in lines:
                        recording.write(line + b"\n")
    except OSError:
        pass
    finally:
        for s in (source, sink):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def serve(plugin):
    burstd = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        burstd.connect(burstd_path)
    except OSError:
        plugin.close()
        return
    threading.Thread(target=pump, args=(burstd, plugin, False), daemon=True).start()
    pump(plugin, burstd, True)


if os.path.exists(listen_path):
    os.unlink(listen_path)
server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
server.bind(listen_path)
os.chmod(listen_path, 0o666)
server.listen(4)
while True:
    connection, _ = server.accept()
    threading.Thread(target=serve, args=(connection,), daemon=True).start()
