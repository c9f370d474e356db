"""The Redis pool: past its connections, a request waits briefly for one instead of failing."""

import threading
import time

import redis

from tests import servers


def test_a_burst_past_the_pool_waits_for_a_connection_instead_of_failing(tmp_path, redis_server, gunicorn):
    """150 requests at once, each reading a session, while Redis holds every command for 0.5 s:
    with 100 connections per process, 50 of them wait for one; none gets 503."""
    env = servers.app_env(tmp_path, REDIS_URL=redis_server.url)
    with gunicorn(env, workers=1) as base:
        assert servers.HttpClient(base, timeout=60).get("/").status_code == 200  # the worker has loaded the app
        clients = []
        for n in range(150):
            client = servers.HttpClient(base, timeout=10)
            client.cookies["ttt"] = f"made-up-{n:04d}{'x' * 30}"  # read from Redis, never written
            clients.append(client)
        pause = threading.Timer(0.2, lambda: redis.Redis.from_url(redis_server.url).client_pause(500))
        pause.start()

        def load(client):
            time.sleep(0.3)  # Redis paused by now
            try:
                return client.get("/").status_code
            except OSError as exc:
                return type(exc).__name__

        statuses = servers.together(*[lambda c=c: load(c) for c in clients])
        pause.join()
        assert statuses.count(200) == 150, {s: statuses.count(s) for s in set(statuses)}
