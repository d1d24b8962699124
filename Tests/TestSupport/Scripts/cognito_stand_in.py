"""A scripted stand-in for the Cognito user-pool operations moto lacks (python stdlib only):
GetTokensFromRefreshToken (with refresh-token rotation), RevokeToken and ResendConfirmationCode.

    python3 cognito_stand_in.py CONFIG.json

CONFIG: {"poolId", "clientId", "clientSecret" (optional), "refreshToken" (the one valid at start),
"idToken", "accessToken" (answered on every refresh), "jwks" (served at /<poolId>/.well-known/jwks.json),
"users" (names ResendConfirmationCode knows), "retryGracePeriodSeconds" (optional, 0 by default: how long a
rotated-out refresh token still refreshes, as the app client setting RefreshTokenRotation.RetryGracePeriodSeconds)}.

Prints its port on the first stdout line and serves until stdin closes. Each request is checked against the
API reference: POST /, Content-Type application/x-amz-json-1.1, X-Amz-Target
AWSCognitoIdentityProviderService.<Operation>, a JSON object with only the documented fields and the
required ones, ClientSecret (GetTokensFromRefreshToken, RevokeToken) or SecretHash (ResendConfirmationCode)
exactly when the client has a secret. A request that does not fit gets InvalidParameterException saying why.
Answers and errors are shaped as Cognito documents them. GET /__standin__/log lists the operations seen.
"""
import base64
import hashlib
import hmac
import json
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler

import http_support

PREFIX = "AWSCognitoIdentityProviderService."


class Refused(Exception):
    def __init__(self, error_type, message, status=400):
        super().__init__(message)
        self.error_type = error_type
        self.message = message
        self.status = status


class StandIn:
    def __init__(self, config):
        self.config = config
        self.lock = threading.Lock()
        self.valid = {config["refreshToken"]}
        self.rotated_out = {}
        self.revoked = set()
        self.log = []

    def check_fields(self, body, allowed, required):
        unknown = sorted(set(body) - allowed)
        if unknown:
            raise Refused("InvalidParameterException", f"stand-in: undocumented fields {unknown}")
        missing = sorted(name for name in required if not isinstance(body.get(name), str) or not body[name])
        if missing:
            raise Refused("InvalidParameterException", f"stand-in: missing or empty {missing}")
        if body["ClientId"] != self.config["clientId"]:
            raise Refused("ResourceNotFoundException", "User pool client does not exist.")

    def check_client_secret(self, body):
        secret = self.config.get("clientSecret")
        if secret is None and "ClientSecret" in body:
            raise Refused("InvalidParameterException", "stand-in: ClientSecret sent for a client without a secret")
        if secret is not None and body.get("ClientSecret") != secret:
            raise Refused("NotAuthorizedException", "Client secret is wrong or missing.")

    def check_secret_hash(self, body):
        secret = self.config.get("clientSecret")
        if secret is None:
            if "SecretHash" in body:
                raise Refused("InvalidParameterException", "stand-in: SecretHash sent for a client without a secret")
            return
        digest = hmac.new(secret.encode(), (body["Username"] + body["ClientId"]).encode(), hashlib.sha256).digest()
        if body.get("SecretHash") != base64.b64encode(digest).decode():
            raise Refused("NotAuthorizedException", f"Client {body['ClientId']} is configured for secret but secret was not received or is wrong")

    def get_tokens_from_refresh_token(self, body):
        self.check_fields(body, {"ClientId", "ClientSecret", "RefreshToken", "ClientMetadata", "DeviceKey"}, ["ClientId", "RefreshToken"])
        self.check_client_secret(body)
        token = body["RefreshToken"]
        grace = self.config.get("retryGracePeriodSeconds", 0)
        if token in self.rotated_out and time.monotonic() - self.rotated_out[token] >= grace:
            raise Refused("RefreshTokenReuseException", "Refresh token has already been used.")
        if token not in self.valid and token not in self.rotated_out:
            raise Refused("NotAuthorizedException", "Invalid Refresh Token" if token not in self.revoked else "Refresh Token has been revoked")
        new_token = "rotated-" + uuid.uuid4().hex
        if token in self.valid:
            self.valid.discard(token)
            self.rotated_out[token] = time.monotonic()
        self.valid.add(new_token)
        return {"AuthenticationResult": {
            "AccessToken": self.config["accessToken"], "IdToken": self.config["idToken"], "RefreshToken": new_token,
            "ExpiresIn": 3600, "TokenType": "Bearer"}}

    def revoke_token(self, body):
        self.check_fields(body, {"ClientId", "ClientSecret", "Token", "ClientMetadata"}, ["ClientId", "Token"])
        self.check_client_secret(body)
        # Like RFC 7009: an unknown or already revoked token is not an error.
        if body["Token"] in self.valid:
            self.valid.discard(body["Token"])
            self.revoked.add(body["Token"])
        return {}

    def resend_confirmation_code(self, body):
        self.check_fields(body, {"ClientId", "Username", "SecretHash", "UserContextData", "AnalyticsMetadata", "ClientMetadata"},
                          ["ClientId", "Username"])
        self.check_secret_hash(body)
        if body["Username"] not in self.config.get("users", []):
            raise Refused("UserNotFoundException", "Username/client id combination not found.")
        return {"CodeDeliveryDetails": {"AttributeName": "email", "DeliveryMedium": "EMAIL", "Destination": "a***@e***"}}

    def handle(self, operation, body):
        handlers = {
            "GetTokensFromRefreshToken": self.get_tokens_from_refresh_token,
            "RevokeToken": self.revoke_token,
            "ResendConfirmationCode": self.resend_confirmation_code,
        }
        if operation not in handlers:
            raise Refused("UnknownOperationException", f"stand-in: {operation} is not scripted")
        with self.lock:
            return handlers[operation](body)


def make_handler(stand_in):
    jwks_path = f"/{stand_in.config['poolId']}/.well-known/jwks.json"

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def answer(self, status, payload, content_type="application/x-amz-json-1.1"):
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            if self.path == jwks_path:
                return self.answer(200, stand_in.config["jwks"], "application/json")
            if self.path == "/__standin__/log":
                with stand_in.lock:
                    return self.answer(200, {"requests": stand_in.log}, "application/json")
            self.answer(404, {})

        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            target = self.headers.get("X-Amz-Target", "")
            operation = target[len(PREFIX):] if target.startswith(PREFIX) else target
            with stand_in.lock:
                stand_in.log.append(operation)
            try:
                if self.path != "/":
                    raise Refused("InvalidParameterException", f"stand-in: POST to {self.path}, not /")
                if self.headers.get("Content-Type") != "application/x-amz-json-1.1":
                    raise Refused("InvalidParameterException", "stand-in: Content-Type is not application/x-amz-json-1.1")
                if not target.startswith(PREFIX):
                    raise Refused("InvalidParameterException", "stand-in: X-Amz-Target does not name the user-pool service")
                try:
                    body = json.loads(raw)
                except ValueError:
                    raise Refused("SerializationException", "stand-in: the body is not JSON")
                if not isinstance(body, dict):
                    raise Refused("SerializationException", "stand-in: the body is not a JSON object")
                self.answer(200, stand_in.handle(operation, body))
            except Refused as refusal:
                self.answer(refusal.status, {"__type": refusal.error_type, "message": refusal.message})

    return Handler


def main():
    with open(sys.argv[1]) as config_file:
        stand_in = StandIn(json.load(config_file))
    http_support.serve(make_handler(stand_in))


if __name__ == "__main__":
    main()
