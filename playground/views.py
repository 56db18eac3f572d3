"""Pages and htmx partials. Thin: the board and scenario modules do the work, the engine knows
Kubernetes, templates render. Every form works without JavaScript too (a full page comes back)."""

from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.csp import csp_override
from django.views.decorators.http import require_POST

from playground import acting, board, compare, health, importing, ratelimit, runs
from playground.broadcast import notify_scenario_changed
from playground.models import Scenario, ScenarioVersion
from playground.preview import preview
from playground.ratelimit import rate_limited
from playground.scenarios import (
    DEFAULT_CAPACITY,
    InvalidEdit,
    StaleEdit,
    create_scenario,
    export_document,
    fork,
    snapshot,
    validate_workload,
)
from playground.why_not import why_not
from scheduler_core.errors import ManifestError

SESSION_PREFIX = "edit:"
COMMON_LABELS = [
    ("topology.kubernetes.io/zone", "zone-a"),
    ("topology.kubernetes.io/region", "region-1"),
    ("kubernetes.io/hostname", ""),
    ("node-role.kubernetes.io/control-plane", ""),
    ("disktype", "ssd"),
    ("nvidia.com/gpu.present", "true"),
    ("node.kubernetes.io/instance-type", "m5.large"),
]
COMMON_TAINTS = [
    ("node-role.kubernetes.io/control-plane", "", "NoSchedule"),
    ("nvidia.com/gpu", "true", "NoSchedule"),
    ("dedicated", "infra", "NoSchedule"),
    ("spot", "true", "PreferNoSchedule"),
    ("maintenance", "true", "NoExecute"),
]


# ---------------------------------------------------------------------------- helpers


def editor_secret(request: HttpRequest, scenario: Scenario) -> str:
    secret = request.session.get(SESSION_PREFIX + scenario.slug, "")
    return secret if isinstance(secret, str) and scenario.check_edit_secret(secret) else ""


def _remember_editor(request: HttpRequest, scenario: Scenario, secret: str) -> None:
    request.session[SESSION_PREFIX + scenario.slug] = secret


def board_context(request: HttpRequest, scenario: Scenario, message: str = "", error: str = "") -> dict[str, Any]:
    nodes = list(scenario.nodes.all())
    version = snapshot(scenario)  # content-addressed: the same content is the same version
    placement = preview(version.permalink, version.cluster_document)
    group_by = request.GET.get("group") or request.POST.get("group") or ""
    then_by = request.GET.get("then") or request.POST.get("then") or ""
    view = "table" if (request.GET.get("view") or request.POST.get("view")) == "table" else "cards"
    query = (request.GET.get("q") or "").strip()[:100]
    cards = [_card(node, placement) for node in nodes]
    if query and view == "table":
        cards = [card for card in cards if _matches(card["node"], query)]
    return {
        "scenario": scenario,
        "version": version,
        "can_edit": bool(editor_secret(request, scenario)),
        "cards": cards,
        "groups": _group(cards, group_by, then_by if group_by else ""),
        "then_by": then_by,
        "group_by": group_by,
        "view": view,
        "query": query,
        "node_count": len(nodes),
        "topology_keys": _groupable_keys(nodes),
        "placement": placement,
        "message": message,
        "error": error,
    }


def _groupable_keys(nodes: list[Any]) -> list[str]:
    """Every label key the nodes carry (zone, rack, node pool, the user's own), topology ones first;
    the hostname is unique per node, so grouping by it says nothing."""
    keys = {key for node in nodes for key in node.labels if key != "kubernetes.io/hostname"}
    return sorted(keys, key=lambda key: ("topology" not in key, key))


def _matches(node: Any, query: str) -> bool:
    """The table view's search: node name, label keys and values, taints."""
    needle = query.lower()
    haystack = [node.name, *(f"{k}={v}" for k, v in node.labels.items())]
    haystack += [f"{t.get('key')}={t.get('value', '')}:{t.get('effect')}" for t in node.taints]
    return any(needle in text.lower() for text in haystack)


