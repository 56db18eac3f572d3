"""The HorizontalPodAutoscaler controller: upstream's replica calculator and normalization cases
(pkg/controller/podautoscaler replica_calculator_test.go, horizontal_test.go), then whole runs.

The scenario files put bare pods beside the target Deployment and run without the workload
controllers, so the HPA's decisions are measured on spec.replicas with the load on fixed pods."""

from pathlib import Path

import pytest

from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.types import Container, ObjectMeta, Pod, PodSpec, PodStatus, ResourceRequirements
from scheduler_core.api.workloads import (
    Deployment,
    HorizontalPodAutoscaler,
    HorizontalPodAutoscalerSpec,
    HPAScalingPolicy,
    HPAScalingRules,
)
from scheduler_core.controllers import horizontal_pod_autoscaler as hpa
from scheduler_core.controllers.endpoints import EndpointsController
from scheduler_core.controllers.horizontal_pod_autoscaler import (
    HorizontalPodAutoscalerController,
    MetricError,
    PodMetric,
    ScaleEvent,
    ScalingHistory,
    Tolerances,
)
from scheduler_core.controllers.kubelet import Kubelet
from scheduler_core.controllers.registry import default_controllers
from scheduler_core.controllers.scheduler_controller import SchedulerController
from scheduler_core.simulation.simulation import Simulation

DATA = Path(__file__).parent.parent / "data"
NOW = 1000.0
HPA = "HorizontalPodAutoscaler/default/web"
RESCALE_UP = "New size: {}; reason: cpu resource utilization (percentage of request) above target"
WITHOUT_WORKLOAD_CONTROLLERS = [HorizontalPodAutoscalerController, EndpointsController, SchedulerController, Kubelet]


# ---------------------------------------------------------------------------- helpers


def pod(
    name: str,
    request: int | None = 1000,
    *,
    phase: str = "Running",
    ready: bool = True,
    started: float | None = NOW - 600,
    deleted: bool = False,
) -> Pod:
    requests = {} if request is None else {"cpu": request}
    return Pod(
        metadata=ObjectMeta(name, "default", uid=name, deletion_timestamp=NOW if deleted else None),
        spec=PodSpec(containers=(Container("app", resources=ResourceRequirements(requests=requests)),)),
        status=PodStatus(phase=phase, ready=ready, start_time=started if phase != "Pending" else None),
    )


def samples(**values: int) -> dict[str, PodMetric]:
    return {name: PodMetric(value, NOW) for name, value in values.items()}


DEFAULT_TOLERANCES = Tolerances()


def utilization_replicas(current, target, pods, metrics, tolerances=DEFAULT_TOLERANCES, transitions=None):
    return hpa.replicas_for_utilization(current, target, "cpu", tolerances, pods, metrics, NOW, transitions)


def action(spec: str) -> str:
    return f"---\napiVersion: playground/v1\nkind: Action\nspec: {{{spec}}}\n"


def run(name: str, *, until: float | None = None, controllers=WITHOUT_WORKLOAD_CONTROLLERS, text: str | None = None):
    manifests = load_manifests(text if text is not None else (DATA / name).read_text())
    simulation = Simulation(manifests, controllers=controllers)
    simulation.run_to_end(until)
    return simulation


def hpa_events(simulation: Simulation) -> list[tuple[float, str, str]]:
    return [(e.time, e.reason, e.message) for e in simulation.cluster.events if e.object == HPA]


def rescales(simulation: Simulation) -> list[tuple[float, str]]:
    return [(time, message) for time, reason, message in hpa_events(simulation) if reason == "SuccessfulRescale"]


def replicas(simulation: Simulation) -> int:
    return simulation.cluster.get(Deployment, "default/web").spec.replicas


# ---------------------------------------------------------------------------- replica calculator


def test_scale_up_uses_the_ratio_of_utilization_to_target():
    # TestReplicaCalcScaleUp: 1500m of 3000m is 50%; 50/30 x 3 pods = 5.
    pods = [pod("a"), pod("b"), pod("c")]
    assert utilization_replicas(3, 30, pods, samples(a=300, b=500, c=700)) == (5, 50, 500)


def test_scale_down_uses_the_ratio_of_utilization_to_target():
    # TestReplicaCalcScaleDown: 1400m of 5000m is 28%; 28/50 x 5 = 2.8, rounded up to 3.
    pods = [pod(n) for n in "abcde"]
    replicas, utilization, _ = utilization_replicas(5, 50, pods, samples(a=100, b=300, c=500, d=250, e=250))
    assert (replicas, utilization) == (3, 28)


