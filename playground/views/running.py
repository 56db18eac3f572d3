"""Runs: start, act at a moment, resume an interrupted one; and what a run shows at an event (a
pod's explanation, `kubectl describe` of a node or a Deployment, the traffic), each by replaying the
run up to it."""

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from playground import (
    acting,
    board,
    deployment_describe,
    describe_at,
    node_describe,
    offloaded,
    parsed_versions,
    run_replay,
    run_state_builder,
    runs,
)
from playground.broadcast import notify_scenario_changed
from playground.explain_table import explain_table
from playground.forms import (
    ActForm,
    DescribeDeploymentQueryForm,
    DescribeNodeQueryForm,
    ExplainQueryForm,
    RunStartForm,
    TrafficQueryForm,
)
from playground.gc_pause import collector_paused
from playground.models import Run, Scenario
from playground.ratelimit import rate_limited
from playground.scenarios import (
    InvalidEdit,
    StaleEdit,
    snapshot,
)
from playground.version_outline import Outline, kept_outline, outline
from playground.views.common import editor_secret
from playground.why_not import why_not
from scheduler_core.api.errors import ManifestError
from scheduler_core.api.manifests import load_manifests
from scheduler_core.store.cluster import SimulationLimitError


@require_POST
@rate_limited("run")
def start_run(request: HttpRequest, slug: str) -> HttpResponse:
    """Anyone with the link may run a scenario (running changes nothing); viewers all see the run."""
    scenario = get_object_or_404(Scenario, slug=slug)
    run, panel = start_with_panel(scenario, RunStartForm.of(request))
    context = {"scenario": scenario, "run": run, "can_edit": bool(editor_secret(request, scenario))}
    return render(request, "scenario.html#run-panel", context | panel, status=201)


def start_with_panel(scenario: Scenario, seed: int) -> tuple[Run, dict[str, Any]]:
    """Starts a run and works out its panel's context from one parse of the version, which the run
    then simulates (in this process; a worker process parses its own)."""
    version = snapshot(scenario)
    in_process = not (settings.RUNS_IN_BACKGROUND and settings.RUNS_IN_WORKERS)
    manifests = None
    if in_process or kept_outline(version) is None:
        with collector_paused():  # 55,000 manifests' objects at most, all kept by the run
            manifests = parsed_versions.manifests_of(version.cluster_document)  # the preview's parse
        if manifests is None:
            try:
                manifests = load_manifests(version.cluster_document, source="scenario")
            except ManifestError:
                manifests = []  # the run parses it again, fails and says why
    panel = panel_context(outline(version, manifests))  # before the run takes the manifests over
    run = runs.start_run(
        scenario,
        seed=seed,
        background=settings.RUNS_IN_BACKGROUND,
        version=version,
        manifests=manifests or None if in_process else None,
    )
    return run, panel


@require_POST
@rate_limited("edit")  # an act is an edit (a new version), then a run
@rate_limited("run")
def act(request: HttpRequest, slug: str) -> HttpResponse:
    """An operation at the run's current time: appended to the timeline as an Action, then re-run."""
    scenario = get_object_or_404(Scenario, slug=slug)
    asked = ActForm.of(request)
    previous = scenario.runs.filter(pk=asked.run).first()
    context: dict[str, Any] = {
        "scenario": scenario,
        "run": previous,
        "can_edit": bool(editor_secret(request, scenario)),
    }
    if not context["can_edit"]:
        context["act_error"] = "Acting changes the scenario: open the edit link, or fork it first."
        return render(request, "scenario.html#run-panel", context | run_context(scenario), status=403)
    at = asked.at
    context["act_chosen"] = asked.chosen()  # a refused act shows the form as it was sent
    try:
        acting.check_target(asked.target, outline(snapshot(scenario)).act_targets)
        document = acting.action_document(asked.op, asked.target, asked.value, at)
        workload = acting.append_action(scenario.workload_yaml, document)
        updated = board.set_workload(scenario, asked.version, workload)
    except StaleEdit:
        context["act_error"] = "Someone changed this scenario meanwhile: reload to act on the current version."
        return render(request, "scenario.html#run-panel", context | run_context(scenario), status=409)
    except InvalidEdit as problem:
        context["act_error"] = str(problem)
        return render(request, "scenario.html#run-panel", context | run_context(scenario), status=422)
    notify_scenario_changed(updated.slug, updated.version)
    run, panel = start_with_panel(updated, previous.seed if previous else 0)
    context = {"scenario": updated, "run": run, "start_at": at, "can_edit": True} | panel
    return render(request, "scenario.html#run-panel", context, status=201)


