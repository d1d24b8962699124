"""What the test servers' request handlers share: HTTP/1.1 with no request log (paths and headers carry codes and
tokens), and one way to send a whole answer, JSON or not, and close the connection."""
import json
from http.server import BaseHTTPRequestHandler


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
