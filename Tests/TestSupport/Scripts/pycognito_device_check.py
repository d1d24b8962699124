"""pycognito (PyPI), an independent client, against the sign-in stand-in's remembered devices: the emulation must
let pycognito's device SRP through and refuse a wrong device password.

    python3 pycognito_device_check.py ENDPOINT POOL_ID CLIENT_ID USERNAME PASSWORD

Signs in with SRP (a new device is reported), registers the device with pycognito's own verifier
(generate_hash_device, sent with boto3's ConfirmDevice: pycognito's confirm_device posts to AWS itself), signs in
again with the device (DEVICE_SRP_AUTH, DEVICE_PASSWORD_VERIFIER), then once more with a wrong device password.
Prints {"newDevice": bool, "confirmed": bool, "remembered": "tokens" or the error, "wrongPassword": "tokens" or the
error}.
"""
import json
import sys

import boto3
from pycognito import aws_srp

endpoint, pool_id, client_id, username, password = sys.argv[1:6]
client = boto3.client("cognito-idp", region_name="us-east-1", endpoint_url=endpoint,
                      aws_access_key_id="testing", aws_secret_access_key="testing")


def sign_in(**device):
    try:
        answer = aws_srp.AWSSRP(username=username, password=password, pool_id=pool_id, client_id=client_id, client=client,
                                **device).authenticate_user()
        return "tokens" if "AuthenticationResult" in answer else f"challenge {answer.get('ChallengeName')}"
    except Exception as error:  # the outcome is the result: report it
        return f"error {type(error).__name__}: {error}"


first = aws_srp.AWSSRP(username=username, password=password, pool_id=pool_id, client_id=client_id,
                       client=client).authenticate_user()
metadata = first["AuthenticationResult"].get("NewDeviceMetadata") or {}
result = {"newDevice": bool(metadata), "confirmed": False, "remembered": None, "wrongPassword": None}
if metadata:
    device_password, config = aws_srp.generate_hash_device(metadata["DeviceGroupKey"], metadata["DeviceKey"])
    client.confirm_device(AccessToken=first["AuthenticationResult"]["AccessToken"], DeviceKey=metadata["DeviceKey"],
                          DeviceSecretVerifierConfig=config, DeviceName="pycognito")
    result["confirmed"] = True
    device = {"device_key": metadata["DeviceKey"], "device_group_key": metadata["DeviceGroupKey"]}
    result["remembered"] = sign_in(device_password=device_password, **device)
    result["wrongPassword"] = sign_in(device_password=device_password[:-4] + "AAA=", **device)
print(json.dumps(result))
