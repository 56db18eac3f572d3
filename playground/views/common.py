"""What every view module uses: who holds a scenario's edit rights, the node board's context, and
the gate every edit goes through (the editor's secret, then the version the form was made at)."""

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from playground import board_cards, preview_keys
from playground.board_dots import dots_document, drawn_on_canvas
from playground.broadcast import notify_scenario_changed
from playground.forms import BoardQueryForm, EditVersionForm, WorkloadEditForm
from playground.models import Scenario, ScenarioVersion
from playground.node_loading import load_nodes
from playground.preview import SANDBOX_BYTES, WAIT_SECONDS, Preview, cached_by_key, preview_by_key
from playground.ratelimit import rate_limited
from playground.scenarios import (
    DEFAULT_CAPACITY,
    InvalidEdit,
    StaleEdit,
    snapshot,
    stored_text_length,
)

SESSION_PREFIX = "edit:"
CREATED_PREFIX = "created:"
MAX_EDIT_RIGHTS = 1000  # per browser session; beyond it the oldest go (the edit link brings them back)
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


def editor_secret(request: HttpRequest, scenario: Scenario) -> str:
    secret = request.session.get(SESSION_PREFIX + scenario.slug, "")
    return secret if isinstance(secret, str) and scenario.check_edit_secret(secret) else ""


def remember_editor(request: HttpRequest, scenario: Scenario, secret: str) -> None:
    """Edit rights in this browser's (server-side) session, the most recent last. The session keeps
    the MAX_EDIT_RIGHTS most recent; the edit link grants them again anywhere."""
    key = SESSION_PREFIX + scenario.slug
    request.session.pop(key, None)
    request.session[key] = secret
    held = [name for name in request.session.keys() if name.startswith(SESSION_PREFIX)]  # noqa: SIM118 (no __iter__)
    for name in held[: max(0, len(held) - MAX_EDIT_RIGHTS)]:
        del request.session[name]


def remember_creator(request: HttpRequest, scenario: Scenario, secret: str) -> None:
    """Edit rights for whoever made the scenario, and a one-time reminder to keep its edit link."""
    remember_editor(request, scenario, secret)
    request.session[CREATED_PREFIX + scenario.slug] = True


def just_created(request: HttpRequest, scenario: Scenario) -> bool:
    """True once, on the creator's first view of a new scenario."""
    return bool(request.session.pop(CREATED_PREFIX + scenario.slug, False))


def editable_slugs(request: HttpRequest) -> list[str]:
    """The scenarios this browser holds edit rights to, most recently claimed first."""
    keys = request.session.keys()  # a session has no __iter__
    held = [name[len(SESSION_PREFIX) :] for name in keys if name.startswith(SESSION_PREFIX)]
    return held[::-1]


def board_context(
    request: HttpRequest, scenario: Scenario, message: str = "", error: str = "", *, only_node: str | None = None
) -> dict[str, Any]:
    """The board's context; with `only_node`, the cards of that node alone (a tile or dot opened:
    one card, not 5,000 of them)."""
    nodes = scenario.edited_nodes if scenario.edited_nodes is not None else load_nodes(scenario.pk)
    # Content-addressed: the same content is the same version (an edit's answer has it already).
    version = scenario.edited_version or snapshot(scenario, nodes=nodes)
    # Computed off the request, single-flight; not ready yet, the board shows "Placing pods…".
    placement, updating = _placement(scenario, version)
    asked = BoardQueryForm.of(request)
    view = asked.view
    density = view if view != "auto" else board_cards.auto_density(len(nodes))
    keys = board_cards.groupable_keys(nodes)
    group_by = board_cards.group_key(asked.group, keys, density)
    then_by = asked.then
    query = asked.query
    cards = [board_cards.card(node, placement) for node in nodes if only_node is None or node.name == only_node]
    if query and view == "table":
        cards = [card for card in cards if board_cards.matches(card["node"], query)]
    grouped_by = {key for key in (group_by, then_by if group_by else "") if key}
    for card in cards:  # the grouping labels are shown by the group, not on every card
        card["labels"] = [(key, value) for key, value in card["node"].labels.items() if key not in grouped_by]
    groups = board_cards.group(cards, group_by, then_by if group_by else "")
    on_canvas = drawn_on_canvas(density, len(nodes))
    return {
        "scenario": scenario,
        "version": version,
        "can_edit": bool(editor_secret(request, scenario)),
        "cards": cards,
        "groups": groups,
        "dots": dots_document(groups) if on_canvas else None,  # a big cluster's dots: one canvas
        "then_by": then_by,
        "group_by": group_by,
        "view": view,
        "density": density,
        "query": query,
        "node_count": len(nodes),
        "topology_keys": keys,
        "placement": placement,
        "updating": updating,
        "poll_seconds": board_cards.poll_seconds(len(nodes), placement.queue_full),
        "message": message,
        "error": error,
        # Every board an htmx request swaps in carries the title out of band: a rename's own answer
        # can be dropped when a live refresh replaced the board first (htmx 4 drops an answer whose
        # target is gone), and other tabs learn of a rename only from their next board.
        "title_out_of_band": bool(getattr(request, "htmx", False)),
        # An imported cluster's workload (megabytes) is not sent with every board and page: the
        # editor fetches it (views.editing.workload_text) when the page opens and when it changed.
        "workload_inline": workload_inline(scenario),
        "workload_size": workload_size(scenario),
    }


