"""A tiny JSON API on 127.0.0.1 that requires a Cognito token (python3 stdlib and python3-cryptography), for the
library example.

    bearer_api_server.py --jwks-url URL --issuer ISS --client-id ID --token-use access --log FILE

`GET /whoami` with `Authorization: Bearer TOKEN`, TOKEN passing bearer_server.TokenCheck, answers 200
{"username": ..., "tokenUse": ...} from the token's claims; any other request answers 401 {"error": why} (404 for
another path). With --refuse-first N, the first N requests to /whoami answer 401 {"error": "revoked"} whatever their
token, as an API that no longer takes a token that has not expired. Every request is one attempt in the log
(bearer_server.AttemptLog). Prints its port on the first stdout line and serves until stdin closes.
"""
import argparse

import bearer_server
import http_support


def make_handler(arguments):
    check = bearer_server.TokenCheck(arguments)
    log = bearer_server.AttemptLog(arguments.log)
    refusals = [arguments.refuse_first]

    class Handler(http_support.QuietHandler):
        def do_GET(self):
            self.close_connection = True
            if self.path != "/whoami":
                return self.answer_json(404, {"error": "no such path"})
            scheme, _, token = self.headers.get("Authorization", "").partition(" ")
            reason, claims = check.check(token.strip()) if scheme == "Bearer" else ("no bearer token", None)
            if reason == "accepted" and refusals[0] > 0:
                refusals[0] -= 1
                reason = "revoked"
            if reason != "accepted":
                log.record(self.path, 401, reason, claims)
                return self.answer_json(401, {"error": reason})
            log.record(self.path, 200, reason, claims)
            self.answer_json(200, {"username": claims.get("username"), "tokenUse": claims.get("token_use")})

    return Handler


def main():
    parser = argparse.ArgumentParser()
    bearer_server.add_arguments(parser)
    parser.add_argument("--refuse-first", type=int, default=0, help="answer the first N requests 401 whatever their token")
    bearer_server.serve(make_handler(parser.parse_args()))


if __name__ == "__main__":
    main()
