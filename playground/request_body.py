"""How much of a request's body the server reads, before Django sees any of it.

Twisted (under Daphne) reads a whole request body into a temporary file before the ASGI application
is called, and Django then copies it into one of its own: a 10 GB upload would take 20 GB of disk
before any view could refuse it. So Daphne's requests are ours (playground/serve.py installs
BoundedWebRequest): past `max_body_bytes()` the body is read and dropped, not kept, and the request
reaches Django empty, marked with REFUSED_HEADER; playground/refused_body.py then answers it as Django
answers a form over DATA_UPLOAD_MAX_MEMORY_SIZE (playground/views/status.py: a page, or the board
for an edit, that names the limit). A client that goes on sending past DRAIN_FACTOR times the limit
has its connection closed: reading and dropping costs little, but not nothing.

Twisted also parses a form's body (URL-encoded or multipart) into `request.args` before handing
the request on, on the reactor thread that serves every connection; Daphne never reads those args
(Django parses the body again). At real size that parse blocked the server: 1.9 s of py-spy samples
for the save of a 25 MiB workload (urllib's unquote), the email parser for a multipart upload, and
a body Twisted could not parse got its bare "400 Bad Request" instead of the app's answer. Our
requests switch it off (Twisted's own parsePOSTFormSubmission).
"""

from collections.abc import Callable
from io import BytesIO
from typing import Any

from django.conf import settings

from playground import import_progress

PROGRESS_HEADER = import_progress.TOKEN_HEADER.lower().encode()
REFUSED_HEADER = b"x-playground-body-refused"  # set only here; a client's own is removed
MULTIPART_SLACK_BYTES = 1 << 20  # boundaries and part headers of a form with its files
DRAIN_FACTOR = 4
REFUSED_META_KEY = "HTTP_" + REFUSED_HEADER.decode().upper().replace("-", "_")  # as Django's META has it


def max_body_bytes() -> int:
    """The largest body a request may carry: an import's file (IMPORT_MAX_UPLOAD_BYTES) beside a
    form's fields (DATA_UPLOAD_MAX_MEMORY_SIZE). Views bound each part more tightly."""
    return int(settings.IMPORT_MAX_UPLOAD_BYTES) + int(settings.DATA_UPLOAD_MAX_MEMORY_SIZE) + MULTIPART_SLACK_BYTES


def refused_message(sent: int) -> str:
    limit = max_body_bytes() / (1 << 20)
    files = int(settings.IMPORT_MAX_UPLOAD_BYTES) / (1 << 20)
    sent_text = f"{sent / (1 << 20):,.0f} MiB" if sent else "more"
    return (
        f"This request sent {sent_text}; the most one request may carry is {limit:g} MiB (an import's file"
        f" at most {files:g} MiB): nothing was read or changed. Gzip a kubectl export first: its YAML"
        " compresses about tenfold."
    )


def bounded_request_class(base: Any) -> Any:
    """Daphne's request class (`base`, twisted.web.http.Request underneath) with its body bounded."""

    class BoundedWebRequest(base):  # type: ignore[misc,valid-type]  # Daphne's classes are untyped
        body_bytes = 0
        body_refused = False
        body_length = 0
        told_sent: Callable[[float], None] | None = None

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._parsePOSTFormSubmission = False  # Twisted's switch (see the module's docstring)

        def gotLength(self, length: int | None) -> None:  # Twisted's name
            self.body_bytes = 0
            self.body_refused = length is not None and length > max_body_bytes()
            # An import names itself in a header: the page shows its upload as the bytes arrive.
            token = import_progress.valid_token((self.requestHeaders.getRawHeaders(PROGRESS_HEADER) or [None])[0])
            self.told_sent = import_progress.reporter(token, "sending") if token and length else None
            self.body_length = length or 0
            super().gotLength(0 if self.body_refused else length)  # 0: an in-memory file, left empty

        def handleContentChunk(self, data: bytes) -> None:
            self.body_bytes += len(data)
            if self.told_sent is not None:
                self.told_sent(min(self.body_bytes / self.body_length, 1.0))
            if not self.body_refused and self.body_bytes > max_body_bytes():
                self.body_refused = True
                self.content.close()  # what was kept so far goes now
                self.content = BytesIO()
            if not self.body_refused:
                super().handleContentChunk(data)
            elif self.body_bytes > DRAIN_FACTOR * max_body_bytes():
                self.channel.transport.abortConnection()

        def process(self) -> Any:
            self.requestHeaders.removeHeader(REFUSED_HEADER)
            if self.body_refused:
                self.requestHeaders.setRawHeaders(REFUSED_HEADER, [str(self.body_bytes).encode()])
                self.requestHeaders.setRawHeaders(b"content-length", [b"0"])
                self.requestHeaders.removeHeader(b"transfer-encoding")
                self.content = BytesIO()
            return super().process()

    return BoundedWebRequest
