// What each node has given out at one moment of a run: the requests of the pods bound to it that
// still hold their resources, as the scheduler counts them (NodeResourcesFit sums every pod on the
// node that has not terminated — Terminating pods included, until they are gone).

const FINISHED = new Set(["Succeeded", "Failed"]);

/** Whether a pod frame still takes resources on its node. */
export function holdsResources(pod) {
  return Boolean(pod.node) && !FINISHED.has(pod.phase);
}

/** node name -> {cpu (millicores), memory (bytes), pods} requested, from the run's current pods. */
export function requestedByNode(pods) {
  const usage = new Map();
  for (const pod of pods.values()) {
    if (!holdsResources(pod)) continue;
    const sum = usage.get(pod.node) ?? { cpu: 0, memory: 0, pods: 0 };
    sum.cpu += pod.requests?.cpu ?? 0;
    sum.memory += pod.requests?.memory ?? 0;
    sum.pods += 1;
    usage.set(pod.node, sum);
  }
  return usage;
}

const BINARY = [["Ei", 2 ** 60], ["Pi", 2 ** 50], ["Ti", 2 ** 40], ["Gi", 2 ** 30], ["Mi", 2 ** 20], ["Ki", 2 ** 10]];

/** An amount as the server's bars print it (scheduler_core.api.quantity.format_milli_cpu / format_bytes). */
export function formatAmount(resource, amount) {
  if (resource === "cpu") return amount % 1000 === 0 ? String(amount / 1000) : `${amount}m`;
  if (resource === "memory") {
    const unit = BINARY.find(([, factor]) => amount && amount % factor === 0);
    return unit ? `${amount / unit[1]}${unit[0]}` : String(amount);
  }
  return String(amount);
}

/** Bytes to a short reading for chart labels (1.5Gi), where exactness matters less than width. */
export function shortBytes(amount) {
  const unit = BINARY.find(([, factor]) => amount >= factor);
  if (!unit) return String(amount);
  const value = amount / unit[1];
  return `${Number.isInteger(value) ? value : value.toFixed(1)}${unit[0]}`;
}