def test_a_ratio_within_the_tolerance_keeps_the_replicas():
    # TestReplicaCalcTolerance: 3060m of 3000m is 102% of a 100% target.
    pods = [pod("a", 900), pod("b", 1000), pod("c", 1100)]
    assert utilization_replicas(3, 100, pods, samples(a=1010, b=1030, c=1020))[:2] == (3, 102)


def test_the_tolerance_band_is_inclusive_and_per_direction():
    pods = [pod("a", 100)]
    assert utilization_replicas(1, 50, pods, samples(a=55))[0] == 1  # ratio 1.1: on the edge, kept
    assert utilization_replicas(1, 50, pods, samples(a=56))[0] == 2  # ratio 1.12
    tight = Tolerances(scale_down=0.1, scale_up=0.05)  # behavior.scaleUp.tolerance: 0.05
    assert utilization_replicas(4, 50, [pod(n, 100) for n in "abcd"], samples(a=54, b=54, c=54, d=54), tight)[0] == 5
    assert utilization_replicas(4, 50, [pod(n, 100) for n in "abcd"], samples(a=46, b=46, c=46, d=46), tight)[0] == 4


def test_an_unready_pod_counts_as_idle_on_a_scale_up():
    # TestReplicaCalcScaleUpUnreadyLessScale: the ready pods are at 60% of a 30% target, but the
    # unready one (still starting) counts as 0%: 1200m of 3000m is 40%, 4/3 x 3 = 4, not 6.
    pods = [pod("a", ready=False, started=NOW - 60), pod("b"), pod("c")]
    assert utilization_replicas(3, 30, pods, samples(a=300, b=500, c=700))[:2] == (4, 60)


def test_an_unready_pod_is_left_out_of_a_scale_down():
    # TestReplicaCalcScaleDownIgnoresUnreadyPods: only the ready pods' 28% decides.
    pods = [
        pod("a"),
        pod("b"),
        pod("c"),
        pod("d", ready=False, started=NOW - 60),
        pod("e", ready=False, started=NOW - 60),
    ]
    replicas, utilization, _ = utilization_replicas(5, 50, pods, samples(a=100, b=300, c=500, d=250, e=250))
    assert (replicas, utilization) == (2, 30)


def test_a_pod_whose_sample_predates_its_readiness_is_unready_during_initialization():
    pods = [pod("a", 100, started=NOW - 20), pod("b", 100)]
    metrics = samples(a=200, b=200)
    fresh = {"a": NOW - 5}  # Ready 5 s ago: one 15 s metric window has not passed
    assert hpa.group_pods(pods, metrics, "cpu", NOW, fresh).unready == frozenset({"a"})
    assert hpa.group_pods(pods, metrics, "cpu", NOW, {"a": NOW - 16}).unready == frozenset()


def test_after_initialization_only_pods_never_ready_are_unready():
    never = pod("a", ready=False, started=NOW - 600)  # not ready since it started
    was_ready = pod("b", ready=False, started=NOW - 600)  # ready once, unready since 100 s
    groups = hpa.group_pods([never, was_ready], samples(a=0, b=0), "cpu", NOW, {"b": NOW - 100})
    assert groups.unready == frozenset({"a"})
    assert groups.ready_count == 1


def test_missing_samples_count_as_full_on_a_scale_down_and_idle_on_a_scale_up():
    pods = [pod("a"), pod("b"), pod("c"), pod("d")]
    # Scale-down: 10% measured, the sample-less pod assumed at 100%: 1300m of 4000m = 32% -> 0.64 x 4 = 3.
    assert utilization_replicas(4, 50, pods, samples(a=100, b=100, c=100))[0] == 3
    # Scale-up: 90% measured, the missing pod at 0%: 2700m of 4000m = 67% -> 1.34 x 4 = 6.
    assert utilization_replicas(4, 50, pods, samples(a=900, b=900, c=900))[0] == 6
    # Within tolerance once the missing pod is counted: no change.
    assert utilization_replicas(4, 50, pods, samples(a=700, b=700, c=700))[0] == 4


def test_deleted_failed_and_pending_pods_are_not_counted():
    pods = [pod("a"), pod("b", deleted=True), pod("c", phase="Failed"), pod("d", phase="Pending")]
    groups = hpa.group_pods(pods, samples(a=500, b=900, c=900), "cpu", NOW)
    assert (groups.ready_count, groups.ignored, groups.unready) == (1, frozenset({"b", "c"}), frozenset({"d"}))


