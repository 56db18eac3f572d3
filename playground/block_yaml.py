"""The YAML yaml.safe_dump(sort_keys=False) writes, for the simple documents a board holds, written
directly: a node's manifest took 60 µs through PyYAML (its representer is Python even with libyaml
underneath), 0.3 s for the 5,000 nodes of a board whose first edit since the server started found
none of them written yet (issue #14: a cordon within 0.5 s).

`block_yaml` handles mappings, lists of scalars or mappings, booleans, integers and strings made of
the characters names, labels, taints and quantities use; for anything else it answers None and
the caller dumps with PyYAML. Within that, the text is PyYAML's to the byte (tests/web/
test_block_yaml.py compares them over generated documents): block style, two-space indent,
sequences in a mapping not indented, `{}` and `[]` for empty ones, and a string quoted ('…') exactly
when PyYAML's resolver would read it back as something else (`'4'`, `'true'`, `'1e3'`...).
"""

import re
from functools import lru_cache
from typing import Any

import yaml

_STR_TAG = "tag:yaml.org,2002:str"
_RESOLVER = yaml.resolver.Resolver()  # what yaml.safe_dump's dumpers (Python or libyaml) resolve with
# Plain scalars without spaces or indicators: never wrapped, never a special case of the emitter
# except those `_scalar` turns down.
_SIMPLE = re.compile(r"[A-Za-z0-9._/-]+\Z")
_LONGEST_SIMPLE_KEY = 100  # PyYAML writes a key past 128 characters as "? key"; kept well clear


def block_yaml(document: dict[str, Any]) -> str | None:
    if not document:
        return "{}\n"
    lines: list[str] = []
    if not _mapping(document, 0, lines, None):
        return None
    lines.append("")
    return "\n".join(lines)


def _mapping(mapping: dict[Any, Any], indent: int, lines: list[str], first_lead: str | None) -> bool:
    """Appends the mapping's lines at `indent`; its first key after `first_lead` ("- ") if given."""
    pad = " " * indent
    for index, (key, value) in enumerate(mapping.items()):
        key_text = _scalar(key, is_key=True)
        if key_text is None:
            return False
        lead = first_lead if first_lead is not None and index == 0 else pad
        if isinstance(value, dict):
            if not value:
                lines.append(f"{lead}{key_text}: {{}}")
                continue
            lines.append(f"{lead}{key_text}:")
            if not _mapping(value, indent + 2, lines, None):
                return False
        elif isinstance(value, list):
            if not value:
                lines.append(f"{lead}{key_text}: []")
                continue
            lines.append(f"{lead}{key_text}:")
            if not _sequence(value, indent, lines):
                return False
        else:
            text = _scalar(value, is_key=False)
            if text is None:
                return False
            lines.append(f"{lead}{key_text}: {text}")
    return True


def _sequence(items: list[Any], indent: int, lines: list[str]) -> bool:
    """A sequence in a mapping, its dashes at the mapping's own indent (PyYAML's indentless style)."""
    dash = " " * indent + "- "
    for item in items:
        if isinstance(item, dict):
            if not item:
                lines.append(dash + "{}")
            elif not _mapping(item, indent + 2, lines, dash):
                return False
        elif isinstance(item, list):
            return False
        else:
            text = _scalar(item, is_key=False)
            if text is None:
                return False
            lines.append(dash + text)
    return True


def _scalar(value: Any, *, is_key: bool) -> str | None:
    if value is True:
        return "true"
    if value is False:
        return "false"
    if type(value) is int:
        return str(value)
    if type(value) is not str:
        return None
    if is_key and not 0 < len(value) <= _LONGEST_SIMPLE_KEY:
        return None  # libyaml and PyYAML's own emitter write an empty key differently
    if value == "":
        return "''"
    return _string(value)


@lru_cache(maxsize=65_536)
def _string(value: str) -> str | None:
    # "---" and "..." open and close documents; a lone "-" is an empty sequence entry.
    if not _SIMPLE.match(value) or value.startswith(("---", "...")) or value == "-":
        return None
    if _RESOLVER.resolve(yaml.ScalarNode, value, (True, False)) == _STR_TAG:
        return value
    return f"'{value}'"
