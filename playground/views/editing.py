"""Board and workload edits: each is one `editing` view, a form post against a version."""

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from playground import board, import_progress, importing, palette
from playground.forms import (
    DetailsForm,
    ImportForm,
    NodeEditForm,
    NodeTemplateForm,
    PaletteChipForm,
    WorkloadEditForm,
)
from playground.gc_pause import collector_paused
from playground.models import Scenario
from playground.ratelimit import rate_limited
from playground.scenarios import (
    InvalidEdit,
    StaleEdit,
)
from playground.views.common import editing, editor_secret, palette_context
from playground.workload_patch import PatchRefused


@editing
def add_node(request: HttpRequest, scenario: Scenario, version: int) -> Scenario:
    return board.add_node(scenario, version, NodeEditForm.of(request)["name"])


@editing
def add_nodes_from_template(request: HttpRequest, scenario: Scenario, version: int) -> Scenario:
    asked = NodeTemplateForm.of(request)
    return board.add_nodes_from_template(scenario, version, asked.zones, asked.per_zone, asked.capacity, asked.prefix)


@editing
def node_action(request: HttpRequest, scenario: Scenario, version: int, node_id: int, action: str) -> Scenario:
    if action == "clone":
        return board.clone_node(scenario, version, node_id)
    if action == "delete":
        return board.delete_node(scenario, version, node_id)
    if action in ("cordon", "uncordon"):
        return board.set_unschedulable(scenario, version, node_id, action == "cordon")
    edit = NodeEditForm.of(request)
    if action == "rename":
        return board.rename_node(scenario, version, node_id, edit["name"])
    if action == "capacity":
        return board.set_capacity(scenario, version, node_id, edit.capacity())
    if action == "label":
        return board.set_label(scenario, version, node_id, edit["key"], edit["value"], edit["old_key"])
    if action == "unlabel":
        return board.remove_label(scenario, version, node_id, edit["key"])
    if action == "taint":
        return board.set_taint(scenario, version, node_id, edit.taint(), edit.old_taint())
    if action == "untaint":
        return board.remove_taint(scenario, version, node_id, edit["key"], edit["effect"])
    raise InvalidEdit(f"unknown action {action[:40]!r}")


@editing
def import_cluster(request: HttpRequest, scenario: Scenario, version: int) -> Scenario:
    """kubectl's output pasted (nodes_yaml, pods_yaml) or uploaded (nodes_file, pods_file; gzip or
    not): a file wins over its textarea. A refused import leaves the board as it was."""
    max_text, max_upload = importing.import_limits()
    token = import_progress.valid_token(request.META.get(import_progress.TOKEN_META_KEY))
    import_progress.report(token, "sending", 1.0)
    try:
        asked = ImportForm.of(request, max_upload)
        nodes_source, pods_source = (
            side if isinstance(side, str) else importing.read_upload(side.file, what, max_text, size=side.size)
            for what, side in (("nodes", asked.nodes), ("pods", asked.pods))
        )
        has_pods = not isinstance(pods_source, str) or bool(pods_source.strip())
        with collector_paused():  # a million short-lived dicts at 50,000 pods: 2.6 s of full collections
            imported = importing.import_cluster(
                nodes_source,
                pods_source,
                max_bytes=max_text,
                progress=lambda what: import_progress.reporter(token, what),
            )
        import_progress.report(token, "saving", 0.0)
        # Pods from either field (`kubectl get nodes,pods -A` is one file) replace the workload.
        workload = imported.workload_yaml if has_pods or imported.pods_read else None
        return board.replace_cluster(scenario, version, imported.nodes, workload)
    finally:
        import_progress.forget(token)


@never_cache
@require_GET
def import_progress_view(request: HttpRequest, slug: str, token: str) -> JsonResponse:
    """How far the import named `token` has come ({"phase": null} once it is over, or unknown
    here): what the import form's bar shows while it waits (static/js/import-progress.js)."""
    found = import_progress.read(token) if import_progress.valid_token(token) else None
    return JsonResponse(found.as_json() if found else {"phase": None})


@editing
def save_workload(request: HttpRequest, scenario: Scenario, version: int) -> Scenario:
    try:
        sent = WorkloadEditForm.of(request)
        if sent.patch is not None:  # what changed in the saved text (workload_patch.py)
            edited = sent.patch.apply(scenario.workload_yaml, scenario.workload_digest)
            return board.set_workload(scenario, version, edited)
    except PatchRefused:
        # Made against a text that is no longer the saved one: refused as any stale edit is (409 with
        # the current board), and the editor merges and saves again (static/js/workload-versions.js).
        raise StaleEdit(scenario.version) from None
    if sent.text is None:
        # The editor of an imported workload sends no text until it has loaded it (its textarea is
        # disabled until then): a save without the field must not empty the workload.
        raise InvalidEdit("No workload text was sent (the editor had not loaded it yet): nothing was changed.")
    return board.set_workload(scenario, version, sent.text)


@never_cache
@require_GET
@rate_limited("download")
def workload_text(request: HttpRequest, slug: str) -> HttpResponse:
    """The scenario's current workload as it is saved, its version in a header: what the editor
    fetches of a workload too large to travel in every page and board (views.common.workload_inline)."""
    fields = ("slug", "version", "stored_workload", "workload_text")
    scenario = get_object_or_404(Scenario.objects.only(*fields), slug=slug)
    response = HttpResponse(scenario.workload_yaml, content_type="text/plain; charset=utf-8")
    response[WORKLOAD_VERSION_HEADER] = str(scenario.version)
    # What the board's workload-source names it by: the editor fetches it again only when it changed.
    response[WORKLOAD_DIGEST_HEADER] = scenario.workload_digest
    return response


WORKLOAD_VERSION_HEADER = "X-Workload-Version"
WORKLOAD_DIGEST_HEADER = "X-Workload-Digest"


@editing
def save_details(request: HttpRequest, scenario: Scenario, version: int) -> Scenario:
    return board.set_details(scenario, version, *DetailsForm.of(request))


@require_POST
@rate_limited("palette")
def edit_palette(request: HttpRequest, slug: str) -> HttpResponse:
    """Adds a chip to the scenario's own palette, or removes one (op=add|remove)."""
    scenario = get_object_or_404(Scenario, slug=slug)
    error, status = "", 200
    if not editor_secret(request, scenario):
        error, status = "This is a view link: open the edit link, or fork the scenario to change its palette.", 403
    else:
        asked = PaletteChipForm.of(request)
        try:
            chip = palette.chip(asked.kind, asked.key, asked.value, asked.effect)
            change = palette.remove_chip if asked.op == "remove" else palette.add_chip
            scenario = change(scenario, chip)
        except InvalidEdit as problem:
            error, status = str(problem), 422
    if not request.htmx:
        return redirect("scenario", slug=scenario.slug)
    return render(request, "scenario.html#palette", palette_context(scenario) | {"palette_error": error}, status=status)
