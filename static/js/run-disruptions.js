// Disruptions made visible on the run's board, drawn from the state run-player.js renders:
// - a countdown on pods whose taint eviction is scheduled (the pod frame's evictAt, simulated
//   seconds; a NoExecute taint tolerated for tolerationSeconds), relative to the player's time;
// - a "preempted" or "evicted" badge on pods the scheduler preempted, the taint eviction controller
//   or the kubelet (node pressure) evicted, from that event on while they terminate;
// - one gauge per PodDisruptionBudget (its status, "workload" frames of kind PodDisruptionBudget),
//   highlighted while disruptionsAllowed is 0: evictions are refused and a drain waits.

const MAX_CELLS = 40; // beyond this a budget's gauge shows its numbers only

// The events that mark a pod as disrupted, and the badge each gives.
const DISRUPTIONS = new Map([
  ["Preempted", "preempted"],
  ["TaintManagerEviction", "evicted: taint"],
  ["Evicted", "evicted: node pressure"],
]);

let indexed = null; // the run whose disruption events are indexed
let scanned = 0; // how many of its events
let preempted = new Map(); // pod key -> [{index, message, label}] of its disruption events, in order

function indexPreemptions(run) {
  if (indexed !== run) {
    indexed = run;
    scanned = 0;
    preempted = new Map();
  }
  for (; scanned < run.events.length; scanned++) {
    const event = run.events[scanned].event;
    if (!DISRUPTIONS.has(event?.reason) || !event.object.startsWith("Pod/")) continue;
    const key = event.object.slice("Pod/".length);
    if (!preempted.has(key)) preempted.set(key, []);
    preempted.get(key).push({ index: scanned, message: event.message, label: DISRUPTIONS.get(event.reason) });
  }
}

// The Preempted event that marks the pod at this position: the latest one already played, while
// the victim terminates (or at that very event).
function preemptionOf(pod, position) {
  const events = preempted.get(pod.key);
  if (!events) return null;
  const played = events.filter((entry) => entry.index < position).at(-1);
  if (!played) return null;
  return pod.deleting || played.index === position - 1 ? played : null;
}

function badge(className, text) {
  const span = document.createElement("span");
  span.className = `pod-badge ${className}`;
  span.textContent = text;
  return span;
}

// The marks each chip shows, as a string, so that a chip is only touched when its marks change.
function marksOf(pod, position, time) {
  let marks = "";
  if (pod.evictAt !== null && pod.evictAt !== undefined) {
    marks += `evict:${Math.max(0, Math.ceil(pod.evictAt - time - 1e-9))}`;
  }
  const preemption = preemptionOf(pod, position);
  if (preemption) marks += `|preempted:${preemption.index}`;
  return marks;
}

let marked = new Map(); // pod key -> the marks its chip shows

function markChip(chip, pod, position, time) {
  chip.querySelectorAll(".pod-badge").forEach((old) => old.remove());
  chip.classList.remove("evicting", "preempted");
  if (!pod) return;
  if (pod.evictAt !== null && pod.evictAt !== undefined) {
    const seconds = Math.max(0, Math.ceil(pod.evictAt - time - 1e-9));
    const countdown = badge("evict-countdown", `evicted in ${seconds}s`);
    countdown.dataset.evictAt = String(pod.evictAt);
    countdown.title = `The taint eviction controller deletes this pod at t=${pod.evictAt}s (tolerationSeconds of a NoExecute taint)`;
    chip.classList.add("evicting");
    chip.append(countdown);
  }
  const preemption = preemptionOf(pod, position);
  if (preemption) {
    const mark = badge("preempted-badge", preemption.label);
    mark.title = preemption.message;
    chip.classList.add("preempted");
    chip.append(mark);
  }
}

