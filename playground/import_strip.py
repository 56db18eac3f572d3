"""The text filter of an import: kubectl's YAML without the blocks the engine never reads.

At real size most of kubectl's output is what the scheduler never looks at (managedFields, images,
conditions, annotations, probes, environments), and most of what it keeps sits in blocks kept whole
(labels, affinity, tolerations, resources). Only the lines where a key is kept or dropped need a
decision; the filter finds the end of every other block with one regular-expression search over the
piece of text it is in, so the Python loop sees about a third of the lines. A dropped line is left
empty, so the line numbers the engine's errors give are those of the text the user sent.

Only block-style YAML as kubectl writes it is stripped; flow collections spanning lines, block
scalars and anything unrecognised are kept as they are, so the result always means the same objects
minus dropped keys."""

import functools
import re
from collections.abc import Iterable

from playground.line_breaks import has_other_line_breaks

# The pod fields that matter for scheduling, kept as they are.
POD_SPEC_KEEP = (
    "nodeName", "nodeSelector", "affinity", "tolerations", "topologySpreadConstraints", "schedulerName",
    "priority", "preemptionPolicy", "overhead", "resources", "hostNetwork", "terminationGracePeriodSeconds",
    "restartPolicy",
)  # fmt: skip
CONTAINER_KEEP = ("name", "image", "resources", "ports", "restartPolicy")

# What the filter keeps, by the path of the mapping a key is in (an object's own keys at ()): keys of
# these mappings that are not listed are dropped. Mappings not listed keep everything.
KEEP: dict[tuple[str, ...], frozenset[str]] = {
    (): frozenset({"apiVersion", "kind", "metadata", "spec", "status", "items"}),
    ("metadata",): frozenset({"name", "namespace", "labels"}),
    ("spec",): frozenset({*POD_SPEC_KEEP, "containers", "initContainers", "taints", "unschedulable"}),
    ("spec", "containers"): frozenset(CONTAINER_KEEP),
    ("spec", "initContainers"): frozenset(CONTAINER_KEEP),
    ("status",): frozenset({"phase", "capacity", "allocatable"}),
}
# Paths with something dropped at or under them: a kept key whose path is not one is kept whole.
KEPT_PREFIXES = frozenset(path[:length] for path in KEEP for length in range(len(path) + 1))

_KEY_LINE = re.compile(r"( *)(- +)?([A-Za-z_][\w./-]*|\"[^\"]*\"|'[^']*'):(?: +(.*))?$")
_BLOCK_SCALAR = re.compile(r"[|>][-+0-9]*(?: +#.*)?$")
_CARRIED_MOST = 4 * 2**20  # a block kept whole longer than this is read line by line


@functools.cache
def _block_end(column: int, dropped_keys_of: frozenset[str] | None = None) -> re.Pattern[str]:
    """The first line after a block whose key is at `column`: neither blank nor a comment, indented
    less, or as much and not a sequence item (kubectl writes a key's items at the key's column).
    With the keys a mapping keeps, after a dropped block: also not a key that mapping drops (the
    dropped keys that follow go in the same search), unless its value opens a flow collection."""
    same = f" {{{column}}}(?!- )"
    if dropped_keys_of is not None:
        kept = "|".join(re.escape(key) for key in sorted(dropped_keys_of))
        same += rf"""(?!(?![\"']*(?:{kept})[\"']*:)(?:[A-Za-z_][\w./-]*|"[^"\n]*"|'[^'\n]*'):(?:$| ++(?![\[{{])))"""
    same += "[^ \n#]"
    # From the line break before the line: a literal first character, which the regular expression
    # engine looks for quickly (anchored with ^, it tries each character of the block).
    return re.compile(f"\n(?: {{0,{column - 1}}}[^ \n#]|{same})" if column else f"\n{same}", re.MULTILINE)


def _end_of_block(piece: str, position: int, block_end: re.Pattern[str]) -> int:
    """Where the first line at or after `position` (the start of a line) that ends the block starts;
    the piece's size when it goes on past the piece."""
    if position == 0:
        if block_end.match("\n" + piece[: piece.find("\n") + 1]):
            return 0
        found = block_end.search(piece)
    else:
        found = block_end.search(piece, position - 1)  # the line break ending the line before
    return found.start() + 1 if found else len(piece)


def strip_text(pieces: Iterable[str]) -> str:
    """The YAML without the blocks the engine never reads (see KEEP), each dropped line left empty.
    `pieces` are the text in parts of one or more lines (one may end inside a line)."""
    stripper = _Stripper()
    for piece in pieces:
        stripper.feed(piece)
    return stripper.text()


