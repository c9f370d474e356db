"""How gunicorn serves the app: `make run`, docs/deploy.md's deployment and the tests all load
this file (`gunicorn -c gunicorn.conf.py ... wsgi:app`).

gevent workers (ttt_web.server.worker): each connection is a greenlet, so a client that trickles
its headers or never finishes its body holds a few kilobytes, not a worker. Sync workers
would let two such clients stall the whole site. The app's waits (Redis, the network) yield
to the other greenlets, since the standard library is monkey-patched before the app is
loaded; nothing waits on another request.

The master loads the app once (preload_app) and each worker is a fork of it: a worker starts
in milliseconds instead of spending some 2 s of CPU on the imports and on the tables built at
start (the explorer's first page, the depth-limited searches' mistakes, the review picture's
parts), and the workers share those pages of memory. Everything of a process of its own (the
SQLite connection, Redis's pools, the rooms' live loop, the picture's drawing thread, the
newcomers' dispatcher, the metrics' files) starts on its first use in the worker, each
checking os.getpid() or started lazily. A HUP reloads this file but not the app's code: a
deploy restarts gunicorn (docs/deploy.md).
"""

from gevent import monkey

monkey.patch_all()  # first of all: gevent's documented order, before anything imports the standard library

import atexit  # noqa: E402 - after the patching, on purpose
import gc  # noqa: E402
import glob  # noqa: E402
import os  # noqa: E402
import shutil  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402

preload_app = True
worker_class = "ttt_web.server.worker.Worker"  # gevent's, ending streams at once on a stop (see there)
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
worker_connections = int(os.environ.get("TTT_WORKER_CONNECTIONS", "1000"))  # open connections per worker
keepalive = 5  # seconds a client has to send a request's headers (gevent), and to idle between requests
timeout = 30  # a worker that stops answering its master for this long is restarted
graceful_timeout = 10
logger_class = "ttt_web.server.accesslog.AccessLog"  # the access log without game and seat tokens
# gunicorn's own format, and the request's id (X-Request-ID) at the end; TTT_ACCESS_LOG=json: JSON lines
access_log_format = '%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" %({x-request-id}o)s'
# X-Forwarded-Proto and the like are trusted from nobody unless said (gunicorn trusts 127.0.0.1 by
# default): a client on the same host would otherwise choose the scheme of links on pages that
# caches keep for everyone.
forwarded_allow_ips = os.environ.get("TTT_FORWARDED_ALLOW_IPS", "")
control_socket_disable = True  # else every instance of one user would share ~/.gunicorn/gunicorn.ctl
# Past these, gunicorn answers by itself (400, 414 or 431, its own page without our headers).
limit_request_line = 4094
limit_request_fields = 50
limit_request_field_size = 8190


def post_request(worker, req, environ, resp):
    """Let the worker's other connections have their turn. A greenlet whose client sends its
    next request at once finds it already there and would serve it before anyone else. With
    16 busy connections (wrk), this took the 75th percentile from 47-87 ms to 4-5 ms and the
    99th from 550-720 ms to about 200 ms, at the same throughput."""
    import gevent

    gevent.sleep(0)


def name_metrics_folder() -> None:
    """The metrics' folder (prometheus-client's multiprocess mode: each worker writes its own
    files there, and /metrics adds them up), named before the master loads the app and so
    before anything imports prometheus_client: PROMETHEUS_MULTIPROC_DIR if given (emptied of a
    past run's files), else a new temporary folder, removed when the master exits, even when
    the app failed to load (gunicorn's on_exit runs only after a start). Once only: gunicorn
    reads this file again on a HUP, when the app (and prometheus_client) is loaded already."""
    if "prometheus_client" in sys.modules:
        return
    folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if folder:
        os.makedirs(folder, exist_ok=True)
        for old in glob.glob(os.path.join(folder, "*.db")):
            os.remove(old)
    else:
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = folder = tempfile.mkdtemp(prefix="ttt-metrics-")
        atexit.register(remove_in, os.getpid(), folder)


def remove_in(master: int, folder: str) -> None:
    """At exit, in the master only: the workers are its forks and run its exit handlers too."""
    if os.getpid() == master:
        shutil.rmtree(folder, ignore_errors=True)


name_metrics_folder()


def pre_fork(server, worker):
    """Everything the master made so far (the app and its tables) is left out of the cyclic
    garbage collector's passes (gc.freeze, as Python's documentation advises right before a
    fork): a worker's collections, and the one at its exit, no longer walk it all, each of
    them touching every page of it. That collection at exit took some 0.3 s of CPU in each
    process, the master's too."""
    gc.freeze()


def child_exit(server, worker):
    """A worker that is gone holds no event stream open any more (its counters stay counted)."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)
