"""The server side of Cognito's SRP for remembered devices (python stdlib only), written from the protocol's
description (REFERENCE section 1), not from any client: the verifier a ConfirmDevice registered, the B it answers
DEVICE_SRP_AUTH with, and the check of the DEVICE_PASSWORD_VERIFIER signature.
"""
import base64
import hashlib
import hmac
import secrets

N = int(
    "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD"
    "EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
    "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F"
    "83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B"
    "E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA0510"
    "15728E5A8AAAC42DAD33170D04507A33A85521ABDF1CBA64ECFB850458DBEF0A8AEA71575D060C7DB3970F85A6E1E4C7"
    "ABF5AE8CDB0933D71E8C94E04A25619DCEE3D2261AD2EE6BF12FFA06D98A0864D87602733EC86A64521F2B18177B200C"
    "BBE117577A615D6C770988C0BAD946E208E24FA074E5AB3143DB5BFCE0FD108E4B82D120A93AD2CAFFFFFFFFFFFFFFFF", 16)
G = 2


def pad(value):
    """Big-endian bytes, with a leading zero byte when the high bit is set."""
    text = format(value, "x")
    if len(text) % 2:
        text = "0" + text
    if text[0] in "89abcdef":
        text = "00" + text
    return bytes.fromhex(text)


def sha256(data):
    return hashlib.sha256(data).digest()


K = int.from_bytes(sha256(pad(N) + pad(G)), "big")


class DeviceProof:
    """One DEVICE_SRP_AUTH exchange for a device whose verifier and salt ConfirmDevice registered (base64)."""

    def __init__(self, verifier_b64, salt_b64, client_a_hex):
        self.verifier = int.from_bytes(base64.b64decode(verifier_b64), "big")
        self.salt = int.from_bytes(base64.b64decode(salt_b64), "big")
        self.a = int(client_a_hex, 16)
        if self.a % N == 0:
            raise ValueError("A mod N is zero")
        self.b = secrets.randbits(256) or 1
        self.big_b = (K * self.verifier + pow(G, self.b, N)) % N
        self.secret_block = base64.b64encode(secrets.token_bytes(64)).decode()

    def challenge_parameters(self, username):
        return {"USERNAME": username, "SALT": format(self.salt, "x"), "SRP_B": format(self.big_b, "x"),
                "SECRET_BLOCK": self.secret_block}

    def signature_is_valid(self, group_key, device_key, secret_block, timestamp, signature):
        if secret_block != self.secret_block:
            return False
        u = int.from_bytes(sha256(pad(self.a) + pad(self.big_b)), "big")
        premaster = pow(self.a * pow(self.verifier, u, N) % N, self.b, N)
        pseudo_random = hmac.new(pad(u), pad(premaster), hashlib.sha256).digest()
        key = hmac.new(pseudo_random, b"Caldera Derived Key\x01", hashlib.sha256).digest()[:16]
        message = group_key.encode() + device_key.encode() + base64.b64decode(secret_block) + timestamp.encode()
        expected = base64.b64encode(hmac.new(key, message, hashlib.sha256).digest()).decode()
        return hmac.compare_digest(expected, signature or "")