def test_a_container_without_a_cpu_request_is_an_error():
    with pytest.raises(MetricError, match="missing request for cpu in container app of Pod b"):
        utilization_replicas(2, 50, [pod("a"), pod("b", None)], samples(a=500, b=500))


def test_no_ready_samples_is_an_error():
    with pytest.raises(MetricError, match=r"did not receive metrics for targeted pods \(pods might be unready\)"):
        utilization_replicas(1, 50, [pod("a", ready=False, started=NOW - 10)], samples(a=500))


def test_average_value_targets_use_the_average_usage():
    pods = [pod("a"), pod("b")]
    assert hpa.replicas_for_average_value(2, 200, "cpu", Tolerances(), pods, samples(a=500, b=300), NOW) == (4, 400)


# ---------------------------------------------------------------------------- normalization


def test_max_replicas_caps_the_recommendation():
    # TestMaxReplicas: 21 wanted, maxReplicas 5.
    assert hpa.convert_with_rules(3, 21, 2, 5) == (5, hpa.LIMIT_TOO_MANY)


def test_without_behavior_a_scale_up_is_capped_at_twice_the_replicas_or_four():
    assert hpa.convert_with_rules(3, 100, 1, 100) == (6, hpa.LIMIT_SCALE_UP)
    assert hpa.convert_with_rules(1, 100, 1, 100) == (4, hpa.LIMIT_SCALE_UP)
    assert hpa.convert_with_rules(3, 0, 2, 10) == (2, hpa.LIMIT_TOO_FEW)


def test_without_behavior_the_highest_recommendation_of_five_minutes_wins():
    history = ScalingHistory()
    history.record_initial(6, 0.0)
    assert hpa.stabilize_recommendation(history, 3, 15.0) == 6
    assert hpa.stabilize_recommendation(history, 3, 300.0) == 6  # the 6 of 0 s is still inside the window
    assert hpa.stabilize_recommendation(history, 3, 301.0) == 3
    assert len(history.recommendations) == 3  # an expired sample's slot is reused


def scaling_spec(up: HPAScalingRules | None = None, down: HPAScalingRules | None = None, *, maximum: int = 100):
    return HorizontalPodAutoscalerSpec("Deployment", "web", max_replicas=maximum, scale_up=up, scale_down=down)


def scale_steps(spec, current: int, desired: int, times: list[float]) -> list[int]:
    """Run the behavior normalization once per sync time, applying each result."""
    history = ScalingHistory()
    history.record_initial(current, 0.0)
    seen = []
    for now in times:
        new, _, _ = hpa.normalize(history, spec, current, desired, now)
        if new != current:
            hpa.store_scale_event(history, hpa.effective_behavior(spec), current, new, now)
        current = new
        seen.append(current)
    return seen


def test_default_scale_up_policies_allow_four_pods_or_double_every_15_seconds():
    spec = scaling_spec(down=HPAScalingRules(stabilization_window_seconds=60), maximum=40)
    assert scale_steps(spec, 3, 42, [15, 30, 45, 60, 75]) == [7, 14, 28, 40, 40]


def test_select_policy_min_takes_the_smaller_change_and_disabled_none():
    policies = (HPAScalingPolicy("Pods", 4, 15), HPAScalingPolicy("Percent", 100, 15))
    minimal = scaling_spec(HPAScalingRules(select_policy="Min", policies=policies))
    assert scale_steps(minimal, 3, 40, [15, 30]) == [6, 10]
    disabled = scaling_spec(HPAScalingRules(select_policy="Disabled"))
    assert scale_steps(disabled, 3, 40, [15, 30]) == [3, 3]


def test_a_percent_scale_down_policy_truncates_and_holds_for_its_period():
    down = HPAScalingRules(stabilization_window_seconds=0, policies=(HPAScalingPolicy("Percent", 10, 60),))
    assert scale_steps(scaling_spec(down=down), 80, 10, [15, 30, 60, 75, 90]) == [72, 72, 72, 64, 64]


def test_the_scale_down_window_of_a_behavior_holds_the_highest_recent_recommendation():
    down = HPAScalingRules(stabilization_window_seconds=60)
    # The 8 recorded at 0 s leaves the 60 s window at 60 s.
    assert scale_steps(scaling_spec(down=down), 8, 2, [15, 30, 45, 60, 75]) == [8, 8, 8, 2, 2]


