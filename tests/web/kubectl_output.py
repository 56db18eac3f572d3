"""Realistic `kubectl get nodes -o yaml` and `kubectl get pods -A -o yaml` text, as kubectl writes
it (keys sorted, sequences not indented under their key, managedFields, images, conditions,
annotations, addresses, nodeInfo; pods with probes, environments, volumes and statuses): about
6 KB a node (an EKS node with eight images; real ones run 4-8 KB) and 6 KB a pod."""

ZONES = ("eu-west-1a", "eu-west-1b", "eu-west-1c")


def node_name(index: int) -> str:
    return f"ip-10-{index // 250}-{index % 250}-{(index * 7) % 250}.eu-west-1.compute.internal"


def _node(index: int) -> str:
    name = node_name(index)
    zone = ZONES[index % len(ZONES)]
    taints = (
        "  spec:\n    providerID: aws:///x/i-0abc\n    taints:\n    - effect: NoSchedule\n      key: dedicated\n"
        "      value: gpu\n"
        if index % 10 == 0
        else f"  spec:\n    providerID: aws:///{zone}/i-0{index:016x}\n"
    )
    if index % 97 == 0:
        taints += "    unschedulable: true\n"
    images = "".join(
        f"    - names:\n      - 602401143452.dkr.ecr.eu-west-1.amazonaws.com/eks/image-{i}@sha256:{'ab' * 32}\n"
        f"      - 602401143452.dkr.ecr.eu-west-1.amazonaws.com/eks/image-{i}:v1.{i}.0\n"
        f"      sizeBytes: {10_000_000 + i * 12345}\n"
        for i in range(8)
    )
    conditions = "".join(
        f"    - lastHeartbeatTime: \"2026-12-03T10:00:00Z\"\n      lastTransitionTime: \"2026-11-01T10:00:00Z\"\n"
        f"      message: kubelet has no {kind}\n      reason: KubeletHas{kind}\n      status: \"{status}\"\n"
        f"      type: {kind}\n"
        for kind, status in (("MemoryPressure", "False"), ("DiskPressure", "False"), ("PIDPressure", "False"),
                             ("Ready", "True"))
    )  # fmt: skip
    return f"""- apiVersion: v1
  kind: Node
  metadata:
    annotations:
      alpha.kubernetes.io/provided-node-ip: 10.0.{index % 250}.{index % 200}
      csi.volume.kubernetes.io/nodeid: '{{"ebs.csi.aws.com":"i-0{index:016x}"}}'
      node.alpha.kubernetes.io/ttl: "0"
      volumes.kubernetes.io/controller-managed-attach-detach: "true"
    creationTimestamp: "2026-11-01T10:00:00Z"
    labels:
      beta.kubernetes.io/arch: amd64
      beta.kubernetes.io/instance-type: m5.2xlarge
      beta.kubernetes.io/os: linux
      eks.amazonaws.com/nodegroup: general-{index % 4}
      kubernetes.io/arch: amd64
      kubernetes.io/hostname: {name}
      kubernetes.io/os: linux
      node.kubernetes.io/instance-type: m5.2xlarge
      topology.kubernetes.io/region: eu-west-1
      topology.kubernetes.io/zone: {zone}
    managedFields:
    - apiVersion: v1
      fieldsType: FieldsV1
      fieldsV1:
        f:metadata:
          f:annotations:
            .: {{}}
            f:alpha.kubernetes.io/provided-node-ip: {{}}
            f:volumes.kubernetes.io/controller-managed-attach-detach: {{}}
          f:labels:
            .: {{}}
            f:beta.kubernetes.io/arch: {{}}
            f:beta.kubernetes.io/os: {{}}
            f:kubernetes.io/arch: {{}}
            f:kubernetes.io/hostname: {{}}
            f:kubernetes.io/os: {{}}
        f:spec:
          f:providerID: {{}}
      manager: kubelet
      operation: Update
      time: "2026-11-01T10:00:00Z"
    - apiVersion: v1
      fieldsType: FieldsV1
      fieldsV1:
        f:status:
          f:conditions:
            k:{{"type":"DiskPressure"}}:
              f:lastHeartbeatTime: {{}}
            k:{{"type":"MemoryPressure"}}:
              f:lastHeartbeatTime: {{}}
            k:{{"type":"Ready"}}:
              f:lastHeartbeatTime: {{}}
              f:lastTransitionTime: {{}}
              f:message: {{}}
              f:reason: {{}}
              f:status: {{}}
          f:images: {{}}
          f:nodeInfo:
            f:bootID: {{}}
      manager: kubelet
      operation: Update
      subresource: status
      time: "2026-12-03T10:00:00Z"
    name: {name}
    resourceVersion: "{1_000_000 + index}"
    uid: 0b6f{index:08x}-1c2d-4e5f-8a9b-0c1d2e3f4a5b
{taints}  status:
    addresses:
    - address: 10.0.{index % 250}.{index % 200}
      type: InternalIP
    - address: {name}
      type: InternalDNS
    - address: {name}
      type: Hostname
    allocatable:
      cpu: 7910m
      ephemeral-storage: "95551679124"
      hugepages-1Gi: "0"
      hugepages-2Mi: "0"
      memory: 31482236Ki
      pods: "58"
    capacity:
      cpu: "8"
      ephemeral-storage: 104845292Ki
      hugepages-1Gi: "0"
      hugepages-2Mi: "0"
      memory: 32817148Ki
      pods: "58"
    conditions:
{conditions}    daemonEndpoints:
      kubeletEndpoint:
        Port: 10250
    images:
{images}    nodeInfo:
      architecture: amd64
      bootID: 5c6d7e8f-0a1b-2c3d-4e5f-{index:012x}
      containerRuntimeVersion: containerd://1.7.11
      kernelVersion: 5.10.205-195.807.amzn2.x86_64
      kubeProxyVersion: v1.29.0-eks-5e0fdde
      kubeletVersion: v1.29.0-eks-5e0fdde
      machineID: ec2{index:029x}
      operatingSystem: linux
      osImage: Amazon Linux 2
      systemUUID: ec2{index:029x}
"""


