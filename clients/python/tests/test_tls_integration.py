"""The Python client over TLS against a real streakd (STREAKD_BIN) serving certificates that the
tests make with the openssl command: what works, and what each failure says on both sides."""

from __future__ import annotations

import datetime
import os
import shutil
import ssl
import time

import pytest

from streakd_client import Client, StatusCode, StreakError
from streakd_process import StreakdProcess, streakd_binary
from tls_certs import Certificates, Pair

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def certs():
    if shutil.which("openssl") is None:
        pytest.skip("no openssl command")
    certificates = Certificates()
    yield certificates
    certificates.cleanup()


def start(pair: Pair) -> StreakdProcess:
    binary = streakd_binary()
    if binary is None:
        pytest.skip("STREAKD_BIN is not set to an executable streakd")
    return StreakdProcess(binary, extra=["--tls-cert", pair.cert, "--tls-key", pair.key])


@pytest.fixture(scope="module")
def tls_server(certs):
    server = start(certs.server)
    yield server
    server.stop()


def log_of(server: StreakdProcess, text: str, timeout: float = 10.0) -> str:
    """The server's log once it holds `text` (the test fails when it never does)."""
    deadline = time.monotonic() + timeout
    while True:
        with open(server.log_path) as log:
            content = log.read()
        if text in content or time.monotonic() > deadline:
            assert text in content, content[-2000:]
            return content
        time.sleep(0.05)


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1"])
def test_verified_connection(certs, tls_server, host):
    with Client(host, tls_server.port, token=tls_server.token, tls=True, ca_file=certs.ca_file) as client:
        assert client.connection.tls_version in ("TLSv1.2", "TLSv1.3")
        habit = client.create_habit(f"Read via {host}")
        assert any(h.id == habit.id for h in client.list_habits())
        # A large answer and a pipelined burst: many TLS records per read.
        heatmap = client.get_heatmap(habit_ids=[habit.id], start=datetime.date(2010, 1, 1),
                                     end=datetime.date(2025, 12, 31), accessibility_labels=True)
        assert len(heatmap.weeks) > 800


def test_own_context_and_environment(certs, tls_server, monkeypatch):
    context = ssl.create_default_context(cafile=certs.ca_file)
    with Client("localhost", tls_server.port, token=tls_server.token, tls=context) as client:
        assert client.ping().serving
    monkeypatch.setenv("STREAK_TLS", "1")
    monkeypatch.setenv("STREAK_CA_FILE", certs.ca_file)
    with Client.from_env(f"localhost:{tls_server.port}", token=tls_server.token) as client:
        assert client.connection.tls_version is not None
        assert client.list_habits() is not None
    monkeypatch.setenv("STREAK_TLS", "maybe")
    with pytest.raises(ValueError, match="STREAK_TLS must be 1 or 0"):
        Client.from_env(f"localhost:{tls_server.port}", token=tls_server.token)


@pytest.mark.parametrize("case, client_text, server_text", [
    ("wrong_host", "certificate verify failed: hostname mismatch", "sslv3 alert bad certificate"),
    ("wrong_name", "certificate verify failed: hostname mismatch", "sslv3 alert bad certificate"),
    ("expired", "certificate verify failed: certificate has expired", "sslv3 alert certificate expired"),
    ("unknown_ca", "certificate verify failed: unknown CA", "tlsv1 alert unknown ca"),
])
def test_refused_certificates(certs, case, client_text, server_text):
    pair = {"wrong_host": certs.wrong_host, "expired": certs.expired, "unknown_ca": certs.unknown_ca}.get(case, certs.server)
    server = start(pair)
    try:
        name = "streakd.example" if case == "wrong_name" else None
        with pytest.raises(StreakError) as error:
            Client("localhost", server.port, token=server.token, ca_file=certs.ca_file, server_hostname=name)
        assert error.value.code == StatusCode.UNAVAILABLE
        assert f"over TLS: {client_text}" in error.value.message, error.value.message
        content = log_of(server, "TLS handshake failed (the client refused the server's certificate)")
        assert server_text in content
    finally:
        server.stop()


def test_plaintext_client_against_tls_port(tls_server):
    with pytest.raises(StreakError) as error:
        with Client("127.0.0.1", tls_server.port, token=tls_server.token) as client:
            client.list_habits()
    assert "this streakd port requires TLS" in error.value.message, error.value.message
    log_of(tls_server, "a plaintext client connected to the TLS port")


def test_tls_client_against_plaintext_port(certs):
    binary = streakd_binary()
    if binary is None:
        pytest.skip("STREAKD_BIN is not set to an executable streakd")
    server = StreakdProcess(binary)
    try:
        with pytest.raises(StreakError) as error:
            Client("localhost", server.port, token=server.token, ca_file=certs.ca_file)
        assert "does not serve TLS on this port" in error.value.message, error.value.message
    finally:
        server.stop()


def test_missing_ca_file(tls_server):
    with pytest.raises(StreakError) as error:
        Client("localhost", tls_server.port, token=tls_server.token, ca_file=os.path.join("/nonexistent", "ca.pem"))
    assert error.value.code == StatusCode.INVALID_ARGUMENT
    assert "cannot load CA certificates from /nonexistent/ca.pem" in error.value.message


def test_alpn_none_or_streakd(certs, tls_server):
    """ALPN: none (the context above) or "streakd/1" is served; a client offering only other
    protocols is refused with the no_application_protocol alert (PROTOCOL.md section 8)."""
    offered = ssl.create_default_context(cafile=certs.ca_file)
    offered.set_alpn_protocols(["streakd/1"])
    with Client("localhost", tls_server.port, token=tls_server.token, tls=offered) as client:
        assert client.ping().serving
    other = ssl.create_default_context(cafile=certs.ca_file)
    other.set_alpn_protocols(["h2", "http/1.1"])
    with pytest.raises(StreakError) as error:
        Client("localhost", tls_server.port, token=tls_server.token, tls=other)
    assert "no application protocol" in error.value.message, error.value.message
    log_of(tls_server, "no application protocol")
