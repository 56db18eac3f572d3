"""The import's text filter passes over whole blocks in one search; it must give, byte for byte,
what reading every line gives. The reference below reads every line (the filter as it was before
it skimmed), and the cases are kubectl's realistic output, the YAML it must leave alone, and
thousands of generated texts, each fed whole, line by line and in pieces cut anywhere."""

import random

import pytest

from playground import import_strip
from playground.import_strip import _BLOCK_SCALAR, _KEY_LINE, KEEP, _block_end, _depth_change, strip_text
from tests.web.kubectl_output import nodes_yaml, pods_yaml


def line_by_line(text: str) -> str:
    """The filter's meaning, one line at a time (see import_strip.strip_text)."""
    out: list[str] = []
    stack: list[tuple[int, str]] = []
    drop_above: int | None = None
    raw_above: int | None = None
    flow_depth = 0
    for line in text.splitlines():
        stripped = line.lstrip(" ")
        indent = len(line) - len(stripped)
        dropping = drop_above is not None
        if flow_depth > 0:
            flow_depth += _depth_change(stripped)
            out.append("" if dropping else line)
            continue
        if not stripped or stripped.startswith("#"):
            out.append("" if dropping else line)
            continue
        if raw_above is not None:
            if indent > raw_above:
                out.append("" if dropping else line)
                continue
            raw_above = None
        if drop_above is not None:
            if indent > drop_above or (indent == drop_above and stripped.startswith("- ")):
                out.append("")
                continue
            drop_above = None
        if indent == 0 and stripped.startswith(("---", "...")):
            stack.clear()
            out.append(line)
            continue
        match = _KEY_LINE.match(line)
        if match is None:
            out.append(line)
            if stripped.startswith("- "):
                while stack and stack[-1][0] > indent:
                    stack.pop()
            continue
        spaces, dash, key, value = match.group(1), match.group(2), match.group(3), match.group(4) or ""
        column = len(spaces) + len(dash or "")
        while stack and (stack[-1][0] > indent if dash else stack[-1][0] >= column):
            stack.pop()
        path = tuple(name for _, name in stack)
        if path[:1] == ("items",):
            path = path[1:]
        kept = KEEP.get(path)
        key = key.strip("\"'")
        if kept is not None and key not in kept:
            out.append(f"{spaces}-" if dash else "")
            drop_above = column
            if value[:1] in ("[", "{"):
                flow_depth = _depth_change(value)
            continue
        out.append(line)
        if value:
            if _BLOCK_SCALAR.match(value):
                raw_above = column
            elif value[0] in "[{":
                flow_depth = _depth_change(value)
        else:
            stack.append((column, key))
    return "".join(line + "\n" for line in out)


def cut(text: str, rng: random.Random, pieces: int) -> list[str]:
    """The text in `pieces` parts cut anywhere, mid-line included."""
    points = sorted(rng.sample(range(1, len(text)), min(pieces - 1, len(text) - 1))) if len(text) > 1 else []
    return [text[a:b] for a, b in zip([0, *points], [*points, len(text)], strict=True)]


def assert_as_read_line_by_line(text: str, rng: random.Random) -> None:
    expected = line_by_line(text)
    assert strip_text([text]) == expected
    assert strip_text(text.splitlines(keepends=True)) == expected
    assert strip_text(cut(text, rng, 7)) == expected


@pytest.mark.parametrize("text", [nodes_yaml(12), pods_yaml(40, 12)], ids=["nodes", "pods"])
def test_kubectl_output_is_stripped_as_line_by_line(text):
    assert_as_read_line_by_line(text, random.Random(1))
    assert_as_read_line_by_line(text.replace("\n", "\r\n"), random.Random(2))


