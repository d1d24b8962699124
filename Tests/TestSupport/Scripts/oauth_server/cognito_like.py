"""What makes django-oauth-toolkit's tokens look like Cognito's: JWT access tokens with Cognito's claims, signed
with the OIDC key, and ID tokens with `token_use`, `cognito:username` and `identities`."""
import time
import uuid

from django.conf import settings
from jwcrypto import jwt
from oauth2_provider.oauth2_validators import OAuth2Validator
from oauth2_provider.utils import jwk_from_pem
from oauthlib.oauth2.rfc6749.tokens import random_token_generator

# Applications whose access tokens stay opaque, as a generic OAuth server's do (filled in by server.py).
OPAQUE_CLIENT_IDS = set()
# username -> the `identities` claim of a federated user (filled in by server.py).
IDENTITIES = {}


def subject(user):
    """A stable UUID per user, the shape of Cognito's `sub`."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, "authvault-test-user:" + user.username))


def access_token(request):
    """oauthlib's token generator: a Cognito-shaped access token, or an opaque one for the opaque clients."""
    if request.client.client_id in OPAQUE_CLIENT_IDS:
        return random_token_generator(request)
    now = int(time.time())
    claims = {
        "iss": settings.ISSUER,
        "client_id": request.client.client_id,
        "token_use": "access",
        "scope": " ".join(request.scopes or []),
        "iat": now,
        "exp": now + int(request.expires_in),
        "jti": str(uuid.uuid4()),
    }
    if request.grant_type == "client_credentials":
        # Cognito's machine-to-machine tokens: the app client is the subject, and there is no user.
        claims["sub"] = request.client.client_id
    else:
        claims.update({"sub": subject(request.user), "auth_time": now, "username": request.user.username})
    key = jwk_from_pem(settings.OAUTH2_PROVIDER["OIDC_RSA_PRIVATE_KEY"])
    token = jwt.JWT(header={"alg": "RS256", "kid": key.thumbprint()}, claims=claims)
    token.make_signed_token(key)
    return token.serialize()


class CognitoLikeValidator(OAuth2Validator):
    # Claims are released by scope (DOT drops a claim that maps to no granted scope).
    oidc_claim_scope = {**OAuth2Validator.oidc_claim_scope, "username": "openid", "identities": "openid"}

    def get_additional_claims(self, request):
        claims = {"sub": subject(request.user), "username": request.user.username,
                  "email": request.user.email, "email_verified": True}
        if request.user.username in IDENTITIES:
            claims["identities"] = IDENTITIES[request.user.username]
        return claims

    def get_id_token_dictionary(self, token, token_handler, request):
        claims, expiration_time = super().get_id_token_dictionary(token, token_handler, request)
        claims["token_use"] = "id"
        claims["cognito:username"] = request.user.username
        claims.pop("username", None)
        return claims, expiration_time
