"""Decoding Kubernetes protobuf request bodies (``Content-Type: application/vnd.kubernetes.protobuf``)
into the JSON-shaped dicts the API's JSON bodies give.

kubectl's typed clients send their bodies as Kubernetes protobuf and client-go does not fall back to
JSON, so the API must read it: kubectl v1.34 POSTs protobuf for ``kubectl create
deployment|service|job|cronjob|namespace|quota|pdb|priorityclass|ingress`` and ``kubectl autoscale``
(``kubectl run``, ``expose``, ``delete`` and ``drain``'s Eviction went as JSON when recorded; Eviction
and DeleteOptions are decoded all the same). Only decoding is done: answers stay JSON.

A body is the 4-byte magic ``b"k8s\\x00"`` and then a ``runtime.Unknown`` message (apimachinery
pkg/runtime/generated.proto: typeMeta{apiVersion=1, kind=2}=1, raw=2, contentEncoding=3,
contentType=4); ``raw`` is the object's own message, chosen by typeMeta's (apiVersion, kind) in
``KINDS``. The object comes back as its JSON form: ``apiVersion`` and ``kind`` first, then the fields
under the JSON names of their Go json tags, inlined structs (``json:",inline"``) merged into their
parent, and unset fields left out.

``MESSAGES`` is the table of message descriptors: for each message, field number -> (JSON name, kind)
or (JSON name, kind, "omitempty"). A kind is a scalar (``string``; ``bytes``, base64 in JSON;
``int32``, ``int64``, ``bool``, ``double``, ``float``; ``json``, bytes holding a JSON value), a message
name (``core.v1.PodSpec``), ``[]<kind>`` for a repeated field (packed runs of scalars are read too) or
``map[string]<kind>`` for a map (on the wire, repeated entry messages key=1 value=2). A JSON name ""
marks an inlined struct. "omitempty" marks a non-pointer Go scalar whose json tag has
omitempty: k8s' gogo marshalling always writes such a field, so its zero value ("", 0, false) is left
out as JSON would leave it out; pointer fields keep their zero (``replicas: 0``,
``gracePeriodSeconds: 0``).

Field numbers and types come from the generated.proto files, JSON names, omitempty and inlining from
the Go json tags of types.go, of Kubernetes v1.34.10:

* kubernetes/api tag v0.34.10, commit 06d3e85b84ef86973ad19a2d7976995bd3908226 (the published
  staging/src/k8s.io/api of kubernetes/kubernetes v1.34.10): core/v1, apps/v1, batch/v1, policy/v1,
  autoscaling/v1, autoscaling/v2, scheduling/v1, networking/v1, storage/v1 generated.proto + types.go;
* kubernetes/apimachinery tag v0.34.10, commit 57ea95fcdaa372b20bbb922fa22a8dbd2f4b87db:
  pkg/apis/meta/v1/generated.proto + types.go + time_proto.go + micro_time_proto.go,
  pkg/runtime/generated.proto, pkg/util/intstr/generated.proto, pkg/api/resource/generated.proto.

The table holds every message reachable from the kinds of ``KINDS`` except the objects' ``status``
(clients do not send it when they create or update an object; the field is skipped like any unknown
one). Upstream's round-trip fixtures of that tag (testdata/HEAD/<group>.<version>.<Kind>.pb against
the .json next to it) decode to their .json, less the status.

Special messages: ``meta.v1.Time`` {seconds=1, nanos=2} -> RFC 3339 string at seconds precision
(nanos are dropped, as upstream's Time drops them), an empty Time (the zero time, JSON null) left
out; ``meta.v1.MicroTime`` likewise with microseconds; ``resource.Quantity`` {string=1} -> its string;
``intstr.IntOrString`` {type=1 (0 int, 1 string), intVal=2, strVal=3} -> int or str;
``meta.v1.FieldsV1`` {Raw=1} -> the JSON value its bytes hold.

Decoding is bounded and never trusts the input: a body over 3 MiB, messages nested deeper than 64,
a length or varint running past its buffer, a bad wire type or a field of the wrong wire type is a
``ProtobufError``, whose message fits a 400 BadRequest. Unknown field numbers (and the fields of
messages not in the table) are skipped. Strings are decoded as UTF-8 with replacement, as Go's
JSON encoder replaces invalid bytes.
"""

import base64
import json
import struct
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Final

MAGIC: Final = b"k8s\x00"
MAX_BODY_BYTES: Final = 3 << 20  # the API server's limit on a request body
MAX_DEPTH: Final = 64

CONTENT_TYPE: Final = "application/vnd.kubernetes.protobuf"


class ProtobufError(ValueError):
    """A body that is not a Kubernetes protobuf object this API can read; str() is the 400's message."""


# Wire types (https://protobuf.dev/programming-guides/encoding/): groups (3, 4) are not used by k8s.
VARINT: Final = 0
I64: Final = 1
LEN: Final = 2
I32: Final = 5

Entry = tuple[str, str] | tuple[str, str, str]


