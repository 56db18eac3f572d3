"""What the run panel needs to know of a scenario version (the Act form's targets, whether it has
Services or Ingresses), worked out once per version.

Both come from the version's parsed manifests, and parsing is the cost: 0.13 s at 500 nodes, 1.2 s
at 5,000. A page with a run and every Run press needed it twice, beside the run's own parse in a
thread sharing the interpreter lock, which delayed the run's first frame. A version never changes,
so its outline is kept by its id and permalink (the content's digest: a row id alone can be
reused once its version is deleted), the most recently used MAX_KEPT, and a run started here hands
over the manifests it parses anyway (playground/runs.py).
"""

import threading
from collections import OrderedDict
from dataclasses import dataclass

from playground import acting
from playground.models import ScenarioVersion
from playground.traffic import traffic_kinds
from scheduler_core.api.errors import ManifestError
from scheduler_core.api.manifests import Manifest, load_manifests

MAX_KEPT = 64


@dataclass(frozen=True, slots=True)
class Outline:
    act_targets: tuple[str, ...]
    traffic_kinds: frozenset[str]


_kept: "OrderedDict[tuple[int, str], Outline]" = OrderedDict()
_lock = threading.Lock()


def kept_outline(version: ScenarioVersion) -> Outline | None:
    with _lock:
        return _kept.get((version.pk, version.permalink))


def outline(version: ScenarioVersion, manifests: list[Manifest] | None = None) -> Outline:
    """The version's outline: kept, else from `manifests` (the version's, already parsed), else
    parsed here. A version that does not load has an empty outline (its run fails and says why)."""
    key = (version.pk, version.permalink)
    with _lock:
        kept = _kept.get(key)
        if kept is not None:
            _kept.move_to_end(key)
            return kept
    if manifests is None:
        try:
            manifests = load_manifests(version.cluster_document, source="scenario")
        except ManifestError:
            manifests = []
    found = Outline(tuple(acting.targets(manifests)), traffic_kinds(manifests))
    with _lock:
        _kept[key] = found
        while len(_kept) > MAX_KEPT:
            _kept.popitem(last=False)
    return found
