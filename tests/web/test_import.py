import gzip

import pytest
from django.urls import reverse

from playground.models import Scenario

pytestmark = pytest.mark.django_db

NODES = """apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata:
    name: ip-10-0-1-12
    labels: {kubernetes.io/hostname: ip-10-0-1-12, topology.kubernetes.io/zone: eu-west-1a}
    managedFields: [{manager: kubelet}]
  spec:
    taints: [{key: node-role.kubernetes.io/control-plane, effect: NoSchedule}]
  status:
    capacity: {cpu: "4", memory: 16Gi, pods: "110"}
    allocatable: {cpu: 3920m, memory: 15Gi, pods: "110"}
    conditions: [{type: Ready, status: "True"}]
- apiVersion: v1
  kind: Node
  metadata: {name: ip-10-0-2-7, labels: {kubernetes.io/hostname: ip-10-0-2-7}}
  status: {allocatable: {cpu: "2", memory: 8Gi, pods: "58"}}
"""

PODS = """apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Pod
  metadata: {name: coredns-1, namespace: kube-system, labels: {k8s-app: kube-dns}, uid: abc, resourceVersion: "42"}
  spec:
    nodeName: ip-10-0-2-7
    priorityClassName: system-cluster-critical
    containers: [{name: coredns, image: coredns:1.11, resources: {requests: {cpu: 100m, memory: 70Mi}},
                  volumeMounts: [{name: config, mountPath: /etc/coredns}]}]
    volumes: [{name: config, configMap: {name: coredns}}]
  status: {phase: Running, podIP: 10.0.2.8}
- apiVersion: v1
  kind: Pod
  metadata: {name: done, namespace: default}
  spec: {nodeName: ip-10-0-2-7, containers: [{name: c, image: busybox}]}
  status: {phase: Succeeded}
"""


@pytest.fixture
def editable(client):
    client.post(reverse("new-scenario"))
    return Scenario.objects.get()


