"""Server-side sessions through Flask-Session, on files (default) or Redis.

What is added to Flask-Session here:

- Store failures are loud. cachelib's file store logs a failed read or write and carries
  on, which would turn a full disk into a silently lost move; here they raise, and the
  app answers 503 without writing anything.
- One writer per session at a time. Requests that change the game hold a per-session
  lock from before the session is read until after it is written (flock on a striped
  lock file, or a Redis lock that fences the write), so two tabs or a double click
  cannot interleave.
- A session file is rewritten in place (see StrictFileSystemCache), and a Redis session
  is read and written in the same round trips that take and free its lock.
- A new session id leaves a pointer behind: for POINTER_SECONDS, a request that still
  carries the old id (a second tab, a double click) is served the session under its new id,
  instead of finding nothing and starting a blank session that would wipe the score.
- The file store heals (a removed session or lock folder is made again), holds at most
  max_files sessions (the games idle the longest make room), and its sweep runs at most
  once per interval across all processes, after the response has been sent, instead of
  scanning the directory on each request. It also removes the empty or unreadable files
  that a killed worker can leave.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import os
import pickle
import secrets
import struct
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import redis
from cachelib.file import FileSystemCache
from flask import Flask, Request, Response, current_app, has_request_context, request
from flask_session.cachelib import CacheLibSessionInterface
from flask_session.redis import RedisSessionInterface
from werkzeug.exceptions import ServiceUnavailable

LOCKED_PATHS = ("/move",)  # GET routes that change the game; every POST is locked too
LOCK_WAIT = 5.0  # seconds a request waits for another request on the same session
LOCK_HOLD = 10.0  # seconds a Redis lock lives if its holder dies
LOCK_STRIPES = 4096
SWEEP_MARKER = ".last-sweep"
COUNT_FILE = ".count"  # how many files the store holds: exact after a sweep, counted up since
KEEP_AFTER_EVICTION = 0.9  # an eviction sweep makes room down to this share of max_files
MOVED = "ttt.moved_to"  # the only key of a pointer record: where the session moved to
POINTER_SECONDS = 60
MAX_HOPS = 4
GRACE = 60.0  # seconds before an empty or unreadable file counts as left by a dead worker
RETRY_SECONDS = 5  # what a 503 tells the client to wait
TEMP_SUFFIX = ".__wz_cache"  # cachelib's name for a file being written
HEADER = struct.Struct("I")  # expiry, as in cachelib: seconds since the epoch, or 0 for never
BLOCK = 4096


class SessionStoreError(RuntimeError):
    """The session store could not be read or written."""


class SessionBusy(SessionStoreError):
    """Another request held this session's lock for too long."""


STORE_ERRORS = (SessionStoreError, OSError, redis.RedisError)
T = TypeVar("T")


class StoreUnavailable(ServiceUnavailable):
    description = "Your game is safe, but we cannot reach it right now. Please try again in a moment."

    def __init__(self) -> None:
        super().__init__(retry_after=RETRY_SECONDS)


