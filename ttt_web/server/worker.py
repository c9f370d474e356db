"""The gunicorn worker that `make run` and the deployment use: gevent's, with a bound on the
connections one client address may hold open in a worker, so that one client's idle
keep-alive connections cannot take every place (`worker_connections`) from everyone else.

Behind a proxy, every connection comes from the proxy's address: set
TTT_CONNECTIONS_PER_ADDRESS=0 there and bound them in the proxy (nginx: `limit_conn`).

When the worker is told to stop (a deploy, a restart), its rooms' event streams end at once:
their browsers reconnect to another worker, instead of holding the shutdown up until
gunicorn's graceful timeout kills them."""

from __future__ import annotations

import os
from collections import Counter

import gevent
from gunicorn.workers.ggevent import GeventWorker

PER_ADDRESS = int(os.environ.get("TTT_CONNECTIONS_PER_ADDRESS", "200"))


class Worker(GeventWorker):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.open_from: Counter[str] = Counter()

    def handle(self, listener, client, addr) -> None:
        address = addr[0] if isinstance(addr, tuple) else ""
        if PER_ADDRESS and self.open_from[address] >= PER_ADDRESS:
            client.close()  # over its share: refused at once, costing nothing
            return
        self.open_from[address] += 1
        try:
            super().handle(listener, client, addr)
        finally:
            self.open_from[address] -= 1
            if not self.open_from[address]:
                del self.open_from[address]

    def handle_exit(self, sig, frame) -> None:
        from ..store import live  # loaded with the app by now; imported here, so gevent patches first

        super().handle_exit(sig, frame)
        gevent.spawn(live.end_streams)  # out of the signal handler, as gunicorn's own handle_quit does