def test_scale_up_events_outside_the_period_free_the_budget():
    history = ScalingHistory(scale_up_events=[ScaleEvent(4, 10.0)])
    rules = HPAScalingRules(policies=(HPAScalingPolicy("Pods", 4, 60),))
    assert hpa.scale_up_limit_with_rules(8, history.scale_up_events, [], rules, 69.0) == 8
    assert hpa.scale_up_limit_with_rules(8, history.scale_up_events, [], rules, 70.0) == 12


def test_behavior_defaults_fill_what_the_spec_leaves_out():
    up, down = hpa.effective_behavior(scaling_spec(up=HPAScalingRules(tolerance=0.05)))
    assert up.policies == hpa.DEFAULT_SCALE_UP_RULES.policies and up.stabilization_window_seconds == 0
    assert down.stabilization_window_seconds == 300 and down.policies == (HPAScalingPolicy("Percent", 100, 15),)
    assert hpa.effective_behavior(scaling_spec()) is None
    assert hpa.tolerances_of(scaling_spec(up=HPAScalingRules(tolerance=0.05))) == Tolerances(0.1, 0.05)


def test_demand_is_shared_in_whole_millicores_by_requests():
    pods = [pod("a", 100), pod("b", 100), pod("c", 200)]
    assert hpa.share_demand(401, pods) == {"a": 100, "b": 100, "c": 201}
    assert sum(hpa.share_demand(100, [pod("a", 100), pod("b", 100), pod("c", 100)]).values()) == 100


# ---------------------------------------------------------------------------- whole runs


def test_three_replicas_at_100_percent_of_a_50_percent_target_become_six():
    sim = run("hpa_scale_up.yaml")
    assert rescales(sim) == [(30.0, RESCALE_UP.format(6))]
    assert replicas(sim) == 6
    status = sim.cluster.get(HorizontalPodAutoscaler, "default/web").status
    assert (status.current_replicas, status.desired_replicas, status.current_utilization) == (6, 6, 100)
    assert status.last_scale_time == 30.0
    deployment = sim.cluster.get(Deployment, "default/web")
    assert deployment.generation == 2


def test_the_first_sync_sees_no_sample_of_pods_that_just_became_ready():
    sim = run("hpa_scale_up.yaml", until=20)
    assert hpa_events(sim) == [
        (
            15.0,
            "FailedGetResourceMetric",
            "failed to get cpu utilization: did not receive metrics for targeted pods (pods might be unready)",
        ),
        (
            15.0,
            "FailedComputeMetricsReplicas",
            "invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: "
            "failed to get cpu utilization: did not receive metrics for targeted pods (pods might be unready)",
        ),
    ]
    assert all(e.source == "horizontal-pod-autoscaler" for e in sim.cluster.events if e.object == HPA)


def test_a_utilization_within_the_tolerance_changes_nothing():
    sim = run("hpa_tolerance.yaml")
    # 55% of 50% (ratio 1.1) is within the band; 56% (set at 100 s) is not: seen at the 105 s sync.
    assert rescales(sim) == [(105.0, RESCALE_UP.format(4))]


def test_max_replicas_caps_a_scale_up():
    sim = run("hpa_max_replicas.yaml")
    assert rescales(sim) == [(30.0, RESCALE_UP.format(5))]
    assert replicas(sim) == 5


def test_scale_down_waits_for_the_stabilization_window():
    sim = run("hpa_scale_down.yaml")
    assert rescales(sim) == [(330.0, "New size: 3; reason: All metrics below target")]
    status = sim.cluster.get(HorizontalPodAutoscaler, "default/web").status
    assert (status.current_replicas, status.current_utilization) == (3, 20)


def test_scale_up_policies_limit_the_pods_added_per_period():
    sim = run("hpa_policies.yaml")
    assert rescales(sim) == [
        (30.0, RESCALE_UP.format(4)),
        (90.0, RESCALE_UP.format(6)),
        (150.0, RESCALE_UP.format(8)),
        (210.0, RESCALE_UP.format(10)),
    ]


def test_the_default_behavior_doubles_or_adds_four_every_sync():
    sim = run("hpa_default_behavior.yaml")
    assert rescales(sim) == [
        (30.0, RESCALE_UP.format(7)),
        (45.0, RESCALE_UP.format(14)),
        (60.0, RESCALE_UP.format(28)),
        (75.0, RESCALE_UP.format(40)),
    ]


