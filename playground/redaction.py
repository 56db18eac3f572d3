"""Edit keys never reach a log. Edit links of the old form, /s/<slug>/edit/<key>, carry the key in
their path, and paths are logged: by Daphne's access log (every request, playground/serve.py) and by
Django's request logger ("Not Found: /s/…/edit/…", for every 4xx and 5xx). Both go through
`redact_path` (or `redact`, for free text), which writes /edit/[redacted] instead of what follows,
however the path was percent-encoded.

Edit links of the current form keep the key in the fragment (#key), which no browser sends.

A scenario's Kubernetes API over plain HTTP carries its token in the path, /k8s/<slug>/t/<token>/...
(kubectl sends no credentials without TLS): the token is redacted the same way, the rest of the
path kept (which resource was asked for is worth logging).
"""

import logging
import re
from collections.abc import Mapping
from urllib.parse import unquote

EDIT_PATH = re.compile(r"/edit/", re.IGNORECASE)
REDACTED = "/edit/[redacted]"
API_TOKEN_PATH = re.compile(r"(/k8s/[^/?#]+/t/)[^/?#]*", re.IGNORECASE)
# Daphne decodes a path once before Django routes it; three more decodings unmask %2565dit and the like.
DECODINGS = 3


def redact_path(value: str) -> str:
    """A path (or any one value) with all after its /edit/ as [redacted]: the key, and whatever a
    query string or an encoded newline or quote could hide after it."""
    hit = _decoding_with(EDIT_PATH, value)
    if hit is not None:
        return _printable(hit[: EDIT_PATH.search(hit).start()]) + REDACTED  # type: ignore[union-attr]
    hit = _decoding_with(API_TOKEN_PATH, value)
    if hit is not None:
        return _printable(API_TOKEN_PATH.sub(r"\1[redacted]", hit))
    return value


def redact(text: str) -> str:
    """Free text (a message, a traceback): each line that holds an /edit/ path is cut after it."""
    if "/" not in text:
        return text
    return "\n".join(redact_path(line) for line in text.split("\n"))


def _decoding_with(pattern: re.Pattern[str], text: str) -> str | None:
    """The first of `text` and its percent-decodings that `pattern` finds something in, or None."""
    for _ in range(DECODINGS + 1):
        if pattern.search(text):
            return text
        decoded = unquote(text, errors="replace")
        if decoded == text:
            return None
        text = decoded
    return None


def _printable(text: str) -> str:
    """Control characters escaped: a decoded %0A must not start a log line of its own."""
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text)


class RedactEditKeys(logging.Filter):
    """Rewrites a record's message, arguments and traceback text with `redact`; drops nothing."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, Mapping):
            record.args = {key: _redacted(value) for key, value in record.args.items()}
        elif record.args:
            record.args = tuple(_redacted(value) for value in record.args)
        request = getattr(record, "request", None)  # Django's log_response passes the request along
        path = str(getattr(request, "path", ""))
        if request is not None and redact_path(path) != path:
            record.request = None  # handlers that print it (AdminEmailHandler) would print the key
        if record.exc_info and not record.exc_text:
            record.exc_text = redact(logging.Formatter().formatException(record.exc_info))
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


def _redacted(value: object) -> object:
    return redact_path(value) if isinstance(value, str) else value