MESSAGES: Final[dict[str, dict[int, Entry]]] = {
    # Special messages (see the module docstring): their wire form here, their JSON form in _SPECIAL.
    "meta.v1.Time": {
        1: ("seconds", "int64"),
        2: ("nanos", "int32"),
    },
    "meta.v1.MicroTime": {
        1: ("seconds", "int64"),
        2: ("nanos", "int32"),
    },
    "meta.v1.FieldsV1": {
        1: ("Raw", "json"),
    },
    "resource.Quantity": {
        1: ("string", "string"),
    },
    "intstr.IntOrString": {
        1: ("type", "int64"),
        2: ("intVal", "int32"),
        3: ("strVal", "string"),
    },
    # k8s.io/api core/v1 generated.proto
    "core.v1.AWSElasticBlockStoreVolumeSource": {
        1: ("volumeID", "string"),
        2: ("fsType", "string", "omitempty"),
        3: ("partition", "int32", "omitempty"),
        4: ("readOnly", "bool", "omitempty"),
    },
    "core.v1.Affinity": {
        1: ("nodeAffinity", "core.v1.NodeAffinity"),
        2: ("podAffinity", "core.v1.PodAffinity"),
        3: ("podAntiAffinity", "core.v1.PodAntiAffinity"),
    },
    "core.v1.AppArmorProfile": {
        1: ("type", "string"),
        2: ("localhostProfile", "string"),
    },
    "core.v1.AzureDiskVolumeSource": {
        1: ("diskName", "string"),
        2: ("diskURI", "string"),
        3: ("cachingMode", "string"),
        4: ("fsType", "string"),
        5: ("readOnly", "bool"),
        6: ("kind", "string"),
    },
    "core.v1.AzureFilePersistentVolumeSource": {
        1: ("secretName", "string"),
        2: ("shareName", "string"),
        3: ("readOnly", "bool", "omitempty"),
        4: ("secretNamespace", "string"),
    },
    "core.v1.AzureFileVolumeSource": {
        1: ("secretName", "string"),
        2: ("shareName", "string"),
        3: ("readOnly", "bool", "omitempty"),
    },
    "core.v1.Binding": {
        1: ("metadata", "meta.v1.ObjectMeta"),
        2: ("target", "core.v1.ObjectReference"),
    },
    "core.v1.CSIPersistentVolumeSource": {
        1: ("driver", "string"),
        2: ("volumeHandle", "string"),
        3: ("readOnly", "bool", "omitempty"),
        4: ("fsType", "string", "omitempty"),
        5: ("volumeAttributes", "map[string]string"),
        6: ("controllerPublishSecretRef", "core.v1.SecretReference"),
        7: ("nodeStageSecretRef", "core.v1.SecretReference"),
        8: ("nodePublishSecretRef", "core.v1.SecretReference"),
        9: ("controllerExpandSecretRef", "core.v1.SecretReference"),
        10: ("nodeExpandSecretRef", "core.v1.SecretReference"),
    },
    "core.v1.CSIVolumeSource": {
        1: ("driver", "string"),
        2: ("readOnly", "bool"),
        3: ("fsType", "string"),
        4: ("volumeAttributes", "map[string]string"),
        5: ("nodePublishSecretRef", "core.v1.LocalObjectReference"),
    },
    "core.v1.Capabilities": {
        1: ("add", "[]string"),
        2: ("drop", "[]string"),
    },
    "core.v1.CephFSPersistentVolumeSource": {
        1: ("monitors", "[]string"),
        2: ("path", "string", "omitempty"),
        3: ("user", "string", "omitempty"),
        4: ("secretFile", "string", "omitempty"),
        5: ("secretRef", "core.v1.SecretReference"),
        6: ("readOnly", "bool", "omitempty"),
    },
    "core.v1.CephFSVolumeSource": {
        1: ("monitors", "[]string"),
        2: ("path", "string", "omitempty"),
        3: ("user", "string", "omitempty"),
        4: ("secretFile", "string", "omitempty"),
        5: ("secretRef", "core.v1.LocalObjectReference"),
        6: ("readOnly", "bool", "omitempty"),
    },
    "core.v1.CinderPersistentVolumeSource": {
        1: ("volumeID", "string"),
        2: ("fsType", "string", "omitempty"),
        3: ("readOnly", "bool", "omitempty"),
        4: ("secretRef", "core.v1.SecretReference"),
    },
    "core.v1.CinderVolumeSource": {
        1: ("volumeID", "string"),
        2: ("fsType", "string", "omitempty"),
        3: ("readOnly", "bool", "omitempty"),
        4: ("secretRef", "core.v1.LocalObjectReference"),
    },
    "core.v1.ClientIPConfig": {
        1: ("timeoutSeconds", "int32"),
    },
    "core.v1.ClusterTrustBundleProjection": {
        1: ("name", "string"),
        2: ("signerName", "string"),
        3: ("labelSelector", "meta.v1.LabelSelector"),
        4: ("path", "string"),
        5: ("optional", "bool"),
    },
    "core.v1.ConfigMapEnvSource": {
        1: ("", "core.v1.LocalObjectReference"),
        2: ("optional", "bool"),
    },
    "core.v1.ConfigMapKeySelector": {
        1: ("", "core.v1.LocalObjectReference"),
        2: ("key", "string"),
        3: ("optional", "bool"),
    },
    "core.v1.ConfigMapNodeConfigSource": {
        1: ("namespace", "string"),
        2: ("name", "string"),
        3: ("uid", "string", "omitempty"),
        4: ("resourceVersion", "string", "omitempty"),
        5: ("kubeletConfigKey", "string"),
    },
    "core.v1.ConfigMapProjection": {
        1: ("", "core.v1.LocalObjectReference"),
        2: ("items", "[]core.v1.KeyToPath"),
        4: ("optional", "bool"),
    },
    "core.v1.ConfigMapVolumeSource": {
        1: ("", "core.v1.LocalObjectReference"),
        2: ("items", "[]core.v1.KeyToPath"),
        3: ("defaultMode", "int32"),
        4: ("optional", "bool"),
    },
    "core.v1.Container": {
        1: ("name", "string"),
        2: ("image", "string", "omitempty"),
        3: ("command", "[]string"),
        4: ("args", "[]string"),
        5: ("workingDir", "string", "omitempty"),
        6: ("ports", "[]core.v1.ContainerPort"),
        7: ("env", "[]core.v1.EnvVar"),
        8: ("resources", "core.v1.ResourceRequirements"),
        9: ("volumeMounts", "[]core.v1.VolumeMount"),
        10: ("livenessProbe", "core.v1.Probe"),
        11: ("readinessProbe", "core.v1.Probe"),
        12: ("lifecycle", "core.v1.Lifecycle"),
        13: ("terminationMessagePath", "string", "omitempty"),
        14: ("imagePullPolicy", "string", "omitempty"),
        15: ("securityContext", "core.v1.SecurityContext"),
        16: ("stdin", "bool", "omitempty"),
        17: ("stdinOnce", "bool", "omitempty"),
        18: ("tty", "bool", "omitempty"),
        19: ("envFrom", "[]core.v1.EnvFromSource"),
        20: ("terminationMessagePolicy", "string", "omitempty"),
        21: ("volumeDevices", "[]core.v1.VolumeDevice"),
        22: ("startupProbe", "core.v1.Probe"),
        23: ("resizePolicy", "[]core.v1.ContainerResizePolicy"),
        24: ("restartPolicy", "string"),
        25: ("restartPolicyRules", "[]core.v1.ContainerRestartRule"),
    },
    "core.v1.ContainerPort": {
        1: ("name", "string", "omitempty"),
        2: ("hostPort", "int32", "omitempty"),
        3: ("containerPort", "int32"),
        4: ("protocol", "string", "omitempty"),
        5: ("hostIP", "string", "omitempty"),
    },
    "core.v1.ContainerResizePolicy": {
        1: ("resourceName", "string"),
        2: ("restartPolicy", "string"),
    },
    "core.v1.ContainerRestartRule": {
        1: ("action", "string", "omitempty"),
        2: ("exitCodes", "core.v1.ContainerRestartRuleOnExitCodes"),
    },
    "core.v1.ContainerRestartRuleOnExitCodes": {
        1: ("operator", "string", "omitempty"),
        2: ("values", "[]int32"),
    },
    "core.v1.DownwardAPIProjection": {
        1: ("items", "[]core.v1.DownwardAPIVolumeFile"),
    },
    "core.v1.DownwardAPIVolumeFile": {
        1: ("path", "string"),
        2: ("fieldRef", "core.v1.ObjectFieldSelector"),
        3: ("resourceFieldRef", "core.v1.ResourceFieldSelector"),
        4: ("mode", "int32"),
    },
    "core.v1.DownwardAPIVolumeSource": {
        1: ("items", "[]core.v1.DownwardAPIVolumeFile"),
        2: ("defaultMode", "int32"),
    },
    "core.v1.EmptyDirVolumeSource": {
        1: ("medium", "string", "omitempty"),
        2: ("sizeLimit", "resource.Quantity"),
    },
    "core.v1.EnvFromSource": {
        1: ("prefix", "string", "omitempty"),
        2: ("configMapRef", "core.v1.ConfigMapEnvSource"),
        3: ("secretRef", "core.v1.SecretEnvSource"),
    },
    "core.v1.EnvVar": {
        1: ("name", "string"),
        2: ("value", "string", "omitempty"),
        3: ("valueFrom", "core.v1.EnvVarSource"),
    },
    "core.v1.EnvVarSource": {
        1: ("fieldRef", "core.v1.ObjectFieldSelector"),
        2: ("resourceFieldRef", "core.v1.ResourceFieldSelector"),
        3: ("configMapKeyRef", "core.v1.ConfigMapKeySelector"),
        4: ("secretKeyRef", "core.v1.SecretKeySelector"),
        5: ("fileKeyRef", "core.v1.FileKeySelector"),
    },
    "core.v1.EphemeralContainer": {
        1: ("", "core.v1.EphemeralContainerCommon"),
        2: ("targetContainerName", "string", "omitempty"),
    },
    "core.v1.EphemeralContainerCommon": {
        1: ("name", "string"),
        2: ("image", "string", "omitempty"),
        3: ("command", "[]string"),
        4: ("args", "[]string"),
        5: ("workingDir", "string", "omitempty"),
        6: ("ports", "[]core.v1.ContainerPort"),
        7: ("env", "[]core.v1.EnvVar"),
        8: ("resources", "core.v1.ResourceRequirements"),
        9: ("volumeMounts", "[]core.v1.VolumeMount"),
        10: ("livenessProbe", "core.v1.Probe"),
        11: ("readinessProbe", "core.v1.Probe"),
        12: ("lifecycle", "core.v1.Lifecycle"),
        13: ("terminationMessagePath", "string", "omitempty"),
        14: ("imagePullPolicy", "string", "omitempty"),
        15: ("securityContext", "core.v1.SecurityContext"),
        16: ("stdin", "bool", "omitempty"),
        17: ("stdinOnce", "bool", "omitempty"),
        18: ("tty", "bool", "omitempty"),
        19: ("envFrom", "[]core.v1.EnvFromSource"),
        20: ("terminationMessagePolicy", "string", "omitempty"),
        21: ("volumeDevices", "[]core.v1.VolumeDevice"),
        22: ("startupProbe", "core.v1.Probe"),
        23: ("resizePolicy", "[]core.v1.ContainerResizePolicy"),
        24: ("restartPolicy", "string"),
        25: ("restartPolicyRules", "[]core.v1.ContainerRestartRule"),
    },
    "core.v1.EphemeralVolumeSource": {
        1: ("volumeClaimTemplate", "core.v1.PersistentVolumeClaimTemplate"),
    },
    "core.v1.Event": {
        1: ("metadata", "meta.v1.ObjectMeta"),
        2: ("involvedObject", "core.v1.ObjectReference"),
        3: ("reason", "string", "omitempty"),
        4: ("message", "string", "omitempty"),
        5: ("source", "core.v1.EventSource"),
        6: ("firstTimestamp", "meta.v1.Time"),
        7: ("lastTimestamp", "meta.v1.Time"),
        8: ("count", "int32", "omitempty"),
        9: ("type", "string", "omitempty"),
        10: ("eventTime", "meta.v1.MicroTime"),
        11: ("series", "core.v1.EventSeries"),
        12: ("action", "string", "omitempty"),
        13: ("related", "core.v1.ObjectReference"),
        14: ("reportingComponent", "string"),
        15: ("reportingInstance", "string"),
    },
    "core.v1.EventSeries": {
        1: ("count", "int32", "omitempty"),
        2: ("lastObservedTime", "meta.v1.MicroTime"),
    },
    "core.v1.EventSource": {
        1: ("component", "string", "omitempty"),
        2: ("host", "string", "omitempty"),
    },
    "core.v1.ExecAction": {
        1: ("command", "[]string"),
    },
    "core.v1.FCVolumeSource": {
        1: ("targetWWNs", "[]string"),
        2: ("lun", "int32"),
        3: ("fsType", "string", "omitempty"),
        4: ("readOnly", "bool", "omitempty"),
        5: ("wwids", "[]string"),
    },
    "core.v1.FileKeySelector": {
        1: ("volumeName", "string"),
        2: ("path", "string"),
        3: ("key", "string"),
        4: ("optional", "bool"),
    },
    "core.v1.FlexPersistentVolumeSource": {
        1: ("driver", "string"),
        2: ("fsType", "string", "omitempty"),
        3: ("secretRef", "core.v1.SecretReference"),
        4: ("readOnly", "bool", "omitempty"),
        5: ("options", "map[string]string"),
    },
    "core.v1.FlexVolumeSource": {
        1: ("driver", "string"),
        2: ("fsType", "string", "omitempty"),
        3: ("secretRef", "core.v1.LocalObjectReference"),
        4: ("readOnly", "bool", "omitempty"),
        5: ("options", "map[string]string"),
    },
    "core.v1.FlockerVolumeSource": {
        1: ("datasetName", "string", "omitempty"),
        2: ("datasetUUID", "string", "omitempty"),
    },
    "core.v1.GCEPersistentDiskVolumeSource": {
        1: ("pdName", "string"),
        2: ("fsType", "string", "omitempty"),
        3: ("partition", "int32", "omitempty"),
        4: ("readOnly", "bool", "omitempty"),
    },
    "core.v1.GRPCAction": {
        1: ("port", "int32"),
        2: ("service", "string"),
    },
    "core.v1.GitRepoVolumeSource": {
        1: ("repository", "string"),
        2: ("revision", "string", "omitempty"),
        3: ("directory", "string", "omitempty"),
    },
    "core.v1.GlusterfsPersistentVolumeSource": {
        1: ("endpoints", "string"),
        2: ("path", "string"),
        3: ("readOnly", "bool", "omitempty"),
        4: ("endpointsNamespace", "string"),
    },
    "core.v1.GlusterfsVolumeSource": {
        1: ("endpoints", "string"),
        2: ("path", "string"),
        3: ("readOnly", "bool", "omitempty"),
    },
    "core.v1.HTTPGetAction": {
        1: ("path", "string", "omitempty"),
        2: ("port", "intstr.IntOrString"),
        3: ("host", "string", "omitempty"),
        4: ("scheme", "string", "omitempty"),
        5: ("httpHeaders", "[]core.v1.HTTPHeader"),
    },
    "core.v1.HTTPHeader": {
        1: ("name", "string"),
        2: ("value", "string"),
    },
    "core.v1.HostAlias": {
        1: ("ip", "string"),
        2: ("hostnames", "[]string"),
    },
    "core.v1.HostPathVolumeSource": {
        1: ("path", "string"),
        2: ("type", "string"),
    },
    "core.v1.ISCSIPersistentVolumeSource": {
        1: ("targetPortal", "string"),
        2: ("iqn", "string"),
        3: ("lun", "int32"),
        4: ("iscsiInterface", "string", "omitempty"),
        5: ("fsType", "string", "omitempty"),
        6: ("readOnly", "bool", "omitempty"),
        7: ("portals", "[]string"),
        8: ("chapAuthDiscovery", "bool", "omitempty"),
        10: ("secretRef", "core.v1.SecretReference"),
        11: ("chapAuthSession", "bool", "omitempty"),
        12: ("initiatorName", "string"),
    },
    "core.v1.ISCSIVolumeSource": {
        1: ("targetPortal", "string"),
        2: ("iqn", "string"),
        3: ("lun", "int32"),
        4: ("iscsiInterface", "string", "omitempty"),
        5: ("fsType", "string", "omitempty"),
        6: ("readOnly", "bool", "omitempty"),
        7: ("portals", "[]string"),
        8: ("chapAuthDiscovery", "bool", "omitempty"),
        10: ("secretRef", "core.v1.LocalObjectReference"),
        11: ("chapAuthSession", "bool", "omitempty"),
        12: ("initiatorName", "string"),
    },
    "core.v1.ImageVolumeSource": {
        1: ("reference", "string", "omitempty"),
        2: ("pullPolicy", "string", "omitempty"),
    },
    "core.v1.KeyToPath": {
        1: ("key", "string"),
        2: ("path", "string"),
        3: ("mode", "int32"),
    },
    "core.v1.Lifecycle": {
        1: ("postStart", "core.v1.LifecycleHandler"),
        2: ("preStop", "core.v1.LifecycleHandler"),
        3: ("stopSignal", "string"),
    },
    "core.v1.LifecycleHandler": {
        1: ("exec", "core.v1.ExecAction"),
        2: ("httpGet", "core.v1.HTTPGetAction"),
        3: ("tcpSocket", "core.v1.TCPSocketAction"),
        4: ("sleep", "core.v1.SleepAction"),
    },
    "core.v1.LimitRange": {
        1: ("metadata", "meta.v1.ObjectMeta"),
        2: ("spec", "core.v1.LimitRangeSpec"),
    },
    "core.v1.LimitRangeItem": {
        1: ("type", "string"),
        2: ("max", "map[string]resource.Quantity"),
        3: ("min", "map[string]resource.Quantity"),
        4: ("default", "map[string]resource.Quantity"),
        5: ("defaultRequest", "map[string]resource.Quantity"),
        6: ("maxLimitRequestRatio", "map[string]resource.Quantity"),
    },
    "core.v1.LimitRangeSpec": {
        1: ("limits", "[]core.v1.LimitRangeItem"),
    },
    "core.v1.LocalObjectReference": {
        1: ("name", "string", "omitempty"),
    },
    "core.v1.LocalVolumeSource": {
        1: ("path", "string"),
        2: ("fsType", "string"),
    },
    "core.v1.NFSVolumeSource": {
        1: ("server", "string"),
        2: ("path", "string"),
        3: ("readOnly", "bool", "omitempty"),
    },
    "core.v1.Namespace": {
        1: ("metadata", "meta.v1.ObjectMeta"),
        2: ("spec", "core.v1.NamespaceSpec"),
    },
    "core.v1.NamespaceSpec": {
        1: ("finalizers", "[]string"),
    },
    "core.v1.Node": {
        1: ("metadata", "meta.v1.ObjectMeta"),
        2: ("spec", "core.v1.NodeSpec"),
    },
    "core.v1.NodeAffinity": {
        1: ("requiredDuringSchedulingIgnoredDuringExecution", "core.v1.NodeSelector"),
        2: ("preferredDuringSchedulingIgnoredDuringExecution", "[]core.v1.PreferredSchedulingTerm"),
    },
    "core.v1.NodeConfigSource": {
        2: ("configMap", "core.v1.ConfigMapNodeConfigSource"),
    },
    "core.v1.NodeSelector": {
        1: ("nodeSelectorTerms", "[]core.v1.NodeSelectorTerm"),
    },
    "core.v1.NodeSelectorRequirement": {
        1: ("key", "string"),
        2: ("operator", "string"),
        3: ("values", "[]string"),
    },
    "core.v1.NodeSelectorTerm": {
        1: ("matchExpressions", "[]core.v1.NodeSelectorRequirement"),
        2: ("matchFields", "[]core.v1.NodeSelectorRequirement"),
    },
    "core.v1.NodeSpec": {
        1: ("podCIDR", "string", "omitempty"),
        2: ("externalID", "string", "omitempty"),
        3: ("providerID", "string", "omitempty"),
        4: ("unschedulable", "bool", "omitempty"),
        5: ("taints", "[]core.v1.Taint"),
        6: ("configSource", "core.v1.NodeConfigSource"),
        7: ("podCIDRs", "[]string"),
    },
    "core.v1.ObjectFieldSelector": {
        1: ("apiVersion", "string", "omitempty"),
        2: ("fieldPath", "string"),
    },
    "core.v1.ObjectReference": {
        1: ("kind", "string", "omitempty"),
        2: ("namespace", "string", "omitempty"),
        3: ("name", "string", "omitempty"),
        4: ("uid", "string", "omitempty"),
        5: ("apiVersion", "string", "omitempty"),
        6: ("resourceVersion", "string", "omitempty"),
        7: ("fieldPath", "string", "omitempty"),
    },
    "core.v1.PersistentVolume": {
        1: ("metadata", "meta.v1.ObjectMeta"),
        2: ("spec", "core.v1.PersistentVolumeSpec"),
    },
    "core.v1.PersistentVolumeClaim": {
        1: ("metadata", "meta.v1.ObjectMeta"),
        2: ("spec", "core.v1.PersistentVolumeClaimSpec"),
    },
    "core.v1.PersistentVolumeClaimSpec": {
        1: ("accessModes", "[]string"),
        2: ("resources", "core.v1.VolumeResourceRequirements"),
        3: ("volumeName", "string", "omitempty"),
        4: ("selector", "meta.v1.LabelSelector"),
        5: ("storageClassName", "string"),
        6: ("volumeMode", "string"),
        7: ("dataSource", "core.v1.TypedLocalObjectReference"),
        8: ("dataSourceRef", "core.v1.TypedObjectReference"),
        9: ("volumeAttributesClassName", "string"),
    },
    "core.v1.PersistentVolumeClaimTemplate": {
        1: ("metadata", "meta.v1.ObjectMeta"),
        2: ("spec", "core.v1.PersistentVolumeClaimSpec"),
    },
    "core.v1.PersistentVolumeClaimVolumeSource": {
        1: ("claimName", "string"),
        2: ("readOnly", "bool", "omitempty"),
    },
    "core.v1.PersistentVolumeSource": {
        1: ("gcePersistentDisk", "core.v1.GCEPersistentDiskVolumeSource"),
        2: ("awsElasticBlockStore", "core.v1.AWSElasticBlockStoreVolumeSource"),
        3: ("hostPath", "core.v1.HostPathVolumeSource"),
        4: ("glusterfs", "core.v1.GlusterfsPersistentVolumeSource"),
        5: ("nfs", "core.v1.NFSVolumeSource"),
        6: ("rbd", "core.v1.RBDPersistentVolumeSource"),
        7: ("iscsi", "core.v1.ISCSIPersistentVolumeSource"),
        8: ("cinder", "core.v1.CinderPersistentVolumeSource"),
        9: ("cephfs", "core.v1.CephFSPersistentVolumeSource"),
        10: ("fc", "core.v1.FCVolumeSource"),
        11: ("flocker", "core.v1.FlockerVolumeSource"),
        12: ("flexVolume", "core.v1.FlexPersistentVolumeSource"),
        13: ("azureFile", "core.v1.AzureFilePersistentVolumeSource"),
        14: ("vsphereVolume", "core.v1.VsphereVirtualDiskVolumeSource"),
        15: ("quobyte", "core.v1.QuobyteVolumeSource"),
        16: ("azureDisk", "core.v1.AzureDiskVolumeSource"),
        17: ("photonPersistentDisk", "core.v1.PhotonPersistentDiskVolumeSource"),
        18: ("portworxVolume", "core.v1.PortworxVolumeSource"),
        19: ("scaleIO", "core.v1.ScaleIOPersistentVolumeSource"),
        20: ("local", "core.v1.LocalVolumeSource"),
        21: ("storageos", "core.v1.StorageOSPersistentVolumeSource"),
        22: ("csi", "core.v1.CSIPersistentVolumeSource"),
    },
    "core.v1.PersistentVolumeSpec": {
        1: ("capacity", "map[string]resource.Quantity"),
        2: ("", "core.v1.PersistentVolumeSource"),
        3: ("accessModes", "[]string"),
        4: ("claimRef", "core.v1.ObjectReference"),
        5: ("persistentVolumeReclaimPolicy", "string", "omitempty"),
        6: ("storageClassName", "string", "omitempty"),
        7: ("mountOptions", "[]string"),
        8: ("volumeMode", "string"),
        9: ("nodeAffinity", "core.v1.VolumeNodeAffinity"),
        10: ("volumeAttributesClassName", "string"),
    },
    "core.v1.PhotonPersistentDiskVolumeSource": {
        1: ("pdID", "string"),
        2: ("fsType", "string", "omitempty"),
    },
    "core.v1.Pod": {
        1: ("metadata", "meta.v1.ObjectMeta"),
        2: ("spec", "core.v1.PodSpec"),
    },
    "core.v1.PodAffinity": {
        1: ("requiredDuringSchedulingIgnoredDuringExecution", "[]core.v1.PodAffinityTerm"),
        2: ("preferredDuringSchedulingIgnoredDuringExecution", "[]core.v1.WeightedPodAffinityTerm"),
    },
    "core.v1.PodAffinityTerm": {
        1: ("labelSelector", "meta.v1.LabelSelector"),
        2: ("namespaces", "[]string"),
        3: ("topologyKey", "string"),
        4: ("namespaceSelector", "meta.v1.LabelSelector"),
        5: ("matchLabelKeys", "[]string"),
        6: ("mismatchLabelKeys", "[]string"),
    },
    "core.v1.PodAntiAffinity": {
        1: ("requiredDuringSchedulingIgnoredDuringExecution", "[]core.v1.PodAffinityTerm"),
        2: ("preferredDuringSchedulingIgnoredDuringExecution", "[]core.v1.WeightedPodAffinityTerm"),
    },
    "core.v1.PodCertificateProjection": {
        1: ("signerName", "string", "omitempty"),
        2: ("keyType", "string", "omitempty"),
        3: ("maxExpirationSeconds", "int32"),
        4: ("credentialBundlePath", "string", "omitempty"),
        5: ("keyPath", "string", "omitempty"),
        6: ("certificateChainPath", "string", "omitempty"),
    },
    "core.v1.PodDNSConfig": {
        1: ("nameservers", "[]string"),
        2: ("searches", "[]string"),
        3: ("options", "[]core.v1.PodDNSConfigOption"),
    },
    "core.v1.PodDNSConfigOption": {
        1: ("name", "string", "omitempty"),
        2: ("value", "string"),
    },
    "core.v1.PodOS": {
        1: ("name", "string"),
    },
    "core.v1.PodReadinessGate": {
        1: ("conditionType", "string"),
    },
    "core.v1.PodResourceClaim": {
        1: ("name", "string"),
        3: ("resourceClaimName", "string"),
        4: ("resourceClaimTemplateName", "string"),
    },
    "core.v1.PodSchedulingGate": {
        1: ("name", "string"),
    },
    "core.v1.PodSecurityContext": {
        1: ("seLinuxOptions", "core.v1.SELinuxOptions"),
        2: ("runAsUser", "int64"),
        3: ("runAsNonRoot", "bool"),
        4: ("supplementalGroups", "[]int64"),
        5: ("fsGroup", "int64"),
        6: ("runAsGroup", "int64"),
        7: ("sysctls", "[]core.v1.Sysctl"),
        8: ("windowsOptions", "core.v1.WindowsSecurityContextOptions"),
        9: ("fsGroupChangePolicy", "string"),
        10: ("seccompProfile", "core.v1.SeccompProfile"),
        11: ("appArmorProfile", "core.v1.AppArmorProfile"),
        12: ("supplementalGroupsPolicy", "string"),
        13: ("seLinuxChangePolicy", "string"),
    },
    "core.v1.PodSpec": {
        1: ("volumes", "[]core.v1.Volume"),
        2: ("containers", "[]core.v1.Container"),
        3: ("restartPolicy", "string", "omitempty"),
        4: ("terminationGracePeriodSeconds", "int64"),
        5: ("activeDeadlineSeconds", "int64"),
        6: ("dnsPolicy", "string", "omitempty"),
        7: ("nodeSelector", "map[string]string"),
        8: ("serviceAccountName", "string", "omitempty"),
        9: ("serviceAccount", "string", "omitempty"),
        10: ("nodeName", "string", "omitempty"),
        11: ("hostNetwork", "bool", "omitempty"),
        12: ("hostPID", "bool", "omitempty"),
        13: ("hostIPC", "bool", "omitempty"),
        14: ("securityContext", "core.v1.PodSecurityContext"),
        15: ("imagePullSecrets", "[]core.v1.LocalObjectReference"),
        16: ("hostname", "string", "omitempty"),
        17: ("subdomain", "string", "omitempty"),
        18: ("affinity", "core.v1.Affinity"),
        19: ("schedulerName", "string", "omitempty"),
        20: ("initContainers", "[]core.v1.Container"),
        21: ("automountServiceAccountToken", "bool"),
        22: ("tolerations", "[]core.v1.Toleration"),
        23: ("hostAliases", "[]core.v1.HostAlias"),
        24: ("priorityClassName", "string", "omitempty"),
        25: ("priority", "int32"),
        26: ("dnsConfig", "core.v1.PodDNSConfig"),
        27: ("shareProcessNamespace", "bool"),
        28: ("readinessGates", "[]core.v1.PodReadinessGate"),
        29: ("runtimeClassName", "string"),
        30: ("enableServiceLinks", "bool"),
        31: ("preemptionPolicy", "string"),
        32: ("overhead", "map[string]resource.Quantity"),
        33: ("topologySpreadConstraints", "[]core.v1.TopologySpreadConstraint"),
        34: ("ephemeralContainers", "[]core.v1.EphemeralContainer"),
        35: ("setHostnameAsFQDN", "bool"),
        36: ("os", "core.v1.PodOS"),
        37: ("hostUsers", "bool"),
        38: ("schedulingGates", "[]core.v1.PodSchedulingGate"),
        39: ("resourceClaims", "[]core.v1.PodResourceClaim"),
        40: ("resources", "core.v1.ResourceRequirements"),
        41: ("hostnameOverride", "string"),
    },
    "core.v1.PodTemplateSpec": {
        1: ("metadata", "meta.v1.ObjectMeta"),
        2: ("spec", "core.v1.PodSpec"),
    },
    "core.v1.PortworxVolumeSource": {
        1: ("volumeID", "string"),
        2: ("fsType", "string", "omitempty"),
        3: ("readOnly", "bool", "omitempty"),
    },
    "core.v1.PreferredSchedulingTerm": {
        1: ("weight", "int32"),
        2: ("preference", "core.v1.NodeSelectorTerm"),
    },
    "core.v1.Probe": {
        1: ("", "core.v1.ProbeHandler"),
        2: ("initialDelaySeconds", "int32", "omitempty"),
        3: ("timeoutSeconds", "int32", "omitempty"),
        4: ("periodSeconds", "int32", "omitempty"),
        5: ("successThreshold", "int32", "omitempty"),
        6: ("failureThreshold", "int32", "omitempty"),
        7: ("terminationGracePeriodSeconds", "int64"),
    },
    "core.v1.ProbeHandler": {
        1: ("exec", "core.v1.ExecAction"),
        2: ("httpGet", "core.v1.HTTPGetAction"),
        3: ("tcpSocket", "core.v1.TCPSocketAction"),
        4: ("grpc", "core.v1.GRPCAction"),
    },
    "core.v1.ProjectedVolumeSource": {
        1: ("sources", "[]core.v1.VolumeProjection"),
        2: ("defaultMode", "int32"),
    },
    "core.v1.QuobyteVolumeSource": {
        1: ("registry", "string"),
        2: ("volume", "string"),
        3: ("readOnly", "bool", "omitempty"),
        4: ("user", "string", "omitempty"),
        5: ("group", "string", "omitempty"),
        6: ("tenant", "string", "omitempty"),
    },
    "core.v1.RBDPersistentVolumeSource": {
        1: ("monitors", "[]string"),
        2: ("image", "string"),
        3: ("fsType", "string", "omitempty"),
        4: ("pool", "string", "omitempty"),
        5: ("user", "string", "omitempty"),
        6: ("keyring", "string", "omitempty"),
        7: ("secretRef", "core.v1.SecretReference"),
        8: ("readOnly", "bool", "omitempty"),
    },
    "core.v1.RBDVolumeSource": {
        1: ("monitors", "[]string"),
        2: ("image", "string"),
        3: ("fsType", "string", "omitempty"),
        4: ("pool", "string", "omitempty"),
        5: ("user", "string", "omitempty"),
        6: ("keyring", "string", "omitempty"),
        7: ("secretRef", "core.v1.LocalObjectReference"),
        8: ("readOnly", "bool", "omitempty"),
    },
    "core.v1.ResourceClaim": {
        1: ("name", "string"),
        2: ("request", "string", "omitempty"),
    },
    "core.v1.ResourceFieldSelector": {
        1: ("containerName", "string", "omitempty"),
        2: ("resource", "string"),
        3: ("divisor", "resource.Quantity"),
    },
    "core.v1.ResourceQuota": {
        1: ("metadata", "meta.v1.ObjectMeta"),
        2: ("spec", "core.v1.ResourceQuotaSpec"),
    },
    "core.v1.ResourceQuotaSpec": {
        1: ("hard", "map[string]resource.Quantity"),
        2: ("scopes", "[]string"),
        3: ("scopeSelector", "core.v1.ScopeSelector"),
    },
    "core.v1.ResourceRequirements": {
        1: ("limits", "map[string]resource.Quantity"),
        2: ("requests", "map[string]resource.Quantity"),
        3: ("claims", "[]core.v1.ResourceClaim"),
    },
    "core.v1.SELinuxOptions": {
        1: ("user", "string", "omitempty"),
        2: ("role", "string", "omitempty"),
        3: ("type", "string", "omitempty"),
        4: ("level", "string", "omitempty"),
    },
    "core.v1.ScaleIOPersistentVolumeSource": {
        1: ("gateway", "string"),
        2: ("system", "string"),
        3: ("secretRef", "core.v1.SecretReference"),
        4: ("sslEnabled", "bool", "omitempty"),
        5: ("protectionDomain", "string", "omitempty"),
        6: ("storagePool", "string", "omitempty"),
        7: ("storageMode", "string", "omitempty"),
        8: ("volumeName", "string", "omitempty"),
        9: ("fsType", "string", "omitempty"),
        10: ("readOnly", "bool", "omitempty"),
    },
    "core.v1.ScaleIOVolumeSource": {
        1: ("gateway", "string"),
        2: ("system", "string"),
        3: ("secretRef", "core.v1.LocalObjectReference"),
        4: ("sslEnabled", "bool", "omitempty"),
        5: ("protectionDomain", "string", "omitempty"),
        6: ("storagePool", "string", "omitempty"),
        7: ("storageMode", "string", "omitempty"),
        8: ("volumeName", "string", "omitempty"),
        9: ("fsType", "string", "omitempty"),
        10: ("readOnly", "bool", "omitempty"),
    },
    "core.v1.ScopeSelector": {
        1: ("matchExpressions", "[]core.v1.ScopedResourceSelectorRequirement"),
    },
    "core.v1.ScopedResourceSelectorRequirement": {
        1: ("scopeName", "string"),
        2: ("operator", "string"),
        3: ("values", "[]string"),
    },
    "core.v1.SeccompProfile": {
        1: ("type", "string"),
        2: ("localhostProfile", "string"),
    },
    "core.v1.SecretEnvSource": {
        1: ("", "core.v1.LocalObjectReference"),
        2: ("optional", "bool"),
    },
    "core.v1.SecretKeySelector": {
        1: ("", "core.v1.LocalObjectReference"),
        2: ("key", "string"),
        3: ("optional", "bool"),
    },
    "core.v1.SecretProjection": {
        1: ("", "core.v1.LocalObjectReference"),
        2: ("items", "[]core.v1.KeyToPath"),
        4: ("optional", "bool"),
    },
    "core.v1.SecretReference": {
        1: ("name", "string", "omitempty"),
        2: ("namespace", "string", "omitempty"),
    },
    "core.v1.SecretVolumeSource": {
        1: ("secretName", "string", "omitempty"),
        2: ("items", "[]core.v1.KeyToPath"),
        3: ("defaultMode", "int32"),
        4: ("optional", "bool"),
    },
    "core.v1.SecurityContext": {
        1: ("capabilities", "core.v1.Capabilities"),
        2: ("privileged", "bool"),
        3: ("seLinuxOptions", "core.v1.SELinuxOptions"),
        4: ("runAsUser", "int64"),
        5: ("runAsNonRoot", "bool"),
        6: ("readOnlyRootFilesystem", "bool"),
        7: ("allowPrivilegeEscalation", "bool"),
        8: ("runAsGroup", "int64"),
        9: ("procMount", "string"),
        10: ("windowsOptions", "core.v1.WindowsSecurityContextOptions"),
        11: ("seccompProfile", "core.v1.SeccompProfile"),
        12: ("appArmorProfile", "core.v1.AppArmorProfile"),
    },
    "core.v1.Service": {
        1: ("metadata", "meta.v1.ObjectMeta"),
        2: ("spec", "core.v1.ServiceSpec"),
    },
    "core.v1.ServiceAccountTokenProjection": {
        1: ("audience", "string", "omitempty"),
        2: ("expirationSeconds", "int64"),
        3: ("path", "string"),
    },
    "core.v1.ServicePort": {
        1: ("name", "string", "omitempty"),
        2: ("protocol", "string", "omitempty"),
        3: ("port", "int32"),
        4: ("targetPort", "intstr.IntOrString"),
        5: ("nodePort", "int32", "omitempty"),
        6: ("appProtocol", "string"),
    },
    "core.v1.ServiceSpec": {
        1: ("ports", "[]core.v1.ServicePort"),
        2: ("selector", "map[string]string"),
        3: ("clusterIP", "string", "omitempty"),
        4: ("type", "string", "omitempty"),
        5: ("externalIPs", "[]string"),
        7: ("sessionAffinity", "string", "omitempty"),
        8: ("loadBalancerIP", "string", "omitempty"),
        9: ("loadBalancerSourceRanges", "[]string"),
        10: ("externalName", "string", "omitempty"),
        11: ("externalTrafficPolicy", "string", "omitempty"),
        12: ("healthCheckNodePort", "int32", "omitempty"),
        13: ("publishNotReadyAddresses", "bool", "omitempty"),
        14: ("sessionAffinityConfig", "core.v1.SessionAffinityConfig"),
        17: ("ipFamilyPolicy", "string"),
        18: ("clusterIPs", "[]string"),
        19: ("ipFamilies", "[]string"),
        20: ("allocateLoadBalancerNodePorts", "bool"),
        21: ("loadBalancerClass", "string"),
        22: ("internalTrafficPolicy", "string"),
        23: ("trafficDistribution", "string"),
    },
    "core.v1.SessionAffinityConfig": {
        1: ("clientIP", "core.v1.ClientIPConfig"),
    },
    "core.v1.SleepAction": {
        1: ("seconds", "int64"),
    },
    "core.v1.StorageOSPersistentVolumeSource": {
        1: ("volumeName", "string", "omitempty"),
        2: ("volumeNamespace", "string", "omitempty"),
        3: ("fsType", "string", "omitempty"),
        4: ("readOnly", "bool", "omitempty"),
        5: ("secretRef", "core.v1.ObjectReference"),
    },
    "core.v1.StorageOSVolumeSource": {
        1: ("volumeName", "string", "omitempty"),
        2: ("volumeNamespace", "string", "omitempty"),
        3: ("fsType", "string", "omitempty"),
        4: ("readOnly", "bool", "omitempty"),
        5: ("secretRef", "core.v1.LocalObjectReference"),
    },
    "core.v1.Sysctl": {
        1: ("name", "string"),
        2: ("value", "string"),
    },
    "core.v1.TCPSocketAction": {
        1: ("port", "intstr.IntOrString"),
        2: ("host", "string", "omitempty"),
    },
    "core.v1.Taint": {
        1: ("key", "string"),
        2: ("value", "string", "omitempty"),
        3: ("effect", "string"),
        4: ("timeAdded", "meta.v1.Time"),
    },
    "core.v1.Toleration": {
        1: ("key", "string", "omitempty"),
        2: ("operator", "string", "omitempty"),
        3: ("value", "string", "omitempty"),
        4: ("effect", "string", "omitempty"),
        5: ("tolerationSeconds", "int64"),
    },
    "core.v1.TopologySelectorLabelRequirement": {
        1: ("key", "string"),
        2: ("values", "[]string"),
    },
    "core.v1.TopologySelectorTerm": {
        1: ("matchLabelExpressions", "[]core.v1.TopologySelectorLabelRequirement"),
    },
    "core.v1.TopologySpreadConstraint": {
        1: ("maxSkew", "int32"),
        2: ("topologyKey", "string"),
        3: ("whenUnsatisfiable", "string"),
        4: ("labelSelector", "meta.v1.LabelSelector"),
        5: ("minDomains", "int32"),
        6: ("nodeAffinityPolicy", "string"),
        7: ("nodeTaintsPolicy", "string"),
        8: ("matchLabelKeys", "[]string"),
    },
    "core.v1.TypedLocalObjectReference": {
        1: ("apiGroup", "string"),
        2: ("kind", "string"),
        3: ("name", "string"),
    },
    "core.v1.TypedObjectReference": {
        1: ("apiGroup", "string"),
        2: ("kind", "string"),
        3: ("name", "string"),
        4: ("namespace", "string"),
    },
    "core.v1.Volume": {
        1: ("name", "string"),
        2: ("", "core.v1.VolumeSource"),
    },
    "core.v1.VolumeDevice": {
        1: ("name", "string"),
        2: ("devicePath", "string"),
    },
    "core.v1.VolumeMount": {
        1: ("name", "string"),
        2: ("readOnly", "bool", "omitempty"),
        3: ("mountPath", "string"),
        4: ("subPath", "string", "omitempty"),
        5: ("mountPropagation", "string"),
        6: ("subPathExpr", "string", "omitempty"),
        7: ("recursiveReadOnly", "string"),
    },
    "core.v1.VolumeNodeAffinity": {
        1: ("required", "core.v1.NodeSelector"),
    },
    "core.v1.VolumeProjection": {
        1: ("secret", "core.v1.SecretProjection"),
        2: ("downwardAPI", "core.v1.DownwardAPIProjection"),
        3: ("configMap", "core.v1.ConfigMapProjection"),
        4: ("serviceAccountToken", "core.v1.ServiceAccountTokenProjection"),
        5: ("clusterTrustBundle", "core.v1.ClusterTrustBundleProjection"),
        6: ("podCertificate", "core.v1.PodCertificateProjection"),
    },
    "core.v1.VolumeResourceRequirements": {
        1: ("limits", "map[string]resource.Quantity"),
        2: ("requests", "map[string]resource.Quantity"),
    },
    "core.v1.VolumeSource": {
        1: ("hostPath", "core.v1.HostPathVolumeSource"),
        2: ("emptyDir", "core.v1.EmptyDirVolumeSource"),
        3: ("gcePersistentDisk", "core.v1.GCEPersistentDiskVolumeSource"),
        4: ("awsElasticBlockStore", "core.v1.AWSElasticBlockStoreVolumeSource"),
        5: ("gitRepo", "core.v1.GitRepoVolumeSource"),
        6: ("secret", "core.v1.SecretVolumeSource"),
        7: ("nfs", "core.v1.NFSVolumeSource"),
        8: ("iscsi", "core.v1.ISCSIVolumeSource"),
        9: ("glusterfs", "core.v1.GlusterfsVolumeSource"),
        10: ("persistentVolumeClaim", "core.v1.PersistentVolumeClaimVolumeSource"),
        11: ("rbd", "core.v1.RBDVolumeSource"),
        12: ("flexVolume", "core.v1.FlexVolumeSource"),
        13: ("cinder", "core.v1.CinderVolumeSource"),
        14: ("cephfs", "core.v1.CephFSVolumeSource"),
        15: ("flocker", "core.v1.FlockerVolumeSource"),
        16: ("downwardAPI", "core.v1.DownwardAPIVolumeSource"),
        17: ("fc", "core.v1.FCVolumeSource"),
        18: ("azureFile", "core.v1.AzureFileVolumeSource"),
        19: ("configMap", "core.v1.ConfigMapVolumeSource"),
        20: ("vsphereVolume", "core.v1.VsphereVirtualDiskVolumeSource"),
        21: ("quobyte", "core.v1.QuobyteVolumeSource"),
        22: ("azureDisk", "core.v1.AzureDiskVolumeSource"),
        23: ("photonPersistentDisk", "core.v1.PhotonPersistentDiskVolumeSource"),
        24: ("portworxVolume", "core.v1.PortworxVolumeSource"),
        25: ("scaleIO", "core.v1.ScaleIOVolumeSource"),
        26: ("projected", "core.v1.ProjectedVolumeSource"),
        27: ("storageos", "core.v1.StorageOSVolumeSource"),
        28: ("csi", "core.v1.CSIVolumeSource"),
        29: ("ephemeral", "core.v1.EphemeralVolumeSource"),
        30: ("image", "core.v1.ImageVolumeSource"),
    },
    "core.v1.VsphereVirtualDiskVolumeSource": {
        1: ("volumePath", "string"),
        2: ("fsType", "string", "omitempty"),
        3: ("storagePolicyName", "string", "omitempty"),
        4: ("storagePolicyID", "string", "omitempty"),
    },
    "core.v1.WeightedPodAffinityTerm": {
        1: ("weight", "int32"),
        2: ("podAffinityTerm", "core.v1.PodAffinityTerm"),
    },
    "core.v1.WindowsSecurityContextOptions": {
        1: ("gmsaCredentialSpecName", "string"),
        2: ("gmsaCredentialSpec", "string"),
        3: ("runAsUserName", "string"),
        4: ("hostProcess", "bool"),
    },
    # k8s.io/api apps/v1 generated.proto
    "apps.v1.DaemonSet": {
        1: ("metadata", "meta.v1.ObjectMeta"),
        2: ("spec", "apps.v1.DaemonSetSpec"),
    },
    "apps.v1.DaemonSetSpec": {
        1: ("selector", "meta.v1.LabelSelector"),
        2: ("template", "core.v1.PodTemplateSpec"),
        3: ("updateStrategy", "apps.v1.DaemonSetUpdateStrategy"),
        4: ("minReadySeconds", "int32", "omitempty"),
        6: ("revisionHistoryLimit", "int32"),
    },
    "apps.v1.DaemonSetUpdateStrategy": {
        1: ("type", "string", "omitempty"),
        2: ("rollingUpdate", "apps.v1.RollingUpdateDaemonSet"),
    },
    "apps.v1.Deployment": {
        1: ("metadata", "meta.v1.ObjectMeta"),
        2: ("spec", "apps.v1.DeploymentSpec"),
    },
    "apps.v1.DeploymentSpec": {
        1: ("replicas", "int32"),
        2: ("selector", "meta.v1.LabelSelector"),
        3: ("template", "core.v1.PodTemplateSpec"),
        4: ("strategy", "apps.v1.DeploymentStrategy"),
        5: ("minReadySeconds", "int32", "omitempty"),
        6: ("revisionHistoryLimit", "int32"),
        7: ("paused", "bool", "omitempty"),
        9: ("progressDeadlineSeconds", "int32"),
    },
    "apps.v1.DeploymentStrategy": {
        1: ("type", "string", "omitempty"),
        2: ("rollingUpdate", "apps.v1.RollingUpdateDeployment"),
    },
    "apps.v1.ReplicaSet": {
        1: ("metadata", "meta.v1.ObjectMeta"),
        2: ("spec", "apps.v1.ReplicaSetSpec"),
    },
    "apps.v1.ReplicaSetSpec": {
        1: ("replicas", "int32"),
        2: ("selector", "meta.v1.LabelSelector"),
        3: ("template", "core.v1.PodTemplateSpec"),
        4: ("minReadySeconds", "int32", "omitempty"),
    },
    "apps.v1.RollingUpdateDaemonSet": {
        1: ("maxUnavailable", "intstr.IntOrString"),
        2: ("maxSurge", "intstr.IntOrString"),
    },
    "apps.v1.RollingUpdateDeployment": {
        1: ("maxUnavailable", "intstr.IntOrString"),
        2: ("maxSurge", "intstr.IntOrString"),
    },
    "apps.v1.RollingUpdateStatefulSetStrategy": {
        1: ("partition", "int32"),
        2: ("maxUnavailable", "intstr.IntOrString"),
    },
    "apps.v1.StatefulSet": {
        1: ("metadata", "meta.v1.ObjectMeta"),
        2: ("spec", "apps.v1.StatefulSetSpec"),
    },
    "apps.v1.StatefulSetOrdinals": {
        1: ("start", "int32"),
    },
    "apps.v1.StatefulSetPersistentVolumeClaimRetentionPolicy": {
        1: ("whenDeleted", "string", "omitempty"),
        2: ("whenScaled", "string", "omitempty"),
    },
    "apps.v1.StatefulSetSpec": {
        1: ("replicas", "int32"),
        2: ("selector", "meta.v1.LabelSelector"),
        3: ("template", "core.v1.PodTemplateSpec"),
        4: ("volumeClaimTemplates", "[]core.v1.PersistentVolumeClaim"),
        5: ("serviceName", "string"),
        6: ("podManagementPolicy", "string", "omitempty"),
        7: ("updateStrategy", "apps.v1.StatefulSetUpdateStrategy"),
        8: ("revisionHistoryLimit", "int32"),
        9: ("minReadySeconds", "int32", "omitempty"),
        10: ("persistentVolumeClaimRetentionPolicy", "apps.v1.StatefulSetPersistentVolumeClaimRetentionPolicy"),
        11: ("ordinals", "apps.v1.StatefulSetOrdinals"),
    },
    "apps.v1.StatefulSetUpdateStrategy": {
        1: ("type", "string", "omitempty"),
        2: ("rollingUpdate", "apps.v1.RollingUpdateStatefulSetStrategy"),
    },
    # k8s.io/api batch/v1 generated.proto
    "batch.v1.CronJob": {
        1: ("metadata", "meta.v1.ObjectMeta"),
        2: ("spec", "batch.v1.CronJobSpec"),
    },
    "batch.v1.CronJobSpec": {
        1: ("schedule", "string"),
        2: ("startingDeadlineSeconds", "int64"),
        3: ("concurrencyPolicy", "string", "omitempty"),
        4: ("suspend", "bool"),
        5: ("jobTemplate", "batch.v1.JobTemplateSpec"),
        6: ("successfulJobsHistoryLimit", "int32"),
        7: ("failedJobsHistoryLimit", "int32"),
        8: ("timeZone", "string"),
    },
    "batch.v1.Job": {
        1: ("metadata", "meta.v1.ObjectMeta"),
        2: ("spec", "batch.v1.JobSpec"),
    },
    "batch.v1.JobSpec": {
        1: ("parallelism", "int32"),
        2: ("completions", "int32"),
        3: ("activeDeadlineSeconds", "int64"),
        4: ("selector", "meta.v1.LabelSelector"),
        5: ("manualSelector", "bool"),
        6: ("template", "core.v1.PodTemplateSpec"),
        7: ("backoffLimit", "int32"),
        8: ("ttlSecondsAfterFinished", "int32"),
        9: ("completionMode", "string"),
        10: ("suspend", "bool"),
        11: ("podFailurePolicy", "batch.v1.PodFailurePolicy"),
        12: ("backoffLimitPerIndex", "int32"),
        13: ("maxFailedIndexes", "int32"),
        14: ("podReplacementPolicy", "string"),
        15: ("managedBy", "string"),
        16: ("successPolicy", "batch.v1.SuccessPolicy"),
    },
    "batch.v1.JobTemplateSpec": {
        1: ("metadata", "meta.v1.ObjectMeta"),
        2: ("spec", "batch.v1.JobSpec"),
    },
    "batch.v1.PodFailurePolicy": {
        1: ("rules", "[]batch.v1.PodFailurePolicyRule"),
    },
    "batch.v1.PodFailurePolicyOnExitCodesRequirement": {
        1: ("containerName", "string"),
        2: ("operator", "string"),
        3: ("values", "[]int32"),
    },
    "batch.v1.PodFailurePolicyOnPodConditionsPattern": {
        1: ("type", "string"),
        2: ("status", "string"),
    },
    "batch.v1.PodFailurePolicyRule": {
        1: ("action", "string"),
        2: ("onExitCodes", "batch.v1.PodFailurePolicyOnExitCodesRequirement"),
        3: ("onPodConditions", "[]batch.v1.PodFailurePolicyOnPodConditionsPattern"),
    },
    "batch.v1.SuccessPolicy": {
        1: ("rules", "[]batch.v1.SuccessPolicyRule"),
    },
    "batch.v1.SuccessPolicyRule": {
        1: ("succeededIndexes", "string"),
        2: ("succeededCount", "int32"),
    },
    # k8s.io/api policy/v1 generated.proto
    # k8s.io/api authorization/v1 generated.proto (kubectl auth can-i's reviews)
    "authorization.v1.FieldSelectorAttributes": {
        1: ("rawSelector", "string", "omitempty"),
        2: ("requirements", "[]authorization.v1.FieldSelectorRequirement"),
    },
    "authorization.v1.FieldSelectorRequirement": {
        1: ("key", "string"),
        2: ("operator", "string"),
        3: ("values", "[]string"),
    },
    "authorization.v1.LabelSelectorAttributes": {
        1: ("rawSelector", "string", "omitempty"),
        2: ("requirements", "[]meta.v1.LabelSelectorRequirement"),
    },
    "authorization.v1.NonResourceAttributes": {
        1: ("path", "string", "omitempty"),
        2: ("verb", "string", "omitempty"),
    },
    "authorization.v1.ResourceAttributes": {
        1: ("namespace", "string", "omitempty"),
        2: ("verb", "string", "omitempty"),
        3: ("group", "string", "omitempty"),
        4: ("version", "string", "omitempty"),
        5: ("resource", "string", "omitempty"),
        6: ("subresource", "string", "omitempty"),
        7: ("name", "string", "omitempty"),
        8: ("fieldSelector", "authorization.v1.FieldSelectorAttributes"),
        9: ("labelSelector", "authorization.v1.LabelSelectorAttributes"),
    },
    "authorization.v1.SelfSubjectAccessReview": {
        1: ("metadata", "meta.v1.ObjectMeta"),
        2: ("spec", "authorization.v1.SelfSubjectAccessReviewSpec"),
    },
    "authorization.v1.SelfSubjectAccessReviewSpec": {
        1: ("resourceAttributes", "authorization.v1.ResourceAttributes"),
        2: ("nonResourceAttributes", "authorization.v1.NonResourceAttributes"),
    },
    "authorization.v1.SelfSubjectRulesReview": {
        1: ("metadata", "meta.v1.ObjectMeta"),
        2: ("spec", "authorization.v1.SelfSubjectRulesReviewSpec"),
    },
    "authorization.v1.SelfSubjectRulesReviewSpec": {
        1: ("namespace", "string", "omitempty"),
    },
    "policy.v1.Eviction": {
        1: ("metadata", "meta.v1.ObjectMeta"),
        2: ("deleteOptions", "meta.v1.DeleteOptions"),
    },
    "policy.v1.PodDisruptionBudget": {
        1: ("metadata", "meta.v1.ObjectMeta"),
        2: ("spec", "policy.v1.PodDisruptionBudgetSpec"),
    },
    "policy.v1.PodDisruptionBudgetSpec": {
        1: ("minAvailable", "intstr.IntOrString"),
        2: ("selector", "meta.v1.LabelSelector"),
        3: ("maxUnavailable", "intstr.IntOrString"),
        4: ("unhealthyPodEvictionPolicy", "string"),
    },
    # k8s.io/api autoscaling/v1 generated.proto
    "autoscaling.v1.CrossVersionObjectReference": {
        1: ("kind", "string"),
        2: ("name", "string"),
        3: ("apiVersion", "string", "omitempty"),
    },
    "autoscaling.v1.HorizontalPodAutoscaler": {
        1: ("metadata", "meta.v1.ObjectMeta"),
        2: ("spec", "autoscaling.v1.HorizontalPodAutoscalerSpec"),
    },
    "autoscaling.v1.HorizontalPodAutoscalerSpec": {
        1: ("scaleTargetRef", "autoscaling.v1.CrossVersionObjectReference"),
        2: ("minReplicas", "int32"),
        3: ("maxReplicas", "int32"),
        4: ("targetCPUUtilizationPercentage", "int32"),
    },
    "autoscaling.v1.Scale": {
        1: ("metadata", "meta.v1.ObjectMeta"),
        2: ("spec", "autoscaling.v1.ScaleSpec"),
    },
    "autoscaling.v1.ScaleSpec": {
        1: ("replicas", "int32", "omitempty"),
    },
    # k8s.io/api autoscaling/v2 generated.proto
    "autoscaling.v2.ContainerResourceMetricSource": {
        1: ("name", "string"),
        2: ("target", "autoscaling.v2.MetricTarget"),
        3: ("container", "string"),
    },
    "autoscaling.v2.CrossVersionObjectReference": {
        1: ("kind", "string"),
        2: ("name", "string"),
        3: ("apiVersion", "string", "omitempty"),
    },
    "autoscaling.v2.ExternalMetricSource": {
        1: ("metric", "autoscaling.v2.MetricIdentifier"),
        2: ("target", "autoscaling.v2.MetricTarget"),
    },
    "autoscaling.v2.HPAScalingPolicy": {
        1: ("type", "string"),
        2: ("value", "int32"),
        3: ("periodSeconds", "int32"),
    },
    "autoscaling.v2.HPAScalingRules": {
        1: ("selectPolicy", "string"),
        2: ("policies", "[]autoscaling.v2.HPAScalingPolicy"),
        3: ("stabilizationWindowSeconds", "int32"),
        4: ("tolerance", "resource.Quantity"),
    },
    "autoscaling.v2.HorizontalPodAutoscaler": {
        1: ("metadata", "meta.v1.ObjectMeta"),
        2: ("spec", "autoscaling.v2.HorizontalPodAutoscalerSpec"),
    },
    "autoscaling.v2.HorizontalPodAutoscalerBehavior": {
        1: ("scaleUp", "autoscaling.v2.HPAScalingRules"),
        2: ("scaleDown", "autoscaling.v2.HPAScalingRules"),
    },
    "autoscaling.v2.HorizontalPodAutoscalerSpec": {
        1: ("scaleTargetRef", "autoscaling.v2.CrossVersionObjectReference"),
        2: ("minReplicas", "int32"),
        3: ("maxReplicas", "int32"),
        4: ("metrics", "[]autoscaling.v2.MetricSpec"),
        5: ("behavior", "autoscaling.v2.HorizontalPodAutoscalerBehavior"),
    },
    "autoscaling.v2.MetricIdentifier": {
        1: ("name", "string"),
        2: ("selector", "meta.v1.LabelSelector"),
    },
    "autoscaling.v2.MetricSpec": {
        1: ("type", "string"),
        2: ("object", "autoscaling.v2.ObjectMetricSource"),
        3: ("pods", "autoscaling.v2.PodsMetricSource"),
        4: ("resource", "autoscaling.v2.ResourceMetricSource"),
        5: ("external", "autoscaling.v2.ExternalMetricSource"),
        7: ("containerResource", "autoscaling.v2.ContainerResourceMetricSource"),
    },
    "autoscaling.v2.MetricTarget": {
        1: ("type", "string"),
        2: ("value", "resource.Quantity"),
        3: ("averageValue", "resource.Quantity"),
        4: ("averageUtilization", "int32"),
    },
    "autoscaling.v2.ObjectMetricSource": {
        1: ("describedObject", "autoscaling.v2.CrossVersionObjectReference"),
        2: ("target", "autoscaling.v2.MetricTarget"),
        3: ("metric", "autoscaling.v2.MetricIdentifier"),
    },
    "autoscaling.v2.PodsMetricSource": {
        1: ("metric", "autoscaling.v2.MetricIdentifier"),
        2: ("target", "autoscaling.v2.MetricTarget"),
    },
    "autoscaling.v2.ResourceMetricSource": {
        1: ("name", "string"),
        2: ("target", "autoscaling.v2.MetricTarget"),
    },
    # k8s.io/api scheduling/v1 generated.proto
    "scheduling.v1.PriorityClass": {
        1: ("metadata", "meta.v1.ObjectMeta"),
        2: ("value", "int32"),
        3: ("globalDefault", "bool", "omitempty"),
        4: ("description", "string", "omitempty"),
        5: ("preemptionPolicy", "string"),
    },
    # k8s.io/api networking/v1 generated.proto
    "networking.v1.HTTPIngressPath": {
        1: ("path", "string", "omitempty"),
        2: ("backend", "networking.v1.IngressBackend"),
        3: ("pathType", "string"),
    },
    "networking.v1.HTTPIngressRuleValue": {
        1: ("paths", "[]networking.v1.HTTPIngressPath"),
    },
    "networking.v1.Ingress": {
        1: ("metadata", "meta.v1.ObjectMeta"),
        2: ("spec", "networking.v1.IngressSpec"),
    },
    "networking.v1.IngressBackend": {
        3: ("resource", "core.v1.TypedLocalObjectReference"),
        4: ("service", "networking.v1.IngressServiceBackend"),
    },
    "networking.v1.IngressRule": {
        1: ("host", "string", "omitempty"),
        2: ("", "networking.v1.IngressRuleValue"),
    },
    "networking.v1.IngressRuleValue": {
        1: ("http", "networking.v1.HTTPIngressRuleValue"),
    },
    "networking.v1.IngressServiceBackend": {
        1: ("name", "string"),
        2: ("port", "networking.v1.ServiceBackendPort"),
    },
    "networking.v1.IngressSpec": {
        1: ("defaultBackend", "networking.v1.IngressBackend"),
        2: ("tls", "[]networking.v1.IngressTLS"),
        3: ("rules", "[]networking.v1.IngressRule"),
        4: ("ingressClassName", "string"),
    },
    "networking.v1.IngressTLS": {
        1: ("hosts", "[]string"),
        2: ("secretName", "string", "omitempty"),
    },
    "networking.v1.ServiceBackendPort": {
        1: ("name", "string", "omitempty"),
        2: ("number", "int32", "omitempty"),
    },
    # k8s.io/api storage/v1 generated.proto
    "storage.v1.StorageClass": {
        1: ("metadata", "meta.v1.ObjectMeta"),
        2: ("provisioner", "string"),
        3: ("parameters", "map[string]string"),
        4: ("reclaimPolicy", "string"),
        5: ("mountOptions", "[]string"),
        6: ("allowVolumeExpansion", "bool"),
        7: ("volumeBindingMode", "string"),
        8: ("allowedTopologies", "[]core.v1.TopologySelectorTerm"),
    },
    # k8s.io/apimachinery pkg/apis/meta/v1 generated.proto
    "meta.v1.DeleteOptions": {
        1: ("gracePeriodSeconds", "int64"),
        2: ("preconditions", "meta.v1.Preconditions"),
        3: ("orphanDependents", "bool"),
        4: ("propagationPolicy", "string"),
        5: ("dryRun", "[]string"),
        6: ("ignoreStoreReadErrorWithClusterBreakingPotential", "bool"),
    },
    "meta.v1.LabelSelector": {
        1: ("matchLabels", "map[string]string"),
        2: ("matchExpressions", "[]meta.v1.LabelSelectorRequirement"),
    },
    "meta.v1.LabelSelectorRequirement": {
        1: ("key", "string"),
        2: ("operator", "string"),
        3: ("values", "[]string"),
    },
    "meta.v1.ManagedFieldsEntry": {
        1: ("manager", "string", "omitempty"),
        2: ("operation", "string", "omitempty"),
        3: ("apiVersion", "string", "omitempty"),
        4: ("time", "meta.v1.Time"),
        6: ("fieldsType", "string", "omitempty"),
        7: ("fieldsV1", "meta.v1.FieldsV1"),
        8: ("subresource", "string", "omitempty"),
    },
    "meta.v1.ObjectMeta": {
        1: ("name", "string", "omitempty"),
        2: ("generateName", "string", "omitempty"),
        3: ("namespace", "string", "omitempty"),
        4: ("selfLink", "string", "omitempty"),
        5: ("uid", "string", "omitempty"),
        6: ("resourceVersion", "string", "omitempty"),
        7: ("generation", "int64", "omitempty"),
        8: ("creationTimestamp", "meta.v1.Time"),
        9: ("deletionTimestamp", "meta.v1.Time"),
        10: ("deletionGracePeriodSeconds", "int64"),
        11: ("labels", "map[string]string"),
        12: ("annotations", "map[string]string"),
        13: ("ownerReferences", "[]meta.v1.OwnerReference"),
        14: ("finalizers", "[]string"),
        17: ("managedFields", "[]meta.v1.ManagedFieldsEntry"),
    },
    "meta.v1.OwnerReference": {
        1: ("kind", "string"),
        3: ("name", "string"),
        4: ("uid", "string"),
        5: ("apiVersion", "string"),
        6: ("controller", "bool"),
        7: ("blockOwnerDeletion", "bool"),
    },
    "meta.v1.Preconditions": {
        1: ("uid", "string"),
        2: ("resourceVersion", "string"),
    },
}

