"""What a pod spec declares that nothing in the engine reads (probes' handlers, command, environment,
mounts, volume sources, the service account, DNS policy, security contexts): kept as declared,
written back as the API shows it and read again to the same object; and the API server's defaults
for each (pkg/apis/core/v1/defaults.go, v1.34), on pods and on the pod templates of workloads."""

import json
from typing import Any

import pytest

from scheduler_core.api.errors import ManifestError
from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.object_manifest import object_manifest
from scheduler_core.api.pod_defaults import image_pull_policy, image_tag
from scheduler_core.api.types import (
    NO_CONTAINER_DETAILS,
    NO_POD_DETAILS,
    ConfigMapKeySelector,
    EnvFromSource,
    EnvVar,
    ExecAction,
    GRPCAction,
    HTTPGetAction,
    HTTPHeader,
    ObjectFieldSelector,
    Pod,
    Probe,
    ResourceFieldSelector,
    SecretKeySelector,
    TCPSocketAction,
    VolumeMount,
)
from scheduler_core.api.workloads import Deployment, PodTemplateSpec
from scheduler_core.controllers.naming import template_hash


def pod_of(spec: str) -> Pod:
    (manifest,) = load_manifests(f"apiVersion: v1\nkind: Pod\nmetadata: {{name: p}}\nspec: {spec}\n")
    assert isinstance(manifest.object, Pod)
    return manifest.object


def read_back(pod: Pod) -> Pod:
    (manifest,) = load_manifests(json.dumps(object_manifest(pod)))
    assert isinstance(manifest.object, Pod)
    return manifest.object


def spec_of(pod: Pod) -> dict[str, Any]:
    spec: dict[str, Any] = object_manifest(pod)["spec"]
    return spec


def container_of(pod: Pod) -> dict[str, Any]:
    container: dict[str, Any] = spec_of(pod)["containers"][0]
    return container


def with_container(fields: str, image: str = "app:1") -> Pod:
    return pod_of(f"{{containers: [{{name: c, image: '{image}', {fields}}}]}}")


# ---------------------------------------------------------------------------- round trips


def test_command_args_and_working_dir() -> None:
    pod = with_container("command: [sh, -c], args: ['echo hi'], workingDir: /srv")
    details = pod.spec.containers[0].details
    assert (details.command, details.args, details.working_dir) == (("sh", "-c"), ("echo hi",), "/srv")
    container = container_of(pod)
    assert list(container)[:5] == ["name", "image", "command", "args", "workingDir"]  # k8s.io/api's order
    assert (container["command"], container["args"], container["workingDir"]) == (["sh", "-c"], ["echo hi"], "/srv")
    assert read_back(pod) == pod


