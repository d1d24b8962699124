"""`make demo`'s Cognito emulator: moto's server (as moto_server.py) with the user-pool operation moto lacks that a
sign-out calls, RevokeToken, added to moto's own request handler, so it acts on moto's state.

RevokeToken (as the API reference documents it): the refresh token and the app client that received it, with the
client's secret when it has one; the token stops working for refreshes. A token the pool does not know is
answered like a revoked one (RFC 7009: nothing to say about it). A wrong client or secret is refused.

Prints the port on the first stdout line, then serves until stdin closes. The tests use plain moto_server.py, so
they still see moto as it is, except those that prove a revocation (MotoServer.startEmulator).
"""
import sys

from moto.cognitoidp.exceptions import NotAuthorizedError
from moto.cognitoidp.models import cognitoidp_backends
from moto.cognitoidp.responses import CognitoIdpResponse
from moto.core.responses import EmptyResult
from moto.server import ThreadedMotoServer


def revoke_token(self):
    token = self._get_param("Token")
    client_id = self._get_param("ClientId")
    secret = self._get_param("ClientSecret")
    for regions in cognitoidp_backends.values():
        for backend in regions.values():
            for pool in backend.user_pools.values():
                client = pool.clients.get(client_id)
                if client is None:
                    continue
                if client.generate_secret and secret != client.secret:
                    raise NotAuthorizedError("Unable to verify secret hash for client " + client_id)
                issued = pool.refresh_tokens.get(token)
                if issued is not None and issued[0] != client_id:
                    raise NotAuthorizedError("Refresh token was not issued to this client")
                if token in pool.refresh_tokens:
                    pool.refresh_tokens[token] = None
                return EmptyResult()
    raise NotAuthorizedError("Client " + str(client_id) + " does not exist")


CognitoIdpResponse.revoke_token = revoke_token

server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
server.start()
print(server.get_host_and_port()[1], flush=True)
sys.stdin.read()
server.stop()
