"""The preview cache's key of a saved version, remembered by the version's id.

A version never changes, so neither does the digest of its cluster document. Drawing a board looks
up the preview of its version and, while that one is computed, of the version before it; for an
imported cluster each lookup read a 25 MiB workload from the database, joined a 30 MiB document
and hashed it (0.4-0.6 s of every cordon and save at 5,000 nodes / 50,000 pods). Remembered here,
a version's document is read only when its preview must be computed.
"""

import threading
from collections import OrderedDict
from dataclasses import dataclass

from playground.models import ScenarioVersion
from playground.preview import document_key

MAX_KEPT = 4096  # versions: a few hundred bytes each


@dataclass(frozen=True, slots=True)
class DocumentKey:
    key: str  # the preview cache's key (preview.document_key of the cluster document)
    length: int  # the document's length in characters (whether it is previewed in a sandbox)


# By id and permalink: the permalink is a digest of the content, so an id a test database reuses
# after a rollback (SQLite's counter rolls back too) never finds another content's key.
_VersionId = tuple[int, str]
_kept: "OrderedDict[_VersionId, DocumentKey]" = OrderedDict()
_lock = threading.Lock()


def known(version_id: int, permalink: str) -> DocumentKey | None:
    """The version's key, if this process has seen its document."""
    with _lock:
        found = _kept.get((version_id, permalink))
        if found is not None:
            _kept.move_to_end((version_id, permalink))
        return found


def of_version(version: ScenarioVersion) -> DocumentKey:
    """The version's key, its document read and hashed only the first time."""
    found = known(version.pk, version.permalink)
    if found is not None:
        return found
    document = version.cluster_document
    found = DocumentKey(document_key(document), len(document))
    with _lock:
        _kept[(version.pk, version.permalink)] = found
        while len(_kept) > MAX_KEPT:
            _kept.popitem(last=False)
    return found


def forget_all() -> None:
    """For tests."""
    with _lock:
        _kept.clear()