# (apiVersion, kind) of typeMeta -> the message of raw. DeleteOptions comes under any group's apiVersion.
KINDS: Final[dict[tuple[str, str], str]] = {
    ("v1", "Binding"): "core.v1.Binding",
    ("v1", "Event"): "core.v1.Event",
    ("v1", "LimitRange"): "core.v1.LimitRange",
    ("v1", "Namespace"): "core.v1.Namespace",
    ("v1", "Node"): "core.v1.Node",
    ("v1", "PersistentVolume"): "core.v1.PersistentVolume",
    ("v1", "PersistentVolumeClaim"): "core.v1.PersistentVolumeClaim",
    ("v1", "Pod"): "core.v1.Pod",
    ("v1", "ResourceQuota"): "core.v1.ResourceQuota",
    ("v1", "Service"): "core.v1.Service",
    ("apps/v1", "DaemonSet"): "apps.v1.DaemonSet",
    ("apps/v1", "Deployment"): "apps.v1.Deployment",
    ("apps/v1", "ReplicaSet"): "apps.v1.ReplicaSet",
    ("apps/v1", "StatefulSet"): "apps.v1.StatefulSet",
    ("batch/v1", "CronJob"): "batch.v1.CronJob",
    ("batch/v1", "Job"): "batch.v1.Job",
    ("authorization.k8s.io/v1", "SelfSubjectAccessReview"): "authorization.v1.SelfSubjectAccessReview",
    ("authorization.k8s.io/v1", "SelfSubjectRulesReview"): "authorization.v1.SelfSubjectRulesReview",
    ("policy/v1", "Eviction"): "policy.v1.Eviction",
    ("policy/v1", "PodDisruptionBudget"): "policy.v1.PodDisruptionBudget",
    ("autoscaling/v1", "HorizontalPodAutoscaler"): "autoscaling.v1.HorizontalPodAutoscaler",
    ("autoscaling/v1", "Scale"): "autoscaling.v1.Scale",
    ("autoscaling/v2", "HorizontalPodAutoscaler"): "autoscaling.v2.HorizontalPodAutoscaler",
    ("networking.k8s.io/v1", "Ingress"): "networking.v1.Ingress",
    ("scheduling.k8s.io/v1", "PriorityClass"): "scheduling.v1.PriorityClass",
    ("storage.k8s.io/v1", "StorageClass"): "storage.v1.StorageClass",
}
ANY_VERSION_KINDS: Final[dict[str, str]] = {"DeleteOptions": "meta.v1.DeleteOptions"}

