"""What keeps make check free of servers: tests/isolation/run (make check runs its tests under
it) fails a run that starts redis-server, gunicorn or Chromium, and a unit test cannot start a
server through tests/servers.py (tests/conftest.py gives it its kind from its fixtures)."""

import subprocess
import sys

import pytest

from tests.servers import ROOT, RedisServer

RUN = ROOT / "tests" / "isolation" / "run"


def isolated(*command) -> subprocess.CompletedProcess:
    return subprocess.run([RUN, *command], cwd=ROOT, capture_output=True, text=True, timeout=60)


def in_python(tmp_path, source: str) -> subprocess.CompletedProcess:
    script = tmp_path / "script.py"
    script.write_text(source)
    return isolated(sys.executable, script)


def test_a_run_that_starts_no_server_passes(tmp_path):
    done = in_python(tmp_path, "print('no server here')")
    assert done.returncode == 0 and done.stdout == "no server here\n" and done.stderr == ""


def test_a_redis_server_started_from_anywhere_is_the_stand_in_and_fails_the_run():
    done = isolated("sh", "-c", "redis-$0 --port 0; echo started: $?", "server")  # the name in no argument here
    assert done.stdout == "started: 1\n"  # the stand-in, not a server
    assert done.returncode == 1 and "started one:\nredis-server --port 0\n" in done.stderr


def test_a_redis_server_started_from_python_fails_the_run(tmp_path):
    done = in_python(tmp_path, "import subprocess; subprocess.run(['redis-server', '--port', '0'])")
    assert done.returncode == 1 and "redis-server --port 0" in done.stderr


def test_a_run_that_starts_gunicorn_fails_and_says_so(tmp_path):
    done = in_python(
        tmp_path, "import subprocess, sys; subprocess.run([sys.executable, '-m', 'gunicorn', '--version'])"
    )
    assert done.returncode == 1 and "-m gunicorn --version" in done.stderr


def test_a_unit_test_cannot_start_a_server_through_tests_servers(tmp_path, request):
    assert request.node.get_closest_marker("unit")
    with pytest.raises(RuntimeError, match="is a unit test but starts redis-server"):
        RedisServer(tmp_path).start()
