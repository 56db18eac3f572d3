"""Pages: the gallery, a scenario (with the run it was showing), versions, forks, exports, and the
editor's validation as you type."""

from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.views.decorators.cache import never_cache
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.csp import csp_override
from django.views.decorators.http import require_POST

from playground import node_describe, runs
from playground.forms import (
    ClaimEditForm,
    ExportForm,
    NodeQueryForm,
    RunChoiceForm,
    ScenarioQueryForm,
    WorkloadEditForm,
)
from playground.kubeapi.kubeconfig import kubeconfig
from playground.kubeapi.tokens import Access
from playground.models import Run, Scenario, ScenarioVersion
from playground.ratelimit import rate_limited
from playground.scenarios import (
    MAX_IMPORT_WORKLOAD_BYTES,
    MAX_WORKLOAD_BYTES,
    create_scenario,
    export_document,
    export_kubernetes,
    export_timeline,
    fork,
    snapshot,
    validate_workload,
)
from playground.views.common import (
    board_context,
    editable_slugs,
    editor_secret,
    just_created,
    page_context,
    remember_creator,
    remember_editor,
)
from playground.views.running import run_context
from playground.workload_changes import validate_changed_documents
from playground.workload_patch import PatchRefused


def index(request: HttpRequest) -> HttpResponse:
    gallery = Scenario.objects.exclude(gallery_key="").order_by("gallery_order")
    return render(request, "index.html", {"scenarios": gallery})


@require_POST
@rate_limited("create")
def new_scenario(request: HttpRequest) -> HttpResponse:
    scenario, secret = create_scenario("Untitled scenario", description="A blank cluster of three workers.")
    remember_creator(request, scenario, secret)
    return redirect("scenario", slug=scenario.slug)


@require_POST
@rate_limited("create")
def use_gallery(request: HttpRequest, key: str) -> HttpResponse:
    original = get_object_or_404(Scenario, gallery_key=key)
    scenario, secret = fork(snapshot(original), title=original.title)
    remember_creator(request, scenario, secret)
    return redirect("scenario", slug=scenario.slug)


@never_cache
def scenario_page(request: HttpRequest, slug: str) -> HttpResponse:
    scenario = get_object_or_404(Scenario, slug=slug)
    context = board_context(request, scenario) | page_context(request, scenario)
    context["just_created"] = just_created(request, scenario)
    run_id = RunChoiceForm.of(request)["run"]
    if run_id:  # a reload mid-run comes back to the same run (the player restores the position)
        run = scenario.runs.select_related("scenario").filter(pk=run_id).first()
        if run is not None and not run.linked:  # opened by its address: retention keeps it
            Run.objects.filter(pk=run.pk).update(linked=True)
        context["run"] = runs.check_interrupted(run) if run else None
        context |= run_context(scenario)
    return render(request, "scenario.html", context)


@never_cache
def board_partial(request: HttpRequest, slug: str) -> HttpResponse:
    scenario = get_object_or_404(Scenario, slug=slug)
    node = NodeQueryForm.of(request)
    context = board_context(request, scenario, only_node=node)
    if node is not None:  # a compact tile opened: that node as a full card, with its controls
        card = next((card for card in context["cards"] if card["node"].name == node), None)
        if card is None:
            raise Http404("no such node")
        # kubectl describe node at the scenario's state; a watched run's replaces it (node-describe.js).
        described = node_describe.in_scenario(card["node"], context["placement"])
        describe = node_describe.context(described, name=node) | {
            "describe_placing": context["updating"] or not context["placement"].ready
        }
        return render(request, "board/node_detail.html", context | describe | {"card": card, "expand": True})
    return render(request, "scenario.html#board", context)


WRONG_EDIT_KEY = (
    "That edit key does not open this scenario: nothing was changed. Check that you copied the whole"
    " edit link, or ask whoever shared the scenario for it."
)
MAX_EDIT_KEY_CHARACTERS = 200  # keys are 32 characters; a pasted link is longer, a novel is not a key


def _private(response: HttpResponseBase, referrer_policy: str = "no-referrer") -> HttpResponseBase:
    """Stored by no browser or proxy, and its address sent to no other site."""
    add_never_cache_headers(response)
    response["Referrer-Policy"] = referrer_policy
    return response


