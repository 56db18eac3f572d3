#!/usr/bin/env python3
"""Regenerates scheduler_core/kubeapi/data/openapi-v3.json.gz from upstream's OpenAPI v3 documents
(kubernetes/kubernetes api/openapi-spec/v3/*.json of a release branch or tag).

    .venv/bin/python scripts/openapi_schemas.py KUBERNETES_CHECKOUT --release "release-1.34 (v1.34.x)"

For each group version the playground serves it keeps upstream's path items of the served resources
(the collection, the object, the subresources the playground has, the group version's resource
list), verbatim, and the component schemas those paths reach, each once (upstream repeats them in
every document). Each input file's git blob id is recorded: `git ls-tree <tag>
api/openapi-spec/v3/` in a checkout shows whether a release has the same bytes."""

import argparse
import gzip
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scheduler_core.kubeapi.resources import Resource, group_versions, resources_of  # noqa: E402

TARGET = ROOT / "scheduler_core" / "kubeapi" / "data" / "openapi-v3.json.gz"
SCHEMA_REF = "#/components/schemas/"


def spec_file(group: str, version: str) -> str:
    return f"apis__{group}__{version}_openapi.json" if group else f"api__{version}_openapi.json"


def served_paths(prefix: str, resource: Resource) -> list[str]:
    """The paths of one resource that the playground routes (no legacy /watch/ paths)."""
    scope = f"{prefix}/namespaces/{{namespace}}" if resource.namespaced else prefix
    collection = f"{scope}/{resource.plural}"
    paths = [collection, f"{collection}/{{name}}"]
    paths += [f"{collection}/{{name}}/{sub}" for sub in resource.subresources]
    if resource.namespaced:
        paths.append(f"{prefix}/{resource.plural}")  # the list across namespaces (-A)
    return paths


def refs(node: Any) -> set[str]:
    """The component schemas a node names with `$ref`."""
    if isinstance(node, dict):
        found = {node["$ref"].removeprefix(SCHEMA_REF)} if isinstance(node.get("$ref"), str) else set()
        for value in node.values():
            found |= refs(value)
        return found
    if isinstance(node, list):
        return set().union(*(refs(item) for item in node)) if node else set()
    return set()


def closure(roots: set[str], schemas: dict[str, Any]) -> set[str]:
    seen: set[str] = set()
    pending = list(roots)
    while pending:
        name = pending.pop()
        if name not in seen:
            seen.add(name)
            pending.extend(refs(schemas[name]) - seen)
    return seen


def git_blob_id(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def build(spec_dir: Path, release: str) -> dict[str, Any]:
    documents: dict[str, Any] = {}
    schemas: dict[str, Any] = {}
    blobs: dict[str, str] = {}
    for group, versions in group_versions().items():
        for version in versions:
            name = spec_file(group, version)
            raw = (spec_dir / name).read_bytes()
            blobs[name] = git_blob_id(raw)
            upstream = json.loads(raw)
            prefix = f"/apis/{group}/{version}" if group else f"/api/{version}"
            wanted = [f"{prefix}/"] + [path for r in resources_of(group, version) for path in served_paths(prefix, r)]
            missing = [path for path in wanted if path not in upstream["paths"]]
            assert not missing, f"{name} lacks {missing}"
            paths = {path: upstream["paths"][path] for path in sorted(wanted)}
            components = upstream["components"]["schemas"]
            for schema in closure(refs(paths), components):
                assert schemas.setdefault(schema, components[schema]) == components[schema], f"{schema} differs"
            key = prefix.lstrip("/")
            documents[key] = {"info": upstream["info"], "openapi": upstream["openapi"], "paths": paths}
    return {
        "source": {"repository": "kubernetes/kubernetes", "release": release, "blobs": blobs},
        "documents": documents,
        "schemas": dict(sorted(schemas.items())),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkout", type=Path, help="a kubernetes/kubernetes checkout (or its api/openapi-spec/v3)")
    parser.add_argument("--release", required=True, help='what the checkout is, e.g. "release-1.34 (v1.34.x)"')
    options = parser.parse_args()
    spec_dir = options.checkout / "api" / "openapi-spec" / "v3"
    data = build(spec_dir if spec_dir.is_dir() else options.checkout, options.release)
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()
    TARGET.parent.mkdir(parents=True, exist_ok=True)
    TARGET.write_bytes(gzip.compress(text, compresslevel=9, mtime=0))
    print(f"{TARGET.relative_to(ROOT)}: {len(data['schemas'])} schemas, {len(text)} bytes, {TARGET.stat().st_size} gz")


if __name__ == "__main__":
    main()