def workload_inline(scenario: Scenario) -> bool:
    """Whether a workload travels inside the page and the board: up to what a person types
    (MAX_WORKLOAD_BYTES), not an imported cluster's pods, which are stored apart (models.StoredText)."""
    return scenario.workload_text_id is None


def workload_size(scenario: Scenario) -> int:
    """The workload's length, without reading a workload stored apart (25 MiB at 50,000 pods)."""
    if scenario.workload_text_id is None:
        return len(scenario.stored_workload)
    return stored_text_length(scenario.workload_text_id)


QUICK_WAIT_SECONDS = 0.1  # what an edit waits for its preview when the one before it is there


def _placement(scenario: Scenario, version: ScenarioVersion) -> tuple[Preview, bool]:
    """The version's preview, or, while it is computed, the one of the version before it (an edit
    to 500 nodes re-simulates for seconds): (the preview shown, whether it is the earlier one).
    Documents are looked up by their keys (playground/preview_keys.py), read only to be computed."""
    current = preview_keys.of_version(version)

    def document() -> str:
        return version.cluster_document

    # A big cluster's preview takes seconds: waiting a tenth for it only delays the earlier one.
    big = current.length > SANDBOX_BYTES
    placement = preview_by_key(current.key, document, wait=0 if big else QUICK_WAIT_SECONDS)
    if placement.ready:
        return placement, False
    shown = _earlier_placement(scenario, version)
    if shown is not None and shown.ready and not shown.error and not shown.stopped:
        return shown, True
    if big:  # a big cluster's preview takes seconds: the board polls for it
        return preview_by_key(current.key, document, wait=0), False
    return preview_by_key(current.key, document, wait=WAIT_SECONDS - QUICK_WAIT_SECONDS), False


def _earlier_placement(scenario: Scenario, version: ScenarioVersion) -> Preview | None:
    """The computed preview of the scenario's version saved before `version`, if any."""
    earlier = (
        ScenarioVersion.objects.filter(scenario=scenario)
        .exclude(pk=version.pk)
        .order_by("-pk")
        .values_list("pk", "permalink")
        .first()
    )
    if earlier is None:
        return None
    key = preview_keys.known(*earlier)
    if key is None:  # not seen by this process (a restart): its document is read once
        found = ScenarioVersion.objects.only(
            "permalink", "stored_document", "scheduler_config_yaml", "workload_text"
        ).get(pk=earlier[0])
        key = preview_keys.of_version(found)
    return cached_by_key(key.key)


def board_response(
    request: HttpRequest, scenario: Scenario, *, message: str = "", error: str = "", status: int = 200
) -> HttpResponse:
    context = board_context(request, scenario, message, error)
    if request.htmx:
        return render(request, "scenario.html#board", context, status=status)
    context |= page_context(request, scenario)
    unsaved = WorkloadEditForm.text_of(request) if status >= 400 else ""
    if unsaved:
        # A plain form post (no JavaScript) whose text was refused: the page shows the saved text in
        # the editor, and the person's own text beside it, so nothing typed is lost.
        context["unsaved_workload"] = unsaved
    return render(request, "scenario.html", context, status=status)


def palette_context(scenario: Scenario) -> dict[str, Any]:
    """The palette: the common labels and taints, then the scenario's own chips."""
    return {
        "scenario": scenario,
        "common_labels": COMMON_LABELS,
        "common_taints": COMMON_TAINTS,
        "own_labels": [chip for chip in scenario.palette if chip.get("kind") == "label"],
        "own_taints": [chip for chip in scenario.palette if chip.get("kind") == "taint"],
    }


def page_context(request: HttpRequest, scenario: Scenario) -> dict[str, Any]:
    secret = editor_secret(request, scenario)
    return palette_context(scenario) | {
        # The key goes in the fragment: a browser sends it to no server, log or Referer (claim_edit).
        "edit_url": request.build_absolute_uri(reverse("claim-edit", args=[scenario.slug])) + "#" + secret
        if secret
        else "",
        "live_url": request.build_absolute_uri(reverse("scenario", args=[scenario.slug])),
        "default_capacity": DEFAULT_CAPACITY,
        "validate_url": reverse("validate") + "?scenario=" + scenario.slug,
    }


EditView = Callable[[HttpRequest, Scenario, int], Scenario]


def editing(view: EditView) -> Callable[..., HttpResponseBase]:
    """POST-only edits by the scenario's editor, against the version the form was rendered at."""

    @wraps(view)
    @require_POST
    @rate_limited("edit")
    def wrapper(request: HttpRequest, slug: str, **kwargs: Any) -> HttpResponseBase:
        scenario = get_object_or_404(Scenario, slug=slug)
        if not editor_secret(request, scenario):
            return board_response(
                request,
                scenario,
                error="This is a view link: open the edit link, or fork the scenario to change it.",
                status=403,
            )
        expected = EditVersionForm.of(request)
        try:
            updated = view(request, scenario, expected, **kwargs)
        except StaleEdit as stale:
            scenario.refresh_from_db()
            return board_response(
                request,
                scenario,
                error=f"Someone changed this scenario meanwhile (now version {stale.current})."
                " Your edit was not applied: here is the current state.",
                status=409,
            )
        except InvalidEdit as problem:
            scenario.refresh_from_db()
            return board_response(request, scenario, error=str(problem), status=422)
        notify_scenario_changed(updated.slug, updated.version)
        if not request.htmx:
            return redirect("scenario", slug=updated.slug)
        return board_response(request, updated)

    return wrapper
