"""The gunicorn worker that `make run` and the deployment use: gevent's, whose rooms' event
streams end at once when the worker is told to stop (a deploy, a restart): their browsers
reconnect to another worker, instead of holding the shutdown up until gunicorn's graceful
timeout kills them.

Connections per client address are bounded by the proxy in front (deploy/nginx.conf), which
sees each client; behind it, every connection comes from the proxy."""

from __future__ import annotations

import gevent
from gunicorn.workers.ggevent import GeventWorker


class Worker(GeventWorker):
    def handle_exit(self, sig, frame) -> None:
        from ..store import live  # loaded with the app by now; imported here, so gevent patches first

        super().handle_exit(sig, frame)
        gevent.spawn(live.end_streams)  # out of the signal handler, as gunicorn's own handle_quit does