ODD_CASES = {
    "flow value of a dropped key, less indented": "metadata:\n  annotations: {a: 1,\nb: 2}\n  name: x\n",
    "flow in a block kept whole, less indented": "metadata:\n  labels:\n    a: [x,\n  y]\n  uid: 1\n  name: n\n",
    "block scalar kept": "metadata:\n  labels:\n    note: |\n      managedFields:\n        - x\n  uid: u\n",
    "block scalar dropped": "metadata:\n  annotations:\n    a: >-\n      text\n\n      more\n  name: n\n",
    "comments and blanks everywhere": "spec:\n  # c\n  volumes:\n#x\n\n  - name: a\n    # y\n  nodeName: n\n",
    "quoted keys": "metadata:\n  \"name\": a\n  'uid': b\n  \"labels\":\n    x: y\nspec:\n  'volumes': []\n",
    "dropped siblings with flows": "spec:\n  dnsConfig: {}\n  hostAliases: [\n  ]\n  volumes: []\n  nodeName: x\n",
    "a key without a space after its colon": "metadata:\n  uid:1\n  uid: 2\n  a:b\n  name: n\n",
    "items at the key's column": "spec:\n  volumes:\n  - name: a\n  - name: b\n  containers:\n  - name: c\n",
    "nested Lists": "items:\n- kind: List\n  items:\n  - metadata:\n      uid: x\n    managedFields:\n    - a\n",
    "documents": "metadata:\n  uid: 1\n---\nmetadata:\n  uid: 2\n...\nstatus:\n  phase: x\n",
    "tabs and odd breaks": "metadata:\n\tuid: 1\n  uid: 2\x0b  name: n\u2028spec:\r  volumes:\n  - a\n",
    "a dash alone": "spec:\n  volumes:\n  -\n    name: a\n  -\nstatus: {}\n",
    "no final line break": "metadata:\n  uid: 1\n  name: x",
    "a deep dropped block at the end": "items:\n- metadata:\n    managedFields:\n    - f:\n        g: 1\n",
}


@pytest.mark.parametrize("text", list(ODD_CASES.values()), ids=list(ODD_CASES))
def test_yaml_the_filter_reads_carefully_is_stripped_as_line_by_line(text):
    for seed in range(20):
        assert_as_read_line_by_line(text, random.Random(seed))


KEYS = [
    *("apiVersion", "kind", "metadata", "spec", "status", "items", "name", "namespace", "labels"),
    *("managedFields", "annotations", "uid", "containers", "image", "resources", "ports", "nodeName"),
    *("volumes", "tolerations", "affinity", "phase", "conditions", "capacity", "env", '"name"', "'uid'"),
]
VALUES = ["", "", "", "x", "'a: b'", '"q"', "{}", "[]", "[a, b]", "{a: [1,", "[x,", "|", ">-", "1 # c"]


def generated(rng: random.Random) -> str:
    """A text of kubectl-like keys at wandering depths, with flows, block scalars, sequences,
    comments and blank lines: valid YAML or not, the filter must read it as line by line does."""
    lines: list[str] = []
    indent = 0
    for _ in range(rng.randint(5, 60)):
        roll = rng.random()
        if roll < 0.08:
            lines.append(" " * rng.randint(0, 8) + rng.choice(["", "# note", "#"]))
            continue
        if roll < 0.12:
            lines.append(rng.choice(["---", "...", "]", "}, c: d}", "  y]", "text"]))
            continue
        indent = max(0, indent + rng.choice([-4, -2, -2, 0, 0, 2, 2, 4]))
        dash = "- " if rng.random() < 0.25 else ""
        key, value = rng.choice(KEYS), rng.choice(VALUES)
        lines.append(" " * indent + dash + key + ":" + (" " + value if value else ""))
        if dash:
            indent += 2
        if value in ("|", ">-"):
            lines.extend(" " * (indent + rng.randint(1, 4)) + rng.choice(["a: b", "- c", "", "uid:"]) for _ in range(2))
    return "\n".join(lines) + rng.choice(["\n", "", "\r\n"])


@pytest.mark.parametrize("carried_most", [import_strip._CARRIED_MOST, 12])
def test_generated_texts_are_stripped_as_line_by_line(monkeypatch, carried_most: int):
    # A block kept whole that goes on past its piece is read again with the next piece, up to a
    # bound; past it, line by line: both must give what reading every line gives.
    monkeypatch.setattr(import_strip, "_CARRIED_MOST", carried_most)
    rng = random.Random(14)
    for _ in range(2000):
        assert_as_read_line_by_line(generated(rng), rng)


def test_a_block_ends_at_a_line_less_indented_or_a_key_of_its_own_column():
    def rest_after_block(text: str, column: int, kept_by_mapping: frozenset[str] | None = None) -> str:
        return text[import_strip._end_of_block(text, 0, _block_end(column, kept_by_mapping)) :]

    assert rest_after_block("  - item\n    deeper\n  next: 1\n", 2) == "  next: 1\n"
    assert rest_after_block("    deeper\n# comment\n\n x\n", 2) == " x\n"
    assert rest_after_block("    deeper\n", 2) == ""  # goes on past the piece
    # After a dropped key of metadata, the keys metadata drops go too; name stays.
    text = "      deep\n    uid: 1\n    annotations:\n      a: b\n    name: x\n"
    assert rest_after_block(text, 4, KEEP[("metadata",)]) == "    name: x\n"
    flow = "    annotations: {a: 1}\n"  # a flow: read line by line
    assert rest_after_block(flow, 4, KEEP[("metadata",)]) == flow
