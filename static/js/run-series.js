// Time series of a run for the charts, computed as its events arrive. A run's event list only ever
// grows (run-player.js keeps it contiguous by seq), so each event is read once: the series keep
// their change points, and a chart downsamples them when it draws. A 20,000-event run is never
// rescanned on a render.

import { holdsResources } from "./node-usage.js";

export const ZONE_LABEL = "topology.kubernetes.io/zone";
export const NO_ZONE = "(no zone)";

const series = new WeakMap(); // the player's run object -> its series (a new run is a new object)

/** The series of `run`, brought up to date with the events received since the last call. */
export function seriesOf(run) {
  let state = series.get(run);
  if (!state) {
    state = {
      read: 0, // events consumed
      times: [], // times[i]: simulated time once event i is applied (player position i + 1)
      podNode: new Map(), // pod key -> the node it counts on, while it holds resources there
      nodeZone: new Map(),
      nodeCount: new Map(),
      zoneCount: new Map(),
      byNode: new Map(), // node -> step points [[time, pods], ...], one per change
      byZone: new Map(),
      deployments: new Map(), // namespace/name -> {name, ready: points, desired: points}
      hasZones: false,
      maxReplicas: 0,
      changed: 0, // bumped whenever a series changed, so charts redraw only then
    };
    series.set(run, state);
  }
  const before = state.read;
  while (state.read < run.events.length) ingest(state, run.events[state.read++]);
  if (state.read !== before) state.changed += 1;
  return state;
}

function ingest(state, item) {
  const time = item.time ?? item.event?.time ?? item.end ?? state.times.at(-1) ?? 0;
  state.times.push(time);
  for (const change of item.changes ?? []) {
    if (change.op === "node") placeNode(state, change, time);
    else if (change.op === "pod") movePod(state, change.key, holdsResources(change) ? change.node : undefined, time);
    else if (change.op === "pod-") movePod(state, change.key, undefined, time);
    else if (change.op === "workload" && change.kind === "Deployment") recordDeployment(state, change, time);
    else if (change.op === "workload-" && change.kind === "Deployment") recordDeployment(state, { key: change.key, ready: 0, replicas: 0 }, time);
  }
}

// A step series: the value holds from a point's time to the next point's. Several changes at one
// simulated instant leave one point, the last value.
function record(points, time, value) {
  const last = points.at(-1);
  if (last && last[0] === time) last[1] = value;
  else if (!last || last[1] !== value) points.push([time, value]);
}

function recordIn(map, key, time, value) {
  if (!map.has(key)) map.set(key, []);
  record(map.get(key), time, value);
}

function placeNode(state, node, time) {
  const zone = node.labels?.[ZONE_LABEL] ?? NO_ZONE;
  if (zone !== NO_ZONE) state.hasZones = true;
  const before = state.nodeZone.get(node.name);
  if (before === zone) return;
  state.nodeZone.set(node.name, zone);
  const count = state.nodeCount.get(node.name) ?? 0;
  if (before === undefined) recordIn(state.byNode, node.name, time, count); // the line starts when the node does
  else addToZone(state, before, -count, time); // relabelled: its pods now count in the new zone
  addToZone(state, zone, count, time);
}

function movePod(state, key, node, time) {
  const before = state.podNode.get(key);
  if (before === node) return;
  if (before !== undefined) addToNode(state, before, -1, time);
  if (node === undefined) state.podNode.delete(key);
  else {
    state.podNode.set(key, node);
    addToNode(state, node, 1, time);
  }
}

function addToNode(state, node, delta, time) {
  const count = (state.nodeCount.get(node) ?? 0) + delta;
  state.nodeCount.set(node, count);
  recordIn(state.byNode, node, time, count);
  addToZone(state, state.nodeZone.get(node) ?? NO_ZONE, delta, time);
}

function addToZone(state, zone, delta, time) {
  const count = (state.zoneCount.get(zone) ?? 0) + delta;
  state.zoneCount.set(zone, count);
  recordIn(state.byZone, zone, time, count);
}

function recordDeployment(state, frame, time) {
  let deployment = state.deployments.get(frame.key);
  if (!deployment) {
    deployment = { key: frame.key, name: frame.name ?? frame.key, ready: [], desired: [] };
    state.deployments.set(frame.key, deployment);
  }
  record(deployment.ready, time, frame.ready ?? 0);
  record(deployment.desired, time, frame.replicas ?? 0);
  state.maxReplicas = Math.max(state.maxReplicas, frame.ready ?? 0, frame.replicas ?? 0);
}

/** The player position showing the cluster at simulated `time`: every event up to that instant applied. */
export function positionAt(state, time) {
  let low = 0;
  let high = state.times.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (state.times[middle] <= time) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * At most `limit` points of a step series over [0, end]. Each time bucket keeps its first, lowest,
 * highest and last point, in time order: where each step starts and ends, and a brief dip (a
 * rollout's ready count) or spike still shows.
 */
export function downsample(points, end, limit = 400) {
  if (points.length <= limit) return points;
  const buckets = Math.floor(limit / 4);
  const bucketOf = (time) => Math.min(buckets - 1, Math.floor((time / end) * buckets));
  const kept = [];
  for (let start = 0; start < points.length;) {
    const bucket = bucketOf(points[start][0]);
    let low = points[start];
    let high = points[start];
    let next = start;
    for (; next < points.length && bucketOf(points[next][0]) === bucket; next++) {
      if (points[next][1] < low[1]) low = points[next];
      if (points[next][1] > high[1]) high = points[next];
    }
    kept.push(...new Set([points[start], low, high, points[next - 1]].sort((a, b) => a[0] - b[0])));
    start = next;
  }
  return kept;
}

/**
 * Step series stacked on one another, sampled at the times any of them changes (at most `limit`
 * samples: past that, the last moment of each of `limit` time buckets). Returns, per series,
 * [[time, bottom, top], ...], and the highest top.
 */
export function stack(seriesList, end, limit = 400) {
  let times = [...new Set(seriesList.flatMap((points) => points.map(([time]) => time)))].sort((a, b) => a - b);
  if (times.length > limit) {
    const lastOfBucket = new Map();
    for (const time of times) lastOfBucket.set(Math.min(limit - 1, Math.floor((time / end) * limit)), time);
    times = [...lastOfBucket.values()];
  }
  const next = seriesList.map(() => 0);
  const layers = seriesList.map(() => []);
  let highest = 0;
  for (const time of times) {
    let bottom = 0;
    seriesList.forEach((points, index) => {
      while (next[index] < points.length && points[next[index]][0] <= time) next[index] += 1;
      const value = next[index] ? points[next[index] - 1][1] : 0;
      layers[index].push([time, bottom, bottom + value]);
      bottom += value;
    });
    highest = Math.max(highest, bottom);
  }
  return { layers, highest };
}