def _edit_key(pasted: str) -> str:
    """The key from what was posted or pasted: the key, or a whole edit link (new or old form)."""
    key = pasted.strip()[:MAX_EDIT_KEY_CHARACTERS]
    for marker in ("#", "/edit/"):
        if marker in key:
            key = key.rsplit(marker, 1)[1]
    return key.strip("/ ")


@rate_limited("claim")  # a wrong key is a guess: guesses are slowed down like any other costly request
def _claim(request: HttpRequest, scenario: Scenario, key: str) -> HttpResponse:
    if not scenario.check_edit_secret(key):
        return render(request, "claim_edit.html", {"scenario": scenario, "error": WRONG_EDIT_KEY}, status=403)
    remember_editor(request, scenario, key)
    response = HttpResponseRedirect(reverse("scenario", args=[scenario.slug]))
    response.status_code = 303  # See Other: the scenario, fetched with GET
    return response


def claim_edit(request: HttpRequest, slug: str) -> HttpResponseBase:
    """The edit link, /s/<slug>/edit#<key>. Its key is in the fragment, which a browser never sends
    to a server (nor into a log or a Referer): GET renders a page whose script posts the fragment
    (with a field to paste the key into, without script); POST claims the edit rights."""
    scenario = get_object_or_404(Scenario, slug=slug)
    if request.method == "POST":
        return _private(_claim(request, scenario, _edit_key(ClaimEditForm.of(request))))
    # same-origin, not no-referrer: a form posted from a no-referrer page carries "Origin: null",
    # which Django's CSRF check refuses. This page's address holds no key, so it reveals nothing.
    return _private(render(request, "claim_edit.html", {"scenario": scenario}), "same-origin")


def claim_edit_link(request: HttpRequest, slug: str, secret: str) -> HttpResponseBase:
    """Edit links of the old form, /s/<slug>/edit/<key>: they still grant editing, and move on at once
    to an address without the key (the server's logs never hold it: playground/redaction.py)."""
    scenario = get_object_or_404(Scenario, slug=slug)
    return _private(_claim(request, scenario, _edit_key(secret)))


def version_page(request: HttpRequest, permalink: str) -> HttpResponse:
    """A version shows its own content only; the live scenario (which may have moved on privately)
    is linked for its editor alone."""
    version = get_object_or_404(ScenarioVersion.objects.select_related("scenario"), permalink=permalink)
    live_url = reverse("scenario", args=[version.scenario.slug]) if editor_secret(request, version.scenario) else ""
    context = {"version": version, "embed": False, "live_url": live_url} | _workload_shown(version)
    return render(request, "version.html", context)


VERSION_PAGE_LINES = 200  # of an imported workload (50,000 lines), the page shows these; a link gives all


def _workload_shown(version: ScenarioVersion) -> dict[str, Any]:
    """The version's workload as its page shows it: whole, or an imported one's first lines."""
    text = version.workload_yaml
    if len(text) <= MAX_WORKLOAD_BYTES:
        return {"workload_shown": text, "workload_lines": 0}
    lines = text.splitlines(keepends=True)
    return {
        "workload_shown": "".join(lines[:VERSION_PAGE_LINES]),
        "workload_first": VERSION_PAGE_LINES,
        "workload_lines": len(lines),
    }


@never_cache
@rate_limited("download")
def version_workload(request: HttpRequest, permalink: str) -> HttpResponse:
    """A version's whole workload, as it was saved (what its page shows the start of)."""
    version = get_object_or_404(ScenarioVersion, permalink=permalink)
    return HttpResponse(version.workload_yaml, content_type="text/plain; charset=utf-8")


# The embed view is made to be framed by any site: the one page without frame-ancestors 'none'.
EMBED_CSP = {**settings.SECURE_CSP, "frame-ancestors": ["*"]}


@xframe_options_exempt
@csp_override(EMBED_CSP)
def embed(request: HttpRequest, permalink: str) -> HttpResponse:
    version = get_object_or_404(ScenarioVersion, permalink=permalink)
    return render(request, "version.html", {"version": version, "embed": True} | _workload_shown(version))


@require_POST
@rate_limited("create")
def fork_version(request: HttpRequest, permalink: str) -> HttpResponse:
    version = get_object_or_404(ScenarioVersion, permalink=permalink)
    scenario, secret = fork(version)
    remember_creator(request, scenario, secret)
    return redirect("scenario", slug=scenario.slug)


