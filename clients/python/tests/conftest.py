import shutil
import subprocess
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


@pytest.fixture(scope="session")
def c_build():
    """clients/c built with make once per run (skipped without a C toolchain): its build directory."""
    c_dir = Path(__file__).resolve().parents[2] / "c"
    if shutil.which("make") is None or shutil.which("cc") is None:
        pytest.skip("no C toolchain")
    build = subprocess.run(["make", "-C", str(c_dir), "-s", "all", "tests"], capture_output=True, text=True)
    if build.returncode != 0:
        pytest.fail("make -C clients/c failed:\n" + build.stderr)
    return c_dir / "build"


@pytest.fixture(scope="session")
def c_sanitized_build(c_build):
    """clients/c built once more with -fsanitize=address,undefined (any finding aborts), in
    build/sanitize (skipped when the compiler cannot)."""
    c_dir = c_build.parent
    flags = "-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
    probe = subprocess.run(["cc", *flags.split(), "-x", "c", "-", "-o", "/dev/null"], input="int main(void){return 0;}",
                           capture_output=True, text=True)
    if probe.returncode != 0:
        pytest.skip("the C compiler has no address/undefined sanitizers")
    build = subprocess.run(["make", "-C", str(c_dir), "-s", "BUILD=build/sanitize", f"SANITIZE={flags}", "all", "tests"],
                           capture_output=True, text=True)
    if build.returncode != 0:
        pytest.fail("make -C clients/c (sanitized) failed:\n" + build.stderr)
    return c_dir / "build" / "sanitize"
