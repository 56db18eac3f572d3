// Keeps the workload editor in step with the scenario when it changes elsewhere (another viewer's
// save, an action taken during a run): each board render carries the saved workload; if the text
// in the editor is still the last saved one (no local edits), it is replaced by the new one.
// The editor module listens for "workload:replaced" on the textarea to refresh its own view.

let lastSaved = null;

function sync() {
  const source = document.getElementById("workload-source");
  const textarea = document.getElementById("workload");
  if (!source || !textarea) return;
  const saved = source.content.textContent;
  if (lastSaved === null) lastSaved = textarea.value;
  if (saved === lastSaved) return;
  if (textarea.value === lastSaved) {
    textarea.value = saved;
    textarea.dispatchEvent(new CustomEvent("workload:replaced", { bubbles: true }));
    textarea.dispatchEvent(new Event("input", { bubbles: true }));
  }
  lastSaved = saved;
}

document.addEventListener("htmx:after:swap", sync);
document.addEventListener("DOMContentLoaded", sync);
sync();
