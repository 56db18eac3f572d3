"""Typed, path-aware reads from one mapping of a manifest.

Every read knows the field path (``spec.containers[0].ports[1].hostPort``) and the YAML line, so a
bad value becomes a ManifestError that names the document, the field and the line. Fields the
engine does not know are reported, not dropped (kubectl's strict field validation does the same).
"""

import re
from collections.abc import Iterator, Mapping
from datetime import date
from typing import Any

from scheduler_core.api import quantity
from scheduler_core.api.errors import ManifestError, QuantityError
from scheduler_core.api.types import CPU

INT64_MAX = 2**63 - 1
INT64_MIN = -(2**63)
INT32_MAX = 2**31 - 1
INT32_MIN = -(2**31)
_INDEX = re.compile(r"\[\d+\]")
_LIST_ITEM = re.compile(r"^items\[\d+\]\.")  # a v1 List's item is decoded as an object of its own
_TYPE_NAMES = {str: "a string", int: "an integer", bool: "a boolean", dict: "an object", list: "a list"}


class Fields:
    def __init__(self, data: Mapping[str, Any], path: str, document: str, line: int | None = None) -> None:
        self.data = data
        self.path = path
        self.document = document
        self.line = getattr(data, "line", line)

    # ------------------------------------------------------------------ locating

    def path_of(self, key: str | int) -> str:
        if isinstance(key, int):
            return f"{self.path}[{key}]"
        return f"{self.path}.{key}" if self.path else key

    def line_of(self, key: str) -> int | None:
        lines = getattr(self.data, "key_lines", None)
        if lines is not None and key in lines:
            return int(lines[key])
        return self.line

    def error(self, key: str, message: str) -> ManifestError:
        return ManifestError(self.document, self.path_of(key), message, self.line_of(key))

    def error_here(self, message: str) -> ManifestError:
        return ManifestError(self.document, self.path, message, self.line)

    def has(self, key: str) -> bool:
        return key in self.data and self.data[key] is not None

    # ------------------------------------------------------------------ validation

    def reject_unknown(self, known: frozenset[str] | set[str]) -> None:
        for key in self.data:
            if key not in known:
                raise ManifestError(
                    self.document, self.path_of(key), f'unknown field "{self.path_of(key)}"', self.line_of(key)
                )

    # ------------------------------------------------------------------ scalars

    def _typed(self, key: str, kind: type, default: Any) -> Any:
        value = self.data.get(key)
        if value is None:
            return default
        # bool is an int in Python; a Kubernetes integer field never takes true/false.
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise self.error(key, f"must be {_TYPE_NAMES[kind]}, not {_describe(value)}")
        return value

    def string(self, key: str, default: str = "") -> str:
        value: str = self._typed(key, str, default)
        return value

    def integer(self, key: str, default: int | None = None, *, minimum: int | None = None) -> int | None:
        value: int | None = self._typed(key, int, default)
        if value is not None and not INT64_MIN <= value <= INT64_MAX:  # the API server's widest integer
            raise self.error(key, f"must be a 64-bit integer (at most {INT64_MAX} and at least {INT64_MIN})")
        if value is not None and minimum is not None and value < minimum:
            raise self.error(key, f"must be greater than or equal to {minimum}")
        return value

    def int32(self, key: str, go_struct: str, default: int | None = None, *, minimum: int | None = None) -> int | None:
        """An int32 field of the Go struct `go_struct` (k8s.io/api's name, e.g. DeploymentSpec)."""
        value = self._typed(key, int, None)
        if value is not None and not INT32_MIN <= value <= INT32_MAX:
            raise self.error(key, int32_overflow(value, go_struct, self.path_of(key)))
        return self.integer(key, default, minimum=minimum)

    def boolean(self, key: str, default: bool = False) -> bool:
        value: bool = self._typed(key, bool, default)
        return value

    def one_of(self, key: str, allowed: tuple[str, ...], default: str | None = None) -> str | None:
        value = self.string(key, "")
        if not value:
            return default
        if value not in allowed:
            choices = ", ".join(f'"{choice}"' for choice in allowed)
            raise self.error(key, f'Unsupported value: "{value}": supported values: {choices}')
        return value

    def int_or_string(self, key: str, go_struct: str = "") -> int | str | None:
        """An IntOrString; with `go_struct`, the struct holding it, whose integer form is an int32."""
        value = self.data.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise self.error(key, f"must be an integer or a percentage string, not {_describe(value)}")
        if go_struct and isinstance(value, int) and not INT32_MIN <= value <= INT32_MAX:
            raise self.error(key, int32_overflow(value, go_struct, self.path_of(key)))
        if isinstance(value, str):
            digits = value[:-1] if value.endswith("%") else value
            if not (digits.isascii() and digits.isdigit()):  # not "²": isdigit() alone takes superscripts
                raise self.error(key, f'invalid value "{value[:80]}": must be an integer or a percentage ("25%")')
            number = int(digits) if len(digits) <= 19 else INT64_MAX + 1  # int() refuses 4,300+ digits
        else:
            number = value
        if not INT64_MIN <= number <= INT64_MAX:
            raise self.error(key, f"must be a 64-bit integer (at most {INT64_MAX} and at least {INT64_MIN})")
        return number if isinstance(value, str) and not value.endswith("%") else value

    def int_or_name(self, key: str) -> int | str | None:
        """A port number or a port name (Service targetPort)."""
        value = self.data.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise self.error(key, f"must be a port number or name, not {_describe(value)}")
        return value

    # ------------------------------------------------------------------ structures

    def object(self, key: str) -> "Fields | None":
        value = self.data.get(key)
        if value is None:
            return None
        if not isinstance(value, dict) and not isinstance(value, Mapping):  # dict first: no ABC lookup
            raise self.error(key, f"must be an object, not {_describe(value)}")
        return Fields(value, self.path_of(key), self.document, self.line_of(key))

    def objects(self, key: str) -> Iterator["Fields"]:
        """The items of a list of objects, each with its own path."""
        items = self._list(key)
        lines = getattr(items, "item_lines", None)
        for index, item in enumerate(items):
            path = f"{self.path_of(key)}[{index}]"
            line = lines[index] if lines else self.line_of(key)
            if not isinstance(item, dict) and not isinstance(item, Mapping):
                raise ManifestError(self.document, path, f"must be an object, not {_describe(item)}", line)
            yield Fields(item, path, self.document, line)

    def strings(self, key: str) -> tuple[str, ...]:
        items = self._list(key)
        for index, item in enumerate(items):
            if not isinstance(item, str):
                lines = getattr(items, "item_lines", None)
                line = lines[index] if lines else self.line_of(key)
                raise ManifestError(
                    self.document, f"{self.path_of(key)}[{index}]", f"must be a string, not {_describe(item)}", line
                )
        return tuple(items)

    def string_map(self, key: str) -> dict[str, str]:
        """A map of strings (labels, annotations, nodeSelector)."""
        mapping = self.object(key)
        if mapping is None:
            return {}
        result: dict[str, str] = {}
        for name, value in mapping.data.items():
            if not isinstance(value, str):
                hint = f' (quote it: "{_scalar_text(value)}")' if isinstance(value, int | float | bool) else ""
                raise mapping.error(name, f"must be a string, not {_describe(value)}{hint}")
            result[name] = value
        return result

    def resources(self, key: str) -> dict[str, int]:
        """A ResourceList: CPU in millicores, everything else in base units (both rounded up)."""
        mapping = self.object(key)
        if mapping is None:
            return {}
        result: dict[str, int] = {}
        for name, raw in mapping.data.items():
            if raw is None:
                continue
            try:
                amount = quantity.milli_value(raw) if name == CPU else quantity.value(raw)
            except QuantityError as error:
                raise mapping.error(name, f'invalid quantity "{_scalar_text(raw)}": {error}') from None
            if amount < 0:
                raise mapping.error(name, "must be greater than or equal to 0")
            result[name] = amount
        return result

    def plain_object(self, key: str) -> dict[str, Any] | None:
        """An object kept as declared (a volume's source, a security context): a copy in plain
        dicts, lists and scalars, without the reader's line marks."""
        mapping = self.object(key)
        return None if mapping is None else plain_json(mapping.data)

    def optional_boolean(self, key: str) -> bool | None:
        """A *bool field: None when absent, which the API tells from false."""
        return self.boolean(key) if self.has(key) else None

    def _list(self, key: str) -> list[Any]:
        value = self.data.get(key)
        if value is None:
            return []
        if not isinstance(value, list):
            raise self.error(key, f"must be a list, not {_describe(value)}")
        return value


