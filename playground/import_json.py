"""`kubectl get ... -o json` read as a stream: a List's items are decoded one at a time by the json
module's C decoder (raw_decode), each cut down to what the scheduler reads (importing.KEEP) before
the next is read, so 50,000 pods never stand in memory as kubectl wrote them, and a 200 MB file
reads in seconds (the YAML path reads it line by line in Python). The line of an error is counted
from the text as sent."""

import json
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from scheduler_core.api.errors import ManifestError

CHUNK_CHARS = 1 << 20  # the text is decoded from pieces of about this size
_DECODER = json.JSONDecoder()
_SPACE = " \t\r\n"
_LONGEST_WORD = 16  # a value cut short (`tr`, `-Infinit`) is refused where it starts: that close to the end


class JsonImportError(Exception):
    """A syntax error, or an item the engine refuses: the message names the line."""


_JSON_START = re.compile(r"\ufeff?[ \t\r\n]*(?:\{[ \t\r\n]*[\"}]|\[[ \t\r\n]*(?:\]|\{[ \t\r\n]*[\"}]))")


HEAD_CHARACTERS = 3


def looks_like_json(head: str) -> bool:
    """kubectl's JSON starts with `{"` (an object or a List) or, for a hand-made file, `[{`; YAML's
    flow style (`{apiVersion: v1, ...}`) does not. `head`: the text's start, HEAD_CHARACTERS past
    its white space at least (or all of it)."""
    return _JSON_START.match(head) is not None


class _Text:
    """The text so far, with more read on demand, and the lines of what was let go."""

    def __init__(self, pieces: Iterable[str]) -> None:
        self._pieces = iter(pieces)
        self.buffer = ""
        self.lines_before = 0  # line breaks in the text before the buffer
        self.ended = False
        self._counted = (0, 0)  # (position, line breaks before it in the buffer): lines counted once

    def more(self) -> bool:
        """Reads about CHUNK_CHARS more; False at the end of the text."""
        if self.ended:
            return False
        parts: list[str] = []
        size = 0
        for piece in self._pieces:
            parts.append(piece)
            size += len(piece)
            if size >= CHUNK_CHARS:
                break
        else:
            self.ended = True
        if parts:
            self.buffer += "".join(parts)
        return bool(parts) or not self.ended

    def release(self, position: int) -> int:
        """Lets the text before `position` go once it is large; the position in the new buffer."""
        if position < CHUNK_CHARS:
            return position
        self.lines_before += self._breaks_before(position)
        self.buffer = self.buffer[position:]
        self._counted = (0, 0)
        return 0

    def line_of(self, position: int) -> int:
        return self.lines_before + self._breaks_before(position) + 1

    def _breaks_before(self, position: int) -> int:
        counted_to, breaks = self._counted
        if position >= counted_to:  # the usual case: the text is read forwards
            breaks += self.buffer.count("\n", counted_to, position)
        else:
            breaks = self.buffer.count("\n", 0, position)
        self._counted = (position, breaks)
        return breaks

    def skip_space(self, position: int) -> int:
        """The position of the next character that is not white space (reading more as needed)."""
        while True:
            while position < len(self.buffer) and self.buffer[position] in _SPACE:
                position += 1
            if position < len(self.buffer) or not self.more():
                return position

    def expect(self, position: int, characters: str, what: str) -> tuple[str, int]:
        position = self.skip_space(position)
        char = self.buffer[position : position + 1]
        if not char or char not in characters:
            found = repr(char) if char else "the end of the text"
            raise JsonImportError(f"line {self.line_of(position)}: not valid JSON: expected {what}, found {found}")
        return char, position + 1

    def value(self, position: int) -> tuple[Any, int]:
        """One JSON value starting at `position` (past white space), read in full."""
        position = self.skip_space(position)
        while True:
            try:
                value, end = _DECODER.raw_decode(self.buffer, position)
            except json.JSONDecodeError as error:
                # Cut short by the end of what was read: read on. A mistake inside it: said now,
                # without reading the rest of the file.
                cut_short = error.pos >= len(self.buffer) - _LONGEST_WORD or error.msg.startswith("Unterminated")
                if cut_short and self.more():
                    continue
                raise JsonImportError(f"line {self.line_of(error.pos)}: not valid JSON: {error.msg}") from None
            # A number (or true, false, null) near the end of what was read may go on in the next
            # piece (`12` of `12.5`): read on, then read it again.
            if isinstance(value, (dict, list, str)) or end < len(self.buffer) - _LONGEST_WORD or not self.more():
                return value, end


def json_objects(
    pieces: Iterable[str], keep: Callable[[dict[str, Any]], dict[str, Any] | None]
) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line, kept object) for each object of the text: a List's items, an array's elements, or the
    one object. `keep` cuts an object down (or drops it: None) before the next one is decoded."""
    text = _Text(pieces)
    position = text.skip_space(0)
    if text.buffer.startswith("\ufeff", position):
        position += 1
    opening, position = text.expect(position, "{[", "an object or an array")
    if opening == "[":
        elements = _Elements(text, keep)
        yield from elements.read(position)
        position = elements.end
    else:
        object_line = text.line_of(position - 1)
        top: dict[str, Any] = {}
        items_seen = False
        closing, position = text.expect(position, '"}', "a key or '}'")
        while closing != "}":
            key, position = text.value(position - 1)  # from its opening quote
            _colon, position = text.expect(position, ":", "':'")
            position = text.skip_space(position)
            if key == "items" and text.buffer.startswith("[", position):
                items_seen = True
                elements = _Elements(text, keep)
                yield from elements.read(position + 1)
                position = elements.end
            else:
                top[key], position = text.value(position)
            position = text.release(position)
            closing, position = text.expect(position, ",}", "',' or '}'")
            if closing == ",":
                _quote, position = text.expect(position, '"', "a key")
        if not items_seen:  # a single object: `kubectl get node x -o json`
            kept = keep(top)
            if kept is not None:
                yield object_line, kept
    position = text.skip_space(position)
    if position < len(text.buffer):
        raise JsonImportError(f"line {text.line_of(position)}: not valid JSON: text after the end of the document")


class _Elements:
    """The elements of an array, each kept or dropped as it is read; `end` is past its `]`."""

    def __init__(self, text: _Text, keep: Callable[[dict[str, Any]], dict[str, Any] | None]) -> None:
        self.text, self.keep, self.end = text, keep, 0

    def read(self, position: int) -> Iterator[tuple[int, dict[str, Any]]]:
        text = self.text
        position = text.skip_space(position)
        if text.buffer.startswith("]", position):
            self.end = position + 1
            return
        while True:
            start = text.skip_space(position)
            line = text.line_of(start)
            value, position = text.value(start)
            if not isinstance(value, dict):
                raise JsonImportError(f"line {line}: an item must be an object with apiVersion and kind")
            kept = self.keep(value)
            del value
            if kept is not None:
                yield line, kept
            position = text.release(position)
            closing, position = text.expect(position, ",]", "',' or ']'")
            if closing == "]":
                self.end = position
                return


def engine_error(line: int, error: ManifestError) -> JsonImportError:
    """The engine's refusal of an object read from JSON (its own line marks are YAML's: none here)."""
    return JsonImportError(f"line {line}: {error.document} {error.path}: {error.message}".replace("  ", " "))
