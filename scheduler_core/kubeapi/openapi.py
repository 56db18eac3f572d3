"""OpenAPI v3 discovery: `/openapi/v3` lists a document per group version, and each document is the
one a v1.34 API server serves, restricted to the resources served here: upstream's path items (the
operations with their query parameters, request and response `$ref`s, `x-kubernetes-action` and
`x-kubernetes-group-version-kind`) and every component schema they reach, with every field.

kubectl reads these to learn that the server validates fields itself (the `fieldValidation`
parameter of PATCH: `kubectl apply` and `create` then send `fieldValidation=Strict` and skip their
client-side check), to build strategic merge patches (`x-kubernetes-patch-strategy`), and for
`kubectl explain`.

The data (data/openapi-v3.json.gz, made by scripts/openapi_schemas.py) comes verbatim from
kubernetes/kubernetes api/openapi-spec/v3/*.json of branch release-1.34 (the v1.34.x releases, whose
API types are the same from v1.34.0 to v1.34.5), as kubernetes-sigs/kubectl-validate commit
9431c46daf3fdcbdcc480134767eafdd990f8fc5 (2025-12-23) downloaded it into its
pkg/openapiclient/builtins/1.34. The data records each upstream file's git blob id (api__v1:
e97c10da), which `git ls-tree v1.34.5 api/openapi-spec/v3/` in a checkout confirms or refutes."""

import gzip
import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

from scheduler_core.kubeapi.resources import group_versions

DATA = Path(__file__).parent / "data" / "openapi-v3.json.gz"
SCHEMA_REF = "#/components/schemas/"


@cache
def _data() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(gzip.decompress(DATA.read_bytes()))
    return loaded


def source() -> dict[str, Any]:
    """Where the schemas come from: repository, release and each upstream file's git blob id."""
    found: dict[str, Any] = _data()["source"]
    return found


def root(prefix: str = "") -> dict[str, Any]:
    """The index: each group version's document, by a path relative to the server."""
    paths = {}
    for group, versions in group_versions().items():
        for version in versions:
            key = _key(group, version)
            paths[key] = {"serverRelativeURL": f"{prefix}/openapi/v3/{key}?hash={_hash(key)}"}
    return {"paths": paths}


def group_version_document(path: str) -> dict[str, Any] | None:
    """The document of "api/v1" or "apis/apps/v1"; None for a group version the server lacks.
    The same object for every call: read it, do not change it."""
    parts = path.strip("/").split("/")
    if parts[:1] == ["api"] and len(parts) == 2:
        group, version = "", parts[1]
    elif parts[:1] == ["apis"] and len(parts) == 3:
        group, version = parts[1], parts[2]
    else:
        return None
    if version not in group_versions().get(group, []):
        return None
    return _document(_key(group, version))


def _key(group: str, version: str) -> str:
    return f"apis/{group}/{version}" if group else f"api/{version}"


@cache
def _document(key: str) -> dict[str, Any]:
    served = _data()["documents"][key]
    schemas = _data()["schemas"]
    names = _closure(_refs(served["paths"]), schemas)
    # Upstream's key order: components, info, openapi, paths (its documents are sorted).
    return {
        "components": {"schemas": {name: schemas[name] for name in sorted(names)}},
        "info": served["info"],
        "openapi": served["openapi"],
        "paths": served["paths"],
    }


def _refs(node: Any) -> set[str]:
    """The component schemas a node names with `$ref`."""
    found: set[str] = set()
    pending = [node]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            ref = item.get("$ref")
            if isinstance(ref, str) and ref.startswith(SCHEMA_REF):
                found.add(ref.removeprefix(SCHEMA_REF))
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return found


def _closure(roots: set[str], schemas: dict[str, Any]) -> set[str]:
    """The schemas `roots` reach: a document is self-contained, as upstream's are."""
    seen: set[str] = set()
    pending = list(roots)
    while pending:
        name = pending.pop()
        if name not in seen:
            seen.add(name)
            pending.extend(_refs(schemas[name]) - seen)
    return seen


@cache
def _hash(key: str) -> str:
    """The API server's hash of a document: clients cache a document by the URL that names it."""
    document = json.dumps(_document(key), sort_keys=True).encode()
    return hashlib.sha512(document).hexdigest()[:64].upper()
