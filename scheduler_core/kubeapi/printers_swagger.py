"""The swagger texts of the API fields that upstream's printers.go describes its columns with
(`X{}.SwaggerDoc()["field"]`), as k8s.io/api and k8s.io/apimachinery v0.34.1 generate them
(types_swagger_doc_generated.go). Keys name the Go package alias printers.go uses, the type and
the field: "apiv1.PodSpec.nodeName"."""

SWAGGER: dict[str, str] = {
    "metav1.ObjectMeta.name": (
        "Name must be unique within a namespace. Is required when creating resources, although some "
        "resources may allow a client to request the generation of an appropriate name automatically. "
        "Name is primarily intended for creation idempotence and configuration definition. Cannot be "
        "updated. More info: "
        "https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names"
    ),
    "metav1.ObjectMeta.creationTimestamp": (
        "CreationTimestamp is a timestamp representing the server time when this object was created. It "
        "is not guaranteed to be set in happens-before order across separate operations. Clients may not "
        "set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. "
        "Read-only. Null for lists. More info: "
        "https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"
    ),
    "apiv1.PodStatus.podIP": (
        "podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated."
    ),
    "apiv1.PodSpec.nodeName": (
        "NodeName indicates in which node this pod is scheduled. If empty, this pod is a candidate for "
        "scheduling by the scheduler defined in schedulerName. Once this field is set, the kubelet for "
        "this node becomes responsible for the lifecycle of this pod. This field should not be used to "
        "express a desire for the pod to be scheduled on a specific node. "
        "https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#nodename"
    ),
    "apiv1.PodStatus.nominatedNodeName": (
        "nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be "
        "scheduled right away as preemption victims receive their graceful termination periods. This "
        "field does not guarantee that the pod will be scheduled on this node. Scheduler may decide to "
        "place the pod elsewhere if other nodes become available sooner. Scheduler may also decide to "
        "give the resources on this node to a higher priority pod that is created after preemption. As a "
        "result, this field may be different than PodSpec.nodeName when the pod is scheduled."
    ),
    "apiv1.PodSpec.readinessGates": (
        "If specified, all readiness gates will be evaluated for pod readiness. A pod is ready when all "
        "its containers are ready AND all conditions specified in the readiness gates have status equal "
        'to "True" More info: https://git.k8s.io/enhancements/keps/sig-network/580-pod-readiness-gates'
    ),
    "extensionsv1beta1.ReplicaSetSpec.replicas": (
        "Replicas is the number of desired pods. This is a pointer to distinguish between explicit zero "
        "and unspecified. Defaults to 1. More info: "
        "https://kubernetes.io/docs/concepts/workloads/controllers/replicaset"
    ),
    "extensionsv1beta1.ReplicaSetStatus.replicas": (
        "Replicas is the most recently observed number of non-terminating pods. More info: "
        "https://kubernetes.io/docs/concepts/workloads/controllers/replicaset"
    ),
    "extensionsv1beta1.ReplicaSetStatus.readyReplicas": (
        "The number of non-terminating pods targeted by this ReplicaSet with a Ready Condition."
    ),
    "extensionsv1beta1.ReplicaSetSpec.selector": (
        "Selector is a label query over pods that should match the replica count. If the selector is "
        "empty, it is defaulted to the labels present on the pod template. Label keys and values that "
        "must match in order to be controlled by this replica set. More info: "
        "https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors"
    ),
    "extensionsv1beta1.DaemonSetStatus.desiredNumberScheduled": (
        "The total number of nodes that should be running the daemon pod (including nodes correctly "
        "running the daemon pod). More info: "
        "https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/"
    ),
    "extensionsv1beta1.DaemonSetStatus.currentNumberScheduled": (
        "The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon "
        "pod. More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/"
    ),
    "extensionsv1beta1.DaemonSetStatus.numberReady": (
        "The number of nodes that should be running the daemon pod and have one or more of the daemon pod"
        " running and ready."
    ),
    "extensionsv1beta1.DaemonSetStatus.updatedNumberScheduled": (
        "The total number of nodes that are running updated daemon pod"
    ),
    "extensionsv1beta1.DaemonSetStatus.numberAvailable": (
        "The number of nodes that should be running the daemon pod and have one or more of the daemon pod"
        " running and available (ready for at least spec.minReadySeconds)"
    ),
    "apiv1.PodSpec.nodeSelector": (
        "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must "
        "match a node's labels for the pod to be scheduled on that node. More info: "
        "https://kubernetes.io/docs/concepts/configuration/assign-pod-node/"
    ),
    "extensionsv1beta1.DaemonSetSpec.selector": (
        "A label query over pods that are managed by the daemon set. Must match in order to be "
        "controlled. If empty, defaulted to labels on Pod template. More info: "
        "https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors"
    ),
    "batchv1.JobStatus.succeeded": (
        "The number of pods which reached phase Succeeded. The value increases monotonically for a given "
        "spec. However, it may decrease in reaction to scale down of elastic indexed jobs."
    ),
    "batchv1.JobSpec.selector": (
        "A label query over pods that should match the pod count. Normally, the system sets this field "
        "for you. More info: "
        "https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors"
    ),
    "batchv1beta1.CronJobSpec.schedule": "The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.",
    "batchv1beta1.CronJobSpec.timeZone": (
        "The time zone name for the given schedule, see "
        "https://en.wikipedia.org/wiki/List_of_tz_database_time_zones. If not specified, this will "
        "default to the time zone of the kube-controller-manager process. The set of valid time zone "
        "names and the time zone offset is loaded from the system-wide time zone database by the API "
        "server during CronJob validation and the controller manager during execution. If no system-wide "
        "time zone database can be found a bundled version of the database is used instead. If the time "
        "zone name becomes invalid during the lifetime of a CronJob or due to a change in host "
        "configuration, the controller will stop creating new new Jobs and will create a system event "
        "with the reason UnknownTimeZone. More information can be found in "
        "https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/#time-zones"
    ),
    "batchv1beta1.CronJobSpec.suspend": (
        "This flag tells the controller to suspend subsequent executions, it does not apply to already "
        "started executions.  Defaults to false."
    ),
    "batchv1beta1.CronJobStatus.active": "A list of pointers to currently running jobs.",
    "batchv1beta1.CronJobStatus.lastScheduleTime": (
        "Information when was the last time the job was successfully scheduled."
    ),
    "apiv1.ServiceSpec.type": (
        "type determines how the Service is exposed. Defaults to ClusterIP. Valid options are "
        'ExternalName, ClusterIP, NodePort, and LoadBalancer. "ClusterIP" allocates a cluster-internal IP'
        " address for load-balancing to endpoints. Endpoints are determined by the selector or if that is"
        " not specified, by manual construction of an Endpoints object or EndpointSlice objects. If "
        'clusterIP is "None", no virtual IP is allocated and the endpoints are published as a set of '
        'endpoints rather than a virtual IP. "NodePort" builds on ClusterIP and allocates a port on every'
        ' node which routes to the same endpoints as the clusterIP. "LoadBalancer" builds on NodePort and'
        " creates an external load-balancer (if supported in the current cloud) which routes to the same "
        'endpoints as the clusterIP. "ExternalName" aliases this service to the specified externalName. '
        "Several other fields do not apply to ExternalName services. More info: https://kubernetes.io/doc"
        "s/concepts/services-networking/service/#publishing-services-service-types"
    ),
    "apiv1.ServiceSpec.clusterIP": (
        "clusterIP is the IP address of the service and is usually assigned randomly. If an address is "
        "specified manually, is in-range (as per system configuration), and is not in use, it will be "
        "allocated to the service; otherwise creation of the service will fail. This field may not be "
        "changed through updates unless the type field is also being changed to ExternalName (which "
        "requires this field to be blank) or the type field is being changed from ExternalName (in which "
        'case this field may optionally be specified, as describe above).  Valid values are "None", empty'
        ' string (""), or a valid IP address. Setting this to "None" makes a "headless service" (no '
        "virtual IP), which is useful when direct endpoint connections are preferred and proxying is not "
        "required.  Only applies to types ClusterIP, NodePort, and LoadBalancer. If this field is "
        "specified when creating a Service of type ExternalName, creation will fail. This field will be "
        "wiped when updating a Service to type ExternalName. More info: "
        "https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies"
    ),
    "apiv1.ServiceSpec.externalIPs": (
        "externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic "
        "for this service.  These IPs are not managed by Kubernetes.  The user is responsible for "
        "ensuring that traffic arrives at a node with this IP.  A common example is external "
        "load-balancers that are not part of the Kubernetes system."
    ),
    "apiv1.ServiceSpec.ports": (
        "The list of ports that are exposed by this service. More info: "
        "https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies"
    ),
    "apiv1.ServiceSpec.selector": (
        "Route service traffic to pods with label keys and values matching this selector. If empty or not"
        " present, the service is assumed to have an external process managing its endpoints, which "
        "Kubernetes will not modify. Only applies to types ClusterIP, NodePort, and LoadBalancer. Ignored"
        " if type is ExternalName. More info: "
        "https://kubernetes.io/docs/concepts/services-networking/service/"
    ),
    "apiv1.NodeSystemInfo.kubeletVersion": "Kubelet Version reported by the node.",
    "apiv1.NodeStatus.addresses": (
        "List of addresses reachable to the node. Queried from cloud provider, if available. More info: "
        "https://kubernetes.io/docs/reference/node/node-status/#addresses Note: This field is declared as"
        " mergeable, but the merge key is not sufficiently unique, which can cause data corruption when "
        "it is merged. Callers should instead use a full-replacement patch. See https://pr.k8s.io/79391 "
        "for an example. Consumers should assume that addresses can change during the lifetime of a Node."
        " However, there are some exceptions where this may not be possible, such as Pods that inherit a "
        "Node's address in its own status or consumers of the downward API (status.hostIP)."
    ),
    "apiv1.NodeSystemInfo.osImage": (
        "OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy))."
    ),
    "apiv1.NodeSystemInfo.kernelVersion": (
        "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64)."
    ),
    "apiv1.NodeSystemInfo.containerRuntimeVersion": (
        "ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2)."
    ),
    "apiv1.PersistentVolumeSpec.capacity": (
        "capacity is the description of the persistent volume's resources and capacity. More info: "
        "https://kubernetes.io/docs/concepts/storage/persistent-volumes#capacity"
    ),
    "apiv1.PersistentVolumeSpec.accessModes": (
        "accessModes contains all ways the volume can be mounted. More info: "
        "https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes"
    ),
    "apiv1.PersistentVolumeSpec.persistentVolumeReclaimPolicy": (
        "persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its"
        " claim. Valid options are Retain (default for manually created PersistentVolumes), Delete "
        "(default for dynamically provisioned PersistentVolumes), and Recycle (deprecated). Recycle must "
        "be supported by the volume plugin underlying this PersistentVolume. More info: "
        "https://kubernetes.io/docs/concepts/storage/persistent-volumes#reclaiming"
    ),
    "apiv1.PersistentVolumeStatus.phase": (
        "phase indicates if a volume is available, bound to a claim, or released by a claim. More info: "
        "https://kubernetes.io/docs/concepts/storage/persistent-volumes#phase"
    ),
    "apiv1.PersistentVolumeSpec.claimRef": (
        "claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim."
        " Expected to be non-nil when bound. claim.VolumeName is the authoritative bind between PV and "
        "PVC. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#binding"
    ),
    "apiv1.PersistentVolumeStatus.reason": (
        "reason is a brief CamelCase string that describes any failure and is meant for machine parsing "
        "and tidy display in the CLI."
    ),
    "apiv1.PersistentVolumeSpec.volumeMode": (
        "volumeMode defines if a volume is intended to be used with a formatted filesystem or to remain "
        "in raw block state. Value of Filesystem is implied when not included in spec."
    ),
    "apiv1.PersistentVolumeClaimStatus.phase": "phase represents the current phase of PersistentVolumeClaim.",
    "apiv1.PersistentVolumeClaimSpec.volumeName": (
        "volumeName is the binding reference to the PersistentVolume backing this claim."
    ),
    "apiv1.PersistentVolumeClaimStatus.capacity": (
        "capacity represents the actual resources of the underlying volume."
    ),
    "apiv1.PersistentVolumeClaimStatus.accessModes": (
        "accessModes contains the actual access modes the volume backing the PVC has. More info: "
        "https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes-1"
    ),
    "apiv1.PersistentVolumeClaimSpec.volumeMode": (
        "volumeMode defines what type of volume is required by the claim. Value of Filesystem is implied "
        "when not included in claim spec."
    ),
    "extensionsv1beta1.DeploymentStatus.updatedReplicas": (
        "Total number of non-terminating pods targeted by this deployment that have the desired template spec."
    ),
    "extensionsv1beta1.DeploymentStatus.availableReplicas": (
        "Total number of available non-terminating pods (ready for at least minReadySeconds) targeted by "
        "this deployment."
    ),
    "extensionsv1beta1.DeploymentSpec.selector": (
        "Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones "
        "affected by this deployment."
    ),
    "autoscalingv2beta1.HorizontalPodAutoscalerSpec.scaleTargetRef": (
        "scaleTargetRef points to the target resource to scale, and is used to the pods for which metrics"
        " should be collected, as well as to actually change the replica count."
    ),
    "autoscalingv2beta1.HorizontalPodAutoscalerSpec.metrics": (
        "metrics contains the specifications for which to use to calculate the desired replica count (the"
        " maximum replica count across all metrics will be used).  The desired replica count is "
        "calculated multiplying the ratio between the target value and the current value by the current "
        "number of pods.  Ergo, metrics used must decrease as the pod count is increased, and vice-versa."
        "  See the individual metric source types for more information about how each type of metric must"
        " respond."
    ),
    "autoscalingv2beta1.HorizontalPodAutoscalerSpec.minReplicas": (
        "minReplicas is the lower limit for the number of replicas to which the autoscaler can scale "
        "down.  It defaults to 1 pod.  minReplicas is allowed to be 0 if the alpha feature gate "
        "HPAScaleToZero is enabled and at least one Object or External metric is configured.  Scaling is "
        "active as long as at least one metric value is available."
    ),
    "autoscalingv2beta1.HorizontalPodAutoscalerSpec.maxReplicas": (
        "maxReplicas is the upper limit for the number of replicas to which the autoscaler can scale up. "
        "It cannot be less that minReplicas."
    ),
    "autoscalingv2beta1.HorizontalPodAutoscalerStatus.currentReplicas": (
        "currentReplicas is current number of replicas of pods managed by this autoscaler, as last seen "
        "by the autoscaler."
    ),
    "storagev1.StorageClass.provisioner": "provisioner indicates the type of the provisioner.",
    "storagev1.StorageClass.reclaimPolicy": (
        "reclaimPolicy controls the reclaimPolicy for dynamically provisioned PersistentVolumes of this "
        "storage class. Defaults to Delete."
    ),
    "storagev1.StorageClass.volumeBindingMode": (
        "volumeBindingMode indicates how PersistentVolumeClaims should be provisioned and bound.  When "
        "unset, VolumeBindingImmediate is used. This field is only honored by servers that enable the "
        "VolumeScheduling feature."
    ),
    "storagev1.StorageClass.allowVolumeExpansion": (
        "allowVolumeExpansion shows whether the storage class allow volume expand."
    ),
    "schedulingv1.PriorityClass.value": (
        "value represents the integer value of this priority class. This is the actual priority that pods"
        " receive when they have the name of this class in their pod spec."
    ),
    "schedulingv1.PriorityClass.globalDefault": (
        "globalDefault specifies whether this PriorityClass should be considered as the default priority "
        "for pods that do not have any priority class. Only one PriorityClass can be marked as "
        "`globalDefault`. However, if more than one PriorityClasses exists with their `globalDefault` "
        "field set to true, the smallest value of such global default PriorityClasses will be used as the"
        " default priority."
    ),
    "schedulingv1.PriorityClass.preemptionPolicy": (
        "preemptionPolicy is the Policy for preempting pods with lower priority. One of Never, "
        "PreemptLowerPriority. Defaults to PreemptLowerPriority if unset."
    ),
}
