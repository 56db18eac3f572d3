"""`python -m playground.serve [daphne's arguments]`: Daphne, with an access log that never holds an
edit key, once the static files are collected (hashed and compressed, playground/static_files.py:
with DEBUG off every `{% static %}` reads their manifest). Daphne's access log writes every request's
path, and edit links of the old form (/s/<slug>/edit/<key>) carry the key in theirs: each entry's
path goes through playground.redaction first. `make run`, scripts/scale-out and the tests' servers
start Daphne so.

Daphne's own CLI does the rest (arguments, bindings, the server); only its server class is ours, to
wrap the access-log writer the CLI hands it (daphne/cli.py builds AccessLogGenerator and passes it as
the server's action_logger), and its websocket factory, which compresses messages (permessage-deflate,
RFC 7692) for clients that offer it: run frames are JSON of up to 512 KiB, and JSON deflates well;
and its HTTP factory, whose requests drop a body past what any request may carry as it arrives
instead of keeping it in a file (playground/request_body.py).
"""

import os
import sys
from collections.abc import Callable
from typing import Any

import daphne.server  # type: ignore[import-untyped]  # daphne ships no type hints
import django
from autobahn.websocket.compress import (
    PerMessageCompressOffer,
    PerMessageDeflateOffer,
    PerMessageDeflateOfferAccept,
)
from daphne.cli import CommandLineInterface  # type: ignore[import-untyped]
from daphne.http_protocol import HTTPFactory, WebRequest  # type: ignore[import-untyped]
from daphne.server import Server
from daphne.ws_protocol import WebSocketFactory, WebSocketProtocol  # type: ignore[import-untyped]

from playground import heap
from playground.redaction import redact_path
from playground.request_body import bounded_request_class
from playground.shared_deflate import share_deflate

ActionLogger = Callable[[str, str, dict[str, Any]], None]


class RedactingAccessLog:
    def __init__(self, log: ActionLogger) -> None:
        self.log = log

    def __call__(self, protocol: str, action: str, details: dict[str, Any]) -> None:
        if "path" in details:
            details = {**details, "path": redact_path(str(details["path"]))}
        self.log(protocol, action, details)


# Each compressing connection keeps its zlib streams for its lifetime. zlib's documented cost is
# (1 << (windowBits + 2)) + (1 << (memLevel + 9)) to deflate and 1 << windowBits to inflate, plus a
# few KiB of state: at zlib's defaults (15, 8) that is 256 KiB + 32 KiB, about 300 KiB a viewer (90 MiB
# for 300 viewers). At 12 and 5 (what the websockets library picks for its servers) it is 32 KiB + 4
# KiB, measured with tracemalloc 38 KiB + 11 KiB: about 50 KiB a viewer, 15 MiB for 300. A 512 KiB
# frame of run events (tests/web/test_socket_bounds.py's) deflates nearly as well with a 4 KiB window
# (to 5.5 % of its size, measured) as with 32 KiB (4.6 %): JSON repeats itself at short range.
DEFLATE_WINDOW_BITS = 12
DEFLATE_MEM_LEVEL = 5


def accept_deflate(offers: list[PerMessageCompressOffer]) -> PerMessageDeflateOfferAccept | None:
    """autobahn's perMessageCompressionAccept: the first permessage-deflate offer, at our window and
    memory level; other extensions (autobahn also knows bzip2) are declined, no offer is no change.
    The server's messages are then deflated by playground/shared_deflate.py, without context
    takeover whatever is negotiated (a client's window may always go unused), so the connection
    keeps no deflate stream: of the memory above only the inflate window is left."""
    for offer in offers:
        if isinstance(offer, PerMessageDeflateOffer):
            asked = offer.request_max_window_bits  # server_max_window_bits, 0 if the client set none
            return PerMessageDeflateOfferAccept(  # type: ignore[no-untyped-call]  # autobahn leaves it unannotated
                offer,
                # The client's window, which our inflate needs, when it lets us choose (its frames are <= 4 KiB).
                request_max_window_bits=DEFLATE_WINDOW_BITS if offer.accept_max_window_bits else 0,
                window_bits=min(DEFLATE_WINDOW_BITS, asked) if asked else DEFLATE_WINDOW_BITS,
                mem_level=DEFLATE_MEM_LEVEL,
            )
    return None


class SharedDeflateWebSocketProtocol(WebSocketProtocol):  # type: ignore[misc]
    """Daphne's websocket protocol, sending with the deflate that compresses a broadcast once."""

    def onOpen(self) -> None:  # autobahn's name; the handshake is done, nothing is sent yet
        share_deflate(self)
        super().onOpen()


class CompressingWebSocketFactory(WebSocketFactory):  # type: ignore[misc]
    """Daphne's factory, accepting permessage-deflate. Server.run() builds the factory and then blocks
    in the reactor, so there is no moment to configure it from outside; it looks the class up as
    daphne.server.WebSocketFactory, so that is where this one goes. Its own setProtocolOptions call
    after this leaves perMessageCompressionAccept alone (autobahn changes only the options passed).
    The decompressed size of a client message stays bounded by Daphne's maxMessagePayloadSize."""

    protocol = SharedDeflateWebSocketProtocol

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.setProtocolOptions(perMessageCompressionAccept=accept_deflate)


daphne.server.WebSocketFactory = CompressingWebSocketFactory

BoundedWebRequest = bounded_request_class(WebRequest)


class BoundedHTTPFactory(HTTPFactory):  # type: ignore[misc]
    """Daphne's HTTP factory with requests whose bodies are bounded (playground/request_body.py).
    Looked up as daphne.server.HTTPFactory, like the websocket factory above."""

    def buildProtocol(self, addr: Any) -> Any:  # Twisted's name
        protocol = super().buildProtocol(addr)
        protocol.requestFactory = BoundedWebRequest
        return protocol


daphne.server.HTTPFactory = BoundedHTTPFactory


class RedactingServer(Server):  # type: ignore[misc]
    def __init__(self, *args: Any, action_logger: ActionLogger | None = None, **kwargs: Any) -> None:
        logger = RedactingAccessLog(action_logger) if action_logger is not None else None
        super().__init__(*args, action_logger=logger, **kwargs)


class CommandLine(CommandLineInterface):  # type: ignore[misc]
    server_class = RedactingServer


def collect_static_files() -> None:
    """Before the first request: a server must never answer with a page whose scripts it lacks. With
    DEBUG on there is nothing to collect (ServeStatic reads static/ itself)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "playground.settings")
    django.setup()
    from django.conf import settings

    from playground.static_files import collect_static

    if not settings.DEBUG:
        collect_static()


def main(argv: list[str] | None = None) -> None:
    # Each access-log line as it happens, also when stdout is a file or a pipe (a supervisor's log).
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]
    collect_static_files()
    heap.install()
    CommandLine().run(sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    main()
