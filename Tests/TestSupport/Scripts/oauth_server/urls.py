"""Cognito's Hosted UI paths on django-oauth-toolkit's views, under DOT's URL names (its views reverse them)."""
import json

from django.contrib.auth import views as auth_views
from django.urls import include, path
from oauth2_provider import views


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
    path("oauth2/token", views.TokenView.as_view(), name="token"),
    path("oauth2/revoke", views.RevokeTokenView.as_view(), name="revoke-token"),
    path("oauth2/userInfo", views.UserInfoView.as_view(), name="user-info"),
    path("logout", views.RPInitiatedLogoutView.as_view(), name="rp-initiated-logout"),
    path(".well-known/openid-configuration", CognitoShapedDiscovery.as_view(), name="oidc-connect-discovery-info"),
    path(".well-known/jwks.json", views.JwksInfoView.as_view(), name="jwks-info"),
], "oauth2_provider")

urlpatterns = [
    path("", include(oauth2_patterns)),
    path("login", auth_views.LoginView.as_view(), name="login"),
]
