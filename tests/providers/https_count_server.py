#!/usr/bin/env python3
"""A test-only HTTPS server on 127.0.0.1 that counts TCP connections.

Each accepted connection appends "accept" to --log, so a test can tell
whether its client reused connections.  HTTP/1.1 with keep-alive, one thread
per connection:
  GET /ok          -> 200 "ok"
  GET /delay/MS    -> 200 "ok" after MS milliseconds
"""
import argparse
import http.server
import os
import ssl
import sys
import threading
import time


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    def do_GET(self):
        if self.path.startswith("/delay/"):
            time.sleep(int(self.path[len("/delay/"):]) / 1000.0)
        elif self.path != "/ok":
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")


class CountingServer(http.server.ThreadingHTTPServer):
    daemon_threads = True
    lock = threading.Lock()

    def get_request(self):
        sock, addr = self.socket.accept()  # the TLS handshake happens here
        with self.lock, open(self.log, "a") as f:
            f.write("accept\n")
        return sock, addr


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name in ("cert", "key", "port-file", "log"):
        p.add_argument("--" + name, required=True)
    cfg = p.parse_args()
    server = CountingServer(("127.0.0.1", 0), Handler)
    server.log = cfg.log
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(cfg.cert, cfg.key)
    server.socket = ctx.wrap_socket(server.socket, server_side=True)
    with open(cfg.port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(cfg.port_file + ".tmp", cfg.port_file)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