@require_POST
@rate_limited("create")
def fork_scenario(request: HttpRequest, slug: str) -> HttpResponse:
    """A copy of one's own of the current version; with `workload`, the copy holds that text instead
    (the editor's "save mine as a fork" when its edit overlaps a version saved elsewhere)."""
    scenario = get_object_or_404(Scenario, slug=slug)
    workload = WorkloadEditForm.whole_text(request)
    if workload is not None:
        if scenario.workload_imported:  # an imported one: its bound, its edit
            problems = validate_changed_documents(
                scenario.workload_yaml, workload, MAX_IMPORT_WORKLOAD_BYTES, scenario.workload_digest
            )
        else:
            problems = validate_workload(workload)
        if problems:
            first = problems[0]
            where = f"line {first.line}: " if first.line else ""
            return HttpResponse(
                f"Not forked: the text does not validate ({where}{first.message}). Go back: your text is kept"
                " as a draft in this browser.",
                status=422,
                content_type="text/plain; charset=utf-8",
            )
    forked, secret = fork(snapshot(scenario), workload_yaml=workload)
    remember_creator(request, forked, secret)
    return redirect("scenario", slug=forked.slug)


def export_yaml(request: HttpRequest, slug: str) -> HttpResponse:
    """What `kubectl apply -f` takes (the nodes and the workload's Kubernetes objects); with
    ?part=timeline the playground's own documents (the timeline's Actions, the scheduler
    configuration); with ?part=all the whole scenario as one file, as a version stores it."""
    scenario = get_object_or_404(Scenario, slug=slug)
    part = ExportForm.of(request)
    if part == "timeline":
        body, name = export_timeline(scenario), f"{scenario.slug}.playground.yaml"
    elif part == "all":
        body, name = export_document(scenario), f"{scenario.slug}.scenario.yaml"
    else:
        body, name = export_kubernetes(scenario), f"{scenario.slug}.yaml"
    response = HttpResponse(body, content_type="application/yaml; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def kubeconfig_file(request: HttpRequest, slug: str) -> HttpResponse:
    """A kubeconfig for the scenario's API: an edit token for someone with edit rights here (unless
    ?access=view), a view token for anyone else (scripts: `curl .../kubeconfig > kubeconfig`)."""
    scenario = get_object_or_404(Scenario, slug=slug)
    can_edit = bool(editor_secret(request, scenario)) and request.GET.get("access") != "view"
    access = Access.EDIT if can_edit else Access.VIEW
    response = HttpResponse(kubeconfig(request, scenario, access), content_type="application/yaml; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="kubeconfig-{scenario.slug}.yaml"'
    response["Cache-Control"] = "no-store"  # it holds a token
    return response


@require_POST
@rate_limited("validate")
def validate(request: HttpRequest) -> JsonResponse:
    # The editor of a scenario whose workload an import made bigger than a typed one may be is
    # checked against the import's bound, as its save is (board.set_workload).
    found = Scenario.objects.filter(slug=ScenarioQueryForm.of(request))
    scenario = found.only("stored_workload", "workload_text").first()
    try:
        # Line breaks come as LF, as saved: compared as sent (CRLF), every line of an imported
        # workload would differ from it.
        sent = WorkloadEditForm.of(request, text_field="yaml")
        text = sent.text or ""
        if sent.patch is not None:  # what changed in the saved text (workload_patch.py)
            if scenario is None:
                raise PatchRefused("no scenario was named")
            text = sent.patch.apply(scenario.workload_yaml, scenario.workload_digest)
    except PatchRefused as refused:
        return JsonResponse({"ok": None, "resend": True, "reason": str(refused)}, status=409)
    if scenario is not None and scenario.workload_imported:
        # Its saved text was checked: what differs from it is (a second, not twenty, at 50,000 pods).
        problems = validate_changed_documents(
            scenario.workload_yaml, text, MAX_IMPORT_WORKLOAD_BYTES, scenario.workload_digest
        )
    else:
        problems = validate_workload(text, MAX_WORKLOAD_BYTES)
    return JsonResponse({"ok": not problems, "problems": [p.as_dict() for p in problems]})


@never_cache
def my_scenarios(request: HttpRequest) -> HttpResponse:
    """The scenarios this browser may edit, most recently created or claimed first."""
    slugs = editable_slugs(request)
    found = {scenario.slug: scenario for scenario in Scenario.objects.filter(slug__in=slugs)}
    mine = [found[slug] for slug in slugs if slug in found and editor_secret(request, found[slug])]
    return render(request, "mine.html", {"scenarios": mine})
