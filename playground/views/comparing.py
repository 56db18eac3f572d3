"""Compare: two runs, or a run and the current version under another scheduler configuration."""

from dataclasses import replace
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.cache import never_cache

from playground import compare, offloaded, ratelimit, run_replay
from playground.forms import CompareForm, RunChoiceForm
from playground.models import Scenario
from playground.scenarios import snapshot


@never_cache
def compare_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Two runs side by side with the diff of their placements and balance. Side A: a stored run
    (?a=) or the current version under its own configuration; side B: a stored run (?b=) or the
    current version under a preset or pasted configuration (?config=, ?config_yaml=). Anyone with
    the view link may compare: it changes nothing."""
    scenario = get_object_or_404(Scenario, slug=slug)
    version = snapshot(scenario)
    runs_asked = RunChoiceForm.of(request)
    run_a = _run_of(scenario, runs_asked["a"])
    run_b = _run_of(scenario, runs_asked["b"])
    asked = CompareForm.of(request)
    preset, config_yaml = asked.preset, asked.config_yaml
    # Side B runs with side A's seed, so that only the configuration or the version differs.
    seed = run_a.seed if run_a else asked.seed
    context: dict[str, Any] = {
        "scenario": scenario,
        "version": version,
        "runs": scenario.runs.with_version().order_by("-pk")[:50],
        "run_a": run_a,
        "run_b": run_b,
        "preset": preset,
        "presets": compare.PRESETS,
        "config_yaml": config_yaml or compare.BIN_PACKING_YAML,
        "seed": seed,
    }
    status = 200
    if run_b is not None or asked.sent:  # the form was sent (or a link names both runs)
        current = f"v{scenario.version} (current)"  # the board's number, even when the content is an older one's
        side_a = compare.run_side(run_a) if run_a else compare.version_side(version, "scenario", "", seed, current)
        side_b = compare.run_side(run_b) if run_b else compare.version_side(version, preset, config_yaml, seed, current)
        off_the_request = compare.simulated_off_the_request(side_a, side_b)
        key = compare.sides_key(side_a, side_b)
        # A poll of a comparison under way (or done), or one told the queue is full, simulates
        # nothing: it costs no run.
        polled = off_the_request and (offloaded.started(key) or not offloaded.has_room())
        if getattr(settings, "RATE_LIMITS_ENABLED", True) and not polled:
            wait = ratelimit.take("run", ratelimit.client_key(request))
            if wait:
                return ratelimit.too_many_requests(request, "run", wait)
        if off_the_request:  # minutes at 50,000 pods: the result polls

            def load_documents() -> None:  # what the worker reads, loaded here (never a poll)
                for side in (side_a, side_b):
                    run_replay.load_documents(side.version)

            found = offloaded.answer(key, lambda: compare.simulate_both(side_a, side_b), prepare=load_documents)
            if isinstance(found, offloaded.Pending):
                context |= {"simulating": found, "poll_url": request.get_full_path()}
                if request.htmx:
                    return render(request, "compare.html#compare-result", context, status=202)
                return render(request, "compare.html", context, status=202)
            # Shared by every request for the same versions, configurations and seed: the titles and
            # links are this request's sides' (a run and the version it ran are the same simulation).
            a, b, comparison = replace(found[0], side=side_a), replace(found[1], side=side_b), found[2]
        else:
            a, b, comparison = compare.simulate_both(side_a, side_b)
        context |= compare.result_context(a, b, comparison)
        if comparison is None:
            status = 422
    if request.htmx:
        return render(request, "compare.html#compare-result", context, status=status)
    return render(request, "compare.html", context, status=status)


def _run_of(scenario: Scenario, run_id: int | None) -> Any:
    """The scenario's run with this id, None when none is asked for; a run of another scenario (or
    an id that is not a number) is not found (404), as if it did not exist."""
    if run_id is None:
        return None
    return get_object_or_404(scenario.runs.select_related("version"), pk=run_id)