def plain_json(value: Any) -> Any:
    """`value` as plain JSON data: mappings to dicts (string keys), lists to lists, scalars as they are."""
    if isinstance(value, Mapping):
        return {str(key): plain_json(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [plain_json(item) for item in value]
    if isinstance(value, date):  # YAML 1.1 reads an unquoted 2024-01-02 as a date: the text it was
        return value.isoformat()
    return value


def int32_overflow(value: int, go_struct: str, path: str) -> str:
    """What the API server answers for a number that does not fit an int32 field: its JSON decoder's
    UnmarshalTypeError (sigs.k8s.io/json, internal/golang/encoding/json/decode.go literalStore),
    naming the innermost struct and the field's JSON path without list indexes."""
    go_path = _INDEX.sub("", _LIST_ITEM.sub("", path))
    number = _scalar_text(value)  # the YAML reader refuses an integer str() could not print
    return f"json: cannot unmarshal number {number} into Go struct field {go_struct}.{go_path} of type int32"


def _describe(value: Any) -> str:
    for kind, name in ((bool, "a boolean"), (int, "an integer"), (float, "a number"), (str, "a string")):
        if isinstance(value, kind):
            return f"{name} ({_scalar_text(value)})"
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, list):
        return "a list"
    return type(value).__name__


def _scalar_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    text = str(value)
    return text if len(text) <= 40 else text[:37] + "..."