def _card(node: Any, placement: Any) -> dict[str, Any]:
    from scheduler_core.api import quantity

    usage = placement.usage.get(node.name)
    capacity = node.capacity

    def amount(name: str) -> int:
        try:
            return (
                quantity.milli_value(capacity.get(name, "0"))
                if name == "cpu"
                else quantity.value(capacity.get(name, "0"))
            )
        except Exception:  # the board only stores values the engine accepted; be safe anyway
            return 0

    bars = []
    for name, used in (
        ("cpu", usage.cpu if usage else 0),
        ("memory", usage.memory if usage else 0),
        ("pods", usage.pods if usage else 0),
    ):
        total = amount(name)
        bars.append(
            {
                "name": name,
                "used": used,
                "total": total,
                "percent": min(100, round(100 * used / total)) if total else (100 if used else 0),
                "used_text": _format(name, used),
                "total_text": capacity.get(name, "0"),
            }
        )
    toggle = "uncordon" if node.unschedulable else "cordon"
    return {"node": node, "bars": bars, "pods": usage.pod_views if usage else [], "toggle": toggle}


def _format(resource: str, amount: int) -> str:
    from scheduler_core.api.quantity import format_bytes, format_milli_cpu

    if resource == "cpu":
        return format_milli_cpu(amount)
    if resource == "memory":
        return format_bytes(amount)
    return str(amount)


def _group(cards: list[dict[str, Any]], key: str, then: str = "") -> list[tuple[str, list[dict[str, Any]]]]:
    """Cards grouped by a topology label, and optionally within it by a second one (region > zone)."""
    if not key:
        return [("", cards)]
    keys = [k for k in (key, then) if k]
    groups: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for card in cards:
        groups.setdefault(tuple(card["node"].labels.get(k, "(none)") for k in keys), []).append(card)
    ordered = sorted(groups.items(), key=lambda item: tuple((value == "(none)", value) for value in item[0]))
    return [
        (" › ".join(f"{k} = {v}" for k, v in zip(keys, values, strict=True)), members) for values, members in ordered
    ]


def _board_response(
    request: HttpRequest, scenario: Scenario, *, message: str = "", error: str = "", status: int = 200
) -> HttpResponse:
    context = board_context(request, scenario, message, error)
    if request.htmx:
        return render(request, "scenario.html#board", context, status=status)
    return render(request, "scenario.html", context | _page_context(request, scenario), status=status)


def _page_context(request: HttpRequest, scenario: Scenario) -> dict[str, Any]:
    secret = editor_secret(request, scenario)
    return {
        "edit_url": request.build_absolute_uri(reverse("claim-edit", args=[scenario.slug, secret])) if secret else "",
        "live_url": request.build_absolute_uri(reverse("scenario", args=[scenario.slug])),
        "common_labels": COMMON_LABELS,
        "common_taints": COMMON_TAINTS,
        "default_capacity": DEFAULT_CAPACITY,
        "validate_url": reverse("validate"),
    }


def _int(value: str | None, default: int = 0) -> int:
    try:
        return int(value or default)
    except ValueError:
        return default


EditView = Callable[[HttpRequest, Scenario, int], Scenario]


def editing(view: EditView) -> Callable[..., HttpResponseBase]:
    """POST-only edits by the scenario's editor, against the version the form was rendered at."""

    @wraps(view)
    @require_POST
    def wrapper(request: HttpRequest, slug: str, **kwargs: Any) -> HttpResponseBase:
        scenario = get_object_or_404(Scenario, slug=slug)
        if not editor_secret(request, scenario):
            return _board_response(
                request,
                scenario,
                error="This is a view link: open the edit link, or fork the scenario to change it.",
                status=403,
            )
        expected = _int(request.POST.get("version"), -1)
        try:
            updated = view(request, scenario, expected, **kwargs)
        except StaleEdit as stale:
            scenario.refresh_from_db()
            return _board_response(
                request,
                scenario,
                error=f"Someone changed this scenario meanwhile (now version {stale.current})."
                " Your edit was not applied: here is the current state.",
                status=409,
            )
        except InvalidEdit as problem:
            scenario.refresh_from_db()
            return _board_response(request, scenario, error=str(problem), status=422)
        notify_scenario_changed(updated.slug, updated.version)
        if not request.htmx:
            return redirect("scenario", slug=updated.slug)
        return _board_response(request, updated)

    return wrapper


