"""TLS for the Python client: the standard `ssl` module, TLS 1.2 or later, ALPN "streakd/1".

Inside TLS the protocol is unchanged: the same preface, then the same frames (PROTOCOL.md,
section 8). A failed verification raises `StreakError` (UNAVAILABLE) whose message starts
"certificate verify failed: " and names the reason: hostname mismatch, certificate has
expired, unknown CA.
"""

from __future__ import annotations

import os
import socket
import ssl
from typing import Mapping, Union

from .errors import StatusCode, StreakError

PathLike = Union[str, "os.PathLike[str]"]

ALPN_PROTOCOL = "streakd/1"
"""The ALPN protocol a client offers (a server accepts it, or no ALPN at all)."""

SYSTEM_CA_FILE = "/etc/ssl/certs/ca-certificates.crt"
"""Debian's system store of trusted CAs, the default when no CA file is given."""

# OpenSSL's X509_V_ERR_* values the messages name.
_HOSTNAME_MISMATCH = {62, 64}
_EXPIRED = 10
_NOT_YET_VALID = 9
_UNKNOWN_CA = {2, 18, 19, 20, 21}


def make_context(ca_file: PathLike | None = None) -> ssl.SSLContext:
    """A client context that verifies the server's certificate and host name against the PEM
    CA certificates in `ca_file` (default: the system store), TLS 1.2+, offering ALPN "streakd/1".

    Raises `StreakError` (INVALID_ARGUMENT) when the CA file cannot be loaded.
    """
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)  # verifies certificates and host names
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        if ca_file is not None:
            context.load_verify_locations(cafile=os.fspath(ca_file))
        elif os.path.exists(SYSTEM_CA_FILE):
            context.load_verify_locations(cafile=SYSTEM_CA_FILE)
        else:
            context.load_default_certs()
    except (OSError, ssl.SSLError) as exc:
        name = os.fspath(ca_file) if ca_file is not None else "the system store"
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise StreakError(StatusCode.INVALID_ARGUMENT, f"cannot load CA certificates from {name}: {reason}") from exc
    context.set_alpn_protocols([ALPN_PROTOCOL])
    return context


def resolve(tls: bool | ssl.SSLContext | None, ca_file: PathLike | None,
            server_hostname: str | None, environ: Mapping[str, str] | None = None) -> ssl.SSLContext | None:
    """The context to use, or None for plaintext: `tls` when it is a context; a new one
    (`make_context(ca_file)`) when `tls` is True, or `ca_file` or `server_hostname` is given;
    else, with `environ`, `$STREAK_TLS=1` turns TLS on with `$STREAK_CA_FILE` as the CA file.

    Raises `ValueError` for a `$STREAK_TLS` that is not 1 or 0 (or true/false, yes/no, on/off).
    """
    if isinstance(tls, ssl.SSLContext):
        return tls
    on = bool(tls) or ca_file is not None or server_hostname is not None
    if environ is not None and tls is None:
        text = environ.get("STREAK_TLS", "").strip().lower()
        if text in ("1", "true", "yes", "on"):
            on = True
        elif text not in ("", "0", "false", "no", "off"):
            raise ValueError(f"STREAK_TLS must be 1 or 0, not {text!r}")
        if on and ca_file is None and environ.get("STREAK_CA_FILE"):
            ca_file = environ["STREAK_CA_FILE"]
    return make_context(ca_file) if on else None


def wrap(sock: socket.socket, context: ssl.SSLContext, server_hostname: str, address: str) -> ssl.SSLSocket:
    """Runs the handshake on the connected, blocking `sock` (its timeout bounds it).

    Raises `StreakError` (UNAVAILABLE) with what failed: "certificate verify failed: ..." with
    the reason, the server's alert, or a server that does not speak TLS on that port.
    """
    prefix = f"cannot connect to streakd at {address} over TLS"
    try:
        return context.wrap_socket(sock, server_hostname=server_hostname)
    except ssl.SSLCertVerificationError as exc:
        sock.close()
        raise StreakError(StatusCode.UNAVAILABLE, f"{prefix}: {_verify_message(exc, server_hostname)}") from exc
    except ssl.SSLError as exc:
        sock.close()
        reason = exc.reason or str(exc)
        if reason in ("WRONG_VERSION_NUMBER", "RECORD_LAYER_FAILURE", "PACKET_LENGTH_TOO_LONG"):
            message = (f"the server does not serve TLS on this port (OpenSSL: {reason.lower().replace('_', ' ')}): "
                       "connect without TLS")
        else:
            message = reason.lower().replace("_", " ")
        raise StreakError(StatusCode.UNAVAILABLE, f"{prefix}: {message}") from exc
    except socket.timeout as exc:
        sock.close()
        raise StreakError(StatusCode.UNAVAILABLE, f"{prefix}: the TLS handshake timed out") from exc
    except OSError as exc:
        sock.close()
        raise StreakError(StatusCode.UNAVAILABLE, f"{prefix}: {exc.strerror or exc}") from exc


def _verify_message(exc: ssl.SSLCertVerificationError, server_hostname: str) -> str:
    code = exc.verify_code
    text = exc.verify_message or "unknown reason"
    if code in _HOSTNAME_MISMATCH:
        return f"certificate verify failed: hostname mismatch (the server's certificate is not for '{server_hostname}')"
    if code == _EXPIRED:
        return "certificate verify failed: certificate has expired"
    if code == _NOT_YET_VALID:
        return "certificate verify failed: certificate is not yet valid"
    if code in _UNKNOWN_CA:
        return (f"certificate verify failed: unknown CA ({text.lower()}): "
                "no trusted CA signed the server's certificate; pass ca_file=")
    return f"certificate verify failed: {text}"