class StrictFileSystemCache(FileSystemCache):
    """cachelib's file store and file format (expiry, then the pickle), with two changes.

    Failing to read or write raises, where cachelib logs and carries on.

    A session's file is rewritten in place, padded to whole blocks, under an exclusive
    flock that readers share. cachelib writes a temporary file and renames it over the
    old one, and on ext4 each such rename waits for the new data to be flushed
    (auto_da_alloc): that cost more than the rest of a move together. A rewrite within
    the file's own blocks needs no new space, so a full disk cannot stop it half-way; a
    record that outgrows its file is written beside it and renamed over it, as before.

    Each file it creates is counted in COUNT_FILE; past `max_files` (0: no cap), it raises
    `over_cap` for the app to run an eviction sweep.
    """

    def __init__(self, directory: str, max_files: int = 0, **options) -> None:
        super().__init__(directory, **options)
        self.max_files = max_files
        self.over_cap = False

    def get(self, key: str) -> object:
        try:
            with open(self._get_filename(key), "rb") as f:
                fcntl.flock(f, fcntl.LOCK_SH)
                record = f.read()
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise SessionStoreError(f"cannot read session: {exc}") from exc
        if len(record) < HEADER.size:
            return None
        expires = HEADER.unpack_from(record)[0]
        if expires and expires < time.time():
            return None
        try:
            return pickle.loads(record[HEADER.size :])  # ignores the padding after it
        except Exception:  # a damaged file holds no game worth a 503
            return None

    def set(self, key: str, value: object, timeout: object = None, mgmt_element: bool = False) -> bool:
        record = HEADER.pack(self._normalize_timeout(timeout)) + pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
        path = self._get_filename(key)
        try:
            fd = open_healing(path, os.O_RDWR | os.O_CREAT, self._mode)
        except OSError as exc:
            raise SessionStoreError(f"cannot write session: {exc}") from exc
        size = 0
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            size = os.fstat(fd).st_size
            if size and len(record) > size:
                self._replace(path, record)
            else:
                _write_all(fd, _padded(record, size))
        except OSError as exc:
            if not size:  # the file is new: leave none behind
                with contextlib.suppress(OSError):
                    os.remove(path)
            raise SessionStoreError(f"cannot write session: {exc}") from exc
        finally:
            os.close(fd)
        if not size:
            self._count_new_file()
        return True

    def _count_new_file(self) -> None:
        if self.max_files and update_count(Path(self._path), lambda n: n + 1) > self.max_files:
            self.over_cap = True

    def _replace(self, path: str, record: bytes) -> None:
        fd, tmp = tempfile.mkstemp(suffix=TEMP_SUFFIX, dir=self._path)
        try:
            try:
                _write_all(fd, _padded(record, 0))
            finally:
                os.close(fd)
            os.replace(tmp, path)
        except OSError:
            with contextlib.suppress(OSError):
                os.remove(tmp)
            raise

    def delete(self, key: str, mgmt_element: bool = False) -> bool:
        if not super().delete(key, mgmt_element):
            raise SessionStoreError("cannot delete session")
        return True


