"""gunicorn settings for the Go-Stop service (``gunicorn -c gunicorn.conf.py wsgi:app``).

Every value can be overridden with the usual GUNICORN_CMD_ARGS or command-line flags;
the environment variables below are read here for convenience.
"""

import ctypes
import ctypes.util
import gc
import multiprocessing
import os

bind = os.environ.get("GOSTOP_BIND", "127.0.0.1:8000")
# Scoring is CPU-bound and short: sync workers, one per core. More workers than cores
# only time-slice the same CPUs (measured: bench/RESULTS.md); no threads. gunicorn's sync
# worker, except that the requests gunicorn refuses itself (a request line over
# limit_request_line, too many or too large headers, not HTTP) are answered with the app's
# problem+json instead of gunicorn's HTML page (calculator/api/worker.py).
worker_class = "calculator.api.worker.ProblemWorker"
workers = int(os.environ.get("GOSTOP_WORKERS", multiprocessing.cpu_count()))
threads = 1
timeout = 30  # a hand takes well under a millisecond; anything stuck this long is killed
graceful_timeout = 20  # SIGTERM: in-flight requests get this long to finish
keepalive = 5
# Recycle workers now and then so that no slow leak can grow without bound.
max_requests = 100_000
max_requests_jitter = 10_000
# Refuse oversized request lines and headers early (414 uri_too_long, 431 header_too_large).
limit_request_line = 4094
limit_request_fields = 50
limit_request_field_size = 8190
# No control socket: nothing listens besides the bound port.
control_socket_disable = True
accesslog = None  # the app writes one JSON line per request itself
errorlog = "-"
loglevel = os.environ.get("GOSTOP_GUNICORN_LOG_LEVEL", "info")
preload_app = True  # import the engine once, before forking


def pre_fork(server, worker):  # gunicorn calls it in the master before each fork
    """gunicorn hook: put the preloaded app's objects out of the collector's reach
    (``gc.freeze``) before forking a worker. A worker's collections then never write to
    the pages those objects share with the master (copy-on-write): after a big batch and
    its full collection a worker kept ~34 MB private instead of ~60 (bench/RESULTS.md,
    sixteenth session), and that collection walks only the worker's own objects (22 ms
    less in a warm app). gunicorn forks again to replace a worker (max_requests, a
    crash): what the master allocated since is frozen then, garbage included; it
    allocates little between forks (its Worker objects hold no cycles)."""
    gc.freeze()


# After a big request, give the memory it used back to the system. Python and the C
# allocator keep freed memory for reuse, so one 4 MiB batch (or its 4 MB answer) left its
# worker tens of MiB larger for the rest of its life (bench.memory; RELIABILITY.md). A full
# collection costs hundreds of milliseconds in a warm worker, so it runs only when the big
# request left the worker ``GROWTH_BYTES`` larger than after the last one: polling a long
# table (a big answer, no lasting growth) must not pay for it on every read (bench.tables).
BIG_REQUEST_BYTES = 256 * 1024
GROWTH_BYTES = 16 * 1024 * 1024
_LIBC = ctypes.CDLL(ctypes.util.find_library("c") or None)
_TRIM = getattr(_LIBC, "malloc_trim", None)  # glibc only; elsewhere the gc alone
_PAGE = os.sysconf("SC_PAGE_SIZE")
_SETTLED: dict[str, int] = {}  # this worker's resident size after its last trim


def _resident() -> int | None:
    """This process's resident memory in bytes (Linux), else None (then always collect)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return None


def post_request(worker, req, environ, resp):  # gunicorn calls it with these four
    """gunicorn hook: after a big body or answer that grew the worker, collect and return
    free memory."""
    if max(int(environ.get("CONTENT_LENGTH") or 0), resp.sent or 0) < BIG_REQUEST_BYTES:
        return
    resident = _resident()
    settled = _SETTLED.get("rss")
    if resident is not None and settled is not None and resident - settled < GROWTH_BYTES:
        return
    gc.collect()
    if _TRIM is not None:
        _TRIM(0)
    after = _resident()
    if after is not None:
        _SETTLED["rss"] = after
