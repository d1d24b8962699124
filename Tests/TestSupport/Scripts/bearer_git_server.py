"""A git smart-HTTP server on 127.0.0.1 that requires a Cognito token (python3 stdlib and python3-cryptography).

    bearer_git_server.py --project-root DIR [--cert PEM --key PEM] --jwks-url URL --issuer ISS --client-id ID
                         --token-use access --log FILE

With --cert and --key it speaks HTTPS (git hands a credential helper's token only to https:// hosts AuthVault
lists), without them plain HTTP.

Serves the bare repositories under DIR through `git http-backend` (CGI) to requests whose HTTP Basic password is a
token that passes bearer_server.TokenCheck (any user name). Any other request gets 401 with
`WWW-Authenticate: Basic realm=...`, the challenge that makes git ask its credential helpers. Every request is one
attempt in the log (bearer_server.AttemptLog) and closes its connection. Prints its port on the first stdout line
and serves until stdin closes.
"""
import argparse
import base64
import binascii
import os
import subprocess
import urllib.parse

import bearer_server
import http_support


def make_handler(arguments):
    check = bearer_server.TokenCheck(arguments)
    log = bearer_server.AttemptLog(arguments.log)
    project_root = os.path.abspath(arguments.project_root)

    class Handler(http_support.QuietHandler):
        def do_GET(self):
            self.serve()

        def do_POST(self):
            self.serve()

        def serve(self):
            self.close_connection = True
            body = self.read_body()
            url = urllib.parse.urlsplit(self.path)
            reason, claims = self.authenticate()
            if reason != "accepted":
                log.record(url.path, 401, reason, claims)
                return self.answer(401, [("WWW-Authenticate", 'Basic realm="AuthVault test git"'),
                                         ("Content-Type", "text/plain")], b"token required\n")
            status, headers, payload = self.run_backend(url, body, claims)
            log.record(url.path, status, reason, claims)
            self.answer(status, headers, payload)

        def authenticate(self):
            scheme, _, value = self.headers.get("Authorization", "").partition(" ")
            if scheme.lower() != "basic":
                return "no credentials", None
            try:
                _, colon, password = base64.b64decode(value.strip(), validate=True).decode().partition(":")
            except (binascii.Error, UnicodeDecodeError):
                return "malformed Basic credentials", None
            if not colon:
                return "malformed Basic credentials", None
            return check.check(password)

        def read_body(self):
            if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
                body = b""
                while True:
                    size = int(self.rfile.readline().split(b";")[0].strip(), 16)
                    if size == 0:
                        self.rfile.readline()
                        return body
                    body += self.rfile.read(size)
                    self.rfile.readline()
            length = int(self.headers.get("Content-Length") or 0)
            return self.rfile.read(length) if length else b""

        def run_backend(self, url, body, claims):
            """`git http-backend` as a CGI program: its header lines, then the body."""
            environment = {
                "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
                "GIT_PROJECT_ROOT": project_root,
                "GIT_HTTP_EXPORT_ALL": "1",
                # The test machine's git configuration has no say in what is served.
                "GIT_CONFIG_NOSYSTEM": "1",
                "GIT_CONFIG_GLOBAL": os.devnull,
                "GATEWAY_INTERFACE": "CGI/1.1",
                "SERVER_PROTOCOL": "HTTP/1.1",
                "REQUEST_METHOD": self.command,
                "PATH_INFO": urllib.parse.unquote(url.path),
                "QUERY_STRING": url.query,
                "CONTENT_TYPE": self.headers.get("Content-Type", ""),
                "CONTENT_LENGTH": str(len(body)),
                "REMOTE_ADDR": self.client_address[0],
                "REMOTE_USER": str(claims.get("username", "")),
                "HTTP_GIT_PROTOCOL": self.headers.get("Git-Protocol", ""),
                "HTTP_CONTENT_ENCODING": self.headers.get("Content-Encoding", ""),
            }
            result = subprocess.run(["git", "http-backend"], input=body, env=environment, capture_output=True, timeout=60)
            output = result.stdout
            ends = [index for index in (output.find(b"\r\n\r\n"), output.find(b"\n\n")) if index >= 0]
            if result.returncode != 0 and not ends:
                return 500, [("Content-Type", "text/plain")], b"git http-backend failed\n"
            end = min(ends)
            separator = 4 if output[end:end + 4] == b"\r\n\r\n" else 2
            status, headers = 200, []
            for line in output[:end].decode("latin-1").splitlines():
                name, _, value = line.partition(":")
                if name.lower() == "status":
                    status = int(value.split()[0])
                elif name:
                    headers.append((name, value.strip()))
            return status, headers, output[end + separator:]

    return Handler


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--project-root", required=True, help="the directory holding the bare repositories")
    bearer_server.add_tls_arguments(parser, required=False)
    bearer_server.add_arguments(parser)
    arguments = parser.parse_args()
    bearer_server.serve(make_handler(arguments), wrap=bearer_server.tls_wrap(arguments))


if __name__ == "__main__":
    main()