def test_environment_of_every_kind() -> None:
    pod = with_container(
        """env: [
            {name: A, value: "1"},
            {name: EMPTY},
            {name: NAME, valueFrom: {fieldRef: {fieldPath: metadata.name}}},
            {name: CPU, valueFrom: {resourceFieldRef: {containerName: c, resource: limits.cpu, divisor: 1m}}},
            {name: MEMORY, valueFrom: {resourceFieldRef: {resource: requests.memory}}},
            {name: LEVEL, valueFrom: {configMapKeyRef: {name: cm, key: level, optional: true}}},
            {name: TOKEN, valueFrom: {secretKeyRef: {name: s, key: token}}}],
        envFrom: [{configMapRef: {name: cm}}, {prefix: DB_, secretRef: {name: db, optional: false}}]"""
    )
    details = pod.spec.containers[0].details
    assert details.env == (
        EnvVar("A", "1"),
        EnvVar("EMPTY"),
        EnvVar("NAME", value_from=ObjectFieldSelector("metadata.name", "v1")),
        EnvVar("CPU", value_from=ResourceFieldSelector("limits.cpu", "c", "1m")),
        EnvVar("MEMORY", value_from=ResourceFieldSelector("requests.memory")),
        EnvVar("LEVEL", value_from=ConfigMapKeySelector("cm", "level", True)),
        EnvVar("TOKEN", value_from=SecretKeySelector("s", "token")),
    )
    assert details.env_from == (
        EnvFromSource("configMapRef", "cm"),
        EnvFromSource("secretRef", "db", optional=False, prefix="DB_"),
    )
    container = container_of(pod)
    assert container["env"] == [
        {"name": "A", "value": "1"},
        {"name": "EMPTY"},
        {"name": "NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}}},
        {"name": "CPU", "valueFrom": {"resourceFieldRef": {"containerName": "c", "resource": "limits.cpu",
                                                           "divisor": "1m"}}},
        {"name": "MEMORY", "valueFrom": {"resourceFieldRef": {"resource": "requests.memory", "divisor": "0"}}},
        {"name": "LEVEL", "valueFrom": {"configMapKeyRef": {"name": "cm", "key": "level", "optional": True}}},
        {"name": "TOKEN", "valueFrom": {"secretKeyRef": {"name": "s", "key": "token"}}},
    ]  # fmt: skip
    assert container["envFrom"] == [
        {"configMapRef": {"name": "cm"}},
        {"prefix": "DB_", "secretRef": {"name": "db", "optional": False}},
    ]
    assert read_back(pod) == pod


def test_volume_mounts_with_every_field() -> None:
    pod = with_container(
        """volumeMounts: [
            {name: data, mountPath: /data},
            {name: conf, mountPath: /etc/app, readOnly: true, subPath: app, mountPropagation: HostToContainer,
             recursiveReadOnly: IfPossible},
            {name: logs, mountPath: /logs, subPathExpr: $(POD_NAME)}]"""
    )
    assert pod.spec.containers[0].details.volume_mounts == (
        VolumeMount("data", "/data"),
        VolumeMount(
            "conf", "/etc/app", True, "app", mount_propagation="HostToContainer", recursive_read_only="IfPossible"
        ),
        VolumeMount("logs", "/logs", sub_path_expr="$(POD_NAME)"),
    )  # fmt: skip
    assert container_of(pod)["volumeMounts"] == [
        {"name": "data", "mountPath": "/data"},
        {"name": "conf", "readOnly": True, "recursiveReadOnly": "IfPossible", "mountPath": "/etc/app",
         "subPath": "app", "mountPropagation": "HostToContainer"},
        {"name": "logs", "mountPath": "/logs", "subPathExpr": "$(POD_NAME)"},
    ]  # fmt: skip
    assert read_back(pod) == pod


def test_probes_of_every_handler() -> None:
    pod = with_container(
        """livenessProbe: {exec: {command: [cat, /tmp/ok]}, initialDelaySeconds: 3, terminationGracePeriodSeconds: 9},
        readinessProbe: {httpGet: {path: /ready, port: http, host: 10.0.0.1, scheme: HTTPS,
                                   httpHeaders: [{name: X-A, value: b}]}, timeoutSeconds: 4},
        startupProbe: {tcpSocket: {port: 8080}, failureThreshold: 30}"""
    )
    container = pod.spec.containers[0]
    assert container.details.liveness_probe == Probe(
        initial_delay_seconds=3, handler=ExecAction(("cat", "/tmp/ok")), termination_grace_period_seconds=9
    )
    assert container.readiness_probe == Probe(
        timeout_seconds=4, handler=HTTPGetAction("http", "/ready", "10.0.0.1", "HTTPS", (HTTPHeader("X-A", "b"),))
    )
    assert container.details.startup_probe == Probe(failure_threshold=30, handler=TCPSocketAction(8080))
    written = container_of(pod)
    assert written["livenessProbe"] == {
        "exec": {"command": ["cat", "/tmp/ok"]},
        "initialDelaySeconds": 3,
        "timeoutSeconds": 1,
        "periodSeconds": 10,
        "successThreshold": 1,
        "failureThreshold": 3,
        "terminationGracePeriodSeconds": 9,
    }
    assert written["readinessProbe"]["httpGet"] == {
        "path": "/ready",
        "port": "http",
        "host": "10.0.0.1",
        "scheme": "HTTPS",
        "httpHeaders": [{"name": "X-A", "value": "b"}],
    }
    assert written["startupProbe"]["tcpSocket"] == {"port": 8080}
    assert read_back(pod) == pod


def test_pull_policy_termination_message_and_security_context() -> None:
    pod = with_container(
        "imagePullPolicy: Never, terminationMessagePath: /tmp/msg, terminationMessagePolicy: FallbackToLogsOnError,"
        " securityContext: {runAsUser: 1000, capabilities: {drop: [ALL]}}"
    )
    container = container_of(pod)
    assert list(container)[-4:] == [
        "terminationMessagePath",
        "terminationMessagePolicy",
        "imagePullPolicy",
        "securityContext",
    ]
    assert container["imagePullPolicy"] == "Never"
    assert (container["terminationMessagePath"], container["terminationMessagePolicy"]) == (
        "/tmp/msg",
        "FallbackToLogsOnError",
    )
    assert container["securityContext"] == {"runAsUser": 1000, "capabilities": {"drop": ["ALL"]}}
    assert read_back(pod) == pod


def test_pod_level_fields() -> None:
    pod = pod_of(
        "{serviceAccountName: builder, automountServiceAccountToken: false, dnsPolicy: None,"
        " enableServiceLinks: false, securityContext: {fsGroup: 2000}, hostname: h, subdomain: s,"
        " containers: [{name: c}]}"
    )
    details = pod.spec.details
    assert (details.service_account_name, details.automount_service_account_token) == ("builder", False)
    assert (details.dns_policy, details.enable_service_links, details.hostname, details.subdomain) == (
        "None",
        False,
        "h",
        "s",
    )
    spec = spec_of(pod)
    assert {key: spec[key] for key in ("serviceAccountName", "serviceAccount", "automountServiceAccountToken")} == {
        "serviceAccountName": "builder",
        "serviceAccount": "builder",  # the deprecated alias, as the v1 conversion fills it in
        "automountServiceAccountToken": False,
    }
    assert (spec["dnsPolicy"], spec["enableServiceLinks"], spec["securityContext"]) == (
        "None",
        False,
        {"fsGroup": 2000},
    )
    assert (spec["hostname"], spec["subdomain"]) == ("h", "s")
    assert read_back(pod) == pod


def test_the_deprecated_service_account_field_names_the_account_alone() -> None:
    assert pod_of("{serviceAccount: old, containers: [{name: c}]}").spec.details.service_account_name == "old"
    both = pod_of("{serviceAccountName: new, serviceAccount: old, containers: [{name: c}]}")
    assert both.spec.details.service_account_name == "new"


def test_volume_sources_kept_with_their_defaults() -> None:
    pod = pod_of(
        """{containers: [{name: c}], volumes: [
            {name: claim, persistentVolumeClaim: {claimName: data}},
            {name: claim-ro, persistentVolumeClaim: {claimName: data, readOnly: true}},
            {name: scratch},
            {name: memory, emptyDir: {medium: Memory, sizeLimit: 64Mi}},
            {name: conf, configMap: {name: cm, items: [{key: a, path: a.txt}]}},
            {name: creds, secret: {secretName: s, defaultMode: 256}},
            {name: host, hostPath: {path: /var/log}},
            {name: info, downwardAPI: {items: [{path: labels, fieldRef: {fieldPath: metadata.labels}}]}},
            {name: bundle, projected: {sources: [{serviceAccountToken: {path: t}}, {secret: {name: s}}]}}]}"""
    )
    claim, claim_ro, scratch = pod.spec.volumes[:3]
    assert (claim.persistent_volume_claim, claim.source) == ("data", None)  # a bare claim: the scheduler's field
    assert claim_ro.persistent_volume_claim == "data"
    assert scratch.source is None  # emptyDir {}, SetDefaults_Volume
    assert spec_of(pod)["volumes"] == [
        {"name": "claim", "persistentVolumeClaim": {"claimName": "data"}},
        {"name": "claim-ro", "persistentVolumeClaim": {"claimName": "data", "readOnly": True}},
        {"name": "scratch", "emptyDir": {}},
        {"name": "memory", "emptyDir": {"medium": "Memory", "sizeLimit": "64Mi"}},
        {"name": "conf", "configMap": {"name": "cm", "items": [{"key": "a", "path": "a.txt"}], "defaultMode": 420}},
        {"name": "creds", "secret": {"secretName": "s", "defaultMode": 256}},
        {"name": "host", "hostPath": {"path": "/var/log", "type": ""}},
        {"name": "info", "downwardAPI": {
            "items": [{"path": "labels", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.labels"}}],
            "defaultMode": 420}},
        {"name": "bundle", "projected": {
            "sources": [{"serviceAccountToken": {"expirationSeconds": 3600, "path": "t"}}, {"secret": {"name": "s"}}],
            "defaultMode": 420}},
    ]  # fmt: skip
    assert read_back(pod) == pod


def test_written_sources_are_copies() -> None:
    pod = pod_of("{containers: [{name: c}], volumes: [{name: conf, configMap: {name: cm}}]}")
    spec_of(pod)["volumes"][0]["configMap"]["name"] = "changed"
    assert spec_of(pod)["volumes"][0]["configMap"]["name"] == "cm"


# ---------------------------------------------------------------------------- defaults


@pytest.mark.parametrize(
    ("image", "policy"),
    [
        ("nginx", "Always"),  # no tag: latest
        ("nginx:latest", "Always"),
        ("localhost:5000/team/app", "Always"),  # a registry's port is not a tag
        ("nginx:1.27", "IfNotPresent"),
        ("registry.k8s.io/pause:3.10", "IfNotPresent"),
        ("busybox@sha256:" + "a" * 64, "IfNotPresent"),  # a digest and no tag
        ("busybox:latest@sha256:" + "a" * 64, "Always"),
        ("Nginx", "IfNotPresent"),  # does not parse: upstream ignores the error
        ("", "IfNotPresent"),
    ],
)
def test_image_pull_policy_follows_the_tag(image: str, policy: str) -> None:
    assert image_pull_policy(image) == policy


def test_a_registry_with_capitals_is_a_domain() -> None:
    assert image_tag("Registry.example/app:2") == "2"
    assert image_tag("registry.example/App:2") == ""


def test_an_undeclared_pull_policy_follows_the_image_and_a_declared_default_reads_back_undeclared() -> None:
    latest = with_container("", image="nginx")
    assert container_of(latest)["imagePullPolicy"] == "Always"
    declared = with_container("imagePullPolicy: IfNotPresent")  # app:1's default: kept as the default
    assert declared.spec.containers[0].details is NO_CONTAINER_DETAILS
    assert container_of(declared)["imagePullPolicy"] == "IfNotPresent"
    other = with_container("imagePullPolicy: IfNotPresent", image="nginx")
    assert other.spec.containers[0].details.image_pull_policy == "IfNotPresent"


def test_a_pod_that_declares_none_of_them_gets_every_default() -> None:
    pod = pod_of("{containers: [{name: c, image: 'app:1', ports: [{containerPort: 80}]}]}")
    assert pod.spec.containers[0].details is NO_CONTAINER_DETAILS
    spec = spec_of(pod)
    assert spec == {
        "containers": [
            {
                "name": "c",
                "image": "app:1",
                "ports": [{"containerPort": 80, "protocol": "TCP"}],
                "resources": {},
                "terminationMessagePath": "/dev/termination-log",
                "terminationMessagePolicy": "File",
                "imagePullPolicy": "IfNotPresent",
            }
        ],
        "restartPolicy": "Always",
        "terminationGracePeriodSeconds": 30,
        "dnsPolicy": "ClusterFirst",
        "securityContext": {},
        "schedulerName": "default-scheduler",
        "enableServiceLinks": True,  # SetDefaults_Pod
    }
    assert read_back(pod) == pod


def test_probe_defaults() -> None:
    pod = with_container(
        "readinessProbe: {httpGet: {port: 80}, periodSeconds: 0}, livenessProbe: {grpc: {port: 9000}},"
        " startupProbe: {initialDelaySeconds: 5}"
    )
    written = container_of(pod)
    timings = {"timeoutSeconds": 1, "periodSeconds": 10, "successThreshold": 1, "failureThreshold": 3}
    assert written["readinessProbe"] == {"httpGet": {"path": "/", "port": 80, "scheme": "HTTP"}, **timings}
    assert written["livenessProbe"] == {"grpc": {"port": 9000, "service": ""}, **timings}
    assert pod.spec.containers[0].details.liveness_probe == Probe(handler=GRPCAction(9000))
    # without a handler (which the API server refuses, and scenarios use to time readiness): kept
    assert written["startupProbe"] == {"initialDelaySeconds": 5, **timings}
    assert read_back(pod) == pod


def test_a_pod_on_the_host_network_gets_its_ports_as_host_ports() -> None:
    pod = pod_of(
        "{hostNetwork: true, containers: [{name: c, ports: [{containerPort: 80}, {containerPort: 81, hostPort: 81}]}]}"
    )
    assert [port.host_port for port in pod.spec.containers[0].ports] == [80, 81]


DEPLOYMENT = """
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      hostNetwork: true
      containers: [{name: nginx, image: nginx, ports: [{containerPort: 80}]}]
"""


def test_a_template_gets_the_pod_spec_and_container_defaults_not_the_pods() -> None:
    (manifest,) = load_manifests(DEPLOYMENT)
    deployment = manifest.object
    assert isinstance(deployment, Deployment)
    template = object_manifest(deployment)["spec"]["template"]["spec"]
    assert template == {
        "containers": [
            {
                "name": "nginx",
                "image": "nginx",
                "ports": [{"containerPort": 80, "protocol": "TCP"}],  # no host port: SetDefaults_Pod's
                "resources": {},
                "terminationMessagePath": "/dev/termination-log",
                "terminationMessagePolicy": "File",
                "imagePullPolicy": "Always",
            }
        ],
        "restartPolicy": "Always",
        "terminationGracePeriodSeconds": 30,
        "dnsPolicy": "ClusterFirst",
        "hostNetwork": True,
        "securityContext": {},
        "schedulerName": "default-scheduler",
    }  # no enableServiceLinks, service account, priority: a pod's, not a template's
    (again,) = load_manifests(json.dumps(object_manifest(deployment)))
    assert isinstance(again.object, Deployment) and again.object.spec.template == deployment.spec.template


def test_a_template_without_the_new_fields_hashes_as_before() -> None:
    """The fields kept since (details, volume sources, probe handlers) enter a template's hash only
    when declared: the pod-template-hash, and so the names of its ReplicaSets and pods, stay."""
    (manifest,) = load_manifests(
        """
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]
      containers:
      - name: nginx
        image: nginx:1.27
        ports: [{containerPort: 80}]
        resources: {requests: {cpu: 100m}}
        readinessProbe: {initialDelaySeconds: 5}
"""
    )
    assert isinstance(manifest.object, Deployment)
    template = manifest.object.spec.template
    assert template.spec.details is NO_POD_DETAILS
    assert template_hash(template) == "79b9fc649c"  # the engine's hash of it before they were kept
    declared_env = pod_of("{containers: [{name: nginx, env: [{name: A, value: b}]}]}").spec
    with_env = PodTemplateSpec(template.labels, template.annotations, declared_env)
    assert template_hash(with_env) != template_hash(template)


# ---------------------------------------------------------------------------- refused


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ("readinessProbe: {exec: {command: [a]}, tcpSocket: {port: 1}}", "may not specify more than 1 handler type"),
        ("readinessProbe: {httpGet: {path: /}}", "port: Required value"),
        ("readinessProbe: {httpGet: {port: 70000}}", "must be between 1 and 65535"),
        ("readinessProbe: {httpGet: {port: 80, scheme: FTP}}", 'Unsupported value: "FTP"'),
        ("livenessProbe: {exec: {}, terminationGracePeriodSeconds: 0}", "must be greater than 0"),
        ("env: [{value: x}]", r"env\[0\]\.name: Required value"),
        ("env: [{name: A, value: x, valueFrom: {fieldRef: {fieldPath: a}}}]", "may not be specified when `value`"),
        ("env: [{name: A, valueFrom: {}}]", "must specify one of"),
        ("envFrom: [{configMapRef: {name: a}, secretRef: {name: b}}]", "may not have more than one field"),
        ("volumeMounts: [{name: a}]", "mountPath: Required value"),
        ("volumeMounts: [{name: a, mountPath: /a, mountPropagation: Sideways}]", 'Unsupported value: "Sideways"'),
        ("imagePullPolicy: Sometimes", 'Unsupported value: "Sometimes"'),
        ("env: [{name: A, valueFrom: {resourceFieldRef: {resource: limits.cpu, divisor: lots}}}]", "invalid quantity"),
    ],
)
def test_what_the_api_server_refuses_in_a_container(fields: str, message: str) -> None:
    with pytest.raises(ManifestError, match=message):
        with_container(fields)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("dnsPolicy: Sometimes", 'Unsupported value: "Sometimes"'),
        ("serviceAccountName: Not_Valid", "RFC 1123 subdomain"),
        ("volumes: [{name: v, configMap: {name: a}, secret: {secretName: b}}]", "more than 1 volume type"),
        ("volumes: [{name: v, persistentVolumeClaim: {}}]", "claimName: Required value"),
        ("volumes: [{name: v, cephs: {}}]", 'unknown field "spec.volumes\\[0\\].cephs"'),
    ],
)
def test_what_the_api_server_refuses_in_a_pod_spec(spec: str, message: str) -> None:
    with pytest.raises(ManifestError, match=message):
        pod_of(f"{{{spec}, containers: [{{name: c}}]}}")
