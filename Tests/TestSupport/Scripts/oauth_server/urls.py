"""Cognito's Hosted UI paths on django-oauth-toolkit's views, under DOT's URL names (its views reverse them)."""
import base64
import json
import threading
from collections import Counter
from urllib.parse import unquote_plus

from django.contrib.auth import views as auth_views
from django.http import JsonResponse
from django.urls import include, path
from oauth2_provider import views

# Client-credentials requests per client id (from HTTP Basic), answered or not: what the tests count.
GRANTS = Counter()
GRANTS_LOCK = threading.Lock()


class CountingTokenView(views.TokenView):
    """DOT's token endpoint, counting the client-credentials requests each client makes."""

    def post(self, request, *args, **kwargs):
        if request.POST.get("grant_type") == "client_credentials":
            header = request.META.get("HTTP_AUTHORIZATION", "")
            client_id = ""
            if header.startswith("Basic "):
                client_id = unquote_plus(base64.b64decode(header[6:]).decode().split(":", 1)[0])
            with GRANTS_LOCK:
                GRANTS[client_id] += 1
        return super().post(request, *args, **kwargs)


def grant_count(request):
    with GRANTS_LOCK:
        return JsonResponse({"count": GRANTS[request.GET.get("client_id", "")]})


class CognitoShapedDiscovery(views.ConnectDiscoveryInfoView):
    """DOT's discovery document plus `revocation_endpoint`, which Cognito's document names and DOT's OIDC one does not."""

    def get(self, request, *args, **kwargs):
        response = super().get(request, *args, **kwargs)
        document = json.loads(response.content)
        document["revocation_endpoint"] = self._get_endpoint_url(request, "revoke-token", required=True)
        response.content = json.dumps(document)
        return response


oauth2_patterns = ([
    path("oauth2/authorize", views.AuthorizationView.as_view(), name="authorize"),
    path("oauth2/token", CountingTokenView.as_view(), name="token"),
    path("oauth2/revoke", views.RevokeTokenView.as_view(), name="revoke-token"),
    path("oauth2/userInfo", views.UserInfoView.as_view(), name="user-info"),
    path("logout", views.RPInitiatedLogoutView.as_view(), name="rp-initiated-logout"),
    path(".well-known/openid-configuration", CognitoShapedDiscovery.as_view(), name="oidc-connect-discovery-info"),
    path(".well-known/jwks.json", views.JwksInfoView.as_view(), name="jwks-info"),
], "oauth2_provider")

urlpatterns = [
    path("", include(oauth2_patterns)),
    path("login", auth_views.LoginView.as_view(), name="login"),
    path("test/client-credentials-count", grant_count),
]