class _Stripper:
    def __init__(self) -> None:
        self.out: list[str] = []
        # The mappings the line is in: (column of the key, path of the mapping under it), the path
        # without a List's leading "items" (a List's items are objects like any other).
        self.stack: list[tuple[int, tuple[str, ...]]] = []
        self.drop_above = -1  # inside a dropped block: lines indented more than this go
        self.drop_kept: frozenset[str] = frozenset()  # the keys kept by the mapping of the dropped key
        self.raw_above = -1  # inside a block scalar: lines indented more are kept as they are
        self.whole_above = -1  # inside a block kept whole (nothing under its path is in KEEP)
        self.flow_depth = 0  # inside a flow collection spanning lines: kept, unless in a dropped block
        self.partial = ""  # what of the last piece is read with the next one

    def feed(self, piece: str) -> None:
        if self.partial:
            piece, self.partial = self.partial + piece, ""
        last = piece.rfind("\n")
        if last < len(piece) - 1:
            piece, self.partial = piece[: last + 1], piece[last + 1 :]
        self.partial = self._read(_with_newlines(piece)) + self.partial

    def text(self) -> str:
        if self.partial:
            self._read(_with_newlines(self.partial if self.partial.endswith("\n") else self.partial + "\n"), last=True)
            self.partial = ""
        return "".join(self.out)

    def _read(self, piece: str, last: bool = False) -> str:
        """The lines of a piece of whole "\\n"-ended lines. The inside of a dropped block, and of a
        block kept whole, is passed over in one search: it ends at the line where reading line by
        line would end it, and a block kept whole holds nothing to drop (KEPT_PREFIXES). One that
        opens a flow collection, which may span lines less indented, is read line by line, from its
        start: so a block kept whole that goes on past the piece is given back, to be read with the
        next one (up to _CARRIED_MOST characters; a longer one is read line by line)."""
        stack, append = self.stack, self.out.append
        drop_above, drop_kept, raw_above, whole_above, flow_depth = (
            self.drop_above, self.drop_kept, self.raw_above, self.whole_above, self.flow_depth
        )  # fmt: skip
        position, size = 0, len(piece)
        while position < size:
            if not flow_depth and raw_above < 0:
                if drop_above >= 0:
                    stop = _end_of_block(piece, position, _block_end(drop_above, drop_kept))
                    append("\n" * piece.count("\n", position, stop))
                    position = stop
                    if stop == size:
                        break
                    drop_above = -1
                elif whole_above >= 0:
                    stop = _end_of_block(piece, position, _block_end(whole_above))
                    flows = piece.find("[", position, stop) >= 0 or piece.find("{", position, stop) >= 0
                    if not flows and (stop < size or last):
                        append(piece[position:stop])
                        position = stop
                        if stop == size:
                            break
                    elif not flows and size - position <= _CARRIED_MOST:  # it goes on in the next piece
                        self._keep_state(drop_above, drop_kept, raw_above, whole_above, flow_depth)
                        return piece[position:]
                    whole_above = -1  # read line by line from the block's start
            end_of_line = piece.find("\n", position)
            body = piece[position:end_of_line]
            position = end_of_line + 1
            stripped = body.lstrip(" ")
            if flow_depth > 0:
                flow_depth += _depth_change(stripped)
                append("\n" if drop_above >= 0 else body + "\n")
                continue
            if not stripped or stripped[0] == "#":
                append("\n" if drop_above >= 0 else body + "\n")
                continue
            indent = len(body) - len(stripped)
            if raw_above >= 0:
                if indent > raw_above:
                    append("\n" if drop_above >= 0 else body + "\n")
                    continue
                raw_above = -1
            if drop_above >= 0:
                if indent > drop_above or (indent == drop_above and stripped[:2] == "- "):
                    append("\n")
                    continue
                drop_above = -1
            if indent == 0 and stripped[:3] in ("---", "..."):
                stack.clear()
                append(body + "\n")
                continue
            match = _KEY_LINE.match(body)
            if match is None:
                append(body + "\n")
                if stripped[:2] == "- ":  # an item that is not a mapping: leave the levels as they are
                    while stack and stack[-1][0] > indent:
                        stack.pop()
                continue
            spaces, dash, key, value = match.groups()
            column = len(spaces) + (len(dash) if dash else 0)
            if dash:
                while stack and stack[-1][0] > indent:
                    stack.pop()
            else:
                while stack and stack[-1][0] >= column:
                    stack.pop()
            path = stack[-1][1] if stack else ()
            kept = KEEP.get(path)
            if key[0] in "\"'":
                key = key.strip("\"'")
            if kept is not None and key not in kept:
                append(f"{spaces}-\n" if dash else "\n")  # an item stays; its other keys follow, indented
                drop_above, drop_kept = column, kept
                if value and value[0] in "[{":
                    flow_depth = _depth_change(value)
                continue
            append(body + "\n")
            if value:
                if value[0] in "|>" and _BLOCK_SCALAR.match(value):
                    raw_above = column
                elif value[0] in "[{":
                    flow_depth = _depth_change(value)
                continue  # a value on the line: nothing nests under this key
            inner = () if not stack and key == "items" else (*path, key)
            stack.append((column, inner))
            if inner not in KEPT_PREFIXES:
                whole_above = column
        self._keep_state(drop_above, drop_kept, raw_above, whole_above, flow_depth)
        return ""

    def _keep_state(
        self, drop_above: int, drop_kept: frozenset[str], raw_above: int, whole_above: int, flow_depth: int
    ) -> None:
        self.drop_above, self.drop_kept, self.raw_above = drop_above, drop_kept, raw_above
        self.whole_above, self.flow_depth = whole_above, flow_depth


def _with_newlines(piece: str) -> str:
    """The piece with every line break "\\n": str.splitlines' lines, which the engine's errors count."""
    if "\r\n" in piece:
        piece = piece.replace("\r\n", "\n")
    if has_other_line_breaks(piece):
        piece = "\n".join(piece.splitlines()) + "\n"
    return piece


def _depth_change(text: str) -> int:
    """How many flow collections the text opens and does not close (quotes taken into account)."""
    depth = 0
    quote = ""
    index = 0
    while index < len(text):
        char = text[index]
        if quote:
            if char == "\\" and quote == '"':
                index += 1
            elif char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
        elif char == "#" and (index == 0 or text[index - 1] == " "):
            break
        index += 1
    return depth
