"""A stored run replayed to one of its events: the cluster as it was there, for an explanation
(explain_at), traffic, or a run kept whole in this process (run_states)."""

from dataclasses import dataclass

from playground import run_states
from playground.models import Run, ScenarioVersion
from playground.run_frames import RunFrames
from playground.run_simulations import configuration_of, run_simulation
from scheduler_core.api.manifests import load_manifests
from scheduler_core.explain.explain import Explanation, explain_in_cluster
from scheduler_core.simulation.simulation import Simulation
from scheduler_core.store.cluster import Change, Cluster
from scheduler_core.store.events import Event


def keep_finished(run: Run, simulation: Simulation, run_frames: "RunFrames") -> None:
    """A run simulated to its end here leaves its store for explanations (playground/run_states.py)."""
    if run_frames.finished and run_frames.journal is not None:
        kept = run_states.FinishedRun.detached(
            simulation.cluster,
            simulation.configuration,
            run_frames.journal,
            run_frames.boundaries,
            run_frames.times,
            simulation.demand_log,
        )
        run_states.remember(state_key(run), kept)


def state_key(run: Run) -> run_states.RunKey:
    return (run.pk, run.version.permalink, run.seed)


def explain_at(run: Run, pod_key: str, seq: int) -> Explanation:
    """Why the pod is where it is (or Pending) at event `seq` of the run: the run is replayed with
    the same seed up to that event, then the engine explains the pod against exactly that cluster
    (pods bound later in the same instant are not in it)."""
    kept = run_states.finished_run(state_key(run))
    if kept is not None:
        return explain_kept(kept, pod_key, seq, run.seed)
    replayed = replay(run, seq)
    configuration = replayed.simulation.configuration
    return explain_in_cluster(replayed.cluster, pod_key, configuration, seed=run.seed, now=replayed.time)


def explain_kept(kept: run_states.FinishedRun, pod_key: str, seq: int, seed: int) -> Explanation:
    """The explanation at frame `seq` of a run kept here, without a replay: the end's store with
    what came after the frame undone, and the run's PodInfos. Not with the collector paused
    (gc_pause.py), as before playground/heap.py: a full collection walks only what came since the
    last, and a pause left one young collection of everything the explanation made (0.13 s at
    5,000 / 50,000)."""
    cluster, time = kept.cluster_at(seq)
    return explain_in_cluster(cluster, pod_key, kept.configuration, seed=seed, pod_infos=kept.pod_infos, now=time)


@dataclass(frozen=True, slots=True)
class Replay:
    """A run as it was just after one of its frames."""

    cluster: Cluster  # the store right after the frame: a copy no one watches, free to change
    time: float  # the frame's simulated time
    # The engine that replayed it, settled at the end of the frame's instant (its controllers' own
    # state, such as the nodes a node-down stopped, is that instant's end).
    simulation: Simulation


def load_for_replay(run: Run) -> None:
    """Loads what `replay` reads of the run's version, so that a replay off the request
    (playground/offloaded.py) never touches the database."""
    load_documents(run.version)


def load_documents(version: ScenarioVersion) -> None:
    """Loads the version's documents (deferred columns, a workload stored apart) into the instance."""
    _ = (version.stored_document, version.scheduler_config_yaml, version.workload_text_id)
    if version.workload_text_id:
        _ = version.workload_text


def replay(run: Run, seq: int) -> Replay:
    """The run's cluster just after its frame `seq` (seq 0: before anything happened), even in the
    middle of an instant: the same version and seed replay the same frames, and what the engine did
    after that frame in its instant is undone, so this is the cluster the viewer sees."""
    manifests = load_manifests(run.version.cluster_document, source="scenario")
    config = configuration_of(run.version.scheduler_config_yaml)
    simulation = run_simulation(manifests, config, run.seed, replay=True)
    time = 0.0
    later: list[Change | Event] = []
    if seq > 0:
        run_frames = RunFrames(simulation, keep=run_states.MAX_ITEMS)
        for index, frame in enumerate(run_frames, start=1):
            time = frame["time"]
            if index >= seq:
                later = run_frames.unsent
                break
        else:  # the replay went to the run's end: later explanations need none
            keep_finished(run, simulation, run_frames)
    return Replay(simulation.cluster.before(later), time, simulation)
