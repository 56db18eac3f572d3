"""Fuzzing the engine's input boundary.

Whatever text comes in, `load_manifests` answers with engine objects or a ManifestError that names
the document, the field path and the line; whatever it accepts, `Simulation.run_to_end` finishes or
stops with a SimulationLimitError (a runaway run) or a ManifestError (a timeline action the cluster
cannot take). Any other exception is a crash, and every case is bounded in time (Hypothesis'
deadline, plus small event and settle limits for the simulation).

Inputs: arbitrary text (YAML-ish token soup, printable text, binary garbage decoded with
errors="replace"), and manifest-shaped documents: the scenarios of tests/core/data plus one of every
other kind, mutated with wrong types, unknown fields, huge numbers, deep nesting, garbage strings,
then dumped and mutated again as text (tabs, duplicate keys, anchors and aliases, truncation).

By default the suite takes about 20 s. A longer random search: FUZZ_EXAMPLES=5000; the exhaustive
sweep of every field of every seed with every edge value (about ten minutes): FUZZ_SWEEP=1. Inputs
that crashed the engine once are kept below (FOUND), each with the error it must now give.
"""

import contextlib
import copy
import os
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from scheduler_core.api.errors import ManifestError
from scheduler_core.api.manifests import KINDS, load_manifests
from scheduler_core.controllers.base import SimulationOptions
from scheduler_core.simulation.simulation import Simulation
from scheduler_core.store.cluster import SimulationLimitError

DATA = Path(__file__).parent / "data"
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "0")) or None
UNTIL_SECONDS = 600.0

FUZZ = settings(
    max_examples=EXAMPLES or 600,
    deadline=timedelta(seconds=5),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)

# Kinds the data files do not cover, and corners of the ones they do.
EXTRA_SEED = """\
apiVersion: v1
kind: Namespace
metadata: {name: team-a, labels: {team: a}}
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
preemptionPolicy: PreemptLowerPriority
---
apiVersion: v1
kind: Node
metadata:
  name: n1
  labels: {topology.kubernetes.io/zone: a, kubernetes.io/hostname: n1}
spec:
  taints: [{key: k, value: v, effect: NoSchedule}]
status:
  capacity: {cpu: "4", memory: 8Gi, pods: "110", ephemeral-storage: 10Gi, nvidia.com/gpu: "1"}
  allocatable: {cpu: "3500m", memory: 7Gi, pods: "100"}
---
apiVersion: v1
kind: Pod
metadata:
  name: full
  namespace: team-a
  labels: {app: full}
  annotations: {playground.k8s.io/startup-seconds: "2", playground.k8s.io/run-seconds: "3"}
spec:
  priorityClassName: high
  nodeSelector: {topology.kubernetes.io/zone: a}
  tolerations: [{key: k, operator: Equal, value: v, effect: NoSchedule}, {key: x, operator: Exists, effect: NoExecute,
    tolerationSeconds: 30}]
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms: [{matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [a]}]}]
      preferredDuringSchedulingIgnoredDuringExecution:
        - {weight: 10, preference: {matchExpressions: [{key: x, operator: Exists}]}}
    podAntiAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
        - weight: 50
          podAffinityTerm: {topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: full}}}
  topologySpreadConstraints:
    - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule,
       labelSelector: {matchLabels: {app: full}}, minDomains: 1}
  containers:
    - name: c
      image: nginx
      ports: [{containerPort: 80, hostPort: 8080, protocol: TCP}]
      resources:
        requests: {cpu: 100m, memory: 64Mi, nvidia.com/gpu: "1"}
        limits: {cpu: 200m, memory: 128Mi, nvidia.com/gpu: "1"}
  initContainers:
    - {name: i, image: busybox, resources: {requests: {cpu: 50m}}}
  restartPolicy: Never
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: pdb, namespace: team-a}
spec: {minAvailable: 1, selector: {matchLabels: {app: full}}}
---
apiVersion: playground/v1
kind: Action
spec: {at: 5s, op: untaint, target: Node/n1, key: k, effect: NoSchedule}
---
apiVersion: playground/v1
kind: Action
spec: {at: 6s, op: label, target: Node/n1, labels: {disk: ssd}}
---
apiVersion: playground/v1
kind: Action
spec: {at: 7s, op: set-utilization, target: Pod/team-a/full, cpu: 50}
---
apiVersion: batch/v1
kind: Job
metadata: {name: render, uid: j1}
spec:
  completionMode: Indexed
  completions: 2
  parallelism: 2
  template:
    spec:
      restartPolicy: Never
      containers: [{name: frame, image: renderer}]
---
apiVersion: v1
kind: Pod
metadata:
  name: adopted
  labels: {batch.kubernetes.io/job-name: render, batch.kubernetes.io/controller-uid: j1}
  annotations: {batch.kubernetes.io/job-completion-index: "1", controller.kubernetes.io/pod-deletion-cost: "5"}
  ownerReferences: [{apiVersion: batch/v1, kind: Job, name: render, uid: j1, controller: true}]
spec:
  restartPolicy: Never
  terminationGracePeriodSeconds: 3
  containers: [{name: frame, image: renderer}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 4
  strategy: {rollingUpdate: {maxSurge: "25%", maxUnavailable: 1}}
  selector: {matchLabels: {app: web}}
  template:
    metadata:
      labels: {app: web}
      annotations: {controller.kubernetes.io/pod-deletion-cost: "7", playground.k8s.io/startup-seconds: "2"}
    spec:
      containers: [{name: c, image: nginx, resources: {requests: {cpu: 100m}}}]
---
apiVersion: playground/v1
kind: Action
spec: {at: 10s, op: scale, target: Deployment/web, replicas: 1}
---
apiVersion: playground/v1
kind: Action
spec: {at: 20s, op: rollout-undo, target: Deployment/web, toRevision: 1}
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly}
spec:
  schedule: "*/5 * * * *"
  timeZone: Europe/Paris
  startingDeadlineSeconds: 30
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}}}}
"""


