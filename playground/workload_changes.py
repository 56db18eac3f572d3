"""Checking an edit of a big workload at the cost of what it changed. An imported cluster's workload
is tens of thousands of documents (25 MiB for 50,000 pods: 20 s of parsing); the editor checks it
after each pause in typing and a save checks it again. The engine reads every document on its own
(scheduler_core.api.manifests: nothing in one document is checked against another), so when the
text before the edit was valid (it was saved, so it was checked), only the documents the edit
touched can have become invalid: those are parsed, with their lines and document numbers as in
the whole text.

What the whole text's bounds need of it (how many documents, at most how many YAML nodes) is kept
per saved text, by its digest, and brought up to date from the lines the edit changed: the same
figures as counting the whole text, which cost a 25 MiB text a fifth of a second on every check.

A line that starts with `---` (then a space or its end) is a document boundary wherever it is in
valid YAML: YAML refuses a document marker inside a quoted or block scalar at the margin. A text
with directives (`%`), document end markers (`...`) or line breaks other than "\\n" is checked
whole."""

import re
import threading
from dataclasses import dataclass

from playground.line_breaks import has_other_line_breaks
from playground.scenarios import ValidationProblem, validate_workload
from scheduler_core.api.yaml_loader import MAX_DOCUMENTS, MAX_YAML_NODES

_SEPARATOR = re.compile(r"---(?:[ \t\x85\u2028\u2029]|$)", re.MULTILINE)  # YAML's line breaks end a marker too
# A marker line found from the line break before it: a literal first character is searched quickly.
_SEPARATOR_AFTER_BREAK = re.compile(r"\n---(?=[ \t\x85\u2028\u2029\n]|\Z)")
_CONTENT_LINE = re.compile(r"^[^\S\n]*[^\s#]", re.MULTILINE)  # neither blank nor a comment
_NUMBERED = re.compile(r"document (\d+)")
_CHUNK = 1 << 16  # texts are compared this many characters at a time


@dataclass(frozen=True, slots=True)
class TextFacts:
    """What deciding how to check an edit needs of a whole text."""

    node_marks: int  # most_yaml_nodes, less its 1: a sum over lines
    separators: int  # lines that are a document marker
    markers: bool  # a directive or a document end marker: checked whole
    other_breaks: bool  # a line break other than "\n": checked whole

    @classmethod
    def of(cls, text: str) -> "TextFacts":
        return cls(_node_marks(text), _separator_lines(text), _has_markers(text), has_other_line_breaks(text))

    def changed(self, removed: str, added: str, at_start: bool) -> "TextFacts":
        """The facts once the whole lines `removed` are replaced by `added` (at the text's start or not)."""
        return TextFacts(
            self.node_marks - _node_marks(removed) + _node_marks(added),
            self.separators - _separator_lines(removed) + _separator_lines(added),
            self.markers or _has_markers(added if at_start else "\n" + added),
            self.other_breaks or has_other_line_breaks(added),
        )


_KEPT_FACTS = 16
_facts: dict[str, TextFacts] = {}  # by the digest of a saved text; the oldest goes first
_facts_lock = threading.Lock()


def remember_facts(digest: str, facts: TextFacts) -> None:
    """The facts of a text just saved, so that the next check of it does not count them."""
    with _facts_lock:
        _facts.pop(digest, None)
        _facts[digest] = facts
        while len(_facts) > _KEPT_FACTS:
            del _facts[next(iter(_facts))]


def _facts_of(text: str, digest: str | None) -> TextFacts:
    with _facts_lock:
        facts = _facts.get(digest) if digest else None
    if facts is None:
        facts = TextFacts.of(text)
        if digest:
            remember_facts(digest, facts)
    return facts


def validate_changed_documents(
    before: str, after: str, limit: int, before_digest: str | None = None
) -> list[ValidationProblem]:
    """The engine's problems with `after`, knowing `before` (whose SHA-256 is `before_digest`, when
    known) was valid: the documents that differ, parsed alone. The size bound is the whole text's."""
    return check_changed_documents(before, after, limit, before_digest)[0]


def check_changed_documents(
    before: str, after: str, limit: int, before_digest: str | None = None
) -> tuple[list[ValidationProblem], TextFacts | None]:
    """validate_changed_documents, and the facts of `after` when they were brought up to date (to be
    remembered under its digest once it is saved)."""
    size = len(after) if after.isascii() else len(after.encode())
    if size > limit:
        return validate_workload(after, limit), None
    known = _facts_of(before, before_digest)
    if known.markers or known.other_breaks:
        return validate_workload(after, limit), None
    changed = _changed_lines(before, after)
    if changed is None:
        return [], known  # the same text
    start, end_before, end_after = changed
    facts = known.changed(before[start:end_before], after[start:end_after], at_start=start == 0)
    if facts.markers or facts.other_breaks or facts.separators >= MAX_DOCUMENTS:
        return validate_workload(after, limit), None
    if facts.node_marks + 1 > MAX_YAML_NODES:
        return validate_workload(after, limit), None  # the whole text's bounds, with their messages
    # The documents holding the changed lines, and the one line either side (a line removed at a
    # boundary joins or splits the documents around it).
    low = after.rfind("\n", 0, start - 1) + 1 if start > 0 else 0
    next_break = after.find("\n", end_after)
    high = next_break + 1 if next_break >= 0 else len(after)
    region_start = _separator_at_or_before(after, low)
    region_end = _separator_at_or_after(after, high)
    if region_start >= region_end:
        return [], facts  # only lines removed between two documents
    problems = validate_workload(after[region_start:region_end], limit)
    if not problems:
        return [], facts
    lines_before = after.count("\n", 0, region_start)
    documents_before = _separator_lines(after[:region_start])
    if region_start > 0 and _separator_at_or_after(after, 0) != _first_content_line(after):
        documents_before += 1  # the first document has no marker of its own
    return [_shifted(problem, lines_before, documents_before) for problem in problems], None


