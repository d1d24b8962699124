"""django-oauth-toolkit's own URL configuration, mounted where its documentation mounts it (`/o/`): the issuer is
then `http://127.0.0.1:PORT/o`, derived by DOT from the request. Only Django's login page is added."""
from django.contrib.auth import views as auth_views
from django.urls import include, path

urlpatterns = [
    path("o/", include("oauth2_provider.urls", namespace="oauth2_provider")),
    path("login", auth_views.LoginView.as_view(), name="login"),
]
