"""The page's kubectl console: a command typed beside the board, read at the player's event, and
(for someone who may edit) a write made a timeline action there, as the Act form makes one; and
the console's tab completion."""

import bisect
import math
import random
from dataclasses import replace
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET, require_POST

from playground import acting, board, ratelimit
from playground.broadcast import notify_scenario_changed
from playground.forms import MAX_CONSOLE_LINE_CHARS, ConsoleForm, ConsoleRequest
from playground.kubeapi import console as web_console
from playground.kubeapi import editing, live
from playground.kubeapi.tokens import USERS, Access
from playground.kubeapi.writing import action_documents
from playground.models import MAX_WORKLOAD_BYTES, Run, Scenario
from playground.ratelimit import rate_limited
from playground.scenarios import InvalidEdit, StaleEdit
from playground.views.common import editor_secret
from playground.views.running import run_context, start_with_panel
from scheduler_core.kubeapi import status
from scheduler_core.kubeapi.objects import ApiSnapshot, snapshot_of
from scheduler_core.kubectl import completion
from scheduler_core.kubectl import console as kubectl
from scheduler_core.kubectl.flags import CommandError, UsageError
from scheduler_core.kubectl.following import followed
from scheduler_core.store.cluster import Cluster

MAX_FILE_BYTES = MAX_WORKLOAD_BYTES  # what `-f` may send: a scenario's whole workload is no bigger
MAX_FOLLOW_FRAMES = 2000  # frames one ask of a following command reads (a big run's rows come in parts)
MAX_COMPLETIONS = 200  # candidates sent for one Tab (a list longer than that is not read)


@require_POST
@rate_limited("console")
def console_command(request: HttpRequest, slug: str) -> HttpResponse:
    """One command's entry for the console's log (with the run panel, out of band, when the command
    started a run or moved the scenario on)."""
    scenario = get_object_or_404(Scenario, slug=slug)
    asked = ConsoleForm.of(request.POST)
    asked = replace(asked, line=asked.line.strip())
    can_edit = bool(editor_secret(request, scenario))
    entry: dict[str, Any] = {"scenario": scenario, "line": asked.line, "asked": asked}
    if len(request.POST.get("line", "")) > MAX_CONSOLE_LINE_CHARS:  # refused whole, never cut short
        entry["stderr"] = f"error: the command is longer than {MAX_CONSOLE_LINE_CHARS:,} characters\n"
        return _entry(request, entry)
    if not asked.line:
        return _entry(request, entry)
    files, too_big = _files(request)
    if too_big:
        entry["stderr"] = too_big
        return _entry(request, entry)
    run, started = _run_of(scenario, asked)
    entry["asked"] = asked = replace(asked, run=run.pk)
    panel = _panel(scenario, run, can_edit) if started else None  # the page shows the run read
    try:
        found = web_console.snapshot_at(run, asked.seq, asked.at)
    except web_console.ConsoleUnavailable as error:
        entry["stderr"] = f"error: run {run.pk} cannot be read: {error}\n"
        return _entry(request, entry, panel)
    if isinstance(found, web_console.Waiting):  # asked again with the same line and file
        sent = {"filename": next(iter(files), ""), "file_text": next(iter(files.values()), "")}
        return _entry(request, entry | {"waiting": found.why} | sent, panel, status=202)
    entry["where"] = _where(found, asked.seq, asked.at)
    user = USERS[Access.EDIT if can_edit else Access.VIEW]
    result = kubectl.run(asked.line, found, may_write=can_edit, user=user, files=files)
    if started and result.watching and not result.actions:
        # A run the console just started plays from its start: a command that follows it starts there.
        first = web_console.snapshot_at(run, 0)
        if not isinstance(first, web_console.Waiting):
            asked = entry["asked"] = replace(asked, seq=0)
            entry["where"] = _where(first, 0, None)
            result = kubectl.run(asked.line, first, may_write=can_edit, user=user, files=files)
    entry |= {"stdout": result.stdout, "stderr": result.stderr, "hint": hint_for(result.stderr)}
    if result.watching:
        entry |= {"watching": True, "watch_from": _frame_read(run, asked.seq, asked.at)}
    if result.edit is not None:
        entry |= editing.opened(scenario, result.edit, can_edit)
    if result.actions:
        entry, panel = _write(request, scenario, run, found, asked, result.actions, entry)
        if result.watching and panel is not None:  # a drain: followed on the run its change made
            entry |= {"watch_run": panel["run"].pk, "watch_from": "", "watch_since": panel["start_at"]}
        elif result.watching:
            entry["watching"] = False
    return _entry(request, entry, panel)


