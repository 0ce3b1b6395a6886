"""A throwaway CA and server certificates for TLS tests, made with the `openssl` command
(as Tests/StreakTestSupport/TestCertificates.swift makes them for the Swift tests).

`server` is valid for localhost and 127.0.0.1 and signed by `ca`; `expired` ended a day ago
(`openssl x509 -req -days -1`, which OpenSSL 3.0 takes as "end one day before now"); `wrong_host`
is for wrong.example only; `unknown_ca` is signed by a second CA that no client trusts.
"""

from __future__ import annotations

import os
import random
import subprocess
import tempfile
from dataclasses import dataclass


@dataclass(frozen=True)
class Pair:
    cert: str
    key: str


_CONFIG = """[req]
distinguished_name = dn
prompt = no
[dn]
CN = unused
[authority]
basicConstraints = critical,CA:TRUE
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
"""


class Certificates:
    def __init__(self) -> None:
        self._tmp = tempfile.TemporaryDirectory(prefix="streakd-tls-py-")
        self.dir = self._tmp.name
        with open(self._path("openssl.cnf"), "w") as config:
            config.write(_CONFIG)
        self.ca_file = self._authority("ca", "Streakd Test CA")
        self.other_ca_file = self._authority("other-ca", "Streakd Other CA")
        names = "DNS:localhost,IP:127.0.0.1"
        self.server = self._issue("server", "localhost", names, 30, "ca")
        self.expired = self._issue("expired", "localhost", names, -1, "ca")
        self.wrong_host = self._issue("wrong-host", "wrong.example", "DNS:wrong.example", 30, "ca")
        self.unknown_ca = self._issue("unknown-ca", "localhost", names, 30, "other-ca")

    def cleanup(self) -> None:
        self._tmp.cleanup()

    def _path(self, name: str) -> str:
        return os.path.join(self.dir, name)

    def _run(self, *args: str) -> None:
        env = dict(os.environ, OPENSSL_CONF=self._path("openssl.cnf"))
        result = subprocess.run(["openssl", *args], cwd=self.dir, env=env, capture_output=True, text=True)
        if result.returncode != 0:
            raise RuntimeError(f"openssl {' '.join(args)} failed: {result.stdout}{result.stderr}")

    def _key(self, name: str) -> str:
        key = self._path(f"{name}.key")
        self._run("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", key)
        return key

    def _authority(self, name: str, common_name: str) -> str:
        key = self._key(name)
        cert = self._path(f"{name}.crt")
        self._run("req", "-x509", "-new", "-key", key, "-subj", f"/CN={common_name}", "-days", "30",
                  "-extensions", "authority", "-out", cert)
        return cert

    def _issue(self, name: str, common_name: str, names: str, days: int, authority: str) -> Pair:
        key = self._key(name)
        request = self._path(f"{name}.csr")
        self._run("req", "-new", "-key", key, "-subj", f"/CN={common_name}", "-out", request)
        extensions = self._path(f"{name}.ext")
        with open(extensions, "w") as file:
            file.write("basicConstraints = CA:FALSE\nkeyUsage = critical,digitalSignature,keyEncipherment\n"
                       f"extendedKeyUsage = serverAuth\nsubjectAltName = {names}\n")
        cert = self._path(f"{name}.crt")
        self._run("x509", "-req", "-in", request, "-CA", self._path(f"{authority}.crt"),
                  "-CAkey", self._path(f"{authority}.key"), "-set_serial", str(random.randint(1000, 10**9)),
                  "-days", str(days), "-extfile", extensions, "-out", cert)
        return Pair(cert, key)