def test_replicas_outside_min_and_max_are_brought_back_at_once():
    text = (DATA / "hpa_scale_up.yaml").read_text().replace("minReplicas: 1", "minReplicas: 4")
    assert rescales(run("", text=text))[0] == (
        15.0,
        "New size: 4; reason: Current number of replicas below Spec.MinReplicas",
    )
    text = (DATA / "hpa_scale_up.yaml").read_text().replace("maxReplicas: 10", "maxReplicas: 2")
    assert rescales(run("", text=text))[0] == (
        15.0,
        "New size: 2; reason: Current number of replicas above Spec.MaxReplicas",
    )


def test_a_missing_scale_target_is_reported_every_sync():
    text = (
        (DATA / "hpa_scale_up.yaml").read_text().replace("kind: Deployment, name: web}", "kind: Deployment, name: api}")
    )
    sim = run("", text=text, until=45)
    assert [(t, r, m) for t, r, m in hpa_events(sim)] == [
        (t, "FailedGetScale", 'deployments.apps "api" not found') for t in (15.0, 30.0, 45.0)
    ]
    assert conditions(sim) == [
        (
            "AbleToScale",
            "False",
            "FailedGetScale",
            'the HPA controller was unable to get the target\'s current scale: deployments.apps "api" not found',
            15.0,
        )
    ]


def conditions(simulation: Simulation) -> list[tuple]:
    status = simulation.cluster.get(HorizontalPodAutoscaler, HPA.removeprefix("HorizontalPodAutoscaler/")).status
    return [(c.type, c.status, c.reason, c.message, c.last_transition_time) for c in status.conditions]


VALID = (
    "the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)"
)


def test_conditions_say_what_each_sync_found_as_kubectl_describe_hpa_shows_them():
    """horizontal.go's setCondition calls: AbleToScale, ScalingActive, ScalingLimited, in that
    order, each updated in place (its transition time only when its status flips)."""
    first = run("hpa_scale_down.yaml", until=16)  # the pods not ready yet: no metric
    assert [c[:3] for c in conditions(first)] == [
        ("AbleToScale", "True", "SucceededGetScale"),
        ("ScalingActive", "False", "FailedGetResourceMetric"),
    ]
    assert conditions(first)[1][3].startswith("the HPA was unable to compute the replica count: failed to get cpu")
    stabilizing = run("hpa_scale_down.yaml", until=100)  # a lower recommendation held by the window
    assert conditions(stabilizing) == [
        (
            "AbleToScale",
            "True",
            "ScaleDownStabilized",
            "recent recommendations were higher than current one, applying the highest recent recommendation",
            15.0,
        ),
        ("ScalingActive", "True", "ValidMetricFound", VALID, 30.0),
        ("ScalingLimited", "False", "DesiredWithinRange", "the desired count is within the acceptable range", 30.0),
    ]
    settled = run("hpa_scale_down.yaml")
    assert conditions(settled)[0][:3] == ("AbleToScale", "True", "ReadyForNewScale")
    capped = run("hpa_max_replicas.yaml")
    assert conditions(capped)[2] == (
        "ScalingLimited",
        "True",
        "TooManyReplicas",
        "the desired replica count is more than the maximum replica count",
        30.0,
    )


def test_a_target_scaled_to_zero_disables_scaling():
    text = (DATA / "hpa_scale_up.yaml").read_text().replace("replicas: 3", "replicas: 0", 1)
    sim = run("", text=text, until=15)
    assert [c[:3] for c in conditions(sim)] == [
        ("AbleToScale", "True", "SucceededGetScale"),
        ("ScalingActive", "False", "ScalingDisabled"),
    ]


def test_the_hpa_samples_its_metrics_every_15_seconds_from_its_creation():
    # Tutorial 001: the HPA checks the pods' load every 15 s; created at 5 s, it syncs at 20, 35...
    sim = run("hpa_metrics_loop.yaml")
    assert rescales(sim) == [(35.0, RESCALE_UP.format(6))]
    assert {(time - 5) % 15 for time, _, _ in hpa_events(sim)} == {0.0}


def test_set_utilization_may_target_the_hpa_and_reports_a_missing_target():
    text = (
        (DATA / "hpa_scale_up.yaml")
        .read_text()
        .replace("target: Deployment/web", "target: HorizontalPodAutoscaler/web")
    )
    assert rescales(run("", text=text)) == [(30.0, RESCALE_UP.format(6))]
    text = (DATA / "hpa_scale_up.yaml").read_text().replace("target: Deployment/web", "target: Deployment/nope")
    sim = run("", text=text, until=25)
    failed = [e for e in sim.cluster.events if e.reason == "FailedAction"]
    assert [(e.object, e.message) for e in failed] == [
        ("Deployment/default/nope", "set-utilization: Deployment/default/nope not found")
    ]