// Only pods with a countdown or a Preempted event can carry marks: look at those (and at the chips
// marked last time), not at every chip of a 2,000-pod board.
function markPods({ pods, position, time }) {
  const wanted = new Map();
  for (const pod of pods.values()) {
    if ((pod.evictAt !== null && pod.evictAt !== undefined) || preempted.has(pod.key)) {
      const marks = marksOf(pod, position, time);
      if (marks) wanted.set(pod.key, marks);
    }
  }
  for (const key of new Set([...wanted.keys(), ...marked.keys()])) {
    const marks = wanted.get(key) ?? "";
    for (const chip of document.querySelectorAll(`.pod[data-pod-key="${CSS.escape(key)}"]`)) {
      if (chip.closest("#board:not(.run-shown)")) continue; // the saved scenario is shown: not the run's pod
      if (chip.dataset.marks === marks) continue;
      chip.dataset.marks = marks;
      markChip(chip, marks ? pods.get(key) : null, position, time);
    }
  }
  marked = wanted;
}

function gauge(pdb) {
  const healthy = pdb.currentHealthy ?? 0;
  const desired = pdb.desiredHealthy ?? 0;
  const expected = pdb.expectedPods ?? 0;
  const allowed = pdb.disruptionsAllowed ?? 0;
  const card = document.createElement("section");
  card.className = `pdb-gauge${allowed === 0 ? " blocked" : ""}`;
  card.dataset.pdb = pdb.key;
  card.setAttribute("aria-label", `PodDisruptionBudget ${pdb.name}: ${allowed} disruptions allowed`);

  const title = document.createElement("h4");
  const name = document.createElement("span");
  name.textContent = `PDB ${pdb.name}`;
  const count = document.createElement("span");
  count.className = "pdb-allowed";
  count.dataset.pdbAllowed = String(allowed);
  count.textContent = `${allowed} disruption${allowed === 1 ? "" : "s"} allowed`;
  title.append(name, count);
  card.append(title);

  const size = Math.max(expected, healthy, desired);
  if (size > 0 && size <= MAX_CELLS) {
    const cells = document.createElement("ol");
    cells.className = "pdb-cells";
    cells.setAttribute("aria-hidden", "true");
    for (let i = 0; i < size; i++) {
      const cell = document.createElement("li");
      // Healthy pods up to desiredHealthy are needed; those beyond it may be disrupted.
      const state = i < healthy ? (i < desired ? "needed" : "spare") : i < desired ? "missing" : "absent";
      cell.className = `${state}${i === desired - 1 ? " threshold" : ""}`;
      cells.append(cell);
    }
    card.append(cells);
  }

  const facts = document.createElement("p");
  facts.className = "pdb-facts";
  const limit = pdb.minAvailable !== null && pdb.minAvailable !== undefined
    ? `minAvailable ${pdb.minAvailable}`
    : pdb.maxUnavailable !== null && pdb.maxUnavailable !== undefined ? `maxUnavailable ${pdb.maxUnavailable}` : "";
  facts.textContent = `${healthy} healthy · ${desired} desired · ${expected} expected${limit ? ` · ${limit}` : ""}`
    + (allowed === 0 ? " — evictions are refused: a drain waits" : "");
  card.append(facts);
  return card;
}

let drawnBudgets = []; // the budget frames the gauges show

function drawBudgets({ workloads }) {
  const box = document.querySelector("#run-panel [data-run-pdbs]");
  if (!box) return;
  const budgets = [...workloads.values()].filter((w) => w.kind === "PodDisruptionBudget");
  budgets.sort((a, b) => a.key.localeCompare(b.key));
  const same = budgets.length === drawnBudgets.length && budgets.every((pdb, i) => pdb === drawnBudgets[i]);
  if (same && box.childElementCount === budgets.length) return; // frames are immutable
  drawnBudgets = budgets;
  box.replaceChildren(...budgets.map(gauge));
}

document.addEventListener("run:rendered", (event) => {
  indexPreemptions(event.detail.run);
  markPods(event.detail);
  drawBudgets(event.detail);
});
