"""The tests' own emulation of the Cognito sign-in features moto lacks (python stdlib only), as a proxy in front of
moto, which keeps the users, passwords, MFA and tokens:

- remembered devices: NewDeviceMetadata on a sign-in without a device, ConfirmDevice (the device's SRP verifier),
  UpdateDeviceStatus, ListDevices, ForgetDevice; a sign-in with DEVICE_KEY of a confirmed device proves it by
  DEVICE_SRP_AUTH and DEVICE_PASSWORD_VERIFIER (srp_server.py), and a remembered device skips the authenticator-app
  MFA (the proxy answers moto's challenge with moto's fixed TOTP secret); an unknown DEVICE_KEY is refused;
- choice-based sign-in (USER_AUTH): PREFERRED_CHALLENGE or SELECT_CHALLENGE among PASSWORD, PASSWORD_SRP, EMAIL_OTP
  and SMS_OTP; codes are "sent" to the log, a wrong one can be retried twice in the same session;
- custom authentication (CUSTOM_AUTH): scripted rounds of CUSTOM_CHALLENGE with public parameters.

    python3 sign_in_stand_in.py --upstream http://127.0.0.1:PORT --client-id ID [--device-tracking always|user_opt_in]

Prints its port on the first stdout line and serves until stdin closes. Everything else passes through to moto.
Control (not proxied):
    POST /__standin__/users     {"username", "password", "email"?, "phone"?}   users USER_AUTH and CUSTOM_AUTH know
    POST /__standin__/custom    {"rounds": [{"parameters": {...}, "answer": "..."}]}
    POST /__standin__/next-code {"code": "..."}   the code the next EMAIL_OTP or SMS_OTP sends (a terminal test types it)
    GET  /__standin__/codes     {"codes": [{"username", "medium", "code"}]}
    GET  /__standin__/log       {"requests": ["Operation ChallengeName-or-AuthFlow", ...]}
"""
import argparse
import base64
import hashlib
import hmac
import json
import secrets
import struct
import threading
import time
import urllib.parse
import urllib.request
import uuid

import http_support
import srp_server

PREFIX = "AWSCognitoIdentityProviderService."
MOTO_TOTP_SECRET = "asdfasdfasdf"


class Refused(Exception):
    def __init__(self, error_type, message):
        super().__init__(message)
        self.error_type, self.message = error_type, message


