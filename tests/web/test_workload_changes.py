"""An edit of a big workload is checked at the cost of what it changed (playground/workload_changes.py)
and gives what checking the whole text gives: the same problem, line and document."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from playground import workload_changes
from playground.scenarios import validate_workload

LIMIT = 64 * 2**20

BLOCK_POD = """apiVersion: v1
kind: Pod
metadata:
  name: {name}
  labels: {{app: web}}
spec:
  containers:
  - name: c
    image: nginx
    resources: {{requests: {{cpu: 100m}}}}
"""


def flow_pod(name: str) -> str:
    return (
        f"--- {{apiVersion: v1, kind: Pod, metadata: {{name: {name}, namespace: team}}, spec: {{nodeName: n1,"
        " containers: [{name: c, image: nginx, resources: {requests: {cpu: 250m}}}]}}\n"
    )


def workload(pods: int) -> str:
    """Block documents first (the first without a marker), then one flow document a line."""
    blocks = "---\n".join(BLOCK_POD.format(name=f"block-{index}") for index in range(3))
    return blocks + "".join(flow_pod(f"pod-{index}") for index in range(pods))


BEFORE = workload(12)
LINES = BEFORE.splitlines(keepends=True)
JUNK = [
    "  name: Not_A_Valid_Name\n",
    "    resources: {requests: {cpu: lots}}\n",
    "kind: Node\n",
    "---\n",
    "--- {apiVersion: v1, kind: Pod, metadata: {name: x}, spec: {containers: [{name: c, image: i}]}}\n",
    "--- {apiVersion: v1, kind: Pod, metadata: {name: y},"
    " spec: {containers: [{name: c, image: i, ports: [{hostPort: 99999}]}]}}\n",
    "--- {apiVersion: v1, kind: Nod, metadata: {name: z}}\n",
    "--- {apiVersion: v1, kind: Pod, metadata: {name: w},"
    " spec: {containers: [{name: c, image: i, resources: {requests: {cpu: -1}}}]}}\n",
    "  labels: {app: [unclosed\n",
    "metadata: {}\n",
    "\n",
    "# a comment\n",
    "- stray item\n",
]


def as_tuples(problems: list) -> list[tuple]:
    return [(p.message, p.line, p.document, p.path) for p in problems]


def test_the_base_is_valid():
    assert validate_workload(BEFORE, LIMIT) == []


edits = st.lists(
    st.tuples(
        st.sampled_from(["replace", "insert", "delete"]),
        st.integers(min_value=0, max_value=len(LINES) - 1),
        st.sampled_from(JUNK + LINES),
    ),
    min_size=1,
    max_size=3,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edits)
def test_checking_the_changed_documents_gives_what_checking_all_gives(changes):
    lines = list(LINES)
    for action, index, line in changes:
        index = min(index, len(lines) - 1)
        if action == "replace":
            lines[index] = line
        elif action == "insert":
            lines.insert(index, line)
        elif len(lines) > 1:
            del lines[index]
    after = "".join(lines)
    assert as_tuples(workload_changes.validate_changed_documents(BEFORE, after, LIMIT)) == as_tuples(
        validate_workload(after, LIMIT)
    )


def test_one_pod_changed_in_five_thousand_is_one_document_parsed(monkeypatch):
    before = workload(5000)
    after = before.replace("name: pod-2500,", "name: pod-2500-renamed,")
    parsed: list[str] = []
    whole = workload_changes.validate_workload

    def recorded(text: str, limit: int):
        parsed.append(text)
        return whole(text, limit)

    monkeypatch.setattr(workload_changes, "validate_workload", recorded)
    assert workload_changes.validate_changed_documents(before, after, LIMIT) == []
    assert len(parsed) == 1 and parsed[0].count("\n") <= 3 and "pod-2500-renamed" in parsed[0]
    broken = before.replace("name: pod-4000,", "name: Pod_4000,")
    [problem] = workload_changes.validate_changed_documents(before, broken, LIMIT)
    assert problem.line == next(i for i, line in enumerate(broken.splitlines(), 1) if "Pod_4000" in line)
    assert problem.document == "Pod team/Pod_4000" and problem.path == "metadata.name"


@pytest.mark.parametrize("marker", ["%YAML 1.2\n---\n", "...\n"])
def test_directives_and_end_markers_are_checked_whole(monkeypatch, marker):
    parsed: list[str] = []
    monkeypatch.setattr(workload_changes, "validate_workload", lambda text, limit: parsed.append(text) or [])
    after = marker + BEFORE if marker.startswith("%") else BEFORE + marker
    workload_changes.validate_changed_documents(BEFORE, after, LIMIT)
    assert parsed == [after]


def test_the_size_bound_is_the_whole_texts():
    after = BEFORE + flow_pod("one-more")
    [problem] = workload_changes.validate_changed_documents(BEFORE, after, len(BEFORE) + 10)
    assert "larger than" in problem.message