# Scalar kinds and the wire type each is written with. "json" is bytes holding a JSON value (FieldsV1).
SCALARS: Final[dict[str, int]] = {
    "string": LEN,
    "bytes": LEN,
    "json": LEN,
    "int32": VARINT,
    "int64": VARINT,
    "bool": VARINT,
    "double": I64,
    "float": I32,
}
_ZERO: Final[dict[str, Any]] = {
    "string": "",
    "bytes": "",
    "int32": 0,
    "int64": 0,
    "bool": False,
    "double": 0.0,
    "float": 0.0,
}
_MASK64: Final = (1 << 64) - 1
_EPOCH: Final = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class Field:
    """One compiled entry of MESSAGES."""

    name: str  # the JSON name; "" for a struct inlined into its parent
    kind: str  # the element's kind: a scalar of SCALARS or a message of MESSAGES
    repeated: bool = False
    is_map: bool = False  # map[string]<kind>
    omitempty: bool = False  # the zero value is left out


def _compile(entry: Entry) -> Field:
    name, kind = entry[0], entry[1]
    omitempty = len(entry) == 3 and entry[2] == "omitempty"
    if kind.startswith("[]"):
        return Field(name, kind[2:], repeated=True)
    if kind.startswith("map[string]"):
        return Field(name, kind.removeprefix("map[string]"), is_map=True)
    return Field(name, kind, omitempty=omitempty)


