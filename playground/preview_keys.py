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
from playground.scenarios import stored_text_length

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
    """The version's key, its document read and hashed only the first time; a workload stored apart
    is named by its digest, never read (see key_of_parts)."""
    found = known(version.pk, version.permalink)
    if found is not None:
        return found
    if version.workload_text_id:
        found = DocumentKey(
            key_of_parts(version.stored_document, version.workload_text_id),
            len(version.stored_document) + stored_text_length(version.workload_text_id),
        )
    else:
        document = version.cluster_document
        found = DocumentKey(document_key(document), len(document))
    with _lock:
        _kept[(version.pk, version.permalink)] = found
        while len(_kept) > MAX_KEPT:
            _kept.popitem(last=False)
    return found


def key_of_parts(before_workload: str, workload_digest: str) -> str:
    """The key of a cluster document whose workload is stored apart: what comes before the workload
    and the workload's digest, hashed together (hashing the 30 MiB document took 0.1 s of every
    edit's answer). Never a document_key: that digest would need a document holding a NUL, which
    YAML refuses."""
    return document_key(f"{before_workload}\0workload sha256:{workload_digest}")


def forget_all() -> None:
    """For tests."""
    with _lock:
        _kept.clear()