# ---------------------------------------------------------------------------- pages


def index(request: HttpRequest) -> HttpResponse:
    gallery = Scenario.objects.exclude(gallery_key="").order_by("gallery_order")
    return render(request, "index.html", {"scenarios": gallery})


@require_POST
@rate_limited("create")
def new_scenario(request: HttpRequest) -> HttpResponse:
    scenario, secret = create_scenario("Untitled scenario", description="A blank cluster of three workers.")
    _remember_editor(request, scenario, secret)
    return redirect("scenario", slug=scenario.slug)


@require_POST
@rate_limited("create")
def use_gallery(request: HttpRequest, key: str) -> HttpResponse:
    original = get_object_or_404(Scenario, gallery_key=key)
    scenario, secret = fork(snapshot(original), title=original.title)
    _remember_editor(request, scenario, secret)
    return redirect("scenario", slug=scenario.slug)


@never_cache
def scenario_page(request: HttpRequest, slug: str) -> HttpResponse:
    scenario = get_object_or_404(Scenario, slug=slug)
    context = board_context(request, scenario) | _page_context(request, scenario)
    run_id = _int(request.GET.get("run"), 0)
    if run_id:  # a reload mid-run comes back to the same run (the player restores the position)
        run = scenario.runs.select_related("scenario").filter(pk=run_id).first()
        context["run"] = runs.check_interrupted(run) if run else None
        context |= _run_context(scenario)
    return render(request, "scenario.html", context)


@never_cache
def board_partial(request: HttpRequest, slug: str) -> HttpResponse:
    scenario = get_object_or_404(Scenario, slug=slug)
    return render(request, "scenario.html#board", board_context(request, scenario))


def claim_edit(request: HttpRequest, slug: str, secret: str) -> HttpResponse:
    scenario = get_object_or_404(Scenario, slug=slug)
    if not scenario.check_edit_secret(secret):
        raise Http404("no such edit link")
    _remember_editor(request, scenario, secret)
    return redirect("scenario", slug=slug)


def version_page(request: HttpRequest, permalink: str) -> HttpResponse:
    version = get_object_or_404(ScenarioVersion, permalink=permalink)
    return render(request, "version.html", {"version": version, "embed": False})


# The embed view is made to be framed by any site: the one page without frame-ancestors 'none'.
EMBED_CSP = {**settings.SECURE_CSP, "frame-ancestors": ["*"]}


@xframe_options_exempt
@csp_override(EMBED_CSP)
def embed(request: HttpRequest, permalink: str) -> HttpResponse:
    version = get_object_or_404(ScenarioVersion, permalink=permalink)
    return render(request, "version.html", {"version": version, "embed": True})


@require_POST
@rate_limited("create")
def fork_version(request: HttpRequest, permalink: str) -> HttpResponse:
    version = get_object_or_404(ScenarioVersion, permalink=permalink)
    scenario, secret = fork(version)
    _remember_editor(request, scenario, secret)
    return redirect("scenario", slug=scenario.slug)


@require_POST
@rate_limited("create")
def fork_scenario(request: HttpRequest, slug: str) -> HttpResponse:
    scenario = get_object_or_404(Scenario, slug=slug)
    forked, secret = fork(snapshot(scenario))
    _remember_editor(request, forked, secret)
    return redirect("scenario", slug=forked.slug)


