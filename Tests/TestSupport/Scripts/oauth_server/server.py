"""django-oauth-toolkit as the Hosted UI stand-in, on 127.0.0.1 and a free port.

    python3 server.py CONFIG.json

CONFIG.json: {"mode": "cognito" (default) or "default" (see settings.py),
              "users": [{"username", "password", "email", "identities": [...]?}],
              "applications": [{"clientId", "clientSecret"?, "name", "redirectURIs": [...],
                                "postLogoutRedirectURIs": [...], "opaqueAccessTokens": bool?,
                                "clientCredentials": bool? (a machine client: the client-credentials grant only),
                                "deviceCode": bool? (the device authorization grant only)}],
              "accessTokenSeconds": int? (the access tokens' lifetime in the "cognito" mode; an hour when absent)}

Makes a fresh RSA signing key and a temporary SQLite database, migrates it, adds the users and applications
(auto-approval, RS256 ID tokens), prints the port on the first stdout line, then serves until stdin closes.
"""
import json
import os
import secrets
import shutil
import sys
import tempfile
import threading

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler


class QuietHandler(WSGIRequestHandler):
    """No request log: the query strings carry codes and states."""

    def log_message(self, format, *args):
        pass


def signing_key_pem():
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption()).decode()


def seed(config):
    import cognito_like
    from django.contrib.auth import get_user_model
    from oauth2_provider.models import get_application_model

    users = {}
    for entry in config["users"]:
        user = get_user_model().objects.create_user(entry["username"], email=entry.get("email", ""),
                                                    password=entry["password"])
        users[entry["username"]] = user
        if entry.get("identities"):
            cognito_like.IDENTITIES[entry["username"]] = entry["identities"]
    Application = get_application_model()
    for entry in config["applications"]:
        secret = entry.get("clientSecret")
        Application.objects.create(
            name=entry["name"],
            client_id=entry["clientId"],
            client_secret=secret or "",
            client_type=Application.CLIENT_CONFIDENTIAL if secret else Application.CLIENT_PUBLIC,
            authorization_grant_type=(Application.GRANT_CLIENT_CREDENTIALS if entry.get("clientCredentials")
                                      else Application.GRANT_DEVICE_CODE if entry.get("deviceCode")
                                      else Application.GRANT_AUTHORIZATION_CODE),
            redirect_uris=" ".join(entry["redirectURIs"]),
            post_logout_redirect_uris=" ".join(entry.get("postLogoutRedirectURIs", [])),
            algorithm=Application.RS256_ALGORITHM,
            skip_authorization=True,
        )
        if entry.get("opaqueAccessTokens"):
            cognito_like.OPAQUE_CLIENT_IDS.add(entry["clientId"])


def main():
    with open(sys.argv[1]) as file:
        config = json.load(file)
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, here)
    directory = tempfile.mkdtemp(prefix="authvault-oauth-server-")
    try:
        # Bound before Django starts: the issuer (in every token) names the port.
        server = ThreadedWSGIServer(("127.0.0.1", 0), QuietHandler)
        port = server.server_address[1]
        os.environ.update({
            "DJANGO_SETTINGS_MODULE": "settings",
            "OAUTH_TEST_ISSUER": f"http://127.0.0.1:{port}",
            "OAUTH_TEST_DJANGO_SECRET": secrets.token_urlsafe(32),
            "OAUTH_TEST_RSA_KEY": signing_key_pem(),
            "OAUTH_TEST_DATABASE": os.path.join(directory, "db.sqlite3"),
            "OAUTH_TEST_MODE": config.get("mode", "cognito"),
        })
        if "accessTokenSeconds" in config:
            os.environ["OAUTH_TEST_ACCESS_TOKEN_SECONDS"] = str(int(config["accessTokenSeconds"]))
        import django
        from django.core.management import call_command
        from django.core.wsgi import get_wsgi_application

        django.setup()
        call_command("migrate", verbosity=0, interactive=False)
        seed(config)
        server.set_app(get_wsgi_application())
        threading.Thread(target=server.serve_forever, daemon=True).start()
        print(port, flush=True)
        sys.stdin.read()
        server.shutdown()
    finally:
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