@require_POST
@rate_limited("run")
def resume_run(request: HttpRequest, slug: str, run_id: int) -> HttpResponse:
    """Continues an interrupted run (anyone who may run the scenario may); its viewers see it go on."""
    scenario = get_object_or_404(Scenario, slug=slug)
    run = runs.check_interrupted(get_object_or_404(scenario.runs.select_related("scenario", "version"), pk=run_id))
    if not runs.resume_run(run, background=settings.RUNS_IN_BACKGROUND):
        return HttpResponse(f"run {run.pk} is {run.status}, not interrupted", status=409, content_type="text/plain")
    if not request.htmx:  # a plain form post comes back to the run
        return redirect(reverse("scenario", args=[scenario.slug]) + f"?run={run.pk}")
    return HttpResponse(status=202)


def run_context(scenario: Scenario) -> dict[str, Any]:
    return panel_context(outline(snapshot(scenario)))


def panel_context(found: Outline) -> dict[str, Any]:
    return {
        "act_ops": list(acting.OPS.items()),
        **acting.target_field(found.act_targets),
        "traffic_kinds": found.traffic_kinds,  # the run panel's Traffic section, if any
    }


@rate_limited("inspect")
def explain_pod(request: HttpRequest, slug: str, run_id: int) -> HttpResponse:
    """The engine's explanation of one pod at one event of a run, as a panel. A big run this process
    does not keep is prepared off the request (playground/run_state_builder.py): the panel says so
    and asks again until its states are there."""
    asked = ExplainQueryForm.of(request)
    pod_key = asked.pod
    run = Run.objects.filter(scenario__slug=slug, pk=run_id).with_version().first()
    if run is None:  # a panel, not a page: it lands in the run's explain slot
        gone = f"Run {run_id} no longer exists: older runs are deleted (the newest of each scenario are kept)."
        return render(request, "explain.html", {"error": gone, "pod_key": pod_key}, status=404)
    seq, asked_node = asked.seq, asked.node
    run_state = run_state_builder.state(run)
    if run_state.preparing:
        context = {
            "preparing": run_state,
            "pod_key": pod_key,
            "poll_url": f"{request.path}?{urlencode({'pod': pod_key, 'seq': seq, 'node': asked_node})}",
        }
        return render(request, "explain.html", context, status=202)
    if run_state.error:
        return render(request, "explain.html", {"error": run_state.error, "pod_key": pod_key}, status=422)
    try:
        if run_state.kept is not None:
            explanation = run_replay.explain_kept(run_state.kept, pod_key, seq, run.seed)
        elif seq <= run_state_builder.INLINE_FRAMES:  # a short stretch of a run: replayed here, as cheap
            explanation = run_replay.explain_at(run, pod_key, seq)
        else:  # a long stretch of a run under way: replayed off the request, the panel asks again
            key = ("explain", run.pk, run.version.permalink, run.seed, pod_key, seq)
            explanation = offloaded.answer(
                key, lambda: run_replay.explain_at(run, pod_key, seq), prepare=lambda: run_replay.load_for_replay(run)
            )
            if isinstance(explanation, offloaded.Pending):
                preparing = run_state_builder.State(preparing=True, queue_full=explanation.queue_full, frames=seq)
                poll_url = f"{request.path}?{urlencode({'pod': pod_key, 'seq': seq, 'node': asked_node})}"
                context = {"preparing": preparing, "pod_key": pod_key, "poll_url": poll_url}
                return render(request, "explain.html", context, status=202)
    except ManifestError as error:
        return render(request, "explain.html", {"error": error.message, "pod_key": pod_key}, status=404)
    except SimulationLimitError as error:  # the replay's CPU budget (run_simulations.MAX_REPLAY_CPU_SECONDS)
        return render(request, "explain.html", {"error": f"{error} (a replay's limit)", "pod_key": pod_key}, status=422)
    table = explain_table(explanation)
    plugins = [name for name in explanation.weights if any(name in node.scores for node in table.rows)]
    context = {
        "explanation": explanation,
        "table": table,
        "plugins": plugins,
        "pod_key": pod_key,
        "seq": seq,
        "why": why_not(explanation, asked_node) if asked_node else None,  # "why not this node?"
        "why_url": f"{request.path}?{urlencode({'pod': pod_key, 'seq': seq})}",
        "explain_path": request.path,
    }
    return render(request, "explain.html", context)


@rate_limited("inspect")
def describe_node_at(request: HttpRequest, slug: str, run_id: int) -> HttpResponse:
    """`kubectl describe node` at one event of a run, for the node detail (templates/describe_node.html)."""
    asked = DescribeNodeQueryForm.of(request)
    base = node_describe.context(None, name=asked.node, seq=asked.seq) | {"describe_run": True}
    panel = DescribePanel("describe-node", "describe_node.html", node_describe.in_store)
    return render_describe_panel(request, slug, run_id, panel, asked.node, asked.seq, base)


