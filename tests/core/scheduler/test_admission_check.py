"""AdmissionCheck: the node-local checks the scheduler and the kubelet share, in upstream's order."""

from scheduler_core.api.manifests import parse_object
from scheduler_core.scheduler.admission_check import admission_check
from scheduler_core.scheduler.snapshot import NodeInfo, PodInfo


def node() -> NodeInfo:
    manifest = {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": "n1", "labels": {"disk": "hdd"}},
        "status": {"capacity": {"cpu": "1", "memory": "1Gi", "pods": "10"}},
    }
    return NodeInfo(parse_object(manifest))


def pod(name: str, **spec: object) -> object:
    body = {"containers": [{"name": "c", "image": "nginx", **spec.pop("container", {})}], **spec}
    return parse_object({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name}, "spec": body})


BIG = {"resources": {"requests": {"cpu": "2", "memory": "2Gi"}}}
PORT = {"ports": [{"containerPort": 80, "hostPort": 80}]}


def test_every_failure_in_order_or_only_the_first_group():
    info = node()
    info.add_pod(PodInfo(pod("holder", container=PORT)))
    wrong = pod("wrong", container=BIG | PORT, nodeName="n2", nodeSelector={"disk": "ssd"})
    every = admission_check(wrong, info, include_all=True)
    assert [r.insufficient.resource if r.insufficient else r.plugin for r in every] == [
        "cpu",
        "memory",
        "NodeAffinity",
        "NodeName",
        "NodePorts",
    ]
    # Without include_all: the resources, all of them, and nothing after.
    assert [r.insufficient.resource for r in admission_check(wrong, info, include_all=False)] == ["cpu", "memory"]
    assert admission_check(pod("fits"), info, include_all=False) == []


def test_given_requests_replace_the_pods():
    wanted = pod("wanted", container=BIG)
    assert admission_check(wanted, node(), include_all=True, requests={"cpu": 500}) == []
