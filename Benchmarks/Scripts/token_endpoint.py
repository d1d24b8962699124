"""A minimal authorization server for the browser sign-in benchmark: just enough of the Hosted UI to run the
authorization-code flow with PKCE at full speed, signing Cognito-shaped RS256 tokens with a key made at start.

    token_endpoint.py CLIENT_ID          prints "PORT" once listening on 127.0.0.1

  GET  /authorize?...      302 to redirect_uri with a fresh code (the "browser" part, outside the measured span)
  POST /token              the code exchange; checks the PKCE S256 verifier; answers with a Server-Timing header
                           (app;dur=MILLISECONDS) giving its own handling time, which the benchmark subtracts
  GET  /jwks.json          the signing key
"""
import base64
import hashlib
import http.server
import json
import secrets
import socket
import sys
import time
import urllib.parse

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa

CLIENT_ID = sys.argv[1]
KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)
CODES = {}


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def sign(claims):
    header = b64(json.dumps({"alg": "RS256", "kid": "bench", "typ": "JWT"}).encode())
    payload = b64(json.dumps(claims).encode())
    signature = KEY.sign(f"{header}.{payload}".encode(), padding.PKCS1v15(), hashes.SHA256())
    return f"{header}.{payload}.{b64(signature)}"


def jwks():
    numbers = KEY.public_key().public_numbers()
    def uint(value):
        return b64(value.to_bytes((value.bit_length() + 7) // 8, "big"))
    return {"keys": [{"kty": "RSA", "kid": "bench", "alg": "RS256", "use": "sig", "n": uint(numbers.n), "e": uint(numbers.e)}]}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def setup(self):
        super().setup()
        # Headers and body go out in separate writes: without this, Nagle's algorithm and the client's delayed ACK
        # hold the body back 40 ms, which would be the stand-in's time counted as ours.
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def reply(self, status, body=b"", headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        if url.path == "/jwks.json":
            return self.reply(200, json.dumps(jwks()).encode(), [("Content-Type", "application/json")])
        if url.path == "/authorize":
            query = dict(urllib.parse.parse_qsl(url.query))
            code = secrets.token_urlsafe(24)
            CODES[code] = query
            location = f"{query['redirect_uri']}?code={code}&state={urllib.parse.quote(query['state'])}"
            return self.reply(302, headers=[("Location", location)])
        self.reply(404)

    def do_POST(self):
        started = time.perf_counter()
        form = dict(urllib.parse.parse_qsl(self.rfile.read(int(self.headers["Content-Length"])).decode()))
        request = CODES.pop(form.get("code"), None)
        challenge = b64(hashlib.sha256(form.get("code_verifier", "").encode()).digest())
        if request is None or challenge != request["code_challenge"] or form.get("redirect_uri") != request["redirect_uri"]:
            return self.reply(400, b'{"error":"invalid_grant"}', [("Content-Type", "application/json")])
        now = int(time.time())
        issuer = f"http://127.0.0.1:{self.server.server_address[1]}"
        common = {"iss": issuer, "sub": "bench-user", "iat": now, "exp": now + 3600, "auth_time": now}
        body = json.dumps({
            "id_token": sign({**common, "aud": CLIENT_ID, "token_use": "id", "nonce": request["nonce"],
                              "cognito:username": "Google_1", "email": "bench@example.com",
                              "identities": [{"providerName": "Google", "userId": "1"}]}),
            "access_token": sign({**common, "client_id": CLIENT_ID, "token_use": "access", "scope": "openid", "username": "Google_1"}),
            "refresh_token": secrets.token_urlsafe(48), "token_type": "Bearer", "expires_in": 3600,
        }).encode()
        elapsed = (time.perf_counter() - started) * 1000
        self.reply(200, body, [("Content-Type", "application/json"), ("Server-Timing", f"app;dur={elapsed:.3f}")])


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