FIELDS: Final[dict[str, dict[int, Field]]] = {
    message: {number: _compile(entry) for number, entry in fields.items()} for message, fields in MESSAGES.items()
}


def decode_object(body: bytes) -> dict[str, Any]:
    """A Kubernetes protobuf body (the 4-byte magic b"k8s\\x00", then a runtime.Unknown message:
    typeMeta{apiVersion=1, kind=2}=1, raw=2, contentEncoding=3, contentType=4) decoded to the object's
    JSON form: {"apiVersion":..., "kind":..., "metadata": {...}, "spec": {...}, ...} with the JSON field
    names of k8s.io/api (camelCase as the json tags say), omitting unset fields, as the JSON body of the
    same object would be."""
    if not isinstance(body, bytes | bytearray | memoryview):
        raise ProtobufError("the body of the request is not bytes")
    data = bytes(body)
    if len(data) > MAX_BODY_BYTES:
        raise ProtobufError(f"the protobuf body is larger than {MAX_BODY_BYTES} bytes")
    if not data.startswith(MAGIC):
        raise ProtobufError("the body is not Kubernetes protobuf: it does not start with the k8s\\x00 magic")
    api_version = kind = encoding = content_type = ""
    raw = (len(data), len(data))
    for number, wire, a, b in _fields(data, len(MAGIC), len(data), "runtime.Unknown"):
        if number == 1:
            _expect(wire, LEN, "runtime.Unknown", number)
            for inner, inner_wire, c, d in _fields(data, a, b, "runtime.TypeMeta"):
                if inner in (1, 2):
                    _expect(inner_wire, LEN, "runtime.TypeMeta", inner)
                    if inner == 1:
                        api_version = _string(data, c, d)
                    else:
                        kind = _string(data, c, d)
        elif number in (2, 3, 4):
            _expect(wire, LEN, "runtime.Unknown", number)
            if number == 2:
                raw = (a, b)
            elif number == 3:
                encoding = _string(data, a, b)
            else:
                content_type = _string(data, a, b)
    if encoding:
        raise ProtobufError(f"the protobuf body's content encoding {encoding[:40]!r} is not supported")
    if content_type and content_type != CONTENT_TYPE:
        raise ProtobufError(f"the protobuf body holds {content_type[:80]!r}, not {CONTENT_TYPE}")
    message = KINDS.get((api_version, kind)) or ANY_VERSION_KINDS.get(kind)
    if message is None:
        raise ProtobufError(
            f"no protobuf decoding for {api_version[:80] or '(no apiVersion)'} {kind[:80] or '(no kind)'}"
        )
    decoded = _message(data, raw[0], raw[1], message, 1)
    return {"apiVersion": api_version, "kind": kind, **decoded}


