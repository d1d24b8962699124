"""DOT's validator with the one method oauthlib 4 asks of a device-code grant and DOT 3.4.1 lacks.

DOT answers a pending, denied or expired device code itself; only an approved one reaches oauthlib, which then
asks `validate_device_code` for its status and the user and scopes the token is for."""
from oauth2_provider.models import get_device_grant_model
from oauth2_provider.oauth2_validators import OAuth2Validator


class DeviceGrantValidator(OAuth2Validator):
    def validate_device_code(self, client_id, code, request, *args, **kwargs):
        model = get_device_grant_model()
        grant = model.objects.filter(device_code=code, client_id=client_id).first()
        if grant is None or grant.status != model.AUTHORIZED:
            return None
        request.user = grant.user
        request.scopes = grant.scope.split() if grant.scope else []
        return "authorized"
