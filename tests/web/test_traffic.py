"""The run panel's Traffic section: the engine's request split at one event of a run, over HTTP."""

from dataclasses import replace
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from playground import traffic
from playground.change_deltas import expand
from playground.management.commands.load_gallery import GALLERY_DIR, split_gallery_file
from playground.models import Run
from playground.runs import execute
from playground.scenarios import create_scenario, snapshot
from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.types import Node
from scheduler_core.explain import traffic as engine
from scheduler_core.simulation.simulation import Simulation

pytestmark = pytest.mark.django_db

CANARY = "185-canary-deployments"
NODE_DOWN = "105-load-balancer-node-down"
BLUE_GREEN = "070-blue-green"
POD = "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers: [{name: c, image: nginx}]\n"


@pytest.fixture(autouse=True)
def _empty_cache():
    traffic.clear_cache()
    yield
    traffic.clear_cache()


def gallery_run(name: str, seed: int = 0) -> Run:
    header, nodes, workload = split_gallery_file((GALLERY_DIR / f"{name}.yaml").read_text())
    scenario, _ = create_scenario(header["title"], nodes=nodes, workload_yaml=workload)
    run = Run.objects.create(scenario=scenario, version=snapshot(scenario), seed=seed)
    execute(run, publish=lambda *args: None)
    run.refresh_from_db()
    assert run.status == Run.Status.FINISHED, run.error
    return run


def seq_of(run: Run, reason: str, obj: str = "") -> int:
    """The first event of the run with this reason (and object)."""
    for seq, payload in run.events.order_by("seq").values_list("seq", "payload"):
        event = payload["event"]
        if event and event["reason"] == reason and obj in event["object"]:
            return seq
    raise AssertionError(f"no {reason} event")


def last_seq(run: Run) -> int:
    return run.events.count()


def seq_ready(run: Run, name: str) -> int:
    """The first frame of the run at which a pod of this name turns Ready (the kubelet reports it
    after its Started event)."""
    frames = expand(run.events.order_by("seq").values_list("payload", flat=True))
    for seq, payload in enumerate(frames, start=1):
        if any(c["op"] == "pod" and name in c["name"] and c["ready"] for c in payload["changes"]):
            return seq
    raise AssertionError(f"no {name} pod turns Ready")


def engine_state_at(run: Run, seq: int, down: tuple[str, ...] = ()) -> dict:
    """The engine on its own: the run's version simulated to the event of frame `seq` and the store
    as that event left it (a frame without one: to the end of its time, as the closing frame, which
    is the run's end), the down nodes unreachable (as tests/core/test_traffic.py takes a node down),
    then traffic_state."""
    payload = run.events.get(seq=seq).payload
    event = payload["event"]
    simulation = Simulation(load_manifests(run.version.document), seed=run.seed)
    if event is None:
        simulation.run_to_end(until=payload["time"])
        cluster = simulation.cluster
    else:
        cluster = simulation.cluster_at_event(event["seq"], until=3600)
    for name in down:
        node = cluster.get(Node, name)
        cluster.update(replace(node, status=replace(node.status, ready=False)))
    return engine.traffic_state(cluster, run.seed)