@rate_limited("inspect")
def describe_deployment_at(request: HttpRequest, slug: str, run_id: int) -> HttpResponse:
    """`kubectl describe deployment` at one event of a run, for a Deployment's card in the rollout
    view (templates/describe_deployment.html)."""
    asked = DescribeDeploymentQueryForm.of(request)
    base = deployment_describe.context(None, key=asked.deployment, seq=asked.seq)
    panel = DescribePanel("describe-deployment", "describe_deployment.html", deployment_describe.in_store)
    return render_describe_panel(request, slug, run_id, panel, asked.deployment, asked.seq, base)


@dataclass(frozen=True, slots=True)
class DescribePanel:
    """A `kubectl describe` panel of one kind of object at a run's event."""

    kind: str  # names its replays off the request
    template: str
    in_store: describe_at.InStore[Any]


def render_describe_panel(
    request: HttpRequest, slug: str, run_id: int, panel: DescribePanel, name: str, seq: int, base: dict[str, Any]
) -> HttpResponse:
    """The panel at frame `seq`, as an explanation is: from the run kept here, a short stretch
    replayed inline, a long one off the request (the panel asks again)."""
    run = Run.objects.filter(scenario__slug=slug, pk=run_id).with_version().first()
    if run is None:
        gone = f"Run {run_id} no longer exists: older runs are deleted (the newest of each scenario are kept)."
        return render(request, panel.template, base | {"describe_error": gone}, status=404)
    run_state = run_state_builder.state(run)
    if run_state.error:
        return render(request, panel.template, base | {"describe_error": run_state.error}, status=422)
    if run_state.preparing:
        preparing = {"describe_preparing": run_state, "describe_poll_url": request.get_full_path()}
        return render(request, panel.template, base | preparing, status=202)
    try:
        if run_state.kept is not None:
            described = describe_at.in_kept_run(run_state.kept, name, seq, panel.in_store)
        elif seq <= run_state_builder.INLINE_FRAMES:  # a short stretch of a run: replayed here, as cheap
            described = describe_at.in_replay(run, name, seq, panel.in_store)
        else:  # a long stretch of a run under way: replayed off the request, the panel asks again
            key = (panel.kind, run.pk, run.version.permalink, run.seed, name, seq)
            described = offloaded.answer(
                key,
                lambda: describe_at.in_replay(run, name, seq, panel.in_store),
                prepare=lambda: run_replay.load_for_replay(run),
                supersedes=(panel.kind, run.pk),  # a playing run asks for a newer event every second
            )
            if isinstance(described, offloaded.Pending):
                preparing = {"describe_preparing": described, "describe_poll_url": request.get_full_path()}
                return render(request, panel.template, base | preparing, status=202)
    except ManifestError as error:
        return render(request, panel.template, base | {"describe_error": error.message}, status=422)
    except SimulationLimitError as error:  # the replay's CPU budget (run_simulations.MAX_REPLAY_CPU_SECONDS)
        return render(request, panel.template, base | {"describe_error": f"{error} (a replay's limit)"}, status=422)
    return render(request, panel.template, base | {"describe": described})


@rate_limited("inspect")
def run_traffic(request: HttpRequest, slug: str, run_id: int) -> HttpResponse:
    """How requests to the Services and Ingresses split at one event of a run, as a panel:
    ?seq=N (the player's position), optional requests, and host, path, header for an own request."""
    from playground import traffic

    scenario = get_object_or_404(Scenario, slug=slug)
    run = get_object_or_404(scenario.runs.select_related("version"), pk=run_id)
    try:
        query = TrafficQueryForm.of(request)
    except traffic.TrafficQueryError as error:
        return render(request, "traffic.html", {"error": str(error)}, status=400)
    try:
        view = traffic.cached(run, query)
        if view is None and query.seq > run_state_builder.INLINE_FRAMES:  # a long replay: off the request
            key = ("traffic", run.version.permalink, run.seed, query)
            view = offloaded.answer(
                key,
                lambda: traffic.traffic_at(run, query),
                prepare=lambda: run_replay.load_for_replay(run),
                supersedes=("traffic", run.pk),  # a playing run asks for a new event every second
            )
            if isinstance(view, offloaded.Pending):
                context = {"preparing": view, "poll_url": request.get_full_path(), "seq": query.seq}
                return render(request, "traffic.html", context, status=202)
        elif view is None:
            view = traffic.traffic_at(run, query)
    except ManifestError as error:
        return render(request, "traffic.html", {"error": error.message}, status=422)
    except SimulationLimitError as error:
        return render(request, "traffic.html", {"error": str(error)}, status=422)
    return render(request, "traffic.html", {"traffic": view})