# Where kubectl's own error leaves a learner of the tutorials stuck, a line of the console's own.
HINTS = {
    "invalid taint spec": (
        "Hint: kubectl writes a taint key=value:Effect (the tutorial's key:value:effect is its template), "
        "the Effect one of NoSchedule, PreferNoSchedule, NoExecute: kubectl taint nodes worker1 "
        "isgpu=true:NoSchedule; a trailing - removes it."
    ),
}


def hint_for(stderr: str) -> str:
    return next((hint for needle, hint in HINTS.items() if needle in stderr), "")


def _files(request: HttpRequest) -> tuple[dict[str, str], str]:
    """The file the page sent for `-f NAME` (its text, pasted or read from a chosen file), or why not."""
    name, text = request.POST.get("filename", ""), request.POST.get("file")
    if not name or text is None:
        return {}, ""
    if len(text.encode()) > MAX_FILE_BYTES:
        return {}, f"error: {name} is over {MAX_FILE_BYTES // 1024} KiB: the console takes files up to that size\n"
    return {name: text}, ""


def _run_of(scenario: Scenario, asked: ConsoleRequest) -> tuple[Run, bool]:
    """The page's run; with none (or one deleted since), the newest of the current version, started
    if there is none: (run, whether the page should show it)."""
    if asked.run:
        run = scenario.runs.filter(pk=asked.run).select_related("scenario", "version").first()
        if run is not None:
            return run, False
    return live.serving_run(scenario), True


def _frame_read(run: Run, seq: int | None, at: float | None) -> int:
    """The frame a read was at (what a following command goes on from)."""
    kept = web_console.kept_run(run)
    if kept is None or isinstance(kept, web_console.Waiting):
        return seq or 0
    return web_console.frame_read(kept, seq, at)


def _where(found: ApiSnapshot, seq: int | None, at: float | None) -> str:
    moment = f"{found.now:g}s"
    if seq is not None:
        return f"at event {seq} ({moment})"
    return f"at {at:g}s, the last change's moment" if at is not None else f"at the run's end ({moment})"