def _seed_documents() -> list[list[Any]]:
    texts = [path.read_text() for path in sorted(DATA.glob("*.yaml"))] + [EXTRA_SEED]
    seeds = []
    for text in texts:
        documents = [doc for doc in yaml.safe_load_all(text) if doc is not None]
        if documents:
            seeds.append(documents)
    return seeds


SEEDS = _seed_documents()

# ---------------------------------------------------------------------------- strategies

HUGE_NUMBERS = [10**30, -(10**30), 2**63, 2**63 - 1, -(2**63), 2**31, 2**53 + 1, 10**18, -1, 0, 10**400]
WEIRD_STRINGS = [
    "",
    " ",
    "-",
    "*",
    ":",
    "~",
    "null",
    "true",
    "NaN",
    ".inf",
    "-.inf",
    "1e309",
    "-0",
    "0x1F",
    "0o17",
    "1_000",
    "1Ei",
    "9999999999999999999999Ei",
    "1e1000000",
    "100Mi",
    "500m",
    "0.000000001m",
    "1.5.5",
    "1h",
    "-5s",
    "99999999999h",
    "1e400s",
    "Node/",
    "Node//x",
    "Pod/a/b/c",
    "Deployment/web",
    "Node/worker1",
    "a" * 300,
    "x=y:NoSchedule",
    "\t",
    "\x00\x01",
    "\ufffd\ufffd",
    "@@@",
    "*/1 * * * *",
    "61 * * * *",
    "@every 0s",
    "Europe/Nowhere",
    "25%",
    "250%",
    "-25%",
    "%",
]
# What a scalar field may get at the edge: huge, negative, not-a-number, and their quantity spellings.
EXTREMES = [
    *HUGE_NUMBERS,
    float("inf"),
    float("-inf"),
    float("nan"),
    1e308,
    -1e-300,
    "1e400",
    "99999999999999999999999999Ei",
    "9" * 310,
    "9" * 310 + "Ei",
    "1" * 5000,  # Python's int() refuses strings of 4,300+ digits
    "²",  # str.isdigit() says yes, int() says no
    "١٢",
    "-1",
    "-1m",
    "0",
    0,
    2**31 - 1,
    "999999999999%",
    "-5%",
    "1e400s",
    "",
    None,
]
FIELD_NAMES = [
    "apiVersion",
    "kind",
    "metadata",
    "name",
    "namespace",
    "labels",
    "annotations",
    "spec",
    "status",
    "replicas",
    "selector",
    "matchLabels",
    "matchExpressions",
    "template",
    "containers",
    "resources",
    "requests",
    "limits",
    "items",
    "at",
    "op",
    "target",
    "manifest",
    "capacity",
    "allocatable",
    "taints",
    "tolerations",
    "affinity",
    "unknownField",
    "x-garbage",
]

