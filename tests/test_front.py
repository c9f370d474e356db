"""`make run`'s front: deploy/nginx.conf as deploy/front.py fills it in, nginx's key for a
client (an IPv6 /64), the client's address passed on to the app, and ctrl-C stopping both."""

import http.client
import os
import re
import signal
import socket
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from deploy import front
from tests import servers

pytestmark = pytest.mark.server

ROOT = Path(__file__).resolve().parent.parent


def nginx(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([front.nginx_binary(), *args], capture_output=True, text=True, timeout=30)


def test_the_filled_in_config_is_one_nginx_accepts(tmp_path):
    text = front.nginx_config(tmp_path, "127.0.0.1:1", f"unix:{tmp_path}/gunicorn.sock")
    assert "@{" not in text
    (tmp_path / "nginx.conf").write_text(text)
    checked = nginx("-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"), "-e", "stderr")
    assert checked.returncode == 0, checked.stderr


def test_an_ipv6_client_counts_by_its_64_and_an_ipv4_client_by_its_address(tmp_path):
    """deploy/nginx.conf's own key (its `map`), under a limit of one request a minute, with
    the client's address taken from a header (no IPv6 but ::1 on loopback)."""
    key = re.search(r"map \$binary_remote_addr \$client \{.*?\n    \}", (ROOT / "deploy/nginx.conf").read_text(), re.S)
    port = servers.free_port()
    (tmp_path / "nginx.conf").write_text(f"""
        pid {tmp_path}/nginx.pid;
        events {{}}
        http {{
            access_log off;
            client_body_temp_path {tmp_path}/body; proxy_temp_path {tmp_path}/proxy;
            fastcgi_temp_path {tmp_path}/fastcgi; uwsgi_temp_path {tmp_path}/uwsgi; scgi_temp_path {tmp_path}/scgi;
            {key[0]}
            limit_req_zone $client zone=requests:1m rate=1r/m;
            limit_req_status 429;
            server {{
                listen 127.0.0.1:{port};
                set_real_ip_from 127.0.0.0/8;
                real_ip_header X-Test-Client;
                limit_req zone=requests;
                location / {{ empty_gif; }}
            }}
        }}""")
    command = [front.nginx_binary(), "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"), "-e", "stderr"]
    process = subprocess.Popen([*command, "-g", "daemon off; error_log stderr crit;"])
    try:
        servers.wait_for_port(port, process)

        def status(address: str) -> int:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            try:
                connection.request("GET", "/", headers={"X-Test-Client": address})
                return connection.getresponse().status
            finally:
                connection.close()

        same_64 = ["2001:db8:1:2::1", "2001:db8:1:2:ffff::9", "2001:db8:1:2:abcd:1:2:3"]
        assert [status(address) for address in same_64] == [200, 429, 429]
        assert [status("2001:db8:1:3::1"), status("2001:db8:1:3::2")] == [200, 429]  # the next /64
        assert [status("10.0.0.1"), status("10.0.0.2"), status("10.0.0.1")] == [200, 200, 429]
    finally:
        servers.stop(process)


def test_the_app_sees_each_clients_own_address_through_the_proxy(tmp_path):
    """One new session a minute per network: behind nginx, each client's network is counted,
    not the proxy's; an X-Forwarded-For the client sends is not believed."""
    with servers.make_run(servers.app_env(tmp_path, TTT_NEW_SESSION_LIMIT="1 per minute")) as base:

        def first_move(source: str, **headers: str) -> int:
            client = servers.HttpClient(base, source=source)
            return client.get("/move?n=0&row=1&col=1", headers=headers).status_code

        assert first_move("127.9.1.1") == 303
        assert first_move("127.9.2.1") == 303  # another network
        assert first_move("127.9.1.2") == 429  # the first one's network
        assert first_move("127.9.1.3", **{"X-Forwarded-For": "10.7.7.7", "X-Real-IP": "10.7.7.7"}) == 429


