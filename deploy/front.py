"""`make run`: nginx in front of gunicorn, the one-host production setup (docs/deploy.md).

gunicorn (gunicorn.conf.py) listens on a unix socket in a run directory of its own, which
only nginx reaches; nginx listens on HOST:PORT with deploy/nginx.conf, filled in here, and
runs in the foreground as a child of this process, with its pid file and temporary files in
the run directory, so no root is needed. Ctrl-C (or SIGTERM) stops both; if either stops,
the other is stopped too.

    python deploy/front.py [--host 127.0.0.1] [--port 5000]
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import string
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "deploy" / "nginx.conf"


class NginxTemplate(string.Template):
    delimiter = "@"  # nginx's own variables start with $


def settings() -> dict[str, str]:
    """The per-client bounds of deploy/nginx.conf, from the environment (docs/configuration.md)."""
    rate = int(os.environ.get("TTT_PROXY_REQUESTS_PER_SECOND", "20"))
    return {
        "requests_per_second": str(rate),
        "burst": os.environ.get("TTT_PROXY_BURST", str(2 * rate)),
        "in_flight": os.environ.get("TTT_PROXY_IN_FLIGHT", "40"),
        "streams_per_second": os.environ.get("TTT_PROXY_STREAMS_PER_SECOND", "1"),
        "pages_per_second": os.environ.get("TTT_PROXY_PAGES_PER_SECOND", "1"),
        "pages_burst": os.environ.get("TTT_PROXY_PAGES_BURST", "20"),
        "pages_immediate": os.environ.get("TTT_PROXY_PAGES_IMMEDIATE", "8"),
        "rooms_per_minute": os.environ.get("TTT_PROXY_ROOMS_PER_MINUTE", "20"),
        "rooms_burst": os.environ.get("TTT_PROXY_ROOMS_BURST", "10"),
        "stream_burst": os.environ.get("TTT_PROXY_STREAM_BURST", "20"),
        "worker_processes": os.environ.get("TTT_PROXY_WORKERS", "auto"),
        "log_level": os.environ.get("TTT_PROXY_LOG_LEVEL", "crit"),
    }


def nginx_config(run_dir: Path, listen: str, upstream: str) -> str:
    """deploy/nginx.conf filled in. As root, nginx's workers run as `nobody` (nginx's default),
    which may enter the run directory but not list it."""
    values = {"run_dir": str(run_dir), "listen": listen, "upstream": upstream, **settings()}
    return NginxTemplate(TEMPLATE.read_text()).substitute(values)


def nginx_binary() -> str:
    found = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/sbin")
    if found is None:
        sys.exit("nginx is missing: install the Debian package nginx (make run does)")
    return found


def wait_for_app(path: Path, process: subprocess.Popen, seconds: float = 60) -> None:
    """Until a gunicorn worker answers on the socket: the app started (a worker that cannot,
    SECRET_KEY missing with REDIS_URL say, makes gunicorn exit, and the reason is above)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            sys.exit(f"gunicorn exited with {process.returncode}: the app did not start (the reason is above)")
        try:
            with socket.socket(socket.AF_UNIX) as probe:
                probe.settimeout(10)  # a worker busy importing the app answers late; asked again, it answers twice
                probe.connect(str(path))
                probe.sendall(b"GET /healthz HTTP/1.0\r\nHost: localhost\r\n\r\n")
                if probe.recv(16).startswith(b"HTTP/"):
                    return
        except OSError:
            pass
        time.sleep(0.05)
    sys.exit(f"the app does not answer on {path} after {seconds} s")


def wait_for_nginx(pid_file: Path, process: subprocess.Popen, listen: str, seconds: float = 30) -> None:
    """Until nginx listens on `listen`: it writes its pid file once its sockets are bound."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            sys.exit(f"nginx exited with {process.returncode}: it could not serve on {listen} (the reason is above)")
        if pid_file.exists():
            return
        time.sleep(0.05)
    sys.exit(f"nginx is not listening on {listen} after {seconds} s")


def listen_address(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def serve(host: str, port: int) -> int:
    run_dir = Path(tempfile.mkdtemp(prefix="ttt-run-"))
    run_dir.chmod(0o711)  # nginx's workers connect to the socket inside
    sock = run_dir / "gunicorn.sock"
    env = {**os.environ, "TTT_PROXY_HOPS": "1"}  # the client's address: nginx's X-Forwarded-For, which it sets alone
    gunicorn_command = [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "gunicorn.conf.py")]
    gunicorn_command += ["--bind", f"unix:{sock}", "--access-logfile", "-", "wsgi:app"]
    children: list[subprocess.Popen] = []
    stopping: list[int] = []

    def stop(signum: int, _frame) -> None:
        stopping.append(signum)

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGHUP, stop)  # the terminal gone (an SSH session dropped): stop both, leave nothing
    try:
        # Each child in a process group of its own: ctrl-C reaches this process only, which
        # stops gunicorn gracefully (SIGTERM) rather than its workers each taking the SIGINT.
        children.append(subprocess.Popen(gunicorn_command, cwd=ROOT, env=env, process_group=0))
        wait_for_app(sock, children[0])
        config, listen = run_dir / "nginx.conf", listen_address(host, port)
        config.write_text(nginx_config(run_dir, listen, f"unix:{sock}"))
        nginx = [nginx_binary(), "-p", str(run_dir), "-c", str(config), "-e", "stderr", "-g", "daemon off;"]
        children.append(subprocess.Popen(nginx, cwd=run_dir, process_group=0))
        wait_for_nginx(run_dir / "nginx.pid", children[1], listen)
        print(
            f"Serving on http://{listen} (nginx, then gunicorn on {sock}, its master pid {children[0].pid})", flush=True
        )
        while not stopping and all(child.poll() is None for child in children):
            time.sleep(0.2)
        return 0 if stopping else 1
    finally:
        for child in reversed(children):
            if child.poll() is None:
                child.send_signal(signal.SIGTERM)  # nginx: fast shutdown; gunicorn: graceful
        for child in reversed(children):
            try:
                child.wait(15)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
        shutil.rmtree(run_dir, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "5000")))
    args = parser.parse_args()
    sys.exit(serve(args.host, args.port))


if __name__ == "__main__":
    main()
