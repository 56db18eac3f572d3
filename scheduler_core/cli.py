"""The command line: `python -m scheduler_core explain|simulate|bench`.

A contract other tools drive the engine through: bad input exits with status 2 and one message
naming the document, the field and the line; never a traceback.
"""

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn, TextIO

import yaml

from scheduler_core import bench
from scheduler_core.api.errors import ManifestError
from scheduler_core.api.manifests import Manifest, load_manifests
from scheduler_core.api.object_manifest import objects_manifests
from scheduler_core.api.timeline import DurationError, parse_duration
from scheduler_core.api.types import Node
from scheduler_core.api.workloads import Deployment
from scheduler_core.api.yaml_loader import MAX_YAML_BYTES
from scheduler_core.explain.describe_deployment import describe_deployment
from scheduler_core.explain.describe_deployment_text import deployment_text
from scheduler_core.explain.describe_node import describe_node
from scheduler_core.explain.describe_node_text import node_text
from scheduler_core.explain.explain import Explanation, explain
from scheduler_core.kubeapi.metrics import demand_at
from scheduler_core.kubeapi.objects import snapshot_of
from scheduler_core.kubectl import console
from scheduler_core.kubectl.apply import named_file
from scheduler_core.kubectl.flags import UsageError as KubectlUsageError
from scheduler_core.kubectl.flags import split
from scheduler_core.scheduler.config import CONFIG_DOCUMENT, SchedulerConfiguration, parse_configuration
from scheduler_core.simulation.simulation import Simulation
from scheduler_core.simulation.state import cluster_state
from scheduler_core.store.cluster import Cluster, SimulationLimitError
from scheduler_core.store.event_correlation import EventCorrelator, Occurrence, event_rows, last_seen
from scheduler_core.store.events import Event

EXIT_BAD_INPUT = 2
EXIT_INTERNAL_ERROR = 3


class UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        raise UsageError(message)


def _read(path: str) -> str:
    if path == "-":
        text = sys.stdin.read(MAX_YAML_BYTES + 1)
    else:
        file = Path(path)
        if not file.is_file():
            raise UsageError(f"{path}: no such file")
        if file.stat().st_size > MAX_YAML_BYTES:
            raise UsageError(f"{path}: larger than {MAX_YAML_BYTES // (1024 * 1024)} MiB")
        text = file.read_text(encoding="utf-8", errors="replace")
    return text


def _manifests(paths: Sequence[str]) -> list[Manifest]:
    manifests: list[Manifest] = []
    for path in paths:
        try:
            manifests.extend(load_manifests(_read(path), source=path))
        except ManifestError as error:
            error.source = path
            raise
    return manifests


def _configuration(path: str | None) -> SchedulerConfiguration | None:
    if path is None:
        return None
    try:
        return parse_configuration(_read(path), source=path)
    except ManifestError as error:
        error.source = path
        raise


def _namespaced_key(raw: str) -> str:
    """[NAMESPACE/]NAME as the store keys it: the default namespace when none is given."""
    return raw if "/" in raw else f"default/{raw}"


# ---------------------------------------------------------------------------- explain


