"""Checking an edit of a big workload at the cost of what it changed. An imported cluster's workload
is tens of thousands of documents (25 MiB for 50,000 pods: 20 s of parsing); the editor checks it
after each pause in typing and a save checks it again. The engine reads every document on its own
(scheduler_core.api.manifests: nothing in one document is checked against another), so when the
text before the edit was valid (it was saved, so it was checked), only the documents the edit
touched can have become invalid: those are parsed, with their lines and document numbers as in
the whole text.

A line that starts with `---` (then a space or its end) is a document boundary wherever it is in
valid YAML: YAML refuses a document marker inside a quoted or block scalar at the margin. A text
with directives (`%`) or document end markers (`...`) is checked whole."""

import re

from playground.scenarios import ValidationProblem, validate_workload
from scheduler_core.api.yaml_loader import MAX_DOCUMENTS, MAX_YAML_NODES

_SEPARATOR = re.compile(r"---(?:[ \t\x85\u2028\u2029]|$)")  # YAML's line breaks end a marker too
_NUMBERED = re.compile(r"document (\d+)")


def validate_changed_documents(before: str, after: str, limit: int) -> list[ValidationProblem]:
    """The engine's problems with `after`, knowing `before` was valid: the documents that differ,
    parsed alone. The size bound is the whole text's."""
    size = len(after.encode())
    if size > limit or _has_markers(after):
        return validate_workload(after, limit)
    old, new = before.splitlines(keepends=True), after.splitlines(keepends=True)
    head = 0
    shorter = min(len(old), len(new))
    while head < shorter and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < shorter - head and old[len(old) - 1 - tail] == new[len(new) - 1 - tail]:
        tail += 1
    if head == len(new) and len(old) == len(new):
        return []  # the same text
    separators = [index for index, line in enumerate(new) if _SEPARATOR.match(line)]
    if len(separators) >= MAX_DOCUMENTS or most_yaml_nodes(after) > MAX_YAML_NODES:
        return validate_workload(after, limit)  # the whole text's bounds, with their messages
    # The documents holding the changed lines, and the one line either side (a line removed at a
    # boundary joins or splits the documents around it).
    low, high = max(head - 1, 0), min(len(new) - tail + 1, len(new))
    start = max((index for index in separators if index <= low), default=0)
    end = min((index for index in separators if index >= high), default=len(new))
    if start >= end:
        return []  # only lines removed between two documents
    region = "".join(new[start:end])
    before_region = sum(1 for index in separators if index < start)
    if start > 0 and not (separators and separators[0] == _first_content_line(new)):
        before_region += 1  # the first document has no marker of its own
    return [_shifted(problem, start, before_region) for problem in validate_workload(region, limit)]


def most_yaml_nodes(text: str) -> int:
    """At least as many as the YAML nodes the text composes to, counted from the characters that
    start them (str.count, not a parse): a key and its value at each `:`, a flow item at each `,`,
    a sequence and its first item at each `[`, a mapping at each `{`, a block item at each `- `,
    an explicit key at each `? `, and a block collection or a document at each line. Past the
    loader's bound the whole text is checked, which counts them exactly."""
    return (
        2 * text.count(":")
        + text.count(",")
        + 2 * text.count("[")
        + text.count("{")
        + text.count("- ")
        + text.count("? ")
        + text.count("\n")
        + 1
    )


def _has_markers(text: str) -> bool:
    return text.startswith(("%", "...")) or "\n%" in text or "\n...\n" in text or text.endswith("\n...")


def _first_content_line(lines: list[str]) -> int:
    """The first line that is neither blank nor a comment (where a first document without a marker starts)."""
    for index, line in enumerate(lines):
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            return index
    return len(lines)


def _shifted(problem: ValidationProblem, lines: int, documents: int) -> ValidationProblem:
    """A problem of the region as the whole text numbers it."""
    document = _NUMBERED.sub(lambda match: f"document {int(match.group(1)) + documents}", problem.document)
    message = _NUMBERED.sub(lambda match: f"document {int(match.group(1)) + documents}", problem.message)
    line = problem.line + lines if problem.line else problem.line
    return ValidationProblem(message, line, document, problem.path)