def nodes_yaml(count: int) -> str:
    return (
        "apiVersion: v1\nitems:\n"
        + "".join(_node(i) for i in range(count))
        + 'kind: List\nmetadata:\n  resourceVersion: ""\n'
    )


def _pod(index: int, nodes: int) -> str:
    app = f"app-{index % 50}"
    name = f"{app}-7d9f8c6b5-{index:05x}"
    phase = "Succeeded" if index % 101 == 0 else "Running"
    return f"""- apiVersion: v1
  kind: Pod
  metadata:
    annotations:
      kubectl.kubernetes.io/restartedAt: "2026-12-01T10:00:00Z"
    creationTimestamp: "2026-12-01T10:00:00Z"
    generateName: {app}-7d9f8c6b5-
    labels:
      app: {app}
      pod-template-hash: 7d9f8c6b5
    managedFields:
    - apiVersion: v1
      fieldsType: FieldsV1
      fieldsV1:
        f:metadata:
          f:generateName: {{}}
          f:labels:
            .: {{}}
            f:app: {{}}
        f:spec:
          f:containers:
            k:{{"name":"main"}}:
              .: {{}}
              f:image: {{}}
              f:resources:
                f:requests:
                  f:cpu: {{}}
      manager: kube-controller-manager
      operation: Update
      time: "2026-12-01T10:00:00Z"
    name: {name}
    namespace: team-{index % 20}
    ownerReferences:
    - apiVersion: apps/v1
      blockOwnerDeletion: true
      controller: true
      kind: ReplicaSet
      name: {app}-7d9f8c6b5
      uid: 1a2b3c4d-0000-0000-0000-{index % 50:012x}
    resourceVersion: "{2_000_000 + index}"
    uid: 9f8e{index:08x}-1c2d-4e5f-8a9b-0c1d2e3f4a5b
  spec:
    affinity:
      podAntiAffinity:
        preferredDuringSchedulingIgnoredDuringExecution:
        - podAffinityTerm:
            labelSelector:
              matchLabels:
                app: {app}
            topologyKey: kubernetes.io/hostname
          weight: 100
    containers:
    - args:
      - --port=8080
      - --log-level=info
      env:
      - name: POD_NAME
        valueFrom:
          fieldRef:
            apiVersion: v1
            fieldPath: metadata.name
      - name: LOG_FORMAT
        value: json
      image: registry.example.com/{app}:1.{index % 9}.0
      imagePullPolicy: IfNotPresent
      livenessProbe:
        failureThreshold: 3
        httpGet:
          path: /healthz
          port: 8080
          scheme: HTTP
        periodSeconds: 10
      name: main
      ports:
      - containerPort: 8080
        name: http
        protocol: TCP
      resources:
        limits:
          memory: 512Mi
        requests:
          cpu: 250m
          memory: 256Mi
      terminationMessagePath: /dev/termination-log
      terminationMessagePolicy: File
      volumeMounts:
      - mountPath: /var/run/secrets/kubernetes.io/serviceaccount
        name: kube-api-access-{index:05x}
        readOnly: true
    dnsPolicy: ClusterFirst
    enableServiceLinks: true
    nodeName: {node_name(index % nodes)}
    preemptionPolicy: PreemptLowerPriority
    priority: 0
    restartPolicy: Always
    schedulerName: default-scheduler
    securityContext: {{}}
    serviceAccount: default
    serviceAccountName: default
    terminationGracePeriodSeconds: 30
    tolerations:
    - effect: NoExecute
      key: node.kubernetes.io/not-ready
      operator: Exists
      tolerationSeconds: 300
    - effect: NoExecute
      key: node.kubernetes.io/unreachable
      operator: Exists
      tolerationSeconds: 300
    volumes:
    - name: kube-api-access-{index:05x}
      projected:
        defaultMode: 420
        sources:
        - serviceAccountToken:
            expirationSeconds: 3607
            path: token
  status:
    conditions:
    - lastProbeTime: null
      lastTransitionTime: "2026-12-01T10:00:00Z"
      status: "True"
      type: Ready
    containerStatuses:
    - containerID: containerd://{"c" * 64}
      image: registry.example.com/{app}:1.{index % 9}.0
      imageID: registry.example.com/{app}@sha256:{"d" * 64}
      lastState: {{}}
      name: main
      ready: true
      restartCount: 0
      started: true
      state:
        running:
          startedAt: "2026-12-01T10:00:05Z"
    hostIP: 10.0.0.1
    phase: {phase}
    podIP: 10.1.{index % 250}.{index % 200}
    podIPs:
    - ip: 10.1.{index % 250}.{index % 200}
    qosClass: Burstable
    startTime: "2026-12-01T10:00:00Z"
"""


def pods_yaml(count: int, nodes: int) -> str:
    return (
        "apiVersion: v1\nitems:\n"
        + "".join(_pod(i, nodes) for i in range(count))
        + 'kind: List\nmetadata:\n  resourceVersion: ""\n'
    )
