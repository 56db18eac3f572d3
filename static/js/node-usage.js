// What each node has given out at one moment of a run: the requests of the pods bound to it that
// still hold their resources, as the scheduler counts them (NodeResourcesFit sums every pod on the
// node that has not terminated — Terminating pods included, until they are gone). The rule is
// scheduler_core/scheduler/resources.py holds_resources; the server sends pods, this sums them.

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
const BYTE_RESOURCES = new Set(["memory", "ephemeral-storage", "storage"]); // a node's, by their names
const DECIMAL = [["E", 10 ** 18], ["P", 10 ** 15], ["T", 10 ** 12], ["G", 10 ** 9], ["M", 10 ** 6], ["k", 10 ** 3]];

/** The largest suffix of `units` that leaves a whole number, else the number alone. */
function withSuffix(amount, units) {
  const unit = units.find(([, factor]) => amount && amount % factor === 0);
  return unit ? `${amount / unit[1]}${unit[0]}` : String(amount);
}

/**
 * An amount as the server prints it (scheduler_core.api.quantity.format_quantity, upstream's
 * canonical Quantity text): CPU in whole cores or millicores, bytes with a binary suffix when one
 * divides them (else a decimal one), counts with a decimal suffix. Amounts past 2^53 lose digits.
 */
export function formatAmount(resource, amount) {
  if (resource === "cpu") return amount % 1000 === 0 ? withSuffix(amount / 1000, DECIMAL) : `${amount}m`;
  const bytes = BYTE_RESOURCES.has(resource) || resource.startsWith("hugepages-");
  if (bytes && amount % 1024 === 0) return withSuffix(amount, BINARY);
  return withSuffix(amount, DECIMAL);
}

/** Bytes to a short reading for chart labels (1.5Gi), where exactness matters less than width. */
export function shortBytes(amount) {
  const unit = BINARY.find(([, factor]) => amount >= factor);
  if (!unit) return String(amount);
  const value = amount / unit[1];
  return `${Number.isInteger(value) ? value : value.toFixed(1)}${unit[0]}`;
}