def _changed_lines(before: str, after: str) -> tuple[int, int, int] | None:
    """(start, end in `before`, end in `after`) of the lines that differ: the text before `start`
    and the text after each end are the same in both, and each is at a line's start (or the end).
    None when the texts are the same."""
    prefix = _common_prefix(before, after)
    if prefix == len(before) == len(after):
        return None
    start = after.rfind("\n", 0, prefix) + 1
    suffix = _common_suffix(before, after, min(len(before), len(after)) - prefix)
    end_before, end_after = len(before) - suffix, len(after) - suffix
    if suffix and not (before[end_before - 1] == "\n" and after[end_after - 1] == "\n"):
        # Inside a line of the same end: the ends move to the line break after, which both hold.
        next_break = after.find("\n", end_after)
        moved = next_break + 1 - end_after if next_break >= 0 else suffix
        end_before, end_after = end_before + moved, end_after + moved
    return start, end_before, end_after


def _common_prefix(one: str, other: str) -> int:
    shortest = min(len(one), len(other))
    low = 0
    while low < shortest:
        high = min(low + _CHUNK, shortest)
        if not one.startswith(other[low:high], low):
            while high - low > 1:
                middle = (low + high) // 2
                if one.startswith(other[low:middle], low):
                    low = middle
                else:
                    high = middle
            return low
        low = high
    return shortest


def _common_suffix(one: str, other: str, most: int) -> int:
    """The length of the same end of both, at most `most` characters."""
    low = 0
    while low < most:
        high = min(low + _CHUNK, most)
        if not one.endswith(other[len(other) - high : len(other) - low], 0, len(one) - low):
            while high - low > 1:
                middle = (low + high) // 2
                if one.endswith(other[len(other) - middle : len(other) - low], 0, len(one) - low):
                    low = middle
                else:
                    high = middle
            return low
        low = high
    return most


def _separator_at_or_before(text: str, position: int) -> int:
    """The start of the last marker line starting at or before `position` (0 if none)."""
    end = position + 3
    while (found := text.rfind("\n---", 0, end)) >= 0:
        if _SEPARATOR.match(text, found + 1):
            return found + 1
        end = found + 3
    return 0


def _separator_at_or_after(text: str, position: int) -> int:
    """The start of the first marker line starting at or after `position`, a line's start (the
    text's length if none)."""
    if position == 0 and _SEPARATOR.match(text):
        return 0
    found = _SEPARATOR_AFTER_BREAK.search(text, max(position - 1, 0))
    return found.start() + 1 if found else len(text)


def _separator_lines(text: str) -> int:
    """How many lines of the text (which starts at a line's start) are a document marker."""
    return (1 if _SEPARATOR.match(text) else 0) + sum(1 for _ in _SEPARATOR_AFTER_BREAK.finditer(text))


def _first_content_line(text: str) -> int:
    """Where the first line that is neither blank nor a comment starts (a first document without a
    marker starts there)."""
    found = _CONTENT_LINE.search(text)
    return found.start() if found else len(text)


def most_yaml_nodes(text: str) -> int:
    """At least as many as the YAML nodes the text composes to, counted from the characters that
    start them (str.count, not a parse): a key and its value at each `:`, a flow item at each `,`,
    a sequence and its first item at each `[`, a mapping at each `{`, a block item at each `- `,
    an explicit key at each `? `, and a block collection or a document at each line. Past the
    loader's bound the whole text is checked, which counts them exactly."""
    return _node_marks(text) + 1


def _node_marks(text: str) -> int:
    # Each mark lies within a line: the sum over lines is the sum over the text.
    return (
        2 * text.count(":")
        + text.count(",")
        + 2 * text.count("[")
        + text.count("{")
        + text.count("- ")
        + text.count("? ")
        + text.count("\n")
    )


def _has_markers(text: str) -> bool:
    return text.startswith(("%", "...")) or "\n%" in text or "\n...\n" in text or text.endswith("\n...")


def _shifted(problem: ValidationProblem, lines: int, documents: int) -> ValidationProblem:
    """A problem of the region as the whole text numbers it."""
    document = _NUMBERED.sub(lambda match: f"document {int(match.group(1)) + documents}", problem.document)
    message = _NUMBERED.sub(lambda match: f"document {int(match.group(1)) + documents}", problem.message)
    line = problem.line + lines if problem.line else problem.line
    return ValidationProblem(message, line, document, problem.path)
