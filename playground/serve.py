"""`python -m playground.serve [daphne's arguments]`: Daphne, with an access log that never holds an
edit key, once the static files are collected (hashed and compressed, playground/static_files.py:
with DEBUG off every `{% static %}` reads their manifest). Daphne's access log writes every request's
path, and edit links of the old form (/s/<slug>/edit/<key>) carry the key in theirs: each entry's
path goes through playground.redaction first. `make run`, scripts/scale-out and the tests' servers
start Daphne so.

Daphne's own CLI does the rest (arguments, bindings, the server); only its server class is ours, to
wrap the access-log writer the CLI hands it (daphne/cli.py builds AccessLogGenerator and passes it as
the server's action_logger).
"""

import os
import sys
from collections.abc import Callable
from typing import Any

import django
from daphne.cli import CommandLineInterface  # type: ignore[import-untyped]  # daphne ships no type hints
from daphne.server import Server  # type: ignore[import-untyped]

from playground.redaction import redact_path

ActionLogger = Callable[[str, str, dict[str, Any]], None]


class RedactingAccessLog:
    def __init__(self, log: ActionLogger) -> None:
        self.log = log

    def __call__(self, protocol: str, action: str, details: dict[str, Any]) -> None:
        if "path" in details:
            details = {**details, "path": redact_path(str(details["path"]))}
        self.log(protocol, action, details)


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
    CommandLine().run(sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    main()
