"""django-oauth-toolkit's own URL configuration, mounted where its documentation mounts it (`/o/`): the issuer is
then `http://127.0.0.1:PORT/o`, derived by DOT from the request. Only Django's login page is added."""
from django.contrib.auth import views as auth_views
from django.urls import include, path
from oauth2_provider.views import device

# oauthlib 4 echoes the granted `scope` in its device authorization answer, which DOT 3.4.1's DeviceCodeResponse
# does not take (a TypeError, HTTP 500): the grant keeps its scope from the request anyway, so the echo is dropped.
_device_code_response = device.DeviceCodeResponse


def _without_scope(**fields):
    fields.pop("scope", None)
    return _device_code_response(**fields)


device.DeviceCodeResponse = _without_scope

urlpatterns = [
    path("o/", include("oauth2_provider.urls", namespace="oauth2_provider")),
    path("login", auth_views.LoginView.as_view(), name="login"),
]
