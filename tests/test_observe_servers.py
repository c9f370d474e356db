"""What an operator watches, on real servers: /metrics adding up gunicorn's workers, the
access log's lines (text and JSON), /readyz against a Redis that stops answering, and no
start on Redis without SECRET_KEY."""

from __future__ import annotations

import functools
import json
import os
import signal
import subprocess
import sys
import time

import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests import servers
from tests.test_live import pair, stream
from ttt_web.app import create_app

pytestmark = pytest.mark.server

TOKEN = "scrape-token"


def scrape(base: str) -> dict[tuple[str, tuple], float]:
    response = servers.HttpClient(base).get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 200
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(response.text)
        for sample in family.samples
    }


def page(client: servers.HttpClient, n: int) -> int:
    return client.get(f"/?game=secret-{n}", headers={"X-Request-ID": f"probe-{n}"}).status_code


def log_lines(log, since: int) -> list[str]:
    return log.read_bytes()[since:].decode().splitlines()


def test_metrics_add_up_every_worker_and_the_json_access_log_says_who_answered(tmp_path, gunicorn):
    log = tmp_path / "gunicorn.log"
    env = servers.app_env(
        tmp_path, TTT_METRICS_TOKEN=TOKEN, TTT_ACCESS_LOG="json", GUNICORN_CMD_ARGS="--access-logfile -"
    )
    with gunicorn(env, workers=2, log=log) as base:
        client = servers.HttpClient(base)  # a connection of its own for each request
        sent = 0
        while True:  # until both workers have answered some: 16 connections at once, each its own request
            calls = [functools.partial(page, client, sent + n) for n in range(16)]
            assert servers.together(*calls) == [200] * len(calls)
            sent += len(calls)
            time.sleep(0.1)  # each worker writes its lines once it has answered
            lines = [json.loads(line) for line in log_lines(log, 0) if line.startswith("{")]
            if len({line["pid"] for line in lines}) == 2 or sent >= 800:
                break
        assert {line["pid"] for line in lines} == set(servers.worker_pids(base)), "both workers answered"
        samples = scrape(base)
        assert samples[("ttt_requests_total", (("endpoint", "play.index"), ("status", "200")))] == sent
    lines = [json.loads(line) for line in log_lines(log, 0) if line.startswith("{")]  # all written by now
    pages = [line for line in lines if line["path"].startswith("/?")]
    assert len(pages) == sent
    assert {line["request_id"] for line in pages} == {f"probe-{n}" for n in range(sent)}
    first = pages[0]
    assert first["method"] == "GET" and first["path"] == "/?game" and first["status"] == 200
    assert set(first) == {"time", "method", "path", "status", "duration", "request_id", "pid"}
    assert 0 < first["duration"] < 5
    assert "secret" not in log.read_text()


def test_the_text_access_log_ends_with_the_request_id(logged_server):
    base, mark = logged_server.base, logged_server.mark()
    made = servers.HttpClient(base).get("/").headers["X-Request-ID"]
    servers.HttpClient(base).get("/healthz", headers={"X-Request-ID": "given-1"})
    lines = [line for line in logged_server.log_since(mark).splitlines() if '"GET /' in line]
    assert lines[0].startswith("127.0.0.1 ") and lines[0].endswith(f" {made}")
    assert lines[1].endswith(" given-1")


def test_a_worker_that_dies_takes_its_open_streams_out_of_the_gauge_and_keeps_its_counts(tmp_path, gunicorn):
    env = servers.app_env(tmp_path, TTT_METRICS_TOKEN=TOKEN, TTT_NEW_ROOM_LIMIT="1000 per minute")
    with gunicorn(env, workers=2) as base:
        host, _ = pair(base)
        opened = [stream(base, host) for _ in range(4)]
        try:
            assert all(s.status == 200 for s in opened)
            assert scrape(base)[("ttt_event_streams_open", ())] == 4
            served = answered(scrape(base))
            for pid in servers.worker_pids(base):
                os.kill(pid, signal.SIGKILL)
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                try:
                    samples = scrape(base)
                except OSError:
                    time.sleep(0.2)
                    continue
                if samples[("ttt_event_streams_open", ())] == 0:
                    break
                time.sleep(0.2)
            assert samples[("ttt_event_streams_open", ())] == 0
            assert answered(samples) > served  # the dead workers' counts, and the scrapes since
        finally:
            for s in opened:
                s.close()


def answered(samples: dict) -> float:
    return sum(value for (name, _), value in samples.items() if name == "ttt_requests_total")


def test_gunicorn_on_redis_without_a_secret_key_exits_and_names_it(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"}
    (tmp_path / "tmp").mkdir()  # where the master makes its metrics' folder (TMPDIR)
    env.update(
        TTT_INSTANCE_DIR=str(tmp_path / "instance"), REDIS_URL="redis://127.0.0.1:9/0", TMPDIR=str(tmp_path / "tmp")
    )
    command = [sys.executable, "-m", "gunicorn", "-c", str(servers.ROOT / "gunicorn.conf.py")]
    command += ["--workers", "2", "--bind", f"127.0.0.1:{servers.free_port()}", "wsgi:app"]
    done = subprocess.run(command, cwd=servers.ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert "SECRET_KEY is not set" in done.stderr
    assert not (tmp_path / "instance" / "secret_key").exists()
    assert list((tmp_path / "tmp").iterdir()) == []  # the metrics' folder removed though the app never loaded


def test_readyz_answers_503_at_once_when_redis_stops_answering_and_healthz_still_200(tmp_path):
    redis = servers.RedisServer(tmp_path / "redis").start()
    try:
        client = create_app({"SECRET_KEY": "s", "REDIS_URL": redis.url}).test_client()
        assert client.get("/readyz").status_code == 200
        redis.process.send_signal(signal.SIGSTOP)  # connections still open, nothing answers
        try:
            for _ in range(3):
                start = time.monotonic()
                response = client.get("/readyz")
                took = time.monotonic() - start
                assert response.status_code == 503 and response.headers["Retry-After"]
                assert took < 0.5, took  # the probe's 100 ms, not the client's 2 s timeout
            assert client.get("/healthz").status_code == 200
        finally:
            redis.process.send_signal(signal.SIGCONT)
        deadline = time.monotonic() + 5
        while client.get("/readyz").status_code != 200:  # the probe in flight finishes first
            assert time.monotonic() < deadline
            time.sleep(0.05)
        redis.stop()
        assert client.get("/readyz").status_code == 503
        assert client.get("/healthz").status_code == 200
    finally:
        redis.stop()
