# Serves Keystone or Placement on 127.0.0.1 with a threaded wsgiref server:
# no apache or uwsgi needed for a test cloud.
#   /usr/bin/python3 wsgi_run.py keystone|placement PORT CONFIG
import os
import sys
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

which, port, config = sys.argv[1], int(sys.argv[2]), sys.argv[3]
sys.argv = sys.argv[:1]  # oslo.config parses argv: leave it nothing of ours
if which == 'keystone':
    os.environ['OS_KEYSTONE_CONFIG_FILES'] = config
    from keystone.server.wsgi import initialize_public_application
    app = initialize_public_application()
elif which == 'placement':
    os.environ['OS_PLACEMENT_CONFIG_DIR'] = os.path.dirname(config)
    from placement.wsgi import init_application
    app = init_application()
else:
    sys.exit('wsgi_run.py: expected keystone or placement, got ' + which)


class ThreadingServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class QuietHandler(WSGIRequestHandler):
    def log_message(self, *args):
        pass


make_server('127.0.0.1', port, app, server_class=ThreadingServer,
            handler_class=QuietHandler).serve_forever()