def render_explanation(explanation: Explanation, out: TextIO) -> None:
    if explanation.selected:
        out.write(f"Pod {explanation.pod} would be scheduled to {explanation.selected}\n")
    else:
        out.write(f"Pod {explanation.pod} stays Pending: {explanation.message}\n")
        if explanation.nominated_node:
            out.write(f"Preemption nominates node {explanation.nominated_node}\n")
        _render_fixes(explanation, out)
        _render_preemption(explanation, out)
    plugins = [name for name in explanation.weights if any(name in n.scores for n in explanation.nodes)]
    header = ["NODE", "FITS", *[f"{p}(x{explanation.weights[p]})" for p in plugins], "TOTAL", "WHY NOT"]
    rows = []
    for node in explanation.nodes:
        if node.feasible:
            scores = [str(node.scores.get(p, "-")) for p in plugins]
            mark = "*" if node.name == explanation.selected else ""
            rows.append([node.name + mark, "yes", *scores, str(node.total), ""])
        else:
            why = f"{node.plugin}: {', '.join(node.reasons)}" if node.plugin else ", ".join(node.reasons)
            rows.append([node.name, "no", *["" for _ in plugins], "", why])
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        out.write("  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip() + "\n")
    out.write("Scores are each plugin's normalized score (0-100); TOTAL is their sum times the weights.\n")


def _render_preemption(explanation: Explanation, out: TextIO) -> None:
    """DefaultPreemption's dry run: each node's victims (lowest priority first) or why it cannot help."""
    preemption = explanation.preemption
    if preemption is None:
        return
    if preemption.chosen:
        out.write(f"Preemption picks {preemption.chosen} ({preemption.criterion}):\n")
    else:
        out.write(f"{preemption.message}\n")
    for node in preemption.nodes:
        if node.victims:
            victims = ", ".join(f"{victim.pod} (priority {victim.priority})" for victim in node.victims)
            out.write(f"  {node.name}: {node.outcome}, victims {victims}; PDB violations {node.pdb_violations}\n")
        else:
            out.write(f"  {node.name}: {node.outcome}{': ' + ', '.join(node.reasons) if node.reasons else ''}\n")


def _render_fixes(explanation: Explanation, out: TextIO) -> None:
    """The verified fixes of a Pending pod: the sentence, then the change (YAML, kubectl)."""
    if not explanation.fixes:
        out.write("Smallest fixes: none found (no single change makes the pod schedulable)\n")
        return
    out.write("Smallest fixes:\n")
    for number, fix in enumerate(explanation.fixes, start=1):
        out.write(f"  {number}. {fix.description}\n")
        for line in fix.yaml.splitlines():
            out.write(f"       {line}\n")
        if fix.command:
            out.write(f"       $ {fix.command}\n")


def _run_explain(args: argparse.Namespace, out: TextIO) -> int:
    manifests = _manifests(args.file)
    explanation = explain(manifests, _namespaced_key(args.pod), _configuration(args.config), seed=args.seed)
    if args.output == "json":
        json.dump(explanation.as_dict(), out, indent=2)
        out.write("\n")
    else:
        render_explanation(explanation, out)
    return 0


# ---------------------------------------------------------------------------- simulate


def _run_simulate(args: argparse.Namespace, out: TextIO) -> int:
    until = None
    if args.until is not None:
        try:
            until = parse_duration(args.until)
        except DurationError as error:
            raise UsageError(f"--until: {error}") from None
    if args.at_event is not None and args.at_event < 1:
        raise UsageError("--at-event: events are numbered from 1")
    simulation = Simulation(_manifests(args.file), _configuration(args.config), seed=args.seed)
    events: list[dict[str, Any]] = []
    seen: list[tuple[Event, Occurrence]] = []
    correlator = EventCorrelator()  # each raw event says how `kubectl events` counts it
    try:
        cluster = _cluster_at_event(simulation, args.at_event, until) if args.at_event is not None else None
        for event in simulation.run(until) if cluster is None else cluster.events:
            occurrence = correlator.observe(event)
            if args.output == "events":
                seen.append((event, occurrence))
            elif args.output == "jsonl":
                out.write(json.dumps({**event.as_dict(), **occurrence.as_dict(event)}, ensure_ascii=False) + "\n")
            else:
                events.append({**event.as_dict(), **occurrence.as_dict(event)})
    except SimulationLimitError as error:
        raise UsageError(str(error)) from None
    if args.output == "events":
        now = simulation.now if cluster is None else (cluster.events[-1].time if cluster.events else 0.0)
        _render_events(seen, now, out)
        return 0
    final = simulation.cluster if cluster is None else cluster
    now = simulation.now if cluster is None else cluster.events[-1].time
    if args.describe_node is not None:
        node = final.get(Node, args.describe_node)
        if node is None:
            raise UsageError(f'--describe-node: nodes "{args.describe_node}" not found')
        out.write(node_text(describe_node(final, node, now)))
        return 0
    if args.describe_deployment is not None:
        key = _namespaced_key(args.describe_deployment)
        deployment = final.get(Deployment, key)
        if deployment is None:  # kubectl's NotFound names the deployment, not its namespace
            raise UsageError(f'--describe-deployment: deployments.apps "{key.split("/", 1)[1]}" not found')
        out.write(deployment_text(describe_deployment(final, deployment, now)))
        return 0
    if args.kubectl is not None:
        return _kubectl(args.kubectl, final, now, demand_at(simulation.demand_log, now), out, args.err)
    state = cluster_state(final, now)
    if args.output == "jsonl":
        out.write(json.dumps({"state": state}, ensure_ascii=False) + "\n")
    else:
        json.dump({**state, "events": events, "objects": _objects(final)}, out, indent=2, ensure_ascii=False)
        out.write("\n")
    return 0


def _kubectl(line: str, cluster: Cluster, now: float, demand: dict[str, float], out: TextIO, err: TextIO) -> int:
    """A kubectl command against the cluster at that moment, as the page's console runs it; a write
    prints kubectl's message, and the Actions that do it (to append to the scenario) on stderr."""
    snapshot = snapshot_of(cluster, [], cluster.resource_version, now=now, demand=demand)
    files = {}
    try:
        name = named_file(split(line))
    except KubectlUsageError:  # console.run says what is wrong with the line
        name = None
    if name and Path(name).is_file():  # `apply -f FILE`: here the file is on the disk
        files[name] = Path(name).read_text(encoding="utf-8", errors="replace")
    result = console.run(line, snapshot, may_write=True, user="playground:editor", files=files)
    out.write(result.stdout)
    err.write(result.stderr)
    if result.actions:
        documents = [
            {"apiVersion": "playground/v1", "kind": "Action", "spec": {"at": f"{now:.3f}s", **action}}
            for action in result.actions
        ]
        err.write("# the Actions that do it, to append to the scenario at this moment:\n")
        err.write(yaml.safe_dump_all(documents, sort_keys=False, explicit_start=True))
    return result.exit_code


def _objects(cluster: Cluster) -> list[dict[str, Any]]:
    """Every object of the store as a Kubernetes manifest, by kind, namespace and name."""
    return objects_manifests(obj for kind in cluster.kinds() for obj in cluster.objects(kind))


def _render_events(seen: list[tuple[Event, Occurrence]], now: float, out: TextIO) -> None:
    """`kubectl events -A` at the run's end (or the event asked for): repeats on one row."""
    rows = event_rows(seen)
    if not rows:
        out.write("No events found.\n")
        return
    table = [["NAMESPACE", "LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"]]
    for row in rows:
        kind, _, rest = row.last.object.partition("/")
        namespace, _, name = rest.rpartition("/")
        table.append(
            [namespace, last_seen(row, now), row.last.type, row.last.reason, f"{kind}/{name}", row.message.strip()]
        )
    widths = [max(len(line[i]) for line in table) for i in range(len(table[0]) - 1)]
    for line in table:
        cells = [cell.ljust(widths[i]) for i, cell in enumerate(line[:-1])]
        out.write("   ".join([*cells, line[-1]]).rstrip() + "\n")


def _cluster_at_event(simulation: "Simulation", seq: int, until: float | None) -> "Cluster":
    """The cluster right after event `seq`, as the web player shows it at that event: the changes
    the engine made before it, none it made after it (its events end with that one)."""
    cluster = simulation.cluster_at_event(seq, until)
    if cluster is None:
        count = len(simulation.cluster.events)
        raise UsageError(f"--at-event {seq}: the run has {count} event{'' if count == 1 else 's'}")
    return cluster


# ---------------------------------------------------------------------------- bench


def _run_bench(args: argparse.Namespace, out: TextIO) -> int:
    names = args.workload or None
    for name in names or []:
        if name not in bench.WORKLOADS:
            raise UsageError(f"unknown workload {name!r} (known: {', '.join(bench.WORKLOADS)})")
    if args.nodes is not None and args.nodes < 1:
        raise UsageError("--nodes must be at least 1")
    report = bench.run(names, args.nodes, seed=args.seed)
    if args.output == "json":
        json.dump(report, out, indent=2)
        out.write("\n")
        return 0
    out.write(f"Python {report['python']} on {report['machine']}: one core, no API server\n")
    for entry in report["workloads"]:
        sizes = f"{entry['nodes']:>5} nodes {entry['init_pods']:>5} init {entry['measured_pods']:>6} measured"
        speed = (
            f"{entry['pods_per_second']:>8.1f} pods/s (window avg {entry['window_average_pods_per_second']:.1f},"
            f" target {entry['target_pods_per_second']})"
        )
        counts = f"scheduled {entry['scheduled']}, unschedulable {entry['unschedulable']}"
        out.write(f"{entry['name']:<26} {sizes}  {speed}  {counts}\n")
    return 0


# ---------------------------------------------------------------------------- main


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m scheduler_core", description="A faithful kube-scheduler, in pure Python.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    explain_cmd = commands.add_parser("explain", help="why a pod lands on a node, or why it is Pending")
    explain_cmd.add_argument(
        "-f", "--file", action="append", required=True, help="multi-document YAML (repeatable; - for stdin)"
    )
    explain_cmd.add_argument("--config", help="a KubeSchedulerConfiguration file")
    explain_cmd.add_argument("--pod", required=True, help="[NAMESPACE/]NAME of the pod to explain")
    explain_cmd.add_argument("--seed", type=int, default=0, help="seed of the tie-breaking random generator")
    explain_cmd.add_argument("-o", "--output", choices=["json", "table"], default="table")
    explain_cmd.set_defaults(run=_run_explain)

    simulate_cmd = commands.add_parser("simulate", help="run the scenario: controllers, scheduler, kubelets, timeline")
    simulate_cmd.add_argument("-f", "--file", action="append", required=True, help="multi-document YAML (repeatable)")
    simulate_cmd.add_argument("--config", help="a KubeSchedulerConfiguration file")
    simulate_cmd.add_argument("--seed", type=int, default=0, help="seed of the run's random generator")
    simulate_cmd.add_argument("--until", help="stop at this simulated time (Go duration: 90s, 5m)")
    simulate_cmd.add_argument(
        "--at-event",
        type=int,
        metavar="N",
        help="stop right after event N (the events' seq) and report the cluster as it was then",
    )
    simulate_cmd.add_argument(
        "-o",
        "--output",
        choices=["json", "jsonl", "events"],
        default="json",
        help="json: the state and every raw event; jsonl: one line per event as it happens; "
        "events: the events at the end as `kubectl events -A` lists them",
    )
    describe = simulate_cmd.add_mutually_exclusive_group()
    describe.add_argument(
        "--describe-node",
        metavar="NAME",
        help="print `kubectl describe node NAME` at the end (or at --at-event N) instead of -o",
    )
    describe.add_argument(
        "--describe-deployment",
        metavar="[NAMESPACE/]NAME",
        help="print `kubectl describe deployment NAME` at the end (or at --at-event N) instead of -o",
    )
    describe.add_argument(
        "--kubectl",
        metavar="COMMAND",
        help="run a kubectl command at the end (or at --at-event N), as the page's console does: "
        '--kubectl "get pods -o wide"; a write prints the Actions that do it on stderr',
    )
    simulate_cmd.set_defaults(run=_run_simulate)

    bench_cmd = commands.add_parser("bench", help="scheduling throughput on scheduler_perf-like workloads")
    bench_cmd.add_argument("--workload", action="append", help="workload name (repeatable; default: all six)")
    bench_cmd.add_argument("--nodes", type=int, help="cluster size (default: each workload's own)")
    bench_cmd.add_argument("--seed", type=int, default=0)
    bench_cmd.add_argument("-o", "--output", choices=["json", "table"], default="table")
    bench_cmd.set_defaults(run=_run_bench)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    args: argparse.Namespace | None = None
    try:
        args = build_parser().parse_args(argv)
        args.err = err  # what a command writes beside its output (kubectl's stderr)
        run: Any = args.run
        return int(run(args, out))
    except UsageError as error:
        err.write(f"error: {error}\n")
        return EXIT_BAD_INPUT
    except ManifestError as error:
        config = getattr(args, "config", None)
        if config and not error.source and error.document == CONFIG_DOCUMENT:
            error.source = config  # a plugin refused its args when the scheduler was built
        err.write(f"error: {error}\n")
        return EXIT_BAD_INPUT
    except RecursionError:
        err.write("error: the input is nested too deeply\n")
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        return 0  # the reader (head, less) went away: nothing left to say
    except Exception as error:  # a bug of ours: say so in one line, never with a traceback
        err.write(f"internal error: {type(error).__name__}: {error}\n")
        return EXIT_INTERNAL_ERROR
