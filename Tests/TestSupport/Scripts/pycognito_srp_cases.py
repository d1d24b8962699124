"""Random USER_SRP_AUTH cases answered by pycognito (PyPI), the independent implementation the SRP tests
compare against.

    python3 pycognito_srp_cases.py COUNT [SEED] [--device]

Prints a JSON array. Each case holds the inputs (pool id, USER_ID_FOR_SRP, password, the private value a,
SALT, SRP_B, SECRET_BLOCK, Unix time) and pycognito's outputs for them: SRP_A, TIMESTAMP and
PASSWORD_CLAIM_SIGNATURE. pycognito's private value and clock are fixed to the case's; nothing calls AWS.

With --device, remembered-device cases: the inputs (device group key and key, the random bytes of the device
password, the salt, a, SRP_B, SECRET_BLOCK, Unix time) and pycognito's ConfirmDevice verifier config
(PasswordVerifier, Salt), device password, and DEVICE_PASSWORD_VERIFIER answer (TIMESTAMP, signature).
"""
import base64
import datetime
import json
import random
import string
import sys
import types

from pycognito import aws_srp

N = int(aws_srp.N_HEX, 16)


class NoClient:
    """Stands in for the boto3 client, which these computations never call."""


def fixed_clock(moment):
    class FixedDatetime(datetime.datetime):
        @classmethod
        def utcnow(cls):
            return moment

    return types.SimpleNamespace(datetime=FixedDatetime)


def random_text(rng, alphabet, low, high):
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(low, high)))


def make_case(rng):
    pool_id = "us-east-1_" + random_text(rng, string.ascii_letters + string.digits, 9, 9)
    # Cognito's user ids are user names or UUIDs; passwords may hold any printable character, non-ASCII too.
    user_id = random_text(rng, string.ascii_lowercase + string.digits + "-_.@", 1, 40)
    password = random_text(rng, string.ascii_letters + string.digits + string.punctuation + " éß€😀", 8, 40)
    small_a = rng.getrandbits(256) or 1
    # SALT and SRP_B as Cognito sends them: hex of an integer, no leading zeros (odd lengths happen).
    salt_hex = format(rng.getrandbits(128) or 1, "x")
    srp_b_hex = format(pow(2, rng.getrandbits(256) or 1, N), "x")
    secret_block = base64.standard_b64encode(rng.randbytes(rng.randint(16, 1724))).decode()
    unix_time = rng.randint(946684800, 4102444800)  # 2000 to 2100
    moment = datetime.datetime.fromtimestamp(unix_time, datetime.timezone.utc).replace(tzinfo=None)

    srp = aws_srp.AWSSRP(username=user_id, password=password, pool_id=pool_id, client_id="client", client=NoClient())
    srp.small_a_value = small_a
    srp.large_a_value = srp.calculate_a()
    aws_srp.datetime = fixed_clock(moment)
    challenge = {"USER_ID_FOR_SRP": user_id, "USERNAME": user_id, "SALT": salt_hex, "SRP_B": srp_b_hex, "SECRET_BLOCK": secret_block}
    answer = srp.process_challenge(challenge, {"USERNAME": user_id})
    return {
        "pool_id": pool_id, "user_id_for_srp": user_id, "password": password, "small_a_hex": format(small_a, "x"),
        "salt_hex": salt_hex, "srp_b_hex": srp_b_hex, "secret_block": secret_block, "unix_time": unix_time,
        "srp_a_hex": aws_srp.long_to_hex(srp.large_a_value), "timestamp": answer["TIMESTAMP"],
        "signature": answer["PASSWORD_CLAIM_SIGNATURE"],
    }


def make_device_case(rng):
    group_key = "-" + random_text(rng, string.ascii_letters + string.digits, 9, 9)
    device_key = "us-east-1_" + "-".join(format(rng.getrandbits(bits), "0%dx" % (bits // 4)) for bits in (32, 16, 16, 16, 48))
    password_bytes = rng.randbytes(40)
    salt = rng.getrandbits(128) or 1
    aws_srp.os = types.SimpleNamespace(urandom=lambda count: password_bytes)
    aws_srp.get_random = lambda count: salt
    device_password, verifier_config = aws_srp.generate_hash_device(group_key, device_key)

    small_a = rng.getrandbits(256) or 1
    salt_hex = format(rng.getrandbits(128) or 1, "x")
    srp_b_hex = format(pow(2, rng.getrandbits(256) or 1, N), "x")
    secret_block = base64.standard_b64encode(rng.randbytes(rng.randint(16, 1724))).decode()
    unix_time = rng.randint(946684800, 4102444800)
    moment = datetime.datetime.fromtimestamp(unix_time, datetime.timezone.utc).replace(tzinfo=None)
    srp = aws_srp.AWSSRP(username="user", password="unused", pool_id="us-east-1_pool", client_id="client", client=NoClient(),
                         device_key=device_key, device_group_key=group_key, device_password=device_password)
    srp.small_a_value = small_a
    srp.large_a_value = srp.calculate_a()
    aws_srp.datetime = fixed_clock(moment)
    answer = srp.process_device_challenge({"USERNAME": "user", "SALT": salt_hex, "SRP_B": srp_b_hex, "SECRET_BLOCK": secret_block})
    return {
        "group_key": group_key, "device_key": device_key, "device_password": device_password, "salt_hex": format(salt, "x"),
        "password_verifier": verifier_config["PasswordVerifier"], "verifier_salt": verifier_config["Salt"],
        "small_a_hex": format(small_a, "x"), "challenge_salt_hex": salt_hex, "srp_b_hex": srp_b_hex, "secret_block": secret_block,
        "unix_time": unix_time, "timestamp": answer["TIMESTAMP"], "signature": answer["PASSWORD_CLAIM_SIGNATURE"],
    }


def main():
    arguments = [argument for argument in sys.argv[1:] if argument != "--device"]
    count = int(arguments[0])
    rng = random.Random(arguments[1] if len(arguments) > 1 else None)
    make = make_device_case if "--device" in sys.argv else make_case
    print(json.dumps([make(rng) for _ in range(count)]))


if __name__ == "__main__":
    main()
