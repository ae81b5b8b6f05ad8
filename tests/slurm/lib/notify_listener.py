#!/usr/bin/env python3
"""Stand-in for systemd's notification socket (sd_notify(3)).

Binds a datagram socket at SOCKET ('@name' for the abstract namespace) and
appends every message to LOG as one line, its newlines shown as '|'.  On
READY=1 it also records, at that moment, whether each PATH given is a UNIX
socket that accepts a connection: "READY=1|...  [PATH:yes PATH:no]".

    notify_listener.py SOCKET LOG [PATH...]
"""
import os
import socket
import sys


def accepts(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(path)
        return "yes"
    except OSError:
        return "no"
    finally:
        s.close()


def main():
    name, log_path, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
    address = "\0" + name[1:] if name.startswith("@") else name
    if not name.startswith("@") and os.path.exists(name):
        os.unlink(name)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(address)
    with open(log_path, "a") as log:
        log.write("listening\n")
        log.flush()
        while True:
            text = server.recv(4096).decode(errors="replace")
            line = text.replace("\n", "|")
            if "READY=1" in text.split("\n") and paths:
                line += "  [" + " ".join(p + ":" + accepts(p) for p in paths) + "]"
            log.write(line + "\n")
            log.flush()


if __name__ == "__main__":
    main()
