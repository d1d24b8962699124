#!/usr/bin/env python3
"""An HTTP/1.1 test peer on 127.0.0.1 (python3 stdlib only), started by tests as a child process.

    http_test_server.py                          plain HTTP
    http_test_server.py --cert C --key K         HTTPS with that certificate chain and key

It binds a free port, prints the port on stdout when ready, and exits when its stdin closes (so it cannot
outlive the test process). Routes (the query string is ignored):

    ANY  /echo          200, JSON {"method", "path", "headers": [[name, value], ...], "body": base64}
    ANY  /echo-error/…  401, OAuth invalid_client whose error_description repeats the Authorization header
    ANY  /echo-every-form/…  400, OAuth invalid_grant whose error_description repeats the form body and the Basic
                        credential in every encoding: raw, decoded, percent-encoded in lower- and upper-case hex and with
                        +, base64 and base64url, the pair decoded and encoded again with the secret raw
    ANY  /device-answer/B64  200, the JSON body B64 (base64url) decodes to: a device authorization answer
    GET  /status/N      status N, body "status N"
    GET  /bytes/N       N bytes with a Content-Length
    GET  /chunked/N     N bytes, chunked (no Content-Length)
    GET  /stall/MS      waits MS milliseconds, then 200 "late"
    GET  /headers       200 with X-Custom-Header: Mixed-Case-Value and two Set-Cookie headers
    GET  /redirect      302 to /echo
    GET  /connections   200, JSON {"connections": TCP connections accepted so far}
"""
import argparse
import base64
import http.server
import json
import os
import re
import signal
import ssl
import sys
import threading
import time
import urllib.parse


class CountingServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, *args, **kwargs):
        self.connections = 0
        self.connections_lock = threading.Lock()
        super().__init__(*args, **kwargs)

    def process_request(self, request, client_address):
        with self.connections_lock:
            self.connections += 1
        super().process_request(request, client_address)

    def handle_error(self, request, client_address):
        # A client that gives up (timeout, cancellation, size limit) is part of the tests, not an error.
        if not isinstance(sys.exc_info()[1], (ConnectionError, ssl.SSLError)):
            super().handle_error(request, client_address)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, so connection reuse can be counted

    def log_message(self, format, *args):
        pass

    def do_GET(self):
        self.route()

    do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = do_GET

    def route(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        parts = self.path.split("?")[0].strip("/").split("/")
        match parts:
            case ["echo"]:
                self.reply_json(200, {
                    "method": self.command,
                    "path": self.path,
                    "headers": [[name, value] for name, value in self.headers.items()],
                    "body": base64.b64encode(body).decode(),
                })
            case ["echo-error", *_]:
                # A careless authorization server: its error repeats the request's Authorization header.
                self.reply_json(401, {"error": "invalid_client",
                                      "error_description": f"client {self.headers.get('Authorization')} refused"})
            case ["echo-every-form", *_]:
                # A careless server that shows the request back in every encoding a leak may take.
                self.reply_json(400, {"error": "invalid_grant", "error_description": " | ".join(self.every_form(body))})
            case ["device-answer", encoded]:
                self.reply(200, base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4)), [("Content-Type", "application/json")])
            case ["status", code]:
                self.reply(int(code), f"status {code}".encode(), [("Content-Type", "text/plain")])
            case ["bytes", count]:
                self.reply(200, b"x" * int(count))
            case ["chunked", count]:
                self.reply_chunked(b"x" * int(count))
            case ["stall", milliseconds]:
                time.sleep(int(milliseconds) / 1000)
                self.reply(200, b"late")
            case ["headers"]:
                self.reply(200, b"", [("X-Custom-Header", "Mixed-Case-Value"), ("Set-Cookie", "a=1"), ("Set-Cookie", "b=2")])
            case ["redirect"]:
                self.reply(302, b"", [("Location", "/echo")])
            case ["connections"]:
                with self.server.connections_lock:
                    count = self.server.connections
                self.reply_json(200, {"connections": count})
            case _:
                self.reply(404, b"no such route")

    def every_form(self, body):
        texts = [body.decode(errors="replace")]
        values = [value for _, value in urllib.parse.parse_qsl(body.decode(errors="replace"))]
        authorization = self.headers.get("Authorization") or ""
        if authorization.startswith("Basic "):
            texts.append(authorization)
            pair = base64.b64decode(authorization[6:]).decode()
            client_id, secret = (urllib.parse.unquote(part) for part in pair.split(":", 1))
            texts += [pair, base64.b64encode(f"{client_id}:{secret}".encode()).decode()]
            values.append(secret)
        for value in values:
            upper = urllib.parse.quote(value, safe="")
            lower = re.sub(r"%[0-9A-F]{2}", lambda escape: escape.group(0).lower(), upper)
            encoded = base64.b64encode(value.encode()).decode()
            texts += [value, upper, lower, urllib.parse.quote_plus(value), urllib.parse.quote(value, safe="/+="),
                      encoded, base64.urlsafe_b64encode(value.encode()).decode().rstrip("=")]
        texts.append(base64.b64encode(body).decode())
        return texts

    def reply(self, status, body, headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def reply_json(self, status, value):
        self.reply(status, json.dumps(value).encode(), [("Content-Type", "application/json")])

    def reply_chunked(self, body, chunk_size=1000):
        self.send_response(200)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for start in range(0, len(body), chunk_size):
            chunk = body[start:start + chunk_size]
            self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        self.wfile.write(b"0\r\n\r\n")


def exit_when_stdin_closes():
    sys.stdin.buffer.read()
    os._exit(0)


def main():
    # Swift's Process spawns from a dispatch thread whose blocked signals the child inherits: unblock SIGTERM.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    parser = argparse.ArgumentParser()
    parser.add_argument("--cert")
    parser.add_argument("--key")
    arguments = parser.parse_args()
    server = CountingServer(("127.0.0.1", 0), Handler)
    if arguments.cert:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(arguments.cert, arguments.key)
        server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