def totp(secret, moment):
    key = base64.b32decode(secret.upper() + "=" * (-len(secret) % 8))
    digest = hmac.new(key, struct.pack(">Q", int(moment) // 30), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    return "%06d" % ((struct.unpack(">I", digest[offset:offset + 4])[0] & 0x7FFFFFFF) % 1_000_000)


def masked(medium, destination):
    if medium == "EMAIL":
        name, _, domain = destination.partition("@")
        return f"{name[:1]}***@{domain[:1]}***"
    return "+" + "*" * max(0, len(destination) - 5) + destination[-4:]


class StandIn:
    def __init__(self, arguments):
        self.upstream = arguments.upstream
        self.client_id = arguments.client_id
        self.tracking = arguments.device_tracking
        self.lock = threading.Lock()
        self.devices = {}      # key -> {"username", "group", "verifier", "salt", "name", "status", "created", "last"}
        self.sessions = {}     # our Session -> what the next answer continues
        self.users = {}
        self.rounds = []
        self.codes = []
        self.next_code = None
        self.log = []

    # Calls to moto
    def moto(self, operation, body):
        request = urllib.request.Request(self.upstream + "/", data=json.dumps(body).encode(), headers={
            "Content-Type": "application/x-amz-json-1.1", "X-Amz-Target": PREFIX + operation})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return json.load(response)
        except urllib.error.HTTPError as error:
            answer = json.loads(error.read() or b"{}")
            raise Refused(answer.get("__type", "InternalErrorException").split("#")[-1], answer.get("message", ""))

    def username_of(self, access_token):
        return self.moto("GetUser", {"AccessToken": access_token})["Username"]

    def tokens_for(self, username):
        password = self.users[username]["password"]
        return self.moto("InitiateAuth", {"AuthFlow": "USER_PASSWORD_AUTH", "ClientId": self.client_id,
                                          "AuthParameters": {"USERNAME": username, "PASSWORD": password}})

    def new_session(self, state):
        session = base64.b64encode(secrets.token_bytes(48)).decode()
        self.sessions[session] = state
        return session

    # Remembered devices
    def after_moto(self, answer, username, device_key):
        """moto's answer to a sign-in step, with the devices' part of Cognito's behaviour added."""
        device = self.devices.get(device_key) if device_key else None
        if device and device["verifier"] and device["username"] == username:
            if answer.get("ChallengeName") == "SOFTWARE_TOKEN_MFA" and device["status"] == "remembered":
                answer = self.moto("RespondToAuthChallenge", {
                    "ClientId": self.client_id, "ChallengeName": "SOFTWARE_TOKEN_MFA", "Session": answer["Session"],
                    "ChallengeResponses": {"USERNAME": username, "SOFTWARE_TOKEN_MFA_CODE": totp(MOTO_TOTP_SECRET, time.time())}})
            if "AuthenticationResult" in answer:
                session = self.new_session({"step": "DEVICE_SRP_AUTH", "username": username, "device": device_key, "held": answer})
                return {"ChallengeName": "DEVICE_SRP_AUTH", "Session": session, "ChallengeParameters": {"USERNAME": username}}
        if "AuthenticationResult" in answer and self.tracking != "off" and not device_key:
            key = f"us-east-1_{uuid.uuid4()}"
            self.devices[key] = {"username": username, "group": "-" + secrets.token_hex(5), "verifier": None, "salt": None,
                                 "name": None, "status": None, "created": time.time(), "last": time.time()}
            answer["AuthenticationResult"]["NewDeviceMetadata"] = {"DeviceKey": key, "DeviceGroupKey": self.devices[key]["group"]}
        return answer

    def device_session(self, step, device_key):
        """The session of a device step answered without one, as Cognito allows (pycognito sends none): the
        newest one of that step for that device."""
        found = [session for session, state in self.sessions.items() if state["step"] == step and state.get("device") == device_key]
        return found[-1] if device_key and found else None

    def device_srp_auth(self, state, responses):
        if responses.get("DEVICE_KEY") != state["device"] or not responses.get("SRP_A"):
            raise Refused("InvalidParameterException", "stand-in: DEVICE_SRP_AUTH needs the DEVICE_KEY and SRP_A")
        device = self.devices[state["device"]]
        proof = srp_server.DeviceProof(device["verifier"], device["salt"], responses["SRP_A"])
        session = self.new_session(dict(state, step="DEVICE_PASSWORD_VERIFIER", proof=proof))
        return {"ChallengeName": "DEVICE_PASSWORD_VERIFIER", "Session": session,
                "ChallengeParameters": proof.challenge_parameters(state["username"])}

    def device_password_verifier(self, state, responses):
        device = self.devices.get(state["device"])
        valid = device is not None and state["proof"].signature_is_valid(
            device["group"], state["device"], responses.get("PASSWORD_CLAIM_SECRET_BLOCK"), responses.get("TIMESTAMP", ""),
            responses.get("PASSWORD_CLAIM_SIGNATURE"))
        if not valid:
            raise Refused("NotAuthorizedException", "Incorrect username or password.")
        device["last"] = time.time()
        return state["held"]

    def confirm_device(self, body):
        username = self.username_of(body["AccessToken"])
        device = self.devices.get(body.get("DeviceKey"))
        config = body.get("DeviceSecretVerifierConfig") or {}
        if device is None or device["username"] != username:
            raise Refused("ResourceNotFoundException", "Device does not exist.")
        if not config.get("PasswordVerifier") or not config.get("Salt"):
            raise Refused("InvalidParameterException", "stand-in: DeviceSecretVerifierConfig needs PasswordVerifier and Salt")
        device.update(verifier=config["PasswordVerifier"], salt=config["Salt"], name=body.get("DeviceName"),
                      status="remembered" if self.tracking == "always" else "not_remembered")
        return {"UserConfirmationNecessary": self.tracking == "user_opt_in"}

    def own_device(self, body):
        username = self.username_of(body["AccessToken"])
        device = self.devices.get(body.get("DeviceKey"))
        if device is None or device["username"] != username:
            raise Refused("ResourceNotFoundException", "Device does not exist.")
        return device

    def list_devices(self, body):
        username = self.username_of(body["AccessToken"])
        return {"Devices": [{
            "DeviceKey": key, "DeviceCreateDate": device["created"], "DeviceLastAuthenticatedDate": device["last"],
            "DeviceAttributes": [{"Name": "device_name", "Value": device["name"]},
                                 {"Name": "dev:device_remembered_status", "Value": device["status"]}],
        } for key, device in self.devices.items() if device["username"] == username and device["verifier"]]}

    # Choice-based and custom sign-in
    def user(self, username):
        if username not in self.users:
            raise Refused("UserNotFoundException", "User does not exist.")
        return self.users[username]

    def available(self, user):
        return ["PASSWORD", "PASSWORD_SRP"] + (["EMAIL_OTP"] if user.get("email") else []) + (["SMS_OTP"] if user.get("phone") else [])

    def begin(self, method, username, given):
        if method == "PASSWORD":
            return self.moto("InitiateAuth", {"AuthFlow": "USER_PASSWORD_AUTH", "ClientId": self.client_id,
                                              "AuthParameters": {"USERNAME": username, "PASSWORD": given.get("PASSWORD", "")}})
        if method == "PASSWORD_SRP":
            return self.moto("InitiateAuth", {"AuthFlow": "USER_SRP_AUTH", "ClientId": self.client_id,
                                              "AuthParameters": {"USERNAME": username, "SRP_A": given.get("SRP_A", "")}})
        medium, field = ("EMAIL", "email") if method == "EMAIL_OTP" else ("SMS", "phone")
        code = self.next_code or "".join(secrets.choice("0123456789") for _ in range(8 if medium == "EMAIL" else 6))
        self.next_code = None
        self.codes.append({"username": username, "medium": medium, "code": code})
        session = self.new_session({"step": method, "username": username, "code": code, "tries": 0})
        return {"ChallengeName": method, "Session": session, "ChallengeParameters": {
            "USERNAME": username, "CODE_DELIVERY_DELIVERY_MEDIUM": medium,
            "CODE_DELIVERY_DESTINATION": masked(medium, self.users[username][field])}}

    def user_auth(self, parameters):
        username = parameters.get("USERNAME", "")
        choices = self.available(self.user(username))
        preferred = parameters.get("PREFERRED_CHALLENGE")
        if preferred in choices:
            return self.begin(preferred, username, parameters)
        session = self.new_session({"step": "SELECT_CHALLENGE", "username": username, "choices": choices})
        return {"ChallengeName": "SELECT_CHALLENGE", "Session": session, "AvailableChallenges": choices,
                "ChallengeParameters": {"USERNAME": username}}

    def one_time_code(self, state, session, responses):
        if not hmac.compare_digest(responses.get(state["step"] + "_CODE", ""), state["code"]):
            state["tries"] += 1
            if state["tries"] < 3:
                self.sessions[session] = state
                raise Refused("CodeMismatchException", "Invalid code or auth state for the user.")
            raise Refused("NotAuthorizedException", "Invalid session for the user.")
        return self.tokens_for(state["username"])

    def custom(self, state, responses):
        round_ = self.rounds[state["round"]]
        if not hmac.compare_digest(responses.get("ANSWER", ""), round_["answer"]):
            raise Refused("NotAuthorizedException", "Incorrect username or password.")
        if state["round"] + 1 == len(self.rounds):
            return self.tokens_for(state["username"])
        return self.custom_round(state["username"], state["round"] + 1)

    def custom_round(self, username, number):
        session = self.new_session({"step": "CUSTOM_CHALLENGE", "username": username, "round": number})
        return {"ChallengeName": "CUSTOM_CHALLENGE", "Session": session,
                "ChallengeParameters": dict(self.rounds[number]["parameters"], USERNAME=username)}

    # Dispatch
    def handle(self, operation, body):
        """The answer for operations emulated here; None for what goes to moto as it is."""
        if operation == "InitiateAuth":
            parameters = body.get("AuthParameters") or {}
            if body.get("AuthFlow") == "USER_AUTH":
                return self.user_auth(parameters)
            if body.get("AuthFlow") == "CUSTOM_AUTH":
                self.user(parameters.get("USERNAME", ""))
                return self.custom_round(parameters["USERNAME"], 0)
            device_key = parameters.pop("DEVICE_KEY", None)
            if device_key and device_key not in self.devices:
                raise Refused("ResourceNotFoundException", "Device does not exist.")
            return self.after_moto(self.moto("InitiateAuth", body), parameters.get("USERNAME"), device_key)
        if operation == "RespondToAuthChallenge":
            responses = body.get("ChallengeResponses") or {}
            session = body.get("Session") or self.device_session(body.get("ChallengeName"), responses.get("DEVICE_KEY"))
            state = self.sessions.pop(session, None)
            if state is None:
                device_key = responses.pop("DEVICE_KEY", None)
                return self.after_moto(self.moto("RespondToAuthChallenge", body), responses.get("USERNAME"), device_key)
            if body.get("ChallengeName") != state["step"]:
                raise Refused("InvalidParameterException", f"stand-in: the session is for {state['step']}")
            if state["step"] == "SELECT_CHALLENGE":
                if responses.get("ANSWER") not in state["choices"]:
                    raise Refused("InvalidParameterException", "stand-in: ANSWER is not one of the available challenges")
                return self.begin(responses["ANSWER"], state["username"], responses)
            steps = {"DEVICE_SRP_AUTH": lambda: self.device_srp_auth(state, responses),
                     "DEVICE_PASSWORD_VERIFIER": lambda: self.device_password_verifier(state, responses),
                     "EMAIL_OTP": lambda: self.one_time_code(state, session, responses),
                     "SMS_OTP": lambda: self.one_time_code(state, session, responses),
                     "CUSTOM_CHALLENGE": lambda: self.custom(state, responses)}
            return steps[state["step"]]()
        if operation == "ConfirmDevice":
            return self.confirm_device(body)
        if operation == "UpdateDeviceStatus":
            self.own_device(body)["status"] = body.get("DeviceRememberedStatus")
            return {}
        if operation == "ListDevices":
            return self.list_devices(body)
        if operation == "ForgetDevice":
            self.own_device(body)
            del self.devices[body["DeviceKey"]]
            return {}
        return None

    def control(self, method, path, body):
        if method == "POST" and path == "/__standin__/users":
            self.users[body["username"]] = body
            return {}
        if method == "POST" and path == "/__standin__/next-code":
            self.next_code = body["code"]
            return {}
        if method == "POST" and path == "/__standin__/custom":
            self.rounds = body["rounds"]
            return {}
        if path == "/__standin__/codes":
            return {"codes": self.codes}
        if path == "/__standin__/log":
            return {"requests": self.log}
        return None


def make_handler(stand_in):
    upstream_url = urllib.parse.urlsplit(stand_in.upstream)

    class Handler(http_support.BodyHandler):
        def handle_body(self, raw):
            if self.path.startswith("/__standin__/"):
                with stand_in.lock:
                    answer = stand_in.control(self.command, self.path, json.loads(raw or b"{}"))
                return self.answer_json(200 if answer is not None else 404, answer or {})
            target = self.headers.get("X-Amz-Target", "")
            operation = target[len(PREFIX):] if target.startswith(PREFIX) else None
            try:
                body = json.loads(raw or b"{}") if operation else {}
                with stand_in.lock:
                    stand_in.log.append(f"{operation} {body.get('ChallengeName') or body.get('AuthFlow') or ''}".strip())
                    answer = stand_in.handle(operation, body) if operation else None
            except Refused as refusal:
                payload = json.dumps({"__type": refusal.error_type, "message": refusal.message}).encode()
                return self.answer(400, [("Content-Type", "application/x-amz-json-1.1")], payload)
            if answer is None:
                return self.answer(*http_support.forward(self, upstream_url, raw))
            self.answer(200, [("Content-Type", "application/x-amz-json-1.1")], json.dumps(answer).encode())

    return Handler


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--upstream", required=True)
    parser.add_argument("--client-id", required=True)
    parser.add_argument("--device-tracking", choices=["off", "always", "user_opt_in"], default="always")
    stand_in = StandIn(parser.parse_args())
    http_support.serve(make_handler(stand_in))


if __name__ == "__main__":
    main()