class Flows(HTMLParser):
    """The panel's flows: {"Service/default/web": {"served", "failed", "bars": {bar: {share: count}}}}."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.flows: dict[str, dict] = {}
        self._flow: dict | None = None
        self._bar: dict | None = None
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list) -> None:
        attributes = dict(attrs)
        if "data-flow" in attributes:
            self._flow = {
                "served": int(attributes["data-served"]),
                "failed": int(attributes["data-failed"]),
                "bars": {},
            }
            self.flows[attributes["data-flow"]] = self._flow
        elif "data-bar" in attributes and self._flow is not None:
            self._bar = self._flow["bars"].setdefault(attributes["data-bar"], {})
        elif "data-share" in attributes and self._bar is not None:
            self._bar[attributes["data-share"]] = int(attributes["data-count"])


def panel(client, run: Run, **params) -> tuple[int, str]:
    response = client.get(reverse("run-traffic", args=[run.scenario.slug, run.pk]), params)
    return response.status_code, response.content.decode()


def flows_at(client, run: Run, seq: int, **params) -> dict[str, dict]:
    status, html = panel(client, run, seq=seq, **params)
    assert status == 200, html
    return Flows(html).flows


def assert_matches_engine(flows: dict[str, dict], state: dict) -> None:
    for entry in state["services"]:
        shown = flows[entry["target"]]
        failed = sum(entry["failed"].values())
        assert (shown["served"], shown["failed"]) == (entry["served"], failed)
        assert shown["bars"]["pods"] == entry["pods"] | entry["failed"]
        assert shown["bars"]["pods' nodes"] == entry["nodes"] | ({"failed": failed} if failed else {})
        if entry["entryNodes"]:
            assert shown["bars"]["received by"] == entry["entryNodes"]
    for entry in state["ingresses"]:
        name = f"Ingress/{entry['host'] or '*'}{entry['path']}"
        name += "".join(f" {header}: {value}" for header, value in sorted(entry.get("headers", {}).items()))
        shown = flows[name]
        assert (shown["served"], shown["failed"]) == (entry["served"], sum(entry["failed"].values()))
        assert shown["bars"]["backends"] == entry["backends"]
        assert shown["bars"]["pods"] == entry["pods"] | entry["failed"]


# ---------------------------------------------------------------------------- the numbers


def test_a_canary_by_weight_takes_about_its_share_and_the_header_takes_every_request(client):
    run = gallery_run(CANARY)
    ready = seq_ready(run, "shop-canary")  # every pod Ready: the last to start at 1 s
    flows = flows_at(client, run, ready)
    assert_matches_engine(flows, engine_state_at(run, ready))
    by_weight = flows["Ingress/app.example.com/"]
    by_header = flows["Ingress/app.example.com/ X-Canary: always"]
    canary = by_weight["bars"]["backends"]["shop-canary"]
    assert 3 <= canary <= 20 and by_weight["bars"]["backends"]["shop"] == 100 - canary  # weight 10 of 100
    assert by_weight["bars"]["versions"] == {"v1": 100 - canary, "v2": canary}
    assert by_header["bars"]["backends"] == {"shop-canary": 100}  # X-Canary: always
    _, html = panel(client, run, seq=ready)
    assert "weight 10 of 100" in html and "X-Canary: always/never" in html

    widened = flows_at(client, run, last_seq(run))  # at 60 s: two canary pods, weight 50
    assert_matches_engine(widened, engine_state_at(run, last_seq(run)))
    assert len([pod for pod in widened["Service/default/shop-canary"]["bars"]["pods"]]) == 2
    assert 30 <= widened["Ingress/app.example.com/"]["bars"]["backends"]["shop-canary"] <= 70
    assert "weight 50 of 100" in panel(client, run, seq=last_seq(run))[1]


def test_a_node_going_down_times_requests_out_then_drops_out_then_comes_back(client):
    run = gallery_run(NODE_DOWN)
    cordoned = seq_of(run, "NodeNotSchedulable")
    before = flows_at(client, run, cordoned - 1)  # 1 s: the three pods Ready, one per node
    assert set(before["Service/default/web-np"]["bars"]["pods' nodes"]) == {"worker1", "worker2", "worker3"}
    assert before["Service/default/web-np"]["failed"] == 0 and before["Service/default/web-lb"]["failed"] == 0

    # 40 s: worker1 has been down for 10 s, and the API server still reports it Ready.
    flows = flows_at(client, run, cordoned)
    assert_matches_engine(flows, engine_state_at(run, cordoned, down=("worker1",)))
    node_port = flows["Service/default/web-np"]
    assert set(node_port["bars"]["pods"]) >= {engine.FAILED_ENDPOINT_UNREACHABLE, engine.FAILED_NODE_DOWN}
    assert node_port["bars"]["received by"]["worker1"] == node_port["bars"]["pods"][engine.FAILED_NODE_DOWN]
    # The load balancer's health checks drop worker1 at once; with policy Local nothing is lost.
    balancer = flows["Service/default/web-lb"]
    assert balancer["failed"] == 0 and "worker1" not in balancer["bars"]["received by"]
    _, html = panel(client, run, seq=cordoned)
    assert "the API server still reports it Ready" in html and 'class="flow has-failures"' in html

    # 80 s: NotReady, the pod leaves the endpoints: no more timeouts, worker1's own address still fails.
    not_ready = seq_of(run, "NodeNotReady", "Pod/")
    flows = flows_at(client, run, not_ready)
    assert_matches_engine(flows, engine_state_at(run, not_ready, down=("worker1",)))
    assert set(flows["Service/default/web-np"]["bars"]["pods' nodes"]) == {"worker2", "worker3", "failed"}
    left = set(flows["Service/default/web-lb"]["bars"]["pods"])  # the two pods on worker2 and worker3
    assert set(flows["Service/default/web-np"]["bars"]["pods"]) == left | {engine.FAILED_NODE_DOWN}
    assert engine.FAILED_ENDPOINT_UNREACHABLE not in flows["Service/default/web-np"]["bars"]["pods"]

    # node-up at 120 s, the pod Ready again: every request is served.
    after = flows_at(client, run, last_seq(run))
    assert_matches_engine(after, engine_state_at(run, last_seq(run)))
    assert all(flow["failed"] == 0 for flow in after.values())
    assert "worker1" in after["Service/default/web-np"]["bars"]["pods' nodes"]


def test_blue_green_moves_every_request_at_once(client):
    run = gallery_run(BLUE_GREEN)
    green_started = seq_of(run, "Started", "web-green")
    blue = flows_at(client, run, green_started)["Service/default/web"]
    assert "versions" not in blue["bars"]  # green runs, but the Service still selects blue only
    assert all(pod.startswith("web-blue-") for pod in blue["bars"]["pods"])
    green = flows_at(client, run, last_seq(run))["Service/default/web"]
    assert green["served"] == 100 and all(pod.startswith("web-green-") for pod in green["bars"]["pods"])


def test_an_own_request_through_the_ingress_controller(client):
    run = gallery_run(CANARY)
    ready = seq_ready(run, "shop-canary")
    own = flows_at(client, run, ready, host="app.example.com", path="/cart", header="x-canary: always")
    probe = own["own Ingress/app.example.com/cart x-canary: always"]
    assert probe["bars"]["backends"] == {"shop-canary": 100}
    lost = flows_at(client, run, ready, host="other.example.com")["own Ingress/other.example.com/"]
    assert lost["failed"] == 100 and lost["bars"]["pods"] == {engine.FAILED_NOT_FOUND: 100}


def test_the_number_of_requests_can_be_chosen(client):
    run = gallery_run(CANARY)
    flows = flows_at(client, run, last_seq(run), requests=1000)
    assert flows["Service/default/shop"]["served"] == 1000


def test_before_the_first_event_there_is_nothing_to_send_to(client):
    run = gallery_run(CANARY)
    status, html = panel(client, run, seq=0)
    assert status == 200 and "the run has not started yet" in html


# ---------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({}, "seq (the event to show) is required"),
        ({"seq": "abc"}, "seq (the event to show) must be a whole number"),
        ({"seq": "-1"}, "seq (the event to show) must be a whole number from 0 to 2000001"),
        ({"seq": "99999999999999999999"}, "must be a whole number"),
        ({"seq": "1", "requests": "0"}, "requests must be a whole number from 1 to 1000"),
        ({"seq": "1", "requests": "5000"}, "requests must be a whole number from 1 to 1000"),
        ({"seq": "1", "host": "not a host"}, "host must be a DNS name"),
        ({"seq": "1", "path": "cart"}, "path must start with /"),
        ({"seq": "1", "path": "/a b"}, "path must start with /"),
        ({"seq": "1", "header": "X-Canary"}, "header must be Name: value"),
        ({"seq": "1", "header": "Bad Name: 1"}, "header must be Name: value"),
        ({"seq": "1", "header": "X: " + "v" * 300}, "printable text of at most 200 characters"),
    ],
)
def test_bad_parameters_say_what_is_wrong(client, params, message):
    scenario, _ = create_scenario("tiny", workload_yaml=POD)
    run = Run.objects.create(scenario=scenario, version=snapshot(scenario), seed=0)
    status, html = panel(client, run, **params)
    assert status == 400 and message in html and 'role="alert"' in html


def test_a_run_of_another_scenario_is_not_found(client):
    mine, _ = create_scenario("mine", workload_yaml=POD)
    theirs, _ = create_scenario("theirs", workload_yaml=POD)
    run = Run.objects.create(scenario=theirs, version=snapshot(theirs), seed=0)
    assert client.get(reverse("run-traffic", args=[mine.slug, run.pk]), {"seq": 1}).status_code == 404
    assert client.get(reverse("run-traffic", args=[mine.slug, 999999]), {"seq": 1}).status_code == 404


def test_a_version_that_does_not_load_is_reported_not_crashed_on(client):
    scenario, _ = create_scenario("bad")
    scenario.workload_yaml = "apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec: {bogus: 1}\n"
    scenario.version += 1
    scenario.save()
    run = Run.objects.create(scenario=scenario, version=snapshot(scenario), seed=0)
    status, html = panel(client, run, seq=1)
    assert status == 422 and "bogus" in html


# ---------------------------------------------------------------------------- the run panel and the cache


def test_the_run_panel_has_a_traffic_section_only_when_there_are_services_or_ingresses(client):
    run = gallery_run(CANARY)
    html = client.post(reverse("start-run", args=[run.scenario.slug]), headers={"HX-Request": "true"}).content.decode()
    assert 'id="traffic"' in html and "data-traffic-probe" in html  # Ingresses: the own-request form too
    node_down = gallery_run(NODE_DOWN)
    html = client.get(reverse("scenario", args=[node_down.scenario.slug]), {"run": node_down.pk}).content.decode()
    assert 'id="traffic"' in html and "data-traffic-probe" not in html  # Services only
    plain, _ = create_scenario("plain", workload_yaml=POD)
    html = client.post(reverse("start-run", args=[plain.slug]), headers={"HX-Request": "true"}).content.decode()
    assert 'id="traffic"' not in html


def test_a_service_applied_by_the_timeline_counts_too():
    later = POD + "---\napiVersion: playground/v1\nkind: Action\nspec:\n  at: 5s\n  op: apply\n  manifest:\n"
    later += "    {apiVersion: v1, kind: Service, metadata: {name: s}, spec: {selector: {app: web}}}\n"
    assert traffic.traffic_kinds(load_manifests(later, source="scenario")) == {"Service"}
    assert traffic.traffic_kinds(load_manifests(POD, source="scenario")) == frozenset()


def test_replays_are_cached_per_version_seed_and_event_and_the_cache_stays_bounded(client, monkeypatch):
    run = gallery_run(CANARY)
    replays = []
    original = traffic.replay
    monkeypatch.setattr(traffic, "replay", lambda run, seq: replays.append(seq) or original(run, seq))
    monkeypatch.setattr(traffic, "CACHE_ENTRIES", 2)
    first = panel(client, run, seq=5)[1]
    assert panel(client, run, seq=5)[1] == first and replays == [5]
    for seq in (6, 7, 8):
        panel(client, run, seq=seq)
    assert len(traffic._cache) == 2 and replays == [5, 6, 7, 8]
    panel(client, run, seq=5)  # pushed out: replayed again
    assert replays == [5, 6, 7, 8, 5]


def test_a_service_with_many_pods_keeps_its_legend_short_and_every_request_counted(client):
    many = (
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 20\n"
        "  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n"
        "    spec: {containers: [{name: c, image: nginx}]}\n---\n"
        "apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec: {selector: {app: web}}\n"
    )
    scenario, _ = create_scenario("many", workload_yaml=many)
    run = Run.objects.create(scenario=scenario, version=snapshot(scenario), seed=0)
    execute(run, publish=lambda *args: None)
    status, html = panel(client, run, seq=last_seq(run), requests=1000)
    assert status == 200
    pods = Flows(html).flows["Service/default/web"]["bars"]["pods"]
    assert len(pods) == traffic.LEGEND_ITEMS
    more = int(html.split('data-more="')[1].split('"')[0])
    assert more == 20 - traffic.LEGEND_ITEMS and html.count("<rect x=") >= 20 + 3  # every pod on the bar
