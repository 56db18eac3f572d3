"""A fast reader of one YAML document in the block style kubectl writes: what an import parses
once its text is stripped (import_strip), ten times faster than PyYAML's node-per-scalar
construction. Anything it does not read exactly as PyYAML would, it declines (None), and PyYAML
reads it instead."""

import re
from typing import Any

import yaml

from playground.line_breaks import has_other_line_breaks

FAST_LOADER: Any = getattr(yaml, "CSafeLoader", None)
# The lines that hold something: not blank, not a comment.
_CONTENT_LINE = re.compile(r"^ *[^ \n#].*", re.MULTILINE)
# Declined: a line break besides "\n" (line_breaks.py), and a directive or a document marker at a
# line's start (searched from the line break: a literal first character is found quickly; anchored
# with ^, each position is tried).
_MARKER_FIRST = re.compile(r" *(?:---|\.\.\.|%)")
_MARKER_AFTER_BREAK = re.compile(r"\n *(?:---|\.\.\.|%)")


def _declined(text: str) -> bool:
    return (
        has_other_line_breaks(text)
        or _MARKER_FIRST.match(text) is not None
        or _MARKER_AFTER_BREAK.search(text) is not None
    )


class _NotPlain(Exception):
    """The text holds YAML block_yaml does not read: PyYAML reads it instead."""


def block_yaml(text: str) -> Any:
    """One YAML document in the block style kubectl writes (mappings, sequences, plain and quoted
    one-line scalars, one-line flow values). Scalars are resolved by libyaml itself (one value at a time,
    cached), so they mean what PyYAML makes of them. Anything else (block scalars, multi-line flow
    or quoted values, anchors, tags, several documents, duplicate keys) gives None."""
    if _declined(text):
        return None
    lines = _CONTENT_LINE.findall(text)
    bodies = [line.lstrip(" ") for line in lines]
    indents = [len(line) - len(body) for line, body in zip(lines, bodies, strict=True)]
    bodies = [body.rstrip() for body in bodies]
    if not bodies:
        return None
    reader = _BlockReader(indents, bodies)
    try:
        value, end = reader.block(0, indents[0])
    except (_NotPlain, RecursionError, yaml.YAMLError):
        return None
    return value if end == len(bodies) else None


class _BlockReader:
    def __init__(self, indents: list[int], bodies: list[str]) -> None:
        self.indents, self.bodies, self.cache = indents, bodies, dict[str, Any]()
        # A mapping line's key and the text of its value, by the line: kubectl repeats most lines.
        self.lines: dict[str, tuple[str, str]] = {}

    def block(self, index: int, indent: int) -> tuple[Any, int]:
        body = self.bodies[index]
        if body == "-" or body.startswith("- "):
            return self.sequence(index, indent)
        return self.mapping(index, indent)

    def sequence(self, index: int, indent: int) -> tuple[list[Any], int]:
        items: list[Any] = []
        indents, bodies = self.indents, self.bodies
        while index < len(bodies) and indents[index] == indent and (bodies[index] == "-" or bodies[index][:2] == "- "):
            rest = bodies[index][1:].lstrip(" ")
            if not rest:
                if index + 1 < len(bodies) and indents[index + 1] > indent:
                    value, index = self.block(index + 1, indents[index + 1])
                else:
                    value, index = None, index + 1
            elif rest == "-" or rest.startswith("- ") or _mapping_key(rest) is not None:
                indents[index] = indent + len(bodies[index]) - len(rest)
                bodies[index] = rest
                value, index = self.block(index, indents[index])
            else:
                value, index = self.scalar(rest), index + 1
            items.append(value)
        if index < len(bodies) and indents[index] > indent:
            raise _NotPlain
        return items, index

    def mapping(self, index: int, indent: int) -> tuple[dict[str, Any], int]:
        mapping: dict[str, Any] = {}
        indents, bodies = self.indents, self.bodies
        while index < len(bodies) and indents[index] == indent:
            body = bodies[index]
            if body == "-" or body[:2] == "- ":
                break
            known = self.lines.get(body)
            if known is None:
                split = _mapping_key(body)
                if split is None:
                    raise _NotPlain
                raw_key, rest = split
                resolved = self.scalar(raw_key)
                key = str(resolved).lower() if isinstance(resolved, bool) else str(resolved)
                known = self.lines[body] = (key, rest)
            key, rest = known
            if key in mapping:
                raise _NotPlain
            index += 1
            if rest:
                mapping[key] = self.scalar(rest)
            elif index < len(bodies) and indents[index] > indent:
                mapping[key], index = self.block(index, indents[index])
            elif (
                index < len(bodies) and indents[index] == indent and (bodies[index] == "-" or bodies[index][:2] == "- ")
            ):
                mapping[key], index = self.sequence(index, indent)
            else:
                mapping[key] = None
        if index < len(bodies) and indents[index] > indent:
            raise _NotPlain
        return mapping, index

    def scalar(self, text: str) -> Any:
        try:
            return self.cache[text]
        except KeyError:
            pass
        if text[0] in "&*!|>@`%?" or (text[0] in "-:" and text[1:2] in ("", " ")):
            raise _NotPlain
        if text[0] == '"' and text.endswith('"') and "\\" not in text and text.count('"') == 2:
            value: Any = text[1:-1]
        elif text[0] == "'" and text.endswith("'") and text.count("'") == 2:
            value = text[1:-1]
        else:
            if text[0] in "\"'" or (text[0] not in "[{" and (": " in text or text.endswith(":"))):
                raise _NotPlain
            value = yaml.load(text, Loader=FAST_LOADER or yaml.SafeLoader)
            if text[0] in "[{":
                if not isinstance(value, (dict, list)) or "&" in text or "*" in text or "!" in text:
                    raise _NotPlain
                value = _plain(value)
            elif isinstance(value, (dict, list)):
                raise _NotPlain
            else:
                self.cache[text] = value
            return value
        self.cache[text] = value
        return value


_MAPPING_KEY = re.compile(r"""([^\s"'#&*!|>%@`{}\[\],?:-][^:#]*|"[^"\\]*"|'[^']*'):(?: +(.*))?$""")


def _mapping_key(body: str) -> tuple[str, str] | None:
    match = _MAPPING_KEY.match(body)
    if match is None:
        return None
    rest = match.group(2) or ""
    if rest.startswith("#"):
        rest = ""
    return match.group(1).rstrip(), rest


def _plain(value: Any) -> Any:
    """Plain dicts and lists (the loader's marked ones would be dumped with their Python tags)."""
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value
