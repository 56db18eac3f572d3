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
    assert_as_checked_whole(after)


def assert_as_checked_whole(after: str) -> None:
    whole = as_tuples(validate_workload(after, LIMIT))
    assert as_tuples(workload_changes.validate_changed_documents(BEFORE, after, LIMIT)) == whole
    # With the saved text's facts remembered (by its digest), brought up to date from what changed:
    problems, facts = workload_changes.check_changed_documents(BEFORE, after, LIMIT, "digest-of-before")
    assert as_tuples(problems) == whole
    if facts is not None:
        assert facts == workload_changes.TextFacts.of(after)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(min_value=0, max_value=len(BEFORE)),
    st.integers(min_value=0, max_value=400),
    st.sampled_from(["", "x", "\n", ": ", "-", "---\n", "\n---", "{", "Pod_X", " - a\n", *JUNK]),
)
def test_an_edit_anywhere_in_a_line_is_checked_as_checking_all_does(start, length, inserted):
    # What the editor sends: one replacement at any character offsets, line breaks or not.
    assert_as_checked_whole(BEFORE[:start] + inserted + BEFORE[start + length :])


def test_a_saved_texts_facts_are_counted_once(monkeypatch):
    counted: list[int] = []
    counting = workload_changes.TextFacts.of
    monkeypatch.setattr(
        workload_changes.TextFacts, "of", classmethod(lambda cls, text: counted.append(len(text)) or counting(text))
    )
    after = BEFORE.replace("name: pod-3,", "name: pod-3b,")
    for _ in range(3):  # the editor checks after each pause in typing
        assert workload_changes.check_changed_documents(BEFORE, after, LIMIT, "saved-digest")[0] == []
    assert counted == [len(BEFORE)]
    _, facts = workload_changes.check_changed_documents(BEFORE, after, LIMIT, "saved-digest")
    workload_changes.remember_facts("digest-once-saved", facts)  # what a save does (board.set_workload)
    workload_changes.check_changed_documents(after, BEFORE, LIMIT, "digest-once-saved")
    assert counted == [len(BEFORE)]


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


@pytest.mark.parametrize("line_break", ["\x85", "\u2028", "\x0c"])
def test_a_line_break_other_than_lf_is_checked_whole(monkeypatch, line_break):
    # The changed lines are found and counted by LF; splitlines and PyYAML break at these too.
    parsed: list[str] = []
    monkeypatch.setattr(workload_changes, "validate_workload", lambda text, limit: parsed.append(text) or [])
    after = BEFORE.replace("name: pod-3,", f"name: pod-3,{line_break}", 1)
    workload_changes.validate_changed_documents(BEFORE, after, LIMIT)
    assert parsed == [after]


def test_the_size_bound_is_the_whole_texts():
    after = BEFORE + flow_pod("one-more")
    [problem] = workload_changes.validate_changed_documents(BEFORE, after, len(BEFORE) + 10)
    assert "larger than" in problem.message


def composed_nodes(text: str) -> int:
    """The YAML nodes the loader composes the text to (what MAX_YAML_NODES bounds)."""
    import yaml

    def count(node) -> int:
        if isinstance(node, yaml.MappingNode):
            return 1 + sum(count(key) + count(value) for key, value in node.value)
        if isinstance(node, yaml.SequenceNode):
            return 1 + sum(count(item) for item in node.value)
        return 1

    return sum(count(root) for root in yaml.compose_all(text, Loader=yaml.SafeLoader))


scalars = st.one_of(st.integers(-5, 5), st.booleans(), st.none(), st.text("ab:, -[]{}?#'\"", max_size=6))
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text("abc", min_size=1, max_size=3), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(st.lists(values, min_size=1, max_size=4), st.sampled_from([True, False, None]))
def test_the_node_estimate_is_never_below_the_count(documents, flow):
    import yaml

    text = yaml.safe_dump_all(documents, default_flow_style=flow)
    assert workload_changes.most_yaml_nodes(text) >= composed_nodes(text)


def test_the_node_estimate_keeps_fifty_thousand_imported_pods_within_the_bound():
    from playground import importing
    from scheduler_core.api.yaml_loader import MAX_YAML_NODES
    from tests.web.kubectl_output import nodes_yaml, pods_yaml

    workload = importing.import_cluster(nodes_yaml(10), pods_yaml(1000, 10)).workload_yaml
    per_pod = workload_changes.most_yaml_nodes(workload) / workload.count("\n")
    assert composed_nodes(workload) < workload_changes.most_yaml_nodes(workload)
    assert per_pod * 50_000 < MAX_YAML_NODES  # the partial check stays partial at the scenario limit


def test_past_the_node_estimate_the_whole_text_is_checked(monkeypatch):
    parsed: list[str] = []
    monkeypatch.setattr(workload_changes, "validate_workload", lambda text, limit: parsed.append(text) or [])
    monkeypatch.setattr(workload_changes, "MAX_YAML_NODES", workload_changes.most_yaml_nodes(BEFORE))
    after = BEFORE + flow_pod("one-more")
    workload_changes.validate_changed_documents(BEFORE, after, LIMIT)
    assert parsed == [after]