def _fields(data: bytes, start: int, end: int, message: str) -> Iterator[tuple[int, int, int, int]]:
    """(number, wire type, a, b) for each field in data[start:end]: a varint's value in a (b is 0),
    otherwise the payload's bounds data[a:b]."""
    pos = start
    while pos < end:
        key, pos = _varint(data, pos, end)
        number, wire = key >> 3, key & 7
        if number == 0 or number > 0x1FFFFFFF:
            raise ProtobufError(f"malformed protobuf: field number {number} in {message}")
        if wire == VARINT:
            value, pos = _varint(data, pos, end)
            yield number, wire, value, 0
            continue
        if wire == LEN:
            size, pos = _varint(data, pos, end)
        elif wire == I64:
            size = 8
        elif wire == I32:
            size = 4
        else:
            raise ProtobufError(f"malformed protobuf: wire type {wire} for field {number} of {message}")
        if size > end - pos:
            raise ProtobufError(f"truncated protobuf: field {number} of {message} runs past the end of its message")
        yield number, wire, pos, pos + size
        pos += size


def _varint(data: bytes, pos: int, end: int) -> tuple[int, int]:
    result = 0
    shift = 0
    while True:
        if pos >= end:
            raise ProtobufError("truncated protobuf: a varint runs past the end of its message")
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if byte < 0x80:
            return result & _MASK64, pos
        shift += 7
        if shift >= 70:
            raise ProtobufError("malformed protobuf: a varint is longer than 10 bytes")