def _write(
    request: HttpRequest,
    scenario: Scenario,
    run: Run,
    found: ApiSnapshot,
    asked: ConsoleRequest,
    actions: list[dict[str, Any]],
    entry: dict[str, Any],
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The command's actions appended at the read moment (a new version) and a run of it started;
    the entry says where they went, or why they were not made."""
    if getattr(settings, "RATE_LIMITS_ENABLED", True):
        wait = ratelimit.take("edit", ratelimit.client_key(request)) or ratelimit.take(
            "run", ratelimit.client_key(request)
        )
        if wait:
            why = f"too many changes: try again in {math.ceil(wait)} s (nothing was changed)"
            return entry | {"stdout": "", "stderr": f"Error from server (TooManyRequests): {why}\n"}, None
    at = math.floor(found.now * 1000) / 1000
    version = scenario.version if asked.version is None else asked.version
    try:
        workload = acting.append_action(scenario.workload_yaml, action_documents(actions, at))
        updated = board.set_workload(scenario, version, workload)
    except StaleEdit:
        why = f"the scenario changed meanwhile (it is now v{scenario.version}): reload, then try again"
        return entry | {"stdout": "", "stderr": f"Error from server (Conflict): {why}\n"}, None
    except InvalidEdit as problem:
        why = f"the scenario refused the change: {problem}"
        return entry | {"stdout": "", "stderr": f"Error from server (Invalid): {why}\n"}, None
    notify_scenario_changed(updated.slug, updated.version)
    new_run, panel = start_with_panel(updated, run.seed)
    context = {"scenario": updated, "run": new_run, "start_at": at, "can_edit": True, **panel}
    note = f"On the timeline at {at:g}s: v{updated.version}, and the run goes on from there."
    return entry | {"note": note, "scenario": updated}, context


def _panel(scenario: Scenario, run: Run, can_edit: bool) -> dict[str, Any]:
    return {"scenario": scenario, "run": run, "can_edit": can_edit} | run_context(scenario)


def _entry(
    request: HttpRequest, entry: dict[str, Any], panel: dict[str, Any] | None = None, status: int = 200
) -> HttpResponse:
    """The entry, and the run panel swapped in out of band (run-player.js adopts its run)."""
    html = render_to_string("console_entry.html", entry, request=request)
    if panel is not None:
        html += render_to_string("scenario.html#run-panel", panel | {"panel_out_of_band": True}, request=request)
    return HttpResponse(html, status=status)


@require_GET
@rate_limited("console")
def console_completion(request: HttpRequest, slug: str) -> HttpResponse:
    """The candidates for the word being typed, read at the player's event: {"candidates": [...]}."""
    scenario = get_object_or_404(Scenario, slug=slug)
    asked = ConsoleForm.of(request.GET)
    run = scenario.runs.filter(pk=asked.run).select_related("scenario", "version").first() if asked.run else None
    found = None
    if run is not None:
        try:
            found = web_console.snapshot_at(run, asked.seq, asked.at)
        except web_console.ConsoleUnavailable:
            found = None
    if found is None or isinstance(found, web_console.Waiting):  # commands and flags still complete
        found = snapshot_of(Cluster(lambda: 0.0, random.Random(0)), [], 0, now=0.0)
    candidates = completion.complete(asked.line, found)
    return JsonResponse({"candidates": candidates[:MAX_COMPLETIONS], "more": max(0, len(candidates) - MAX_COMPLETIONS)})


@require_GET
@rate_limited("console")
def console_watch(request: HttpRequest, slug: str) -> HttpResponse:
    """A `get -w`'s rows for the run's frames after `after` up to `seq` (the player's position):
    {"rows": text, "position": the frame read up to} or {"error": text, "end": true}."""
    scenario = get_object_or_404(Scenario, slug=slug)
    asked = ConsoleForm.of(request.GET)
    after = _frame(request.GET.get("after"))
    run = scenario.runs.filter(pk=asked.run).select_related("scenario", "version").first() if asked.run else None
    if run is None or asked.seq is None or (after is None and asked.at is None):
        return JsonResponse({"error": "the run this command followed is gone\n", "end": True})
    try:
        frames = web_console.frames_of(run)
    except web_console.ConsoleUnavailable as error:
        return JsonResponse({"error": f"error: {error}\n", "end": True})
    if isinstance(frames, web_console.Waiting):  # asked again at the next frame
        return JsonResponse({"rows": "", "position": after if after is not None else -1})
    if after is None:  # from a change's moment: the frames before it are not this command's
        after = bisect.bisect_left(frames.times, asked.at)
    upto = min(asked.seq, len(frames.boundaries), after + MAX_FOLLOW_FRAMES)  # the rest at the next ask
    try:
        rows, ended = followed(asked.line.strip(), frames, after, upto) if upto > after else ("", False)
    except (CommandError, UsageError, status.ApiError) as error:
        return JsonResponse({"error": f"{getattr(error, 'message', error)}\n", "end": True})
    return JsonResponse({"rows": rows, "position": max(after, upto), "done": ended})


def _frame(text: str | None) -> int | None:
    try:
        value = int(text or "")
    except ValueError:
        return None
    return value if value >= 0 else None
