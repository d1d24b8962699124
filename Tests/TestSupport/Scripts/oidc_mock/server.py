"""oidc-provider-mock (PyPI, built on Authlib and Flask): an OpenID provider independent of django-oauth-toolkit and
oauthlib, as the second authorization server of the any-OpenID-provider tests. On 127.0.0.1 and a free port.

    python3 server.py

Any client id is accepted (no registration); the authorization page asks for a `sub` (browser.py posts it); access
and refresh tokens are random strings, ID tokens carry its own claims and no `kid`. It signs with RS256 only; here
its key is a P-256 one and its algorithm ES256 (the same Authlib calls, another key type), so that ES256 ID tokens
are verified through the binary too (django-oauth-toolkit covers RS256). Prints the port on the first stdout line,
then serves until stdin closes.
"""
import logging
import sys
import threading

import oidc_provider_mock._app as mock_app
import oidc_provider_mock._storage as mock_storage
import werkzeug.serving
from authlib import jose
from oidc_provider_mock import app


def sign_with_p256():
    made = mock_storage.Storage.__init__

    def with_p256_key(self):
        made(self)
        self.jwk = jose.ECKey.generate_key("P-256", is_private=True)

    mock_storage.Storage.__init__ = with_p256_key
    mock_app._JWS_ALG = "ES256"


def main():
    # No request log: the query strings carry codes and states.
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    logging.getLogger("oidc_provider_mock").setLevel(logging.ERROR)
    sign_with_p256()
    server = werkzeug.serving.make_server("127.0.0.1", 0, app(require_nonce=True), threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(server.server_port, flush=True)
    sys.stdin.read()
    server.shutdown()


if __name__ == "__main__":
    main()
