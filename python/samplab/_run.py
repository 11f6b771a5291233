"""How a library call runs: in a worker thread the caller polls, so Ctrl-C raises KeyboardInterrupt
within a fraction of a second however long the C call takes, and under the C locale of that thread
(uselocale), so a program that set LC_NUMERIC to a decimal comma reads and prints the same numbers."""

import contextlib
import ctypes
import sys
import threading

# LC_ALL_MASK: glibc's (every category bit but LC_ALL's, <locale.h>), the BSDs' and macOS' 63
_ALL_MASK = 8127 if sys.platform.startswith("linux") else 63
_POLL = 0.05  # seconds between looks at the worker: the bound on Ctrl-C's delay


def _c_locale_handle():
    try:
        libc = ctypes.CDLL(None)
        newlocale, uselocale = libc.newlocale, libc.uselocale
    except (OSError, AttributeError):
        return None, None
    newlocale.restype, newlocale.argtypes = ctypes.c_void_p, [ctypes.c_int, ctypes.c_char_p, ctypes.c_void_p]
    uselocale.restype, uselocale.argtypes = ctypes.c_void_p, [ctypes.c_void_p]
    return newlocale(_ALL_MASK, b"C", None), uselocale


_C_LOCALE, _uselocale = _c_locale_handle()


@contextlib.contextmanager
def c_locale():
    """The C locale for this thread while the block runs (the library's strtod and printf read and
    write '.' whatever setlocale the program made)."""
    if not _C_LOCALE:
        yield
        return
    old = _uselocale(_C_LOCALE)
    try:
        yield
    finally:
        _uselocale(old)


# One call at a time: a call Ctrl-C abandoned runs on to its end, holding this, before the next starts.
_busy = threading.Lock()


def interruptible(fn, *args, keep=()):
    """fn(*args) in a worker thread under the C locale; the caller waits in short interruptible
    steps. On KeyboardInterrupt the worker finishes alone: args and keep (what the C pointers point
    into) stay referenced by it until then."""
    box = {}

    def work():
        try:
            with c_locale():
                box["value"] = fn(*args)
        except BaseException as e:  # handed to the caller, who re-raises it
            box["error"] = e
        finally:
            box["keep"] = keep
            _busy.release()

    while not _busy.acquire(timeout=_POLL):
        pass
    t = threading.Thread(target=work, name="samplab-call", daemon=True)
    try:
        t.start()
    except BaseException:
        _busy.release()
        raise
    while t.is_alive():
        t.join(_POLL)
    if "error" in box:
        raise box["error"]
    return box["value"]
