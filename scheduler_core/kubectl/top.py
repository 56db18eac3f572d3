"""`kubectl top nodes|pods` in the console, printed as kubectl v1.34's top printer prints them (each
cell followed by a tab through kubectl's tabwriter, so every line keeps its trailing padding; CPU in
millicores, memory in whole MiB, a node's percentages of its allocatable, truncated), from the
usage that kubeapi/metrics.py reads off the run."""

from collections.abc import Callable, Mapping

from scheduler_core.api.types import Node, Pod
from scheduler_core.explain.tabwriter import tabbed
from scheduler_core.kubeapi.metrics import Usage, allocatable, node_usage, pod_usage
from scheduler_core.kubeapi.objects import ApiSnapshot
from scheduler_core.kubeapi.query_selectors import SelectorError, parse_label_selector
from scheduler_core.kubectl.flags import CommandError, Parsed
from scheduler_core.kubectl.table_printer import MIN_WIDTH, PADDING

NODE_COLUMNS = ("NAME", "CPU(cores)", "CPU(%)", "MEMORY(bytes)", "MEMORY(%)")
POD_COLUMNS = ("NAME", "CPU(cores)", "MEMORY(bytes)")
SORTS = ("cpu", "memory")


def cores(millicores: int) -> str:
    return f"{millicores}m"


def mebibytes(amount: int) -> str:
    return f"{amount // (1024 * 1024)}Mi"


def percent(used: int, total: int) -> str:
    return f"{int(used / total * 100)}%" if total else "<unknown>"


def _table(rows: list[tuple[str, ...]]) -> str:
    text = "\n".join("".join(f"{cell}\t" for cell in row) for row in rows)
    return tabbed(text, minwidth=MIN_WIDTH, padding=PADDING) + "\n"


def _sort_key(sort_by: str) -> Callable[[Usage], int]:
    if sort_by not in ("", *SORTS):
        raise CommandError(f"error: --sort-by accepts only {' or '.join(SORTS)}")
    return (lambda usage: -usage.cpu) if sort_by == "cpu" else (lambda usage: -usage.memory)


def top_nodes(snapshot: ApiSnapshot, parsed: Parsed, names: list[str]) -> tuple[str, str]:
    usage = node_usage(snapshot.cluster, pod_usage(snapshot.cluster, snapshot.demand))
    nodes = sorted(snapshot.cluster.objects(Node), key=lambda node: node.metadata.name)
    selector = _selector(parsed)
    chosen = [
        node
        for node in nodes
        if (not names or node.metadata.name in names) and label_selector_matches_text(selector, node.metadata.labels)
    ]
    missing = [name for name in names if name not in {node.metadata.name for node in nodes}]
    if missing:
        return "", f'Error from server (NotFound): nodemetrics.metrics.k8s.io "{missing[0]}" not found\n'
    if not chosen:
        return "", "error: metrics not available yet\n"
    sort_by = parsed.value("sort-by")
    if sort_by:
        key = _sort_key(sort_by)
        chosen.sort(key=lambda node: key(usage[node.metadata.name]))
    rows = [NODE_COLUMNS]
    for node in chosen:
        used, total = usage[node.metadata.name], allocatable(node)
        rows.append(
            (
                node.metadata.name,
                cores(used.cpu),
                percent(used.cpu, total.cpu),
                mebibytes(used.memory),
                percent(used.memory, total.memory),
            )
        )
    return _table([row for row in rows if not (parsed.flag("no-headers") and row is NODE_COLUMNS)]), ""


def top_pods(snapshot: ApiSnapshot, parsed: Parsed, names: list[str], namespace: str) -> tuple[str, str]:
    everywhere = parsed.flag("all-namespaces")
    usage = pod_usage(snapshot.cluster, snapshot.demand)
    selector = _selector(parsed)
    pods = sorted(snapshot.cluster.objects(Pod), key=lambda pod: (pod.metadata.namespace, pod.metadata.name))
    chosen = [
        pod
        for pod in pods
        if pod.metadata.key in usage
        and (everywhere or pod.metadata.namespace == namespace)
        and (not names or pod.metadata.name in names)
        and label_selector_matches_text(selector, pod.metadata.labels)
    ]
    if names and not chosen:
        known = {pod.metadata.name for pod in pods if pod.metadata.namespace == namespace}
        if names[0] not in known:
            return "", f'Error from server (NotFound): podmetrics.metrics.k8s.io "{namespace}/{names[0]}" not found\n'
        return "", f"error: Metrics not available for pod {namespace}/{names[0]}, age: running\n"
    if not chosen:
        where = "" if everywhere else f" in {namespace} namespace"
        return "", f"No resources found{where}.\n"
    sort_by = parsed.value("sort-by")
    if sort_by:
        key = _sort_key(sort_by)
        chosen.sort(key=lambda pod: key(usage[pod.metadata.key]))
    header = ("NAMESPACE", *POD_COLUMNS) if everywhere else POD_COLUMNS
    rows: list[tuple[str, ...]] = [] if parsed.flag("no-headers") else [header]
    for pod in chosen:
        used: Usage = usage[pod.metadata.key]
        cells = (pod.metadata.name, cores(used.cpu), mebibytes(used.memory))
        rows.append((pod.metadata.namespace, *cells) if everywhere else cells)
    return _table(rows), ""


def _selector(parsed: Parsed) -> str:
    text = parsed.value("selector")
    try:
        parse_label_selector(text)
    except SelectorError as error:
        raise CommandError(f"error: {error}") from None
    return text


def label_selector_matches_text(text: str, labels: Mapping[str, str]) -> bool:
    return not text or parse_label_selector(text).matches(labels)