def export_yaml(request: HttpRequest, slug: str) -> HttpResponse:
    scenario = get_object_or_404(Scenario, slug=slug)
    response = HttpResponse(export_document(scenario), content_type="application/yaml; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{scenario.slug}.yaml"'
    return response


@require_POST
@rate_limited("validate")
def validate(request: HttpRequest) -> JsonResponse:
    text = request.POST.get("yaml", "")
    problems = validate_workload(text)
    return JsonResponse({"ok": not problems, "problems": [p.as_dict() for p in problems]})


# ---------------------------------------------------------------------------- board edits


@editing
def add_node(request: HttpRequest, scenario: Scenario, version: int) -> Scenario:
    return board.add_node(scenario, version, request.POST.get("name", ""))


@editing
def add_nodes_from_template(request: HttpRequest, scenario: Scenario, version: int) -> Scenario:
    zones = [zone.strip() for zone in request.POST.get("zones", "").split(",") if zone.strip()]
    capacity = {name: request.POST.get(name, DEFAULT_CAPACITY[name]) for name in ("cpu", "memory", "pods")}
    return board.add_nodes_from_template(
        scenario,
        version,
        zones,
        _int(request.POST.get("per_zone"), 1),
        capacity,
        request.POST.get("prefix", "node") or "node",
    )


@editing
def node_action(request: HttpRequest, scenario: Scenario, version: int, node_id: int, action: str) -> Scenario:
    post = request.POST
    if action == "clone":
        return board.clone_node(scenario, version, node_id)
    if action == "delete":
        return board.delete_node(scenario, version, node_id)
    if action == "rename":
        return board.rename_node(scenario, version, node_id, post.get("name", ""))
    if action == "capacity":
        capacity = {name: post.get(name, "") for name in ("cpu", "memory", "pods") if name in post}
        if post.get("extended_name"):
            capacity[post["extended_name"].strip()] = post.get("extended_value", "")
        return board.set_capacity(scenario, version, node_id, capacity)
    if action in ("cordon", "uncordon"):
        return board.set_unschedulable(scenario, version, node_id, action == "cordon")
    if action == "label":
        return board.set_label(
            scenario, version, node_id, post.get("key", ""), post.get("value", ""), post.get("old_key", "")
        )
    if action == "unlabel":
        return board.remove_label(scenario, version, node_id, post.get("key", ""))
    if action == "taint":
        old = {"key": post.get("old_key", ""), "effect": post.get("old_effect", "")} if post.get("old_key") else None
        taint = {"key": post.get("key", ""), "value": post.get("value", ""), "effect": post.get("effect", "")}
        return board.set_taint(scenario, version, node_id, taint, old)
    if action == "untaint":
        return board.remove_taint(scenario, version, node_id, post.get("key", ""), post.get("effect", ""))
    raise InvalidEdit(f"unknown action {action[:40]!r}")


@editing
def import_cluster(request: HttpRequest, scenario: Scenario, version: int) -> Scenario:
    imported = importing.import_cluster(request.POST.get("nodes_yaml", ""), request.POST.get("pods_yaml", ""))
    workload = imported.workload_yaml if request.POST.get("pods_yaml", "").strip() else None
    return board.replace_cluster(scenario, version, imported.nodes, workload)


@editing
def save_workload(request: HttpRequest, scenario: Scenario, version: int) -> Scenario:
    return board.set_workload(scenario, version, request.POST.get("workload", ""))


@editing
def save_details(request: HttpRequest, scenario: Scenario, version: int) -> Scenario:
    return board.set_details(scenario, version, request.POST.get("title", ""), request.POST.get("description", ""))


# ---------------------------------------------------------------------------- runs


@require_POST
@rate_limited("run")
def start_run(request: HttpRequest, slug: str) -> HttpResponse:
    """Anyone with the link may run a scenario (running changes nothing); viewers all see the run."""
    scenario = get_object_or_404(Scenario, slug=slug)
    seed = _int(request.POST.get("seed"), 0)
    run = runs.start_run(scenario, seed=max(0, min(seed, 2**31 - 1)), background=settings.RUNS_IN_BACKGROUND)
    context = {"scenario": scenario, "run": run, "can_edit": bool(editor_secret(request, scenario))}
    return render(request, "scenario.html#run-panel", context | _run_context(scenario), status=201)


@require_POST
@rate_limited("run")
def act(request: HttpRequest, slug: str) -> HttpResponse:
    """An operation at the run's current time: appended to the timeline as an Action, then re-run."""
    scenario = get_object_or_404(Scenario, slug=slug)
    previous = scenario.runs.filter(pk=_int(request.POST.get("run"), 0)).first()
    context: dict[str, Any] = {
        "scenario": scenario,
        "run": previous,
        "can_edit": bool(editor_secret(request, scenario)),
    }
    if not context["can_edit"]:
        context["act_error"] = "Acting changes the scenario: open the edit link, or fork it first."
        return render(request, "scenario.html#run-panel", context | _run_context(scenario), status=403)
    at = request.POST.get("at", "0")
    try:
        document = acting.action_document(
            request.POST.get("op", ""), request.POST.get("target", ""), request.POST.get("value", ""), at
        )
        workload = acting.append_action(scenario.workload_yaml, document)
        updated = board.set_workload(scenario, _int(request.POST.get("version"), -1), workload)
    except StaleEdit:
        context["act_error"] = "Someone changed this scenario meanwhile: reload to act on the current version."
        return render(request, "scenario.html#run-panel", context | _run_context(scenario), status=409)
    except InvalidEdit as problem:
        context["act_error"] = str(problem)
        return render(request, "scenario.html#run-panel", context | _run_context(scenario), status=422)
    notify_scenario_changed(updated.slug, updated.version)
    seed = previous.seed if previous else 0
    run = runs.start_run(updated, seed=seed, background=settings.RUNS_IN_BACKGROUND)
    context = {"scenario": updated, "run": run, "start_at": at, "can_edit": True} | _run_context(updated)
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


def _run_context(scenario: Scenario) -> dict[str, Any]:
    from playground.traffic import traffic_kinds

    document = snapshot(scenario).cluster_document
    return {
        "act_ops": list(acting.OPS.items()),
        "act_targets": acting.targets(document),
        "traffic_kinds": traffic_kinds(document),  # the run panel's Traffic section, if any
    }


@rate_limited("inspect")
def explain_pod(request: HttpRequest, slug: str, run_id: int) -> HttpResponse:
    """The engine's explanation of one pod at one event of a run, as a panel."""
    scenario = get_object_or_404(Scenario, slug=slug)
    run = get_object_or_404(scenario.runs.select_related("version"), pk=run_id)
    pod_key = request.GET.get("pod", "")[:300]
    seq = max(1, _int(request.GET.get("seq"), 1))
    try:
        explanation = runs.explain_at(run, pod_key, seq)
    except ManifestError as error:
        return render(request, "explain.html", {"error": error.message, "pod_key": pod_key}, status=404)
    plugins = [name for name in explanation.weights if any(name in node.scores for node in explanation.nodes)]
    asked_node = request.GET.get("node", "")[:253]
    context = {
        "explanation": explanation,
        "plugins": plugins,
        "pod_key": pod_key,
        "seq": seq,
        "why": why_not(explanation, asked_node) if asked_node else None,  # "why not this node?"
        "why_url": f"{request.path}?{urlencode({'pod': pod_key, 'seq': seq})}",
    }
    return render(request, "explain.html", context)


# ---------------------------------------------------------------------------- health


@never_cache
async def healthz(request: HttpRequest) -> JsonResponse:
    problems = await health.check_all()
    healthy = not any(problems.values())
    body = {
        "status": "ok" if healthy else "unavailable",
        "checks": {name: (problem or "ok") for name, problem in problems.items()},
    }
    return JsonResponse(body, status=200 if healthy else 503)


@never_cache
async def status_badge(request: HttpRequest) -> HttpResponse:
    """The footer's service status, as an htmx fragment."""
    problems = await health.check_all()
    return render(request, "index.html#status-badge", {"problems": problems})


# ---------------------------------------------------------------------------- compare


@never_cache
def compare_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Two runs side by side with the diff of their placements and balance. Side A: a stored run
    (?a=) or the current version under its own configuration; side B: a stored run (?b=) or the
    current version under a preset or pasted configuration (?config=, ?config_yaml=). Anyone with
    the view link may compare: it changes nothing."""
    scenario = get_object_or_404(Scenario, slug=slug)
    version = snapshot(scenario)
    run_a = _run_of(scenario, request.GET.get("a"))
    run_b = _run_of(scenario, request.GET.get("b"))
    preset = request.GET.get("config", "")
    if preset not in compare.PRESETS:
        preset = compare.DEFAULT_PRESET
    config_yaml = request.GET.get("config_yaml", "")
    # Side B runs with side A's seed, so that only the configuration or the version differs.
    seed = run_a.seed if run_a else max(0, min(_int(request.GET.get("seed"), 0), 2**31 - 1))
    context: dict[str, Any] = {
        "scenario": scenario,
        "version": version,
        "runs": scenario.runs.select_related("version").order_by("-pk")[:50],
        "run_a": run_a,
        "run_b": run_b,
        "preset": preset,
        "presets": compare.PRESETS,
        "config_yaml": config_yaml or compare.BIN_PACKING_YAML,
        "seed": seed,
    }
    status = 200
    if run_b is not None or "config" in request.GET:  # the form was sent (or a link names both runs)
        if getattr(settings, "RATE_LIMITS_ENABLED", True):
            wait = ratelimit.take("run", ratelimit.client_key(request))
            if wait:
                return ratelimit.too_many_requests(request, "run", wait)
        current = f"v{scenario.version} (current)"  # the board's number, even when the content is an older one's
        side_a = compare.run_side(run_a) if run_a else compare.version_side(version, "scenario", "", seed, current)
        side_b = (
            compare.run_side(run_b) if run_b else compare.version_side(version, preset, config_yaml, seed, current)
        )
        a, b = compare.simulate_side(side_a), compare.simulate_side(side_b)
        comparison = compare.compare_sides(a, b)
        context |= compare.result_context(a, b, comparison)
        if comparison is None:
            status = 422
    if request.htmx:
        return render(request, "compare.html#compare-result", context, status=status)
    return render(request, "compare.html", context, status=status)


def _run_of(scenario: Scenario, run_id: str | None) -> Any:
    """The scenario's run with this id, None when none is asked for; a run of another scenario is
    not found (404), as if it did not exist."""
    if not run_id:
        return None
    return get_object_or_404(scenario.runs.select_related("version"), pk=_int(run_id, -1))


# ---------------------------------------------------------------------------- traffic


@rate_limited("inspect")
def run_traffic(request: HttpRequest, slug: str, run_id: int) -> HttpResponse:
    """How requests to the Services and Ingresses split at one event of a run, as a panel:
    ?seq=N (the player's position), optional requests, and host, path, header for an own request."""
    from playground import traffic
    from scheduler_core.cluster import SimulationLimitError

    scenario = get_object_or_404(Scenario, slug=slug)
    run = get_object_or_404(scenario.runs.select_related("version"), pk=run_id)
    try:
        query = traffic.parse_query(request.GET)
    except traffic.TrafficQueryError as error:
        return render(request, "traffic.html", {"error": str(error)}, status=400)
    try:
        view = traffic.traffic_at(run, query)
    except ManifestError as error:
        return render(request, "traffic.html", {"error": error.message}, status=422)
    except SimulationLimitError as error:
        return render(request, "traffic.html", {"error": str(error)}, status=422)
    return render(request, "traffic.html", {"traffic": view})