def test_the_demand_is_a_share_of_the_requests_of_the_ready_pods_at_that_moment():
    sim = run("hpa_scale_up.yaml", until=25)
    assert sim.workload_demand == {"Deployment/default/web": 300.0}  # 100% of 3 x 100m


def test_an_idle_workload_is_scaled_to_min_replicas_after_the_window():
    text = (DATA / "hpa_scale_up.yaml").read_text().split("---\napiVersion: playground/v1")[0]
    sim = run("", text=text)
    assert rescales(sim) == [(330.0, "New size: 1; reason: All metrics below target")]


def test_a_settled_hpa_lets_the_run_end_after_its_quiet_period():
    sim = run("hpa_scale_up.yaml")
    # Last input: the rescale at 30 s; quiet period: 300 s (CPU initialization, stabilization) + 2 syncs.
    assert sim.now == 30.0 + 300.0 + 30.0
    early = run("hpa_scale_up.yaml", until=100)
    assert early.now == 100


def test_a_later_load_change_wakes_a_settled_hpa():
    text = (DATA / "hpa_scale_up.yaml").read_text() + action(
        "at: 1000s, op: set-utilization, target: Deployment/web, cpu: 300"
    )
    sim = run("", text=text)
    # The settled HPA still syncs while the action is pending; at 1000 s its 3 pods read 300% of a 50%
    # target: 18 replicas wanted, maxReplicas 10, seen at the next sync.
    assert rescales(sim) == [(30.0, RESCALE_UP.format(6)), (1005.0, RESCALE_UP.format(10))]


def test_deleting_the_hpa_stops_its_loop():
    text = (DATA / "hpa_scale_up.yaml").read_text() + action("at: 40s, op: delete, target: HorizontalPodAutoscaler/web")
    sim = run("", text=text)
    assert sim.now == 45.0  # the sync already due at 45 s finds no HPA and stops
    assert rescales(sim) == [(30.0, RESCALE_UP.format(6))]


def test_the_hpa_and_endpoints_run_in_every_simulation():
    names = [factory.name for factory in default_controllers()]
    assert names.index("horizontal-pod-autoscaler") < names.index("endpoints") < names.index("scheduler")


def test_with_the_workload_controllers_the_replicas_converge_on_the_load():
    text = (
        "---\n".join(doc for doc in (DATA / "hpa_scale_up.yaml").read_text().split("---\n") if "kind: List" not in doc)
        .replace("cpu: 100}", "cpu: 250}")
        .replace("maxReplicas: 10", "maxReplicas: 20")
    )
    sim = run("", text=text, controllers=None)
    pods = [p for p in sim.cluster.objects(Pod) if p.labels.get("app") == "web"]
    # 750m of load at 50% of 100m requests needs 15 pods; the HPA gets there within a minute.
    assert replicas(sim) == 15 and len(pods) == 15
    assert [time for time, _ in rescales(sim)] == [30.0, 45.0, 60.0]
    assert sim.cluster.get(HorizontalPodAutoscaler, "default/web").status.current_utilization == 50


def test_the_same_scenario_and_seed_give_the_same_events():
    first = [e.as_dict() for e in run("hpa_policies.yaml").cluster.events]
    second = [e.as_dict() for e in run("hpa_policies.yaml").cluster.events]
    assert first == second


def test_a_memory_target_reads_the_memory_usage_annotation():
    text = (DATA / "hpa_scale_up.yaml").read_text()
    text = text.replace("resources: {requests: {cpu: 100m}}", "resources: {requests: {cpu: 100m, memory: 100Mi}}")
    text = text.replace(
        "labels: {app: web}}", "labels: {app: web}, annotations: {playground.k8s.io/memory-usage: 150Mi}}"
    )
    text = text.replace(
        "{name: cpu, target: {type: Utilization, averageUtilization: 50}}",
        "{name: memory, target: {type: Utilization, averageUtilization: 50}}",
    )
    sim = run("", text=text)
    # 150% of a 50% target wants 9; without a behavior a scale-up is capped at max(2 x 3, 4). The
    # memory samples need no CPU initialization, so the first sync already acts.
    assert rescales(sim)[0] == (
        15.0,
        "New size: 6; reason: memory resource utilization (percentage of request) above target",
    )
