"""Random USER_SRP_AUTH cases answered by pycognito (PyPI), the independent implementation the SRP tests
compare against.

    python3 pycognito_srp_cases.py COUNT [SEED]

Prints a JSON array. Each case holds the inputs (pool id, USER_ID_FOR_SRP, password, the private value a,
SALT, SRP_B, SECRET_BLOCK, Unix time) and pycognito's outputs for them: SRP_A, TIMESTAMP and
PASSWORD_CLAIM_SIGNATURE. pycognito's private value and clock are fixed to the case's; nothing calls AWS.
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


def main():
    count = int(sys.argv[1])
    rng = random.Random(sys.argv[2] if len(sys.argv) > 2 else None)
    print(json.dumps([make_case(rng) for _ in range(count)]))


if __name__ == "__main__":
    main()
