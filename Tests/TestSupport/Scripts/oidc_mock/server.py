"""oidc-provider-mock (PyPI, built on Authlib and Flask): an OpenID provider independent of django-oauth-toolkit and
oauthlib, as the second authorization server of the any-OpenID-provider tests. On 127.0.0.1 and a free port.

    python3 server.py

Any client id is accepted (no registration); the authorization page asks for a `sub` (browser.py posts it); access
and refresh tokens are random strings, ID tokens RS256 with its own claims. Prints the port on the first stdout line,
then serves until stdin closes.
"""
import logging
import sys
import threading

import werkzeug.serving
from oidc_provider_mock import app


def main():
    # No request log: the query strings carry codes and states.
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    logging.getLogger("oidc_provider_mock").setLevel(logging.ERROR)
    server = werkzeug.serving.make_server("127.0.0.1", 0, app(require_nonce=True), threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(server.server_port, flush=True)
    sys.stdin.read()
    server.shutdown()


if __name__ == "__main__":
    main()
