#!/usr/bin/python3
"""Reads an EncryptedFileVault record without the project's code: hashlib's scrypt and python3-cryptography's
AES-GCM, following the format documented in VaultKeyFile.swift and VaultRecordFile.swift.

    decrypt_vault_record.py DIRECTORY PROFILE      (passphrase in $VAULT_PASSPHRASE)

Prints JSON: {"kdf", "logN", "r", "p", "record": the decrypted record as JSON}.
"""
import hashlib
import json
import os
import struct
import sys

from cryptography.hazmat.primitives.ciphers.aead import AESGCM

directory, profile = sys.argv[1], sys.argv[2]
passphrase = os.environ["VAULT_PASSPHRASE"].encode()

key_file = open(os.path.join(directory, "vault.key"), "rb").read()
assert key_file[:8] == b"AUTHVKEY", "magic"
(version,) = struct.unpack(">H", key_file[8:10])
assert version == 1, "key file version"
offset = 10
kdf = key_file[offset + 1:offset + 1 + key_file[offset]].decode()
offset += 1 + key_file[offset]
log_n = key_file[offset]
r, p = struct.unpack(">II", key_file[offset + 1:offset + 9])
offset += 9
salt = key_file[offset + 1:offset + 1 + key_file[offset]]
offset += 1 + key_file[offset]
nonce = key_file[offset:offset + 12]
header = key_file[:offset + 12]
offset += 12
wrapped = key_file[offset:offset + 48]
offset += 48 + 32  # wrapped key and tag, then the key check
assert hashlib.sha256(key_file[:offset]).digest() == key_file[offset:offset + 32], "checksum"

n = 1 << log_n
wrapping_key = hashlib.scrypt(passphrase, salt=salt, n=n, r=r, p=p, maxmem=256 * r * (n + p + 2), dklen=32)
data_key = AESGCM(wrapping_key).decrypt(nonce, wrapped, header)

record = open(os.path.join(directory, profile + ".record"), "rb").read()
assert record[:8] == b"AUTHVREC", "record magic"
associated = b"authvault record" + record[8:10] + struct.pack(">H", len(profile.encode())) + profile.encode()
plaintext = AESGCM(data_key).decrypt(record[10:22], record[22:], associated)
print(json.dumps({"kdf": kdf, "logN": log_n, "r": r, "p": p, "record": json.loads(plaintext)}))