def test_kubectl_output_becomes_the_board_and_bound_pods_the_workload(client, editable):
    url = reverse("import-cluster", args=[editable.slug])
    data = {"version": editable.version, "nodes_yaml": NODES, "pods_yaml": PODS}
    response = client.post(url, data, headers={"HX-Request": "true"})
    assert response.status_code == 200, response.content[:500]
    names = [node.name for node in editable.nodes.all()]
    assert names == ["ip-10-0-1-12", "ip-10-0-2-7"]
    control_plane = editable.nodes.get(name="ip-10-0-1-12")
    assert control_plane.capacity == {"cpu": "4", "memory": "16Gi", "pods": "110"}  # as the node had them
    assert control_plane.allocatable == {"cpu": "3920m", "memory": "15Gi", "pods": "110"}  # what pods fit into
    only_allocatable = editable.nodes.get(name="ip-10-0-2-7")
    assert only_allocatable.capacity == {"cpu": "2", "memory": "8Gi", "pods": "58"}
    assert only_allocatable.allocatable == {}  # the same as capacity
    assert control_plane.taints == [{"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}]
    editable.refresh_from_db()
    assert "coredns-1" in editable.workload_yaml
    assert "done" not in editable.workload_yaml  # finished pods are left out
    assert "volumes" not in editable.workload_yaml and "priorityClassName" not in editable.workload_yaml
    assert b"coredns-1" in response.content  # placed on its node on the board


def test_a_broken_paste_names_the_field_and_keeps_the_board(client, editable):
    url = reverse("import-cluster", args=[editable.slug])
    bad = NODES.replace('cpu: "2"', "cpu: two")
    response = client.post(url, {"version": editable.version, "nodes_yaml": bad}, headers={"HX-Request": "true"})
    assert response.status_code == 422
    assert b"status.allocatable.cpu" in response.content
    assert [node.name for node in editable.nodes.all()] == ["worker1", "worker2", "worker3"]


# ---------------------------------------------------------------------------- at real size

import io  # noqa: E402
import time  # noqa: E402

import yaml  # noqa: E402
from django.core.files.uploadedfile import SimpleUploadedFile  # noqa: E402

from playground import importing  # noqa: E402
from playground.scenarios import InvalidEdit  # noqa: E402
from scheduler_core.api.manifests import load_manifests  # noqa: E402
from tests.web.kubectl_output import node_name, nodes_yaml, pods_yaml  # noqa: E402


def test_realistic_kubectl_nodes_keep_what_the_board_holds_and_drop_the_rest():
    text = nodes_yaml(30)
    stripped = importing.strip_text(text.splitlines(keepends=True))
    assert stripped.count("\n") == text.count("\n")  # a dropped line stays, empty: lines still match
    for dropped in ("managedFields", "images:", "conditions:", "annotations:", "nodeInfo:", "addresses:", "uid:"):
        assert dropped not in stripped
    imported = importing.import_cluster(text)
    assert len(imported.nodes) == 30
    first, second = imported.nodes[0], imported.nodes[1]
    assert first["name"] == node_name(0)
    assert first["labels"]["topology.kubernetes.io/zone"] == "eu-west-1a" and len(first["labels"]) == 10
    assert first["taints"] == [{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}]
    assert first["unschedulable"] and not second["unschedulable"]
    assert second["taints"] == []
    assert second["capacity"]["memory"] == "32817148Ki" and second["capacity"]["cpu"] == "8"
    assert second["allocatable"]["memory"] == "31482236Ki" and second["allocatable"]["cpu"] == "7910m"
    # the same as the engine reads the text as sent
    engine = {m.object.metadata.name: m.object for m in load_manifests(text)}
    assert set(engine) == {node["name"] for node in imported.nodes}


def test_a_thousand_realistic_nodes_import_in_seconds():
    text = nodes_yaml(1000)
    started = time.perf_counter()
    imported = importing.import_cluster(text)
    elapsed = time.perf_counter() - started
    assert len(imported.nodes) == 1000
    assert elapsed < 15, elapsed  # about 1 s on a laptop; generous for a loaded CI machine


def test_an_error_in_realistic_output_names_the_line_of_the_text_as_sent():
    text = nodes_yaml(5)
    lines = text.splitlines(keepends=True)
    target = next(i for i, line in enumerate(lines) if line.strip() == "cpu: 7910m" and i > len(lines) // 2)
    lines[target] = lines[target].replace("7910m", "lots")
    with pytest.raises(InvalidEdit) as problem:
        importing.import_cluster("".join(lines))
    message = str(problem.value)
    assert f"line {target + 1}:" in message and "status.allocatable.cpu" in message and "Node" in message


def test_a_batched_list_still_names_the_line(monkeypatch):
    monkeypatch.setattr(importing, "ITEMS_PER_BATCH", 3)
    text = nodes_yaml(10)
    imported = importing.import_cluster(text)
    assert [node["name"] for node in imported.nodes] == [node_name(i) for i in range(10)]
    lines = text.splitlines(keepends=True)
    target = [i for i, line in enumerate(lines) if line.strip() == 'pods: "58"'][-1]  # the last node's
    lines[target] = lines[target].replace('"58"', "many")
    with pytest.raises(InvalidEdit) as problem:
        importing.import_cluster("".join(lines))
    assert f"line {target + 1}:" in str(problem.value)


def test_text_the_filter_does_not_know_is_kept_as_it_is():
    text = (
        'apiVersion: v1\nkind: Node\nmetadata:\n  name: a\n  annotations: {note: "x",\n    images: y}\n'
        "  labels:\n    images: kept\n    note: |\n      managedFields:\n        - x\nstatus:\n"
        '  capacity: {cpu: "1", memory: 1Gi, pods: "10"}\n'
    )
    stripped = importing.strip_text(text.splitlines(keepends=True))
    assert "images: kept" in stripped and "managedFields:" in stripped and "annotations" not in stripped
    assert yaml.safe_load(stripped)["metadata"]["labels"]["note"] == "managedFields:\n  - x\n"
    with pytest.raises(InvalidEdit, match=r"metadata\.labels\.note: invalid label value"):
        importing.import_cluster(text)  # the engine read the label whole
    (node,) = importing.import_cluster(text.replace("    note: |\n      managedFields:\n        - x\n", "")).nodes
    assert node["labels"] == {"images": "kept"}


def test_imported_pods_are_one_line_each_and_the_engine_reads_them():
    imported = importing.import_cluster(nodes_yaml(10), pods_yaml(300, 10))
    lines = imported.workload_yaml.splitlines()
    assert imported.skipped_pods == 3  # the Succeeded ones
    assert len(lines) == 297 and all(line.startswith("--- {apiVersion: v1, kind: Pod") for line in lines)
    pods = load_manifests(imported.workload_yaml)
    assert len(pods) == 297
    first = pods[0].object
    assert first.spec.node_name == node_name(1) and first.metadata.labels["app"] == "app-1"
    for gone in ("managedFields", "env", "livenessProbe", "volumes", "tolerationSeconds", "containerPort", "uid"):
        assert gone not in imported.workload_yaml
    assert "podAntiAffinity" in imported.workload_yaml and "cpu: 250m" in imported.workload_yaml
    assert len(imported.workload_yaml) / len(lines) < 540  # with anti-affinity and 47-character node names


def test_an_import_of_too_many_pod_bytes_names_the_bound(monkeypatch):
    monkeypatch.setattr(importing, "MAX_IMPORT_WORKLOAD_BYTES", 10_000)
    with pytest.raises(InvalidEdit, match=r"an imported workload holds at most 9.77 KiB"):
        importing.import_cluster(nodes_yaml(3), pods_yaml(100, 3))


def _gzipped(text: str) -> bytes:
    return gzip.compress(text.encode(), compresslevel=1)


def test_files_are_imported_gzip_or_not(client, editable):
    url = reverse("import-cluster", args=[editable.slug])
    data = {
        "version": editable.version,
        "nodes_file": SimpleUploadedFile("nodes.yaml.gz", _gzipped(nodes_yaml(20))),
        "pods_file": SimpleUploadedFile("pods.yaml", pods_yaml(40, 20).encode()),
        "nodes_yaml": "ignored: a file wins over its textarea",
    }
    response = client.post(url, data, headers={"HX-Request": "true"})
    assert response.status_code == 200, response.content[:800]
    assert editable.nodes.count() == 20
    editable.refresh_from_db()
    assert editable.workload_yaml.count("\n") == 39  # pod 0 Succeeded
    table = client.get(reverse("board", args=[editable.slug]), {"view": "table"})
    assert b"/30.0Gi" in table.content  # allocatable 31482236Ki, as people read it ...
    assert b"31482236Ki" not in table.content and b"32817148Ki" not in table.content
    assert editable.nodes.first().capacity["memory"] == "32817148Ki"  # ... stored exact


def test_gzip_bomb_stops_at_the_limit_and_keeps_the_board(client, editable, settings):
    settings.IMPORT_MAX_BYTES = 2**20
    bomb = gzip.compress(b"#" + b" " * (8 * 2**20) + b"\n")  # 8 MiB of text in about 8 KB
    assert len(bomb) < 20_000
    url = reverse("import-cluster", args=[editable.slug])
    data = {"version": editable.version, "nodes_file": SimpleUploadedFile("n.gz", bomb)}
    response = client.post(url, data, headers={"HX-Request": "true"})
    assert response.status_code == 422
    assert b"more than 1 MiB of YAML once decompressed" in response.content
    assert [node.name for node in editable.nodes.all()] == ["worker1", "worker2", "worker3"]


def test_an_oversized_file_names_the_limit_and_keeps_the_board(client, editable, settings):
    settings.IMPORT_MAX_UPLOAD_BYTES = 4096
    url = reverse("import-cluster", args=[editable.slug])
    data = {"version": editable.version, "nodes_file": SimpleUploadedFile("n.yaml", nodes_yaml(3).encode())}
    response = client.post(url, data, headers={"HX-Request": "true"})
    assert response.status_code == 422
    assert b"files of at most 4 KiB" in response.content
    assert b'id="board"' in response.content
    assert editable.nodes.count() == 3


def test_a_pasted_text_over_the_import_bound_is_refused_by_name(settings):
    with pytest.raises(InvalidEdit, match="more than 105 bytes of YAML"):
        importing.import_cluster(nodes_yaml(1), max_bytes=105)


def test_a_file_that_is_not_text_says_so():
    with pytest.raises(InvalidEdit, match="not UTF-8"):
        importing.import_cluster(importing.read_upload(io.BytesIO(b"\xff\xfe\x00bin"), "nodes", 2**20))
    with pytest.raises(InvalidEdit, match="gzip file cannot be read"):
        importing.import_cluster(importing.read_upload(io.BytesIO(b"\x1f\x8b\x08garbage"), "nodes", 2**20))


@pytest.mark.parametrize("packed", [False, True])
def test_an_upload_is_read_in_pieces_that_end_lines_and_give_the_text_back(monkeypatch, packed: bool):
    monkeypatch.setattr(importing, "_CHUNK", 100)  # pieces of about 100 characters: many of them
    text = nodes_yaml(6).replace("\n", "\r\n", 3)  # CRLF read as LF, as kubectl's on Windows
    raw = text.encode()
    sent = gzip.compress(raw) if packed else raw
    upload = importing.read_upload(io.BytesIO(sent), "nodes", 2**20, size=len(sent))
    pieces = list(upload)
    assert all(piece.endswith("\n") for piece in pieces)
    assert 5 < len(pieces) < len(text.splitlines()) / 2  # lines a piece, not a piece a line
    assert "".join(pieces) == text.replace("\r\n", "\n")
    assert upload.fraction() == 1.0


def test_the_quick_reading_gives_what_the_careful_one_does(monkeypatch):
    text = importing.strip_text(nodes_yaml(8).splitlines(keepends=True))
    quick = importing._documents(text, "nodes")
    monkeypatch.setattr(importing, "_quickly", lambda batch: None)
    careful = importing._documents(text, "nodes")
    assert [importing._node_row(doc) for doc in quick] == [importing._node_row(doc) for doc in careful]


def test_aliases_are_refused_by_the_careful_reading():
    text = "apiVersion: v1\nkind: Node\nmetadata:\n  name: a\n  labels: &l {a: b}\nstatus:\n  capacity: *l\n"
    with pytest.raises(InvalidEdit, match="aliases"):
        importing.import_cluster(text)


def test_the_compact_workload_reads_back_as_the_cleaned_pods():
    pods = [
        {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {"name": "a", "labels": {"v": "true", "n": "1", "d": "2026-12-03"}},
        },
        {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": 'we"ird: #x', "labels": {"e": "", "u": "é"}}},
        {"apiVersion": "v1", "kind": "Pod", "spec": {"priority": 10, "hostNetwork": False, "x": None, "l": [1, "on"]}},
    ]
    text = importing.compact_workload(pods)
    assert text.count("\n") == 3
    assert list(yaml.safe_load_all(text)) == pods
    assert text.startswith('--- {apiVersion: v1, kind: Pod, metadata: {name: a, labels: {v: "true"')


def test_the_page_offers_files_and_says_an_import_is_under_way(client, editable):
    page = client.get(reverse("scenario", args=[editable.slug])).content.decode()
    assert 'name="nodes_file"' in page and 'name="pods_file"' in page
    assert 'hx-encoding="multipart/form-data"' in page and 'enctype="multipart/form-data"' in page
    assert "Importing…" in page and 'hx-indicator="find .import-progress"' in page
    assert f'href="/s/{editable.slug}/export.yaml?part=timeline"' in page
