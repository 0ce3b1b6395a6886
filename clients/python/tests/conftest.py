import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))


import pytest  # noqa: E402

from streakd_client import Client  # noqa: E402
from streakd_process import running_streakd  # noqa: E402


# One real streakd per test module, for modules that do not define their own `server`
# (test_integration.py starts one per test).
@pytest.fixture(scope="module")
def server():
    yield from running_streakd()


@pytest.fixture(scope="module")
def client(server):
    with Client(server.host, server.port, token=server.token, timeout=10) as client:
        yield client
