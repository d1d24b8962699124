"""Django settings of the Hosted UI stand-in. server.py sets the environment variables read here before Django
starts: the port is only known once the socket is bound, and the signing key is made fresh for each run."""
import os

BASE_DIR = os.path.dirname(os.path.abspath(__file__))
ISSUER = os.environ["OAUTH_TEST_ISSUER"]

SECRET_KEY = os.environ["OAUTH_TEST_DJANGO_SECRET"]
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "[::1]"]
USE_TZ = True
ROOT_URLCONF = "urls"

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "oauth2_provider",
]
MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
]
TEMPLATES = [{
    "BACKEND": "django.template.backends.django.DjangoTemplates",
    "DIRS": [os.path.join(BASE_DIR, "templates")],
    "APP_DIRS": True,
    "OPTIONS": {"context_processors": ["django.template.context_processors.request"]},
}]
# A file, not ":memory:": every request thread opens its own connection, and each in-memory database is private.
# Tests sign in at the same time: WAL lets readers go on during a write, and IMMEDIATE transactions wait for the
# write lock (a DEFERRED one that must upgrade fails at once with "database is locked").
DATABASES = {"default": {
    "ENGINE": "django.db.backends.sqlite3",
    "NAME": os.environ["OAUTH_TEST_DATABASE"],
    "OPTIONS": {"timeout": 30, "transaction_mode": "IMMEDIATE", "init_command": "PRAGMA journal_mode=WAL;"},
}}
# Fast hashing for passwords and client secrets: this server holds test accounts only, on two shared cores.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
LOGIN_URL = "/login"

# "cognito" (the Hosted UI stand-in below) or "default": django-oauth-toolkit as it ships, with OIDC turned on as
# its documentation does (an RSA key, the openid scope) and RP-initiated logout; its own paths under /o/, its own
# claims (sub is the user's primary key), random access tokens, and its default refresh-token rotation.
MODE = os.environ.get("OAUTH_TEST_MODE", "cognito")

OAUTH2_PROVIDER = {
    "PKCE_REQUIRED": True,
    # S256 only: an authorization request with code_challenge_method=plain is refused.
    "COMPLIANT_BCP_RFC9700_PKCE_METHOD": True,
    "ROTATE_REFRESH_TOKEN": True,
    # Reusing a rotated-out refresh token revokes the whole family, as Cognito's rotation does.
    "REFRESH_TOKEN_REUSE_PROTECTION": True,
    "OIDC_ENABLED": True,
    "OIDC_RSA_PRIVATE_KEY": os.environ["OAUTH_TEST_RSA_KEY"],
    "OIDC_ISS_ENDPOINT": ISSUER,
    "OIDC_RP_INITIATED_LOGOUT_ENABLED": True,
    # With an id_token_hint of the signed-in user, sign out without a confirmation page.
    "OIDC_RP_INITIATED_LOGOUT_ALWAYS_PROMPT": False,
    "OAUTH2_VALIDATOR_CLASS": "cognito_like.CognitoLikeValidator",
    "ACCESS_TOKEN_GENERATOR": "cognito_like.access_token",
    # Without this, oauthlib would make refresh tokens with the access-token generator too.
    "REFRESH_TOKEN_GENERATOR": "oauthlib.oauth2.rfc6749.tokens.random_token_generator",
    # An hour, as Cognito's default; a test of renewals across several lifetimes asks for seconds (server.py).
    "ACCESS_TOKEN_EXPIRE_SECONDS": int(os.environ.get("OAUTH_TEST_ACCESS_TOKEN_SECONDS", "3600")),
    "ID_TOKEN_EXPIRE_SECONDS": 3600,
    # authvault-api/read: a resource server's scope, as Cognito names them, for the machine client.
    "SCOPES": {"openid": "OpenID Connect", "email": "Email address", "profile": "Profile",
               "authvault-api/read": "Read the test API"},
    "DEFAULT_SCOPES": ["openid"],
}

if MODE == "default":
    ROOT_URLCONF = "urls_default"
    OAUTH2_PROVIDER = {
        "OIDC_ENABLED": True,
        "OIDC_RSA_PRIVATE_KEY": os.environ["OAUTH_TEST_RSA_KEY"],
        "OIDC_RP_INITIATED_LOGOUT_ENABLED": True,
        "SCOPES": {"openid": "OpenID Connect", "email": "Email address", "profile": "Profile"},
        # The device authorization grant (RFC 8628), its endpoints under /o/ as DOT mounts them. One-second polls
        # keep the tests short; DOT's own default is 5.
        "OAUTH_DEVICE_VERIFICATION_URI": ISSUER + "/o/device/",
        "OAUTH_DEVICE_VERIFICATION_URI_COMPLETE": ISSUER + "/o/device/?user_code={user_code}",
        "DEVICE_FLOW_INTERVAL": 1,
        "OAUTH2_VALIDATOR_CLASS": "device_validator.DeviceGrantValidator",
    }

# Server errors on stderr (ScriptServer drops it; run server.py by hand to see them).
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"stderr": {"class": "logging.StreamHandler"}},
    "loggers": {"django.request": {"handlers": ["stderr"], "level": "ERROR"}},
}