def _padded(record: bytes, size: int) -> bytes:
    """`record`, padded with zeros to `size` or, if longer, to whole blocks."""
    return record.ljust(max(size, -(-len(record) // BLOCK) * BLOCK), b"\0")


def _write_all(fd: int, data: bytes) -> None:
    if os.pwrite(fd, data, 0) != len(data):  # a short write: the disk is full
        raise OSError(errno.ENOSPC, "short write")


def open_healing(path: str | Path, flags: int, mode: int) -> int:
    """os.open, making the file's folder again if someone removed it."""
    try:
        return os.open(path, flags, mode)
    except FileNotFoundError:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        return os.open(path, flags, mode)


def update_count(directory: Path, change: Callable[[int], int]) -> int:
    """Set the store's file count to change(count), under a lock; return the new count."""
    fd = open_healing(directory / COUNT_FILE, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        old = os.pread(fd, 8, 0)
        count = max(0, change(int.from_bytes(old, "big") if len(old) == 8 else 0))
        os.pwrite(fd, count.to_bytes(8, "big"), 0)
        return count
    finally:
        os.close(fd)


class FileLocks:
    """Per-session locks across processes on one host: flock on one of N lock files."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def path(self, sid: str) -> Path:
        """The lock file of session `sid`: one of LOCK_STRIPES."""
        stripe = int.from_bytes(hashlib.sha256(sid.encode()).digest()[:4], "big") % LOCK_STRIPES
        return self.directory / f"{stripe:04d}.lock"

    def acquire(self, sid: str) -> Callable[[], None]:
        fd = open_healing(self.path(sid), os.O_RDWR | os.O_CREAT, 0o600)

        def attempt() -> Callable[[], None] | None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return None
            return lambda: os.close(fd)  # closing the file releases the lock

        try:
            return _wait_for_lock(attempt, pause=0.002)
        except SessionBusy:
            os.close(fd)
            raise


def _wait_for_lock(attempt: Callable[[], T | None], pause: float) -> T:
    """What `attempt` returns once it takes the lock; SessionBusy after LOCK_WAIT seconds."""
    deadline = time.monotonic() + LOCK_WAIT
    while (taken := attempt()) is None:
        if time.monotonic() > deadline:
            raise SessionBusy("session lock timed out")
        time.sleep(pause)
    return taken


class RedisLocks:
    """Per-session locks across hosts, in Redis, that expire if their holder dies.

    Taking the lock also reads the session (one round trip, MULTI/EXEC), and the write
    that ends a request also lets the lock go (one round trip, a script). The write is
    fenced: if the lock expired meanwhile and someone else may hold it, nothing is
    written and the request fails with 503.
    """

    def __init__(self, client: redis.Redis, store_id: Callable[[str], str]) -> None:
        self.client = client
        self.store_id = store_id  # the session interface's key for a session id
        self.release_script = client.register_script(RELEASE_SCRIPT)
        self.write_script = client.register_script(WRITE_AND_RELEASE_SCRIPT)

    @staticmethod
    def key(sid: str) -> str:
        """The Redis key of the lock on session `sid`."""
        return f"ttt:lock:{sid}"

    def acquire(self, sid: str) -> RedisLock:
        lock = RedisLock(self, self.key(sid), self.store_id(sid))

        def attempt() -> RedisLock | None:
            pipe = self.client.pipeline()
            pipe.set(lock.key, lock.token, nx=True, px=int(LOCK_HOLD * 1000))
            pipe.get(lock.store_id)
            taken, lock.record = pipe.execute()
            return lock if taken else None

        return _wait_for_lock(attempt, pause=0.005)


class RedisLock:
    """A held session lock, with the session record read when it was taken."""

    def __init__(self, locks: RedisLocks, key: str, store_id: str) -> None:
        self.locks = locks
        self.key = key
        self.store_id = store_id
        self.token = secrets.token_hex(16)
        self.record: bytes | None = None
        self.held = True

    def write_and_release(self, store_id: str, record: bytes, seconds: int, pointer: tuple[str, bytes] | None) -> None:
        """Write the session and, if it got a new id, the pointer at its old one; then
        release. All or nothing, and only while the lock is still ours."""
        self.held = False
        keys, args = [self.key, store_id], [self.token, record, seconds]
        if pointer:
            keys.append(pointer[0])
            args += [pointer[1], POINTER_SECONDS]
        if not self.locks.write_script(keys=keys, args=args):
            raise SessionBusy("session lock expired before the write: nothing was written")

    def __call__(self) -> None:
        """Release, unless already released; an expired lock may be someone else's now."""
        if self.held:
            self.held = False
            self.locks.release_script(keys=[self.key], args=[self.token])


RELEASE_SCRIPT = """
if redis.call('get', KEYS[1]) == ARGV[1] then redis.call('del', KEYS[1]) end
"""
WRITE_AND_RELEASE_SCRIPT = """
if redis.call('get', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('set', KEYS[2], ARGV[2], 'EX', ARGV[3])
if KEYS[3] then redis.call('set', KEYS[3], ARGV[4], 'EX', ARGV[5]) end
redis.call('del', KEYS[1])
return 1
"""


def changes_session(request: Request) -> bool:
    """Whether a request may change its session: every POST, and the GET routes that
    change the game. Only these take the session's lock or can create a session."""
    return request.method not in ("GET", "HEAD") or request.path in LOCKED_PATHS


class GuardedSessions:
    """Mixin for a Flask-Session interface: lock changing requests, fail with 503."""

    locks: FileLocks | RedisLocks

    def open_session(self, app: Flask, request: Request):
        """The stored session the cookie names, following pointers left by new ids; else a
        new, empty one. A changing request holds the lock of the session it ends up on."""
        sid = request.cookies.get(app.config["SESSION_COOKIE_NAME"])
        locked = changes_session(request)
        try:
            for _ in range(MAX_HOPS):
                if not sid:
                    break
                if locked:
                    request.environ["ttt.release_lock"] = self.locks.acquire(sid)
                data = self._retrieve_session_data(self._get_store_id(sid))
                if data is None:
                    break
                if not isinstance(data.get(MOVED), str):
                    request.environ["ttt.stored_sid"] = sid
                    return self.session_class(data, sid=sid)
                _release_lock(None)  # a pointer never changes: its lock is not needed
                sid = data[MOVED]
        except STORE_ERRORS as exc:
            app.logger.warning("session store unavailable: %s", exc)
            request.environ["ttt.store_error"] = exc
            return self.make_null_session(app)
        return self.session_class(sid=self._generate_sid(self.sid_length), permanent=self.permanent)

    def regenerate(self, session) -> None:
        """A new id for the session. The old record becomes a pointer to the new one only
        once the new one is stored, so a store that fails in between loses nothing."""
        if session:
            request.environ["ttt.replaced_sid"] = session.sid
            session.sid = self._generate_sid(self.sid_length)
            session.modified = True

    def save_session(self, app: Flask, session, response: Response) -> None:
        if "ttt.store_error" in request.environ:
            return  # the error page after a failed write must not try the write again
        try:
            super().save_session(app, session, response)
        except STORE_ERRORS as exc:
            request.environ["ttt.store_error"] = exc
            raise
        # The client still names an old id: move its cookie over, but only on a page that
        # used the session. A page that is the same for every visitor (a review, which a
        # proxy may cache) must never set a cookie.
        cookie = request.cookies.get(self.get_cookie_name(app))
        if session.accessed and session and not session.modified and cookie != session.sid:
            self._set_cookie(app, session, response)

    def _set_cookie(self, app: Flask, session, response: Response) -> None:
        response.set_cookie(
            self.get_cookie_name(app),
            session.sid,
            expires=self.get_expiration_time(app, session),
            httponly=self.get_cookie_httponly(app),
            domain=self.get_cookie_domain(app),
            path=self.get_cookie_path(app),
            secure=self.get_cookie_secure(app),
            samesite=self.get_cookie_samesite(app),
        )
        response.vary.add("Cookie")

    def _pointer(self, session) -> tuple[str, dict] | None:
        """The store id of the id this session just left, and the record to leave there."""
        replaced = request.environ.get("ttt.replaced_sid")
        return (self._get_store_id(replaced), {MOVED: session.sid}) if replaced else None


class FileSessions(GuardedSessions, CacheLibSessionInterface):
    cache: StrictFileSystemCache

    def save_session(self, app: Flask, session, response: Response) -> None:
        """Save; if that took the store over its cap, sweep once the response is sent."""
        super().save_session(app, session, response)
        if self.cache.over_cap:
            self.cache.over_cap = False
            response.call_on_close(lambda: sweep(Path(self.cache._path), self.cache.max_files))

    def _upsert_session(self, session_lifetime, session, store_id: str) -> None:
        super()._upsert_session(session_lifetime, session, store_id)
        if pointer := self._pointer(session):
            self.cache.set(pointer[0], pointer[1], timeout=POINTER_SECONDS)


class RedisSessions(GuardedSessions, RedisSessionInterface):
    """Flask-Session's Redis store; a locked request reads and writes through its lock."""

    def _retrieve_session_data(self, store_id: str) -> dict | None:
        lock = _held_lock()
        record = lock.record if lock is not None and lock.store_id == store_id else self.client.get(store_id)
        return self.serializer.decode(record) if record else None

    def _upsert_session(self, session_lifetime, session, store_id: str) -> None:
        lock, pointer = _held_lock(), self._pointer(session)
        if lock is None:
            super()._upsert_session(session_lifetime, session, store_id)
            if pointer:
                self.client.set(pointer[0], self.serializer.encode(pointer[1]), ex=POINTER_SECONDS)
        else:
            seconds = int(session_lifetime.total_seconds())
            encoded = (pointer[0], self.serializer.encode(pointer[1])) if pointer else None
            lock.write_and_release(store_id, self.serializer.encode(session), seconds, encoded)


def _held_lock() -> RedisLock | None:
    if not has_request_context():
        return None
    lock = request.environ.get("ttt.release_lock")
    return lock if isinstance(lock, RedisLock) and lock.held else None


def init_app(app: Flask) -> None:
    """Install the session interface that the config asks for."""
    options = {
        "key_prefix": app.config["SESSION_KEY_PREFIX"],
        "permanent": True,
        "sid_length": app.config["SESSION_ID_LENGTH"],
    }
    if app.config.get("REDIS_URL"):
        client = redis.Redis.from_url(app.config["REDIS_URL"], socket_timeout=2, socket_connect_timeout=2)
        interface = RedisSessions(app, client=client, **options)
        interface.locks = RedisLocks(client, interface._get_store_id)
    else:
        directory = Path(app.config["SESSION_DIR"])
        (directory / ".locks").mkdir(parents=True, exist_ok=True)
        cache = StrictFileSystemCache(
            str(directory), max_files=app.config["MAX_SESSIONS"], threshold=0, default_timeout=0
        )
        interface = FileSessions(app, client=cache, **options)
        interface.locks = FileLocks(directory / ".locks")
        app.after_request(_schedule_sweep)
        app.cli.command("sweep-sessions")(lambda: print(f"removed {sweep(directory, cache.max_files)} session files"))
    app.session_interface = interface
    app.before_request(_refuse_when_store_failed)
    app.teardown_request(_release_lock)


def _refuse_when_store_failed() -> None:
    if "ttt.store_error" in request.environ:
        raise StoreUnavailable()


def _release_lock(_exc: BaseException | None) -> None:
    release = request.environ.pop("ttt.release_lock", None)
    if release is not None:
        release()


def _schedule_sweep(response: Response) -> Response:
    """About once per SESSION_SWEEP_INTERVAL across all processes, sweep the session
    directory after the response has been sent."""
    directory = Path(current_app.config["SESSION_DIR"])
    now = time.monotonic()
    if now < _next_look.get(str(directory), 0.0):
        return response
    _next_look[str(directory)] = now + 1.0  # each process looks at the marker at most once a second
    if _sweep_due(directory, current_app.config["SESSION_SWEEP_INTERVAL"]):
        max_files = current_app.session_interface.cache.max_files
        response.call_on_close(lambda: sweep(directory, max_files))
    return response


_next_look: dict[str, float] = {}


def _sweep_due(directory: Path, interval: float) -> bool:
    """True about once per interval across all processes: the caller moves the marker on.

    Costs one stat; a sweep already under way elsewhere makes the next one a no-op.
    """
    marker = directory / SWEEP_MARKER
    now = time.time()
    try:
        if now - marker.stat().st_mtime < interval:
            return False
        os.utime(marker, (now, now))
    except FileNotFoundError:
        with contextlib.suppress(OSError):
            os.close(open_healing(marker, os.O_WRONLY | os.O_CREAT, 0o600))
        return False
    except OSError:
        return False
    return True


def sweep(directory: Path, max_files: int = 0, now: float | None = None) -> int:
    """Delete expired sessions, what a killed worker left (empty or unreadable files, old
    temporaries) and, past `max_files`, the sessions idle the longest; return how many.
    Sets the store's file count. Does nothing while another process sweeps."""
    now = time.time() if now is None else now
    try:
        fd = open_healing(directory / SWEEP_MARKER, os.O_RDONLY | os.O_CREAT, 0o600)
    except OSError:
        return 0
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return 0
    try:
        removed, live = 0, []
        for n, entry in enumerate(stored_files(directory)):
            if n % 256 == 255:
                time.sleep(0)  # under gevent: let the worker's other connections run
            with contextlib.suppress(OSError):
                modified = entry.stat().st_mtime
                if _dead(entry, modified, now):
                    os.remove(entry.path)
                    removed += 1
                else:
                    live.append((modified, entry.path))
        if max_files and len(live) > max_files:
            live.sort()
            evict = len(live) - int(max_files * KEEP_AFTER_EVICTION)
            for _, path in live[:evict]:
                with contextlib.suppress(OSError):
                    os.remove(path)
                    removed += 1
            live = live[evict:]
        update_count(directory, lambda _: len(live))
        return removed
    finally:
        os.close(fd)


def _dead(entry: os.DirEntry, modified: float, now: float) -> bool:
    """Expired, or left by a writer that died: a temporary file over an hour old, or a
    session file that has been empty or unreadable for GRACE seconds."""
    if entry.name.endswith(TEMP_SUFFIX):
        return modified < now - 3600
    with open(entry.path, "rb") as f:
        record = f.read()
    if len(record) >= HEADER.size:
        expires = HEADER.unpack_from(record)[0]
        if expires and expires < now:
            return True
        try:
            pickle.loads(record[HEADER.size :])
            return False
        except Exception:
            pass
    return modified < now - GRACE


def stored_files(directory: Path) -> Iterator[os.DirEntry]:
    """The session directory's files: sessions, and any being written. Not its dot-named
    lock folder, sweep marker and count."""
    with os.scandir(directory) as entries:
        yield from (entry for entry in entries if entry.is_file() and not entry.name.startswith("."))
