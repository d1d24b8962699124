"""A fault-injecting HTTP proxy between a client under test and an upstream server (python stdlib only).

    python3 fault_proxy.py --upstream http://127.0.0.1:PORT

Prints its own port on the first stdout line and serves until stdin closes. Requests that carry an
X-Amz-Target header (Cognito API calls) each take the next fault from a queue the test sets; other requests
(JWKS, ...) and an empty queue pass straight through. Every response closes its connection, so the client
never retries a dead kept-alive connection on its own and each request here is one attempt of the client.

Control (not proxied):
    POST /__proxy__/faults  {"faults": [FAULT, ...]}   replace the queue
    GET  /__proxy__/log                                 {"requests": [{"target": ..., "fault": ...}, ...]}

FAULT is one of
    {"kind": "pass"}                                    forward
    {"kind": "status", "status": 500, "body": "...", "contentType": "text/html"}   answer without forwarding
    {"kind": "reset"}                                   read the request, then reset the connection (RST)
    {"kind": "stall", "seconds": 5}                     read the request, answer nothing, close after a while
    {"kind": "truncate"}                                forward, then send half the body and close
                                                        (Content-Length promises all of it)
    {"kind": "malformed"}                               forward, then answer 200 with half the body
                                                        (Content-Length matching: well-formed HTTP, broken JSON)
"""
import argparse
import json
import socket
import struct
import threading
import time
import urllib.parse
import http_support

HOP_BY_HOP = http_support.HOP_BY_HOP


class State:
    def __init__(self):
        self.lock = threading.Lock()
        self.faults = []
        self.log = []

    def next_fault(self, target):
        with self.lock:
            fault = self.faults.pop(0) if self.faults else {"kind": "pass"}
            self.log.append({"target": target, "fault": fault["kind"]})
            return fault


def make_handler(upstream, state):
    upstream_url = urllib.parse.urlsplit(upstream)

    class Handler(http_support.BodyHandler):
        def handle_body(self, body):
            if self.path.startswith("/__proxy__/"):
                return self.control(body)
            target = self.headers.get("X-Amz-Target")
            fault = state.next_fault(target.rsplit(".", 1)[-1]) if target else {"kind": "pass"}
            kind = fault["kind"]
            if kind == "status":
                payload = fault.get("body", "").encode()
                return self.answer(fault["status"], [("Content-Type", fault.get("contentType", "application/json"))], payload)
            if kind == "reset":
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                self.connection.close()
                return
            if kind == "stall":
                time.sleep(float(fault.get("seconds", 5)))
                return
            status, headers, payload = self.forward(body)
            if kind == "truncate":
                self.send_response(status)
                for name, value in headers:
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(payload)))
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(payload[: len(payload) // 2])
                self.wfile.flush()
                return
            if kind == "malformed":
                return self.answer(200, headers, payload[: len(payload) // 2])
            return self.answer(status, headers, payload)

        def forward(self, body):
            return http_support.forward(self, upstream_url, body)

        def answer(self, status, headers, payload):
            super().answer(status, [(name, value) for name, value in headers if name.lower() not in HOP_BY_HOP], payload)

        def control(self, body):
            if self.command == "POST" and self.path == "/__proxy__/faults":
                with state.lock:
                    state.faults = list(json.loads(body or b"{}").get("faults", []))
                return self.answer(200, [("Content-Type", "application/json")], b"{}")
            if self.command == "GET" and self.path == "/__proxy__/log":
                with state.lock:
                    payload = json.dumps({"requests": state.log}).encode()
                return self.answer(200, [("Content-Type", "application/json")], payload)
            return self.answer(404, [("Content-Type", "application/json")], b"{}")

    return Handler


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--upstream", required=True)
    arguments = parser.parse_args()
    http_support.serve(make_handler(arguments.upstream, State()))


if __name__ == "__main__":
    main()