def _expect(wire: int, expected: int, message: str, number: int) -> None:
    if wire != expected:
        raise ProtobufError(f"malformed protobuf: field {number} of {message} has wire type {wire}, not {expected}")


def _string(data: bytes, a: int, b: int) -> str:
    return data[a:b].decode("utf-8", errors="replace")  # as Go's JSON encoder replaces invalid UTF-8


def _message(data: bytes, start: int, end: int, message: str, depth: int) -> Any:
    """The JSON form of the message in data[start:end]: a dict, or a special message's value."""
    if depth > MAX_DEPTH:
        raise ProtobufError(f"the protobuf body nests messages deeper than {MAX_DEPTH}")
    fields = FIELDS.get(message, {})  # a message not in the table: its fields are all skipped
    out: dict[str, Any] = {}
    for number, wire, a, b in _fields(data, start, end, message):
        field = fields.get(number)
        if field is None:
            continue
        where = f"{message}.{field.name or field.kind}"
        if field.is_map:
            _expect(wire, LEN, message, number)
            key, value = _map_entry(data, a, b, field.kind, depth + 1, where)
            out.setdefault(field.name, {})[key] = value
            continue
        values = _values(data, wire, a, b, field, depth, where)
        if field.repeated:
            if values:
                out.setdefault(field.name, []).extend(values)
            continue
        value = values[-1]
        if not field.name:  # an inlined struct
            out.update(value)
        elif value is None or (field.omitempty and not value):
            out.pop(field.name, None)
        else:
            out[field.name] = value
    special = _SPECIAL.get(message)
    return special(out) if special else out


