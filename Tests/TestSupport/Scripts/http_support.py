"""What the test servers' request handlers share: HTTP/1.1 with no request log (paths and headers carry codes and
tokens), one way to send a whole answer, JSON or not, and close the connection, and one way to pass a request on."""
import http.client
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class QuietHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, headers, payload):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(payload)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(payload)

    def answer_json(self, status, document):
        self.answer(status, [("Content-Type", "application/json")], json.dumps(document).encode())


class BodyHandler(QuietHandler):
    """GET and POST alike: the body read whole, one request per connection, then `handle_body(body)`."""

    def do_GET(self):
        self.handle_body(self.read_body())

    def do_POST(self):
        self.handle_body(self.read_body())

    def read_body(self):
        self.close_connection = True
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""


def serve(handler_class):
    """Serves on 127.0.0.1 and a free port: prints the port on the first stdout line, serves until stdin closes."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler_class)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(server.server_address[1], flush=True)
    sys.stdin.read()
    server.shutdown()


HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "content-length", "host", "proxy-connection", "upgrade", "te"}


def forward(handler, upstream_url, body):
    """Sends the handler's request (method, path, end-to-end headers, body) to upstream_url (a urlsplit result);
    returns (status, end-to-end headers, payload)."""
    connection = http.client.HTTPConnection(upstream_url.hostname, upstream_url.port, timeout=30)
    headers = {name: value for name, value in handler.headers.items() if name.lower() not in HOP_BY_HOP}
    connection.request(handler.command, handler.path, body=body, headers=headers)
    response = connection.getresponse()
    payload = response.read()
    kept = [(name, value) for name, value in response.getheaders() if name.lower() not in HOP_BY_HOP]
    connection.close()
    return response.status, kept, payload
