// The panels beside the board (the run, the workload) as tabs: one shown at a time, the arrow keys
// move between tabs (WAI-ARIA tabs pattern), and the choice survives htmx swapping a panel. A run
// starting, a pod clicked or an explanation arriving brings the run's tab forward.

const STORAGE = "playground:side-tab";

function tabs() {
  return [...document.querySelectorAll(".side-tabs [role=tab]")];
}

function current() {
  const asked = sessionStorage.getItem(STORAGE);
  if (asked && tabs().some((tab) => tab.dataset.sideTab === asked)) return asked;
  // Someone who can edit and has not run anything yet starts in the workload; everyone else at the run.
  const scenario = document.querySelector(".scenario");
  const hasRun = Boolean(document.getElementById("run-panel")?.dataset.runId);
  return scenario?.dataset.canEdit === "true" && !hasRun ? "workload" : "run";
}

export function showSidePanel(name, { remember = true, focus = false } = {}) {
  for (const tab of tabs()) {
    const selected = tab.dataset.sideTab === name;
    tab.setAttribute("aria-selected", String(selected));
    tab.tabIndex = selected ? 0 : -1;
    if (selected && focus) tab.focus();
  }
  for (const panel of document.querySelectorAll("[data-side-panel]")) panel.hidden = panel.dataset.sidePanel !== name;
  if (remember) sessionStorage.setItem(STORAGE, name);
  document.dispatchEvent(new CustomEvent("side:shown", { detail: { name } }));
}

document.addEventListener("click", (event) => {
  const tab = event.target.closest?.(".side-tabs [role=tab]");
  if (tab) showSidePanel(tab.dataset.sideTab);
  if (event.target.closest?.("[data-testid='run'], .pod[data-pod-key], #run-panel [data-player='rerun']")) showSidePanel("run");
});

document.addEventListener("keydown", (event) => {
  const tab = event.target.closest?.(".side-tabs [role=tab]");
  if (!tab || !["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key)) return;
  event.preventDefault();
  const all = tabs();
  const index = all.indexOf(tab);
  const next = event.key === "Home" ? 0 : event.key === "End" ? all.length - 1
    : (index + (event.key === "ArrowRight" ? 1 : -1) + all.length) % all.length;
  showSidePanel(all[next].dataset.sideTab, { focus: true });
});

// An explanation's score table needs room: the side widens while one is open (a class, not a
// :has() rule, which would make the browser look again at every change of a playing board).
function markExplaining() {
  document.querySelector(".workspace")?.classList.toggle("explaining", Boolean(document.querySelector("#explain-slot .explain-table")));
}
document.addEventListener("click", (event) => {
  if (event.target.closest?.("[data-close-explain]")) setTimeout(markExplaining);
});

// A swapped run panel comes back with its tab panel shown: hide it again if another tab is chosen.
document.addEventListener("htmx:after:swap", (event) => {
  markExplaining();
  const target = event.detail?.ctx?.target ?? event.target;
  if (target?.id === "explain-slot" || target?.closest?.("#explain-slot")) {
    showSidePanel("run", { remember: false });
    return;
  }
  showSidePanel(current(), { remember: false });
});

showSidePanel(current(), { remember: false });
document.documentElement.dataset.sideTabs = "ready";
