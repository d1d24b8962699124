"""A checking HTTP proxy in front of moto (python stdlib only): moto does not check SECRET_HASH on most calls, so
this does, with python's hmac, for one app client.

    SECRET_HASH_PROXY_CLIENT_SECRET=... python3 secret_hash_proxy.py --upstream http://127.0.0.1:PORT --client-id ID

Prints its own port on the first stdout line and serves until stdin closes. For a Cognito call of the client:
SignUp, ConfirmSignUp, ResendConfirmationCode, ForgotPassword and ConfirmForgotPassword must carry
SecretHash = Base64(HMAC-SHA256(secret, Username + ClientId)); InitiateAuth (USER_PASSWORD_AUTH, USER_SRP_AUTH) and
RespondToAuthChallenge the same as SECRET_HASH over AuthParameters / ChallengeResponses USERNAME. Without a secret
(the variable unset) none may carry one. A call that fails the check gets NotAuthorizedException and is not
forwarded. Everything else passes through, response headers included.

Control (not proxied):
    GET /__proxy__/log    {"requests": [{"target", "checked": true|false, "refused": reason|null}],
                           "forgotPasswordCodes": {username: the last x-moto-forgot-password-confirmation-code}}
"""
import argparse
import base64
import hashlib
import hmac
import json
import os
import threading
import urllib.parse
import http_support

TOP_LEVEL = {"SignUp", "ConfirmSignUp", "ResendConfirmationCode", "ForgotPassword", "ConfirmForgotPassword"}
CHECKED_FLOWS = {"USER_PASSWORD_AUTH", "USER_SRP_AUTH"}


def expected_hash(secret, username, client_id):
    digest = hmac.new(secret.encode(), (username + client_id).encode(), hashlib.sha256).digest()
    return base64.b64encode(digest).decode()


def check(operation, body, client_id, secret):
    """(checked, refusal): whether the call was one to check, and why it is refused (None: it passes)."""
    if body.get("ClientId") != client_id:
        return False, None
    if operation in TOP_LEVEL:
        username, sent = body.get("Username", ""), body.get("SecretHash")
    elif operation == "InitiateAuth" and body.get("AuthFlow") in CHECKED_FLOWS:
        parameters = body.get("AuthParameters") or {}
        username, sent = parameters.get("USERNAME", ""), parameters.get("SECRET_HASH")
    elif operation == "RespondToAuthChallenge":
        responses = body.get("ChallengeResponses") or {}
        username, sent = responses.get("USERNAME", ""), responses.get("SECRET_HASH")
    else:
        return False, None
    if secret is None:
        return True, None if sent is None else "a secret hash was sent for a client without a secret"
    if sent is None:
        return True, "no secret hash was sent"
    return True, None if hmac.compare_digest(sent, expected_hash(secret, username, client_id)) else "the secret hash is wrong"


def make_handler(upstream, client_id, secret, state):
    upstream_url = urllib.parse.urlsplit(upstream)

    class Handler(http_support.BodyHandler):
        def handle_body(self, body):
            if self.path == "/__proxy__/log":
                with state["lock"]:
                    payload = json.dumps({"requests": state["log"], "forgotPasswordCodes": state["codes"]}).encode()
                return self.answer(200, [("Content-Type", "application/json")], payload)
            target = self.headers.get("X-Amz-Target")
            operation = target.rsplit(".", 1)[-1] if target else None
            request = {}
            if operation:
                try:
                    request = json.loads(body or b"{}")
                except ValueError:
                    request = {}
                checked, refusal = check(operation, request, client_id, secret)
                with state["lock"]:
                    state["log"].append({"target": operation, "checked": checked, "refused": refusal})
                if refusal:
                    payload = json.dumps({"__type": "NotAuthorizedException", "message": f"proxy: {refusal}"}).encode()
                    return self.answer(400, [("Content-Type", "application/x-amz-json-1.1")], payload)
            status, headers, payload = http_support.forward(self, upstream_url, body)
            code = dict((name.lower(), value) for name, value in headers).get("x-moto-forgot-password-confirmation-code")
            if operation == "ForgotPassword" and code:
                with state["lock"]:
                    state["codes"][request.get("Username", "")] = code
            return self.answer(status, headers, payload)

    return Handler


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--upstream", required=True)
    parser.add_argument("--client-id", required=True)
    arguments = parser.parse_args()
    secret = os.environ.get("SECRET_HASH_PROXY_CLIENT_SECRET")
    state = {"lock": threading.Lock(), "log": [], "codes": {}}
    handler = make_handler(arguments.upstream, arguments.client_id, secret, state)
    http_support.serve(handler)


if __name__ == "__main__":
    main()