def session_processes(leader: int) -> list[int]:
    """The processes of session `leader` (make, deploy/front.py, gunicorn, nginx)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == leader:  # the session id
            found.append(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGHUP], ids=["ctrl-C", "the terminal hung up"])
def test_ctrl_c_or_a_hang_up_stops_nginx_and_gunicorn(tmp_path, signum):
    port = servers.free_port()
    command = [servers.require("make", "make"), "--no-print-directory", "run", f"PORT={port}"]
    env = {**os.environ, **servers.app_env(tmp_path)}
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, start_new_session=True)
    try:
        servers.wait_for_port(port, process)
        servers.HttpClient(f"http://127.0.0.1:{port}").get("/robots.txt")  # nginx's workers and gunicorn's answer
        running = session_processes(process.pid)
        commands = b"\n".join(Path(f"/proc/{pid}/cmdline").read_bytes() for pid in running)
        assert b"nginx: master" in commands and b"nginx: worker" in commands and b"gunicorn" in commands
        os.killpg(process.pid, signum)  # what ctrl-C, or a terminal that hangs up, sends its foreground
        process.wait(20)
        deadline = time.monotonic() + 10
        while any(alive(pid) for pid in running) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [pid for pid in running if alive(pid)]
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)


def test_a_refused_stream_closes_its_connection_and_head_on_a_stream_is_answered(tmp_path):
    """Every stream refused (no place in any room): the 503 ends the connection, though the
    client asked to keep it alive; HEAD gets the stream's headers."""
    with servers.make_run(servers.app_env(tmp_path, TTT_STREAMS_PER_ROOM="0")) as base:
        events = servers.HttpClient(base).post("/room/new").headers["Location"] + "/events"
        port = int(base.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=3) as sock:  # nginx idles 5 s
            sock.sendall(f"GET {events} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n".encode())
            answer = b""
            while chunk := sock.recv(65536):  # until the server closes
                answer += chunk
        assert answer.startswith(b"HTTP/1.1 503") and b"Retry-After: 10" in answer
        head = servers.HttpClient(base).request("HEAD", events)
        assert head.status_code == 200 and head.headers["Content-Type"].startswith("text/event-stream")


def picture_status(base: str, source: str, path: str) -> int:
    host, port = base.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30, source_address=(source, 0))
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def test_review_pictures_past_two_a_second_from_one_client_are_refused_at_the_proxy(tmp_path):
    """The costliest page a stranger can ask for by the thousand: a burst of 10 is drawn, the
    rest of 30 asked at once is refused (429) by nginx, and another client is still served."""
    with servers.make_run(servers.app_env(tmp_path)) as base:
        paths = [f"/review/4-0-8-{n % 7 + 1}/board.png?x=N{n}" for n in range(30)]
        with ThreadPoolExecutor(30) as asking:  # all at once: within the second, however slow the machine
            statuses = list(asking.map(lambda path: picture_status(base, "127.9.3.1", path), paths))
        assert statuses.count(200) <= 12 and statuses.count(429) >= 18, statuses
        assert picture_status(base, "127.9.4.1", "/review/4-0/board.png") == 200


def test_explorer_and_students_pages_past_their_burst_from_one_client_are_refused_at_the_proxy(tmp_path):
    """The pages worked out on demand: of 36 asked at once by one client, at most the burst
    (20) and the one the rate allows are passed on, the rest refused (429) by nginx; another
    client is still served at once. A trace's steps are not among them: 36 at once are served."""
    with servers.make_run(servers.app_env(tmp_path)) as base:
        paths = ["/explore/", "/learn/"] * 18  # pages kept: every refusal here is the proxy's
        with ThreadPoolExecutor(len(paths)) as asking:
            statuses = list(asking.map(lambda path: picture_status(base, "127.9.5.1", path), paths))
        assert statuses.count(200) <= 23 and statuses.count(429) >= 13 and set(statuses) == {200, 429}, statuses
        assert picture_status(base, "127.9.6.1", "/explore/") == 200
        steps = [f"/learn/trace/X...O....?step={n}" for n in range(1, 19)]
        steps += [f"/learn/alphabeta/X...O....?step={n}" for n in range(1, 19)]
        with ThreadPoolExecutor(len(steps)) as asking:
            statuses = list(asking.map(lambda path: picture_status(base, "127.9.5.2", path), steps))
        assert set(statuses) == {200}, statuses


def test_new_rooms_past_their_burst_from_one_client_are_refused_at_the_proxy(tmp_path):
    """30 new rooms asked at once by one client: the burst (10) and the one the rate allows
    are made, the rest refused (429) by nginx, not by the app's own count per network, which
    is lifted here; another client still makes one."""
    with servers.make_run(servers.app_env(tmp_path, TTT_NEW_ROOM_LIMIT="1000 per minute")) as base:

        def new_room(source: str) -> int:
            return servers.HttpClient(base, source=source).post("/room/new").status_code

        with ThreadPoolExecutor(30) as asking:
            statuses = list(asking.map(lambda _: new_room("127.9.7.1"), range(30)))
        assert statuses.count(303) <= 13 and statuses.count(429) >= 17 and set(statuses) == {303, 429}, statuses
        assert new_room("127.9.8.1") == 303
