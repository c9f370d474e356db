"""How gunicorn serves the app: `make run`, docs/deploy.md's deployment and the tests all load
this file (`gunicorn -c gunicorn.conf.py ... wsgi:app`).

gevent workers (ttt_web.server.worker): each connection is a greenlet, so a client that trickles
its headers or never finishes its body holds a few kilobytes, not a worker. Sync workers
would let two such clients stall the whole site. The app's waits (Redis, the network) yield
to the other greenlets, since gunicorn monkey-patches the standard library before it loads
the app; nothing waits on another request.
"""

import glob
import os
import shutil
import tempfile

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


made_folders = []  # the metrics' folder, when on_starting made it


def on_starting(server):
    """The metrics' folder (prometheus-client's multiprocess mode: each worker writes its own
    files there, and /metrics adds them up), made before any worker starts and so before any
    imports prometheus_client: PROMETHEUS_MULTIPROC_DIR if given (emptied of a past run's
    files), else a new temporary folder, removed on exit."""
    folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if folder:
        os.makedirs(folder, exist_ok=True)
        for old in glob.glob(os.path.join(folder, "*.db")):
            os.remove(old)
    else:
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="ttt-metrics-")
        made_folders.append(os.environ["PROMETHEUS_MULTIPROC_DIR"])


def child_exit(server, worker):
    """A worker that is gone holds no event stream open any more (its counters stay counted)."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


def on_exit(server):
    for folder in made_folders:
        shutil.rmtree(folder, ignore_errors=True)
