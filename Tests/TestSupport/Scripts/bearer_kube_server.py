"""A minimal Kubernetes API server over HTTPS on 127.0.0.1 that requires a Cognito token (python3 stdlib and
python3-cryptography), for kubectl's exec credential plugins (kubectl sends their credentials only over https).

    bearer_kube_server.py --cert PEM --key PEM --jwks-url URL --issuer ISS --client-id ID --token-use id --log FILE

Every request must carry `Authorization: Bearer TOKEN` with a token that passes bearer_server.TokenCheck, the way
Kubernetes' OIDC authenticator checks an ID token; otherwise it gets 401 and a Status object, as an API server
answers. Authenticated, it serves what `kubectl get namespaces -o name` needs: discovery (/api, /apis, /api/v1)
and the namespace list (NAMESPACES, one namespace "authvault-e2e"). Every request is one attempt in the log
(bearer_server.AttemptLog). Prints its port on the first stdout line and serves until stdin closes.
"""
import argparse
import urllib.parse

import bearer_server
import http_support

NAMESPACES = ["authvault-e2e"]


def routes(port):
    """Path to the JSON object served there."""
    return {
        "/api": {"kind": "APIVersions", "versions": ["v1"],
                 "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": f"127.0.0.1:{port}"}]},
        "/apis": {"kind": "APIGroupList", "apiVersion": "v1", "groups": []},
        "/api/v1": {"kind": "APIResourceList", "groupVersion": "v1", "resources": [
            {"name": "namespaces", "singularName": "", "namespaced": False, "kind": "Namespace",
             "verbs": ["get", "list"], "shortNames": ["ns"]}]},
        "/api/v1/namespaces": {"kind": "NamespaceList", "apiVersion": "v1", "metadata": {"resourceVersion": "1"},
                               "items": [{"metadata": {"name": name, "uid": f"uid-{name}", "resourceVersion": "1",
                                                       "creationTimestamp": "2024-01-01T00:00:00Z"},
                                          "spec": {"finalizers": ["kubernetes"]}, "status": {"phase": "Active"}}
                                         for name in NAMESPACES]},
    }


def status(code, reason, message):
    return {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure", "message": message,
            "reason": reason, "code": code}


def make_handler(arguments):
    check = bearer_server.TokenCheck(arguments)
    log = bearer_server.AttemptLog(arguments.log)

    class Handler(http_support.QuietHandler):
        def do_GET(self):
            self.close_connection = True
            path = urllib.parse.urlsplit(self.path).path.rstrip("/") or "/"
            reason, claims = self.authenticate()
            if reason != "accepted":
                log.record(path, 401, reason, claims)
                return self.answer_json(401, status(401, "Unauthorized", "Unauthorized"))
            found = routes(self.server.server_address[1]).get(path)
            code = 200 if found is not None else 404
            log.record(path, code, reason, claims)
            self.answer_json(code, found if found is not None else status(404, "NotFound", "the server could not find the requested resource"))

        def authenticate(self):
            scheme, _, token = self.headers.get("Authorization", "").partition(" ")
            if scheme.lower() != "bearer" or not token.strip():
                return "no credentials", None
            return check.check(token.strip())

    return Handler


def main():
    parser = argparse.ArgumentParser()
    bearer_server.add_tls_arguments(parser, required=True)
    bearer_server.add_arguments(parser)
    arguments = parser.parse_args()
    bearer_server.serve(make_handler(arguments), wrap=bearer_server.tls_wrap(arguments))


if __name__ == "__main__":
    main()
