"""A checking HTTP proxy in front of moto's identity pools (python stdlib and python3-cryptography): moto's GetId
and GetCredentialsForIdentity accept any `Logins`, so this checks them as Cognito does, for one user pool and app
client:

    python3 identity_pool_proxy.py --upstream http://127.0.0.1:PORT --provider cognito-idp.REGION.amazonaws.com/POOL \
        --client-id ID --jwks-url URL [--lifetime SECONDS] [--issuer URL]

Prints its own port on the first stdout line and serves until stdin closes. A GetId or GetCredentialsForIdentity
call that carries `Logins` must carry exactly the provider's key, with an ID token of that pool and app client:
RS256-signed by a key of the JWKS, `iss` https://PROVIDER (or --issuer, for another OpenID provider), `aud` the client id, `token_use` id, `exp` in the
future. A call that fails gets NotAuthorizedException and is not forwarded. Calls without `Logins` (guests) and
everything else pass through. With --lifetime, the Expiration of the credentials GetCredentialsForIdentity answers is
rewritten to that many seconds from now (moto's expire in 90 s), so a test controls how long they last, and each set
gets an AccessKeyId of its own (moto's is always the same), so a test tells a new set from the one before.

Control (not proxied):
    GET /__proxy__/log    {"requests": [{"target", "provider": key or null, "refused": reason or null,
                                         "role": the CustomRoleArn asked for or null,
                                         "pool": the IdentityPoolId sent (GetId) or null}]}
"""
import argparse
import base64
import itertools
import json
import threading
import time
import urllib.parse
import urllib.request

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa

import http_support

CHECKED = {"GetId", "GetCredentialsForIdentity"}


def b64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def public_keys(jwks_url):
    with urllib.request.urlopen(jwks_url, timeout=10) as response:
        document = json.load(response)
    keys = {}
    for key in document.get("keys", []):
        numbers = rsa.RSAPublicNumbers(int.from_bytes(b64url(key["e"]), "big"), int.from_bytes(b64url(key["n"]), "big"))
        keys[key["kid"]] = numbers.public_key()
    return keys


def token_refusal(token, issuer, client_id, keys):
    """Why the ID token is not one of this pool and client (None: it is)."""
    parts = token.split(".")
    if len(parts) != 3:
        return "the login is not a JWT"
    try:
        header, claims = json.loads(b64url(parts[0])), json.loads(b64url(parts[1]))
    except ValueError:
        return "the login's JWT does not decode"
    key = keys.get(header.get("kid"))
    if header.get("alg") != "RS256" or key is None:
        return "the login's JWT is not signed by a key of the pool"
    try:
        key.verify(b64url(parts[2]), (parts[0] + "." + parts[1]).encode(), padding.PKCS1v15(), hashes.SHA256())
    except InvalidSignature:
        return "the login's JWT signature is wrong"
    if claims.get("iss") != issuer:
        return "the login's issuer is not the provider"
    if claims.get("token_use") != "id":
        return "the login is not an ID token"
    if claims.get("aud") != client_id:
        return "the login's audience is not the app client"
    if not isinstance(claims.get("exp"), (int, float)) or claims["exp"] <= time.time():
        return "the login's ID token has expired"
    return None


def check(body, arguments, keys):
    """(provider key or None, refusal or None)."""
    logins = body.get("Logins")
    if logins is None:
        return None, None
    if not isinstance(logins, dict) or list(logins) != [arguments.provider]:
        return ",".join(logins) if isinstance(logins, dict) else None, "the Logins map does not name exactly the provider"
    issuer = arguments.issuer or "https://" + arguments.provider
    return arguments.provider, token_refusal(logins[arguments.provider], issuer, arguments.client_id, keys)


def make_handler(arguments, state):
    upstream_url = urllib.parse.urlsplit(arguments.upstream)

    class Handler(http_support.BodyHandler):
        def handle_body(self, body):
            if self.path == "/__proxy__/log":
                with state["lock"]:
                    return self.answer_json(200, {"requests": state["log"]})
            target = self.headers.get("X-Amz-Target") or ""
            operation = target.rsplit(".", 1)[-1]
            if target.startswith("AWSCognitoIdentityService.") and operation in CHECKED:
                try:
                    request = json.loads(body or b"{}")
                except ValueError:
                    request = {}
                with state["lock"]:
                    if state["keys"] is None:
                        state["keys"] = public_keys(arguments.jwks_url)
                    keys = state["keys"]
                provider, refusal = check(request, arguments, keys)
                with state["lock"]:
                    state["log"].append({"target": operation, "provider": provider, "refused": refusal,
                                         "role": request.get("CustomRoleArn"), "pool": request.get("IdentityPoolId")})
                if refusal:
                    payload = json.dumps({"__type": "NotAuthorizedException", "message": f"proxy: {refusal}"}).encode()
                    return self.answer(400, [("Content-Type", "application/x-amz-json-1.1")], payload)
            status, headers, payload = http_support.forward(self, upstream_url, body)
            if arguments.lifetime is not None and operation == "GetCredentialsForIdentity" and status == 200:
                payload = with_lifetime(payload, arguments.lifetime)
                headers = [(name, value) for name, value in headers if name.lower() != "content-length"]
            return self.answer(status, headers, payload)

    return Handler


issued = itertools.count(1)


def with_lifetime(payload, seconds):
    answer = json.loads(payload)
    answer["Credentials"]["Expiration"] = time.time() + seconds
    answer["Credentials"]["AccessKeyId"] = f"ASIAPROXYSET{next(issued):08d}"
    return json.dumps(answer).encode()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--upstream", required=True)
    parser.add_argument("--provider", required=True)
    parser.add_argument("--client-id", required=True)
    parser.add_argument("--jwks-url", required=True)
    parser.add_argument("--lifetime", type=float)
    parser.add_argument("--issuer")
    arguments = parser.parse_args()
    state = {"lock": threading.Lock(), "log": [], "keys": None}
    http_support.serve(make_handler(arguments, state))


if __name__ == "__main__":
    main()