binary_text = st.binary(max_size=40).map(lambda raw: raw.decode("utf-8", errors="replace"))
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from(HUGE_NUMBERS),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    st.sampled_from(WEIRD_STRINGS),
    binary_text,
)
keys = st.one_of(st.sampled_from(FIELD_NAMES), st.text(max_size=10), st.integers(-5, 5), st.booleans())


def _nested(depth: int, leaf: Any, as_list: bool) -> Any:
    value = leaf
    for level in range(depth):
        value = [value] if as_list else {FIELD_NAMES[level % len(FIELD_NAMES)]: value}
    return value


deep_values = st.builds(_nested, st.integers(5, 300), scalars, st.booleans())
values = st.one_of(
    scalars,
    deep_values,
    st.recursive(
        scalars,
        lambda children: st.one_of(st.lists(children, max_size=4), st.dictionaries(keys, children, max_size=4)),
        max_leaves=10,
    ),
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a document: the root, each mapping key, each list item."""
    found = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            found += _paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += _paths(child, (*prefix, index))
    return found


def _numeric(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, int | float) or (isinstance(value, str) and value[:1].isdigit())


def _get(document: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        document = document[step]
    return document


# Numbers a valid manifest may well hold: these mutations mostly reach the simulation.
PLAUSIBLE = [0, 1, 2, 3, 7, 100, 1000, 65535, 2**31 - 1, "0", "1", "100m", "1Gi", "0%", "50%", "100%", "1s", "1h"]
OPERATIONS = ["replace", "replace", "extreme", "extreme", "plausible", "plausible", "delete", "unknown", "wrap", "kind"]


@st.composite
def mutated_documents(draw: st.DrawFn) -> list[Any]:
    documents = copy.deepcopy(draw(st.sampled_from(SEEDS)))
    for _ in range(draw(st.integers(1, 3))):
        index = draw(st.integers(0, len(documents) - 1))
        operation = draw(st.sampled_from(OPERATIONS))
        places = _paths(documents[index])
        if operation in ("extreme", "plausible"):  # aim at the numbers: counts, seconds, quantities, percents
            places = [place for place in places if _numeric(_get(documents[index], place))] or places
        path = draw(st.sampled_from(places))
        choices = {"extreme": st.sampled_from(EXTREMES), "plausible": st.sampled_from(PLAUSIBLE)}
        new_value = draw(choices.get(operation, values))
        if not path:  # the document itself
            if operation == "kind" and isinstance(documents[index], dict):
                documents[index]["kind"] = draw(st.sampled_from([*KINDS, "List", "Secret", "", "pod"]))
            else:
                documents[index] = new_value
            continue
        parent, last = _get(documents[index], path[:-1]), path[-1]
        if operation == "delete":
            del parent[last]
        elif operation == "unknown" and isinstance(parent, dict):
            parent[draw(keys)] = new_value
        elif operation == "wrap":
            parent[last] = [parent[last], new_value]
        else:
            parent[last] = new_value
    return documents


def _dump(documents: list[Any]) -> str:
    return yaml.safe_dump_all(documents, sort_keys=False, allow_unicode=True)


@st.composite
def text_mutations(draw: st.DrawFn, text: str) -> str:
    """Edits a YAML serializer would never make: tabs, duplicate keys, anchors and aliases, cuts."""
    lines = text.split("\n")
    for _ in range(draw(st.integers(0, 3))):
        lines = lines or [""]
        at = draw(st.integers(0, len(lines) - 1))
        line = lines[at]
        edit = draw(st.sampled_from(["duplicate", "tab", "anchor", "alias", "merge", "garbage", "cut"]))
        if edit == "duplicate":  # the same key twice in a mapping
            lines.insert(at, line)
        elif edit == "tab":
            lines[at] = "\t" + line.lstrip(" ")
        elif edit == "anchor":
            key, colon, rest = line.partition(": ")
            lines[at] = f"{key}: &a {rest}" if colon else line
        elif edit == "alias":
            indent = line[: len(line) - len(line.lstrip(" "))]
            lines.insert(at + 1, f"{indent}aliased: *a")
        elif edit == "merge":
            indent = line[: len(line) - len(line.lstrip(" "))]
            lines.insert(at + 1, f"{indent}<<: *a")
        elif edit == "garbage":
            lines.insert(at, draw(st.one_of(binary_text, st.sampled_from(YAML_TOKENS))))
        else:
            lines = lines[:at]
    return "\n".join(lines)


YAML_TOKENS = [
    "---",
    "...",
    "\n",
    "  ",
    "\t",
    "- ",
    ": ",
    "? ",
    "key",
    "apiVersion: v1",
    "kind: Pod",
    "kind: List",
    "kind: Node",
    "metadata:",
    "name: x",
    "spec:",
    "items:",
    "containers:",
    "{",
    "}",
    "[",
    "]",
    ",",
    "&a ",
    "*a",
    "<<: *a",
    "!!binary ",
    "!!python/object:os.system ",
    "!!set ",
    "!!omap ",
    "!!timestamp ",
    "!!float ",
    "!custom ",
    "%YAML 1.1",
    "%TAG ! tag:x,2000:",
    "|",
    ">-",
    "'",
    '"',
    "#",
    "\\",
    "\ufeff",
    "\x00",
    "\x85",
    "2001-12-14t21:59:43.10-05:00",
    "0x",
    "1e999",
    "~",
    "=",
]
yaml_soup = st.lists(st.sampled_from(YAML_TOKENS), max_size=60).map("".join)

# ---------------------------------------------------------------------------- the property


def _assert_well_formed(error: ManifestError) -> None:
    assert isinstance(error.message, str) and error.message, error
    assert isinstance(error.document, str) and isinstance(error.path, str), error
    assert error.line is None or (isinstance(error.line, int) and error.line >= 1), error
    assert str(error)  # renders as "line N: Document field.path: message"


def check(text: str) -> None:
    """Parse, then simulate: only the engine's own errors may come out."""
    try:
        manifests = load_manifests(text)
    except ManifestError as error:
        _assert_well_formed(error)
        _event("refused by the parser")
        return
    options = SimulationOptions(max_events=3000, max_steps_per_instant=5000)
    try:
        Simulation(manifests, seed=0, options=options).run_to_end(until=UNTIL_SECONDS)
    except ManifestError as error:
        _assert_well_formed(error)
        _event("simulated: refused an action")
    except SimulationLimitError:
        _event("simulated: stopped at a limit")
    else:
        _event("simulated")


def _event(outcome: str) -> None:
    """Outcome shares for --hypothesis-show-statistics (outside a test: nothing)."""
    with contextlib.suppress(InvalidArgument):
        event(outcome)


# ---------------------------------------------------------------------------- tests


@FUZZ
@given(st.one_of(yaml_soup, st.text(max_size=300), binary_text))
@example("a: &x 1\nb: *x\n")
@example("[" * 5000)
@example("a:\n\tb: 1\n")
@example("a: 1\na: 2\n")
@example("\xff\xfe".encode("latin-1").decode("utf-8", errors="replace"))
@example("a: " + "1" * 5000)
def test_arbitrary_text_never_crashes_the_parser(text: str) -> None:
    check(text)


@FUZZ
@given(mutated_documents())
def test_mutated_manifests_never_crash_parser_or_simulation(documents: list[Any]) -> None:
    check(_dump(documents))


@FUZZ
@given(st.data())
def test_mutated_yaml_text_never_crashes_parser_or_simulation(data: st.DataObject) -> None:
    documents = data.draw(st.one_of(st.sampled_from(SEEDS), mutated_documents()))
    check(data.draw(text_mutations(_dump(documents))))


@FUZZ
@given(st.lists(st.dictionaries(keys, values, max_size=6), min_size=1, max_size=3), st.sampled_from([*KINDS, "List"]))
def test_manifest_shaped_mappings_of_every_kind_never_crash(documents: list[dict[Any, Any]], kind: str) -> None:
    versions = KINDS[kind][0] if kind in KINDS else frozenset({"v1"})
    for document in documents:
        document["kind"] = kind
        document["apiVersion"] = sorted(versions)[0]
    check(_dump(documents))


# ---------------------------------------------------------------------------- what the fuzzer found

NODE = "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus: {capacity: {cpu: '4', memory: 8Gi, pods: '110'}}\n"


def _action(spec: str) -> str:
    return f"{NODE}---\napiVersion: playground/v1\nkind: Action\nspec: {spec}\n"


def _deployment(spec_extra: str = "", template_extra: str = "", annotations: str = "{}") -> str:
    return (
        f"{NODE}---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: web}}\nspec:\n  replicas: 3\n"
        f"  selector: {{matchLabels: {{app: web}}}}\n{spec_extra}"
        f"  template:\n    metadata: {{labels: {{app: web}}, annotations: {annotations}}}\n    spec:\n"
        f"      containers: [{{name: c, image: nginx}}]\n{template_extra}"
    )


JOB_WITH_ADOPTED_POD = EXTRA_SEED.split("---\napiVersion: apps/v1\nkind: Deployment")[0]

# Each input crashed the engine before its fix; `expected` is the ManifestError's message (or None:
# the input is fine and the run must finish or stop at a limit).
FOUND = {
    "a control character (the YAML reader refuses it before any document)": (
        "a: 1\n\x1f",
        "invalid YAML: unacceptable character #x001f: special characters are not allowed",
    ),
    "an empty explicit float": ("a: !!float ''\n", 'invalid YAML: the float value "" cannot be read'),
    "a set tag on a document": ("!!set ---", 'invalid YAML: the set value "---" cannot be read'),
    "an unreadable timestamp": ("a: !!timestamp soon\n", 'invalid YAML: the timestamp value "soon" cannot be read'),
    "an unreadable boolean": ("a: !!bool maybe\n", 'invalid YAML: the bool value "maybe" cannot be read'),
    "an integer of 5,000 digits": ("a: " + "1" * 5000 + "\n", "invalid YAML: the int value"),
    "an action at null": (_action("{at: null, op: cordon, target: Node/n1}"), "must be a duration"),
    "an action at NaN": (_action("{at: .nan, op: cordon, target: Node/n1}"), "must be a duration"),
    "an action at a list": (_action("{at: [1], op: cordon, target: Node/n1}"), "must be a duration"),
    "an action at 10^400 s": (_action(f"{{at: 1{'0' * 400}, op: cordon, target: Node/n1}}"), "at most one year"),
    "a grace period of 10^400 s": (
        _deployment(template_extra="      terminationGracePeriodSeconds: 1" + "0" * 400 + "\n"),
        "must be a 64-bit integer",
    ),
    "a maxSurge of 10^400": (
        _deployment("  strategy: {rollingUpdate: {maxSurge: 1" + "0" * 400 + "}}\n"),
        "into Go struct field RollingUpdateDeployment.spec.strategy.rollingUpdate.maxSurge of type int32",
    ),
    "a maxSurge of 10^400 percent": (
        _deployment("  strategy: {rollingUpdate: {maxSurge: '1" + "0" * 400 + "%'}}\n"),
        "must be a 64-bit integer",
    ),
    "a maxSurge in superscript digits": (
        _deployment("  strategy: {rollingUpdate: {maxSurge: '²'}}\n"),
        'invalid value "²": must be an integer or a percentage',
    ),
    "a CPU request of 10^400 (an unquoted integer)": (
        _deployment(template_extra="      nodeName: n1\n").replace(
            "image: nginx}", "image: nginx, resources: {requests: {cpu: 1" + "0" * 400 + "}}}"
        ),
        "invalid quantity",
    ),
    "a time zone longer than a file name": (
        "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: c}\nspec:\n  schedule: '* * * * *'\n"
        f"  timeZone: {'a' * 300}\n  jobTemplate: {{spec: {{template: {{spec: {{containers: [{{name: c}}]}}}}}}}}\n",
        "unknown time zone",
    ),
    "rollout-undo to revision .inf": (
        _deployment()
        + "---\n"
        + _action("{at: 5s, op: rollout-undo, target: Deployment/web, toRevision: .inf}").split("---\n", 1)[1],
        None,
    ),
    "a startup time of nan seconds": (_deployment(annotations="{playground.k8s.io/startup-seconds: 'nan'}"), None),
    "a pod-deletion-cost of 5,000 digits, then a scale-down": (
        _deployment(annotations="{controller.kubernetes.io/pod-deletion-cost: '" + "1" * 5000 + "'}")
        + "---\n"
        + _action("{at: 5s, op: scale, target: Deployment/web, replicas: 1}").split("---\n", 1)[1],
        None,
    ),
    "a StatefulSet of 2^31 - 1 replicas (its controller made a list that long)": (
        f"{NODE}---\napiVersion: apps/v1\nkind: StatefulSet\nmetadata: {{name: web}}\nspec:\n"
        f"  replicas: {2**31 - 1}\n  serviceName: web\n  podManagementPolicy: Parallel\n"
        "  selector: {matchLabels: {app: web}}\n"
        "  template: {metadata: {labels: {app: web}}, spec: {containers: [{name: c, image: nginx}]}}\n",
        None,
    ),
    "a drain with a grace period of 10^400 s": (
        _deployment()
        + "---\n"
        + _action(f"{{at: 5s, op: drain, target: Node/n1, gracePeriodSeconds: 1{'0' * 400}}}").split("---\n", 1)[1],
        None,
    ),
    "label and unlabel actions with null labels and keys": (
        _action("{at: 5s, op: label, target: Node/n1, labels: null}")
        + "---\napiVersion: playground/v1\nkind: Action\nspec: {at: 6s, op: unlabel, target: Node/n1, keys: null}\n",
        None,
    ),
    "an untaint action whose effect is a boolean": (
        _action("{at: 5s, op: untaint, target: Node/n1, key: k, effect: true}"),
        "must be a string, not a boolean (true)",
    ),
    "a completion index in superscript digits on an adopted pod": (
        JOB_WITH_ADOPTED_POD.replace('job-completion-index: "1"', 'job-completion-index: "²"'),
        None,
    ),
}


@pytest.mark.parametrize("name", FOUND)
def test_what_the_fuzzer_found_stays_fixed(name: str) -> None:
    text, expected = FOUND[name]
    if expected is None:
        load_manifests(text)  # valid input: parses, and the run must not crash
        check(text)
        return
    with pytest.raises(ManifestError) as raised:
        load_manifests(text)
    _assert_well_formed(raised.value)
    assert expected in raised.value.message, raised.value
    check(text)


# The exhaustive companion of the random search (minutes, so opt-in): every place of every seed gets
# every edge value in turn: numbers the EXTREMES, strings odd strings, anything null, {}, [] or deletion.
SWEEP = os.environ.get("FUZZ_SWEEP") == "1"
ODD_STRINGS = ["a" * 300, "", "\x00", "../../etc/passwd", "Node/", "*", "²", "-", "Pod/a/b/c", "nan", "1e400s"]


@pytest.mark.skipif(not SWEEP, reason="exhaustive sweep: FUZZ_SWEEP=1 (about ten minutes)")
def test_sweep_every_place_of_every_seed_with_edge_values() -> None:
    for documents in SEEDS:
        _sweep(documents)


def _sweep(documents: list[Any]) -> None:
    for index, document in enumerate(documents):
        for place in _paths(document)[1:]:
            leaf = _get(document, place)
            edges: list[Any] = [None, {}, [], True, _DELETE]
            if _numeric(leaf):
                edges += EXTREMES
            elif isinstance(leaf, str):
                edges += ODD_STRINGS
            for edge in edges:
                mutated = copy.deepcopy(documents)
                parent = _get(mutated[index], place[:-1])
                if edge is _DELETE:
                    del parent[place[-1]]
                else:
                    parent[place[-1]] = copy.deepcopy(edge)
                check(_dump(mutated))


_DELETE = object()


STUCK_DEPLOYMENT = f"""{NODE}---
apiVersion: apps/v1
kind: Deployment
metadata: {{name: web}}
spec:
  replicas: 2
  selector: {{matchLabels: {{app: web}}}}
  template: {{metadata: {{labels: {{app: web}}}}, spec: {{containers: [{{name: c, image: nginx}}]}}}}
---
apiVersion: playground/v1
kind: Action
spec: {{at: 5s, op: drain, target: Node/n1, gracePeriodSeconds: 100000}}
"""


# A completed Deployment whose pods stay unavailable past its progress deadline is requeued through
# the rate limiter after every sync (requeueStuckDeployment), and each successful sync resets the
# per-item backoff: only the queue's shared token bucket (client-go's default, 10 a second) keeps
# that from spinning every 5 ms.
def test_a_stuck_deployment_is_not_requeued_every_5_ms() -> None:
    simulation = Simulation(load_manifests(STUCK_DEPLOYMENT), seed=0)
    scheduled = 0
    after = simulation.after

    def counting_after(delay: float, callback: Any, **kwargs: Any) -> None:
        nonlocal scheduled
        scheduled += 1
        after(delay, callback, **kwargs)

    simulation.after = counting_after  # type: ignore[method-assign]
    simulation.run_to_end(until=700.0)
    # From the deadline (600 s) on, at most 10 requeues a second after a burst of 100: well under 2,000.
    assert scheduled < 2_000, scheduled
