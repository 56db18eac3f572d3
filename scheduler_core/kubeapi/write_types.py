"""A write through the API as the writers take it and answer it (writes.py, eviction.py)."""

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class WriteRequest:
    method: str  # POST, PUT, PATCH, DELETE
    namespace: str
    name: str
    subresource: str = ""
    content_type: str = "application/json"
    body: Any = None  # the decoded JSON or YAML
    grace_period: int | None = None  # DELETE's (the query's or the DeleteOptions body's)


@dataclass(frozen=True, slots=True)
class WriteResult:
    code: int
    body: dict[str, Any]  # the answer when no run says better (what the API server answers at once)
    actions: list[dict[str, Any]] = field(default_factory=list)  # Action specs: op, target, args
    target: tuple[str, str, str] | None = None  # (kind, namespace, name) to answer with once the run has it
