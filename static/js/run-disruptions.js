// Disruptions made visible on the run's board, drawn from the state run-player.js renders:
// - a countdown on pods whose taint eviction is scheduled (the pod frame's evictAt, simulated
//   seconds; a NoExecute taint tolerated for tolerationSeconds), relative to the player's time;
// - a "preempted" badge on the victims of a preemption, from the Preempted event on while they
//   terminate;
// - one gauge per PodDisruptionBudget (its status, "workload" frames of kind PodDisruptionBudget),
//   highlighted while disruptionsAllowed is 0: evictions are refused and a drain waits.

const MAX_CELLS = 40; // beyond this a budget's gauge shows its numbers only

let indexed = null; // the run whose Preempted events are indexed
let scanned = 0; // how many of its events
let preempted = new Map(); // pod key -> [{index, message}] of its Preempted events, in order

function indexPreemptions(run) {
  if (indexed !== run) {
    indexed = run;
    scanned = 0;
    preempted = new Map();
  }
  for (; scanned < run.events.length; scanned++) {
    const event = run.events[scanned].event;
    if (event?.reason !== "Preempted" || !event.object.startsWith("Pod/")) continue;
    const key = event.object.slice("Pod/".length);
    if (!preempted.has(key)) preempted.set(key, []);
    preempted.get(key).push({ index: scanned, message: event.message });
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

function markPods({ pods, position, time }) {
  for (const chip of document.querySelectorAll("#board .pod[data-pod-key], #run-panel .pod[data-pod-key]")) {
    const pod = pods.get(chip.dataset.podKey);
    chip.querySelectorAll(".pod-badge").forEach((old) => old.remove());
    chip.classList.remove("evicting", "preempted");
    if (!pod) continue;
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
      const mark = badge("preempted-badge", "preempted");
      mark.title = preemption.message;
      chip.classList.add("preempted");
      chip.append(mark);
    }
  }
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

function drawBudgets({ workloads }) {
  const box = document.querySelector("#run-panel [data-run-pdbs]");
  if (!box) return;
  const budgets = [...workloads.values()].filter((w) => w.kind === "PodDisruptionBudget");
  budgets.sort((a, b) => a.key.localeCompare(b.key));
  box.replaceChildren(...budgets.map(gauge));
}

document.addEventListener("run:rendered", (event) => {
  indexPreemptions(event.detail.run);
  markPods(event.detail);
  drawBudgets(event.detail);
});
