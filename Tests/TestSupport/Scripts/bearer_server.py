"""What the bearer-token test servers (bearer_git_server.py, bearer_kube_server.py) share: their options, checking
a Cognito JWT the way a resource server does, on its own (python3-cryptography for RS256, not the code under test),
a log of every authentication attempt, and serving on a free loopback port until stdin closes.

A token passes when its RS256 signature verifies with the key its `kid` names in the JWKS (fetched from the URL
given, moto's), `exp` is in the future, `iss` is the pool's, `token_use` is the one expected, and the client
claim names the app client (`client_id` in an access token, `aud` in an ID token).

The log is a file of JSON lines, one per request that needed a token, written before the answer is sent:
    {"path": ..., "status": 200 or 401, "reason": "accepted" or why not, "jti": ..., "exp": ..., "tokenUse": ...}
It never holds a token itself.
"""
import base64
import json
import ssl
import sys
import threading
import time
import urllib.request
from http.server import ThreadingHTTPServer

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa


def b64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def add_arguments(parser):
    """The command-line options every bearer-token server takes."""
    parser.add_argument("--jwks-url", required=True)
    parser.add_argument("--issuer", required=True)
    parser.add_argument("--client-id", required=True)
    parser.add_argument("--token-use", choices=["access", "id"], required=True)
    parser.add_argument("--log", required=True, help="the JSON-lines file of authentication attempts")


class TokenCheck:
    def __init__(self, arguments):
        self.jwks_url = arguments.jwks_url
        self.issuer = arguments.issuer
        self.client_id = arguments.client_id
        self.token_use = arguments.token_use
        self.keys = {}
        self.lock = threading.Lock()

    def check(self, token):
        """(reason, claims): reason "accepted" when the token passes; claims when its payload could be read."""
        parts = token.split(".")
        if len(parts) != 3:
            return "not a JWT", None
        try:
            header = json.loads(b64url_decode(parts[0]))
            claims = json.loads(b64url_decode(parts[1]))
            signature = b64url_decode(parts[2])
        except ValueError:
            return "not a JWT", None
        if not isinstance(header, dict) or not isinstance(claims, dict):
            return "not a JWT", None
        if header.get("alg") != "RS256":
            return "alg is not RS256", claims
        try:
            key = self.key(header.get("kid"))
        except (OSError, ValueError, KeyError):
            return "JWKS unavailable", claims
        if key is None:
            return "unknown kid", claims
        try:
            key.verify(signature, (parts[0] + "." + parts[1]).encode(), padding.PKCS1v15(), hashes.SHA256())
        except InvalidSignature:
            return "bad signature", claims
        if not isinstance(claims.get("exp"), int) or claims["exp"] <= time.time():
            return "expired", claims
        if claims.get("iss") != self.issuer:
            return "wrong issuer", claims
        if claims.get("token_use") != self.token_use:
            return "wrong token_use", claims
        if claims.get("client_id" if self.token_use == "access" else "aud") != self.client_id:
            return "wrong client", claims
        return "accepted", claims

    def key(self, kid):
        """The RSA key for `kid`, from the JWKS (fetched again for a kid not seen yet)."""
        with self.lock:
            if kid not in self.keys:
                with urllib.request.urlopen(self.jwks_url, timeout=10) as response:
                    jwks = json.load(response)
                for jwk in jwks.get("keys", []):
                    if jwk.get("kty") == "RSA":
                        numbers = rsa.RSAPublicNumbers(int.from_bytes(b64url_decode(jwk["e"]), "big"),
                                                       int.from_bytes(b64url_decode(jwk["n"]), "big"))
                        self.keys[jwk.get("kid")] = numbers.public_key()
            return self.keys.get(kid)


class AttemptLog:
    def __init__(self, path):
        self.path = path
        self.lock = threading.Lock()

    def record(self, path, status, reason, claims):
        claims = claims or {}
        entry = {"path": path, "status": status, "reason": reason,
                 "jti": claims.get("jti"), "exp": claims.get("exp"), "tokenUse": claims.get("token_use")}
        with self.lock, open(self.path, "a", encoding="utf-8") as log:
            log.write(json.dumps(entry) + "\n")


def add_tls_arguments(parser, required):
    """--cert and --key: the server certificate chain and its private key (PEM), for serving HTTPS."""
    parser.add_argument("--cert", required=required, help="the server certificate chain (PEM)")
    parser.add_argument("--key", required=required, help="the server's private key (PEM)")


def tls_wrap(arguments):
    """The `wrap` for `serve` that speaks TLS with --cert and --key; None (plain HTTP) without them."""
    if not arguments.cert:
        return None
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(arguments.cert, arguments.key)
    return lambda sock: context.wrap_socket(sock, server_side=True)


def serve(handler, wrap=None):
    """Serves on 127.0.0.1 and a free port, printed on the first stdout line, until stdin closes. `wrap` turns each
    accepted socket into the one to serve (TLS), on the connection's own thread."""

    class Server(ThreadingHTTPServer):
        daemon_threads = True

        def finish_request(self, request, client_address):
            # A client that stalls mid-request or mid-handshake costs its own thread a minute, no more.
            request.settimeout(60)
            if wrap is not None:
                try:
                    request = wrap(request)
                except OSError:
                    return
            super().finish_request(request, client_address)

    server = Server(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(server.server_address[1], flush=True)
    sys.stdin.read()
