"""RFC 6238 TOTP code (HMAC-SHA-1, 6 digits, 30-second steps) for a base32 secret, with python's stdlib.

    python3 totp.py SECRET UNIX_TIME
"""
import base64
import hashlib
import hmac
import struct
import sys

secret = sys.argv[1].upper()
key = base64.b32decode(secret + "=" * (-len(secret) % 8))
counter = int(sys.argv[2]) // 30
digest = hmac.new(key, struct.pack(">Q", counter), hashlib.sha1).digest()
offset = digest[-1] & 0x0F
code = (struct.unpack(">I", digest[offset:offset + 4])[0] & 0x7FFFFFFF) % 1_000_000
print(f"{code:06d}")