def _values(data: bytes, wire: int, a: int, b: int, field: Field, depth: int, where: str) -> list[Any]:
    """The value(s) of one field on the wire: several for a packed repeated scalar."""
    expected = SCALARS.get(field.kind, LEN)
    if field.kind not in SCALARS:
        _expect_at(wire, LEN, where)
        return [_message(data, a, b, field.kind, depth + 1)]
    if wire == expected:
        return [_scalar(data, wire, a, b, field.kind, where)]
    if wire == LEN and field.repeated:  # packed
        if expected == VARINT:
            values: list[Any] = []
            pos = a
            while pos < b:
                value, pos = _varint(data, pos, b)
                values.append(_scalar(data, VARINT, value, 0, field.kind, where))
            return values
        size = 8 if expected == I64 else 4
        if (b - a) % size:
            raise ProtobufError(f"malformed protobuf: packed {where} is not a whole number of values")
        return [_scalar(data, expected, pos, pos + size, field.kind, where) for pos in range(a, b, size)]
    _expect_at(wire, expected, where)
    raise AssertionError("unreachable")


def _expect_at(wire: int, expected: int, where: str) -> None:
    if wire != expected:
        raise ProtobufError(f"malformed protobuf: {where} has wire type {wire}, not {expected}")


def _scalar(data: bytes, wire: int, a: int, b: int, kind: str, where: str) -> Any:
    if wire == VARINT:
        if kind == "bool":
            return a != 0
        if kind == "int32":
            a &= 0xFFFFFFFF  # as Go's int32 keeps the low 32 bits
            return a - (1 << 32) if a >= 1 << 31 else a
        return a - (1 << 64) if a >= 1 << 63 else a  # int64
    if wire == LEN:
        if kind == "string":
            return _string(data, a, b)
        if kind == "bytes":
            return base64.b64encode(data[a:b]).decode("ascii")  # as JSON writes []byte
        if a == b:  # json
            return None
        try:
            return json.loads(data[a:b], parse_constant=_not_json)
        except (ValueError, RecursionError):
            raise ProtobufError(f"{where} does not hold JSON") from None
    number = struct.unpack_from("<d" if wire == I64 else "<f", data, a)[0]
    if number != number or number in (float("inf"), float("-inf")):
        raise ProtobufError(f"{where} is not a finite number")
    return number


def _not_json(constant: str) -> Any:
    raise ValueError(f"{constant} is not JSON")  # json.loads takes NaN and Infinity, Go does not


def _map_entry(data: bytes, start: int, end: int, kind: str, depth: int, where: str) -> tuple[str, Any]:
    if depth > MAX_DEPTH:
        raise ProtobufError(f"the protobuf body nests messages deeper than {MAX_DEPTH}")
    value_field = Field("value", kind)
    key = ""
    values: list[Any] = []
    for number, wire, a, b in _fields(data, start, end, where):
        if number == 1:
            _expect_at(wire, LEN, where + " key")
            key = _string(data, a, b)
        elif number == 2:
            values = _values(data, wire, a, b, value_field, depth, where)
    if values:
        return key, values[-1]
    if kind in SCALARS:
        return key, _ZERO.get(kind)  # "json": None
    return key, _message(data, 0, 0, kind, depth + 1)


def _time(fields: dict[str, Any], micro: bool) -> str | None:
    if not fields:  # the zero time is written as an empty message; JSON has null
        return None
    seconds = fields.get("seconds", 0)
    nanos = fields.get("nanos", 0)
    micros = (abs(nanos) // 1000) * (1 if nanos >= 0 else -1) if micro else 0  # truncated toward zero
    try:
        moment = _EPOCH + timedelta(seconds=seconds, microseconds=micros)
    except (OverflowError, ValueError):
        raise ProtobufError(f"a timestamp of {seconds} seconds is out of range") from None
    text = (
        f"{moment.year:04d}-{moment.month:02d}-{moment.day:02d}"
        f"T{moment.hour:02d}:{moment.minute:02d}:{moment.second:02d}"
    )
    return f"{text}.{moment.microsecond:06d}Z" if micro else f"{text}Z"


def _int_or_string(fields: dict[str, Any]) -> int | str:
    kind = fields.get("type", 0)
    if kind == 0:
        return int(fields.get("intVal", 0))
    if kind == 1:
        return str(fields.get("strVal", ""))
    raise ProtobufError(f"an IntOrString has type {kind}, neither 0 (int) nor 1 (string)")


_SPECIAL: Final[dict[str, Callable[[dict[str, Any]], Any]]] = {
    "meta.v1.Time": lambda fields: _time(fields, micro=False),
    "meta.v1.MicroTime": lambda fields: _time(fields, micro=True),
    "meta.v1.FieldsV1": lambda fields: fields.get("Raw"),
    "resource.Quantity": lambda fields: fields.get("string") or "0",
    "intstr.IntOrString": _int_or_string,
}
