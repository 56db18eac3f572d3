// The kubectl console beside the board (templates/scenario.html, playground/views/console.py).
// The form is htmx's; this module adds what a terminal has: the player's run and event sent with
// each command (a command reads the cluster there, a change goes on the timeline there), history
// with ↑/↓ (kept in this browser), Tab completion of commands, kinds and names (asked of the
// server, read at the same event), `clear` / Ctrl+L, and the log kept scrolled to its end.

import { showSidePanel } from "./side-tabs.js";

const HISTORY_KEY = "playground:kubectl-history";
const HISTORY_MAX = 200;

let player = { run: null, position: null }; // what the page's player shows
let history = loadHistory();
let recalled = history.length; // the history entry shown; history.length: the line being written
let draft = "";
let leaving = false; // Esc pressed: the next Tab moves focus on, as in the workload editor

const form = () => document.querySelector("[data-console-form]");
const input = () => document.querySelector("[data-console-input]");
const log = () => document.querySelector("[data-console-log]");
const candidatesLine = () => document.querySelector("[data-console-candidates]");

function loadHistory() {
  try {
    const stored = JSON.parse(localStorage.getItem(HISTORY_KEY) ?? "[]");
    return Array.isArray(stored) ? stored.filter((line) => typeof line === "string") : [];
  } catch {
    return [];
  }
}

function remember(line) {
  if (line && history.at(-1) !== line) history.push(line);
  history = history.slice(-HISTORY_MAX);
  localStorage.setItem(HISTORY_KEY, JSON.stringify(history));
  recalled = history.length;
  draft = "";
}

document.addEventListener("run:started", (event) => {
  player = { run: event.detail.id, position: null, time: 0 };
  if (watch && watch.run !== event.detail.id) stopWatch("(the watch ended: the page shows another run now)");
});
document.addEventListener("run:rendered", (event) => {
  player = { run: event.detail.run.id, position: event.detail.position, time: event.detail.time ?? 0 };
  followWatch();
});

// ------------------------------------------------------------------ get -w
// One watch at a time (a terminal runs one command at a time): its entry's output grows with the
// rows of the run's changes as the player moves past them; asked at most once a second.

const WATCH_INTERVAL_MS = 1000;
let watch = null; // { run, after, since, line, out, asking, askedAt, timer }

function startWatch(out) {
  stopWatch();
  const after = out.dataset.after === "" ? -1 : Number(out.dataset.after); // -1: from `since` (a change's moment)
  watch = { run: Number(out.dataset.run), after, since: out.dataset.since, line: out.dataset.line, out, asking: false, askedAt: 0, timer: null };
  followWatch();
}

function stopWatch(why = "^C") {
  if (!watch) return;
  if (why) watch.out.textContent += why.endsWith("\n") ? why : `${why}\n`;
  watch.out.closest(".console-entry")?.querySelector(".console-watching")?.remove();
  delete watch.out.dataset.consoleWatch;
  watch = null;
}

async function followWatch() {
  const current = watch;
  if (!current || current.asking || player.run !== current.run || player.position === null) return;
  if (player.position <= current.after) return;
  const wait = current.askedAt + WATCH_INTERVAL_MS - Date.now();
  if (wait > 0) { // one timer at a time, however many frames are drawn meanwhile
    current.timer ??= setTimeout(() => { current.timer = null; followWatch(); }, wait);
    return;
  }
  current.asking = true;
  current.askedAt = Date.now();
  const address = new URL(form().dataset.watchUrl, location.href);
  const asked = { line: current.line, run: current.run, seq: player.position };
  if (current.after >= 0) asked.after = current.after;
  else asked.at = current.since;
  for (const [name, value] of Object.entries(asked)) address.searchParams.set(name, String(value));
  try {
    const response = await fetch(address, { headers: { Accept: "application/json" } });
    const answer = response.ok ? await response.json() : { rows: "", position: current.after };
    if (watch !== current) return;
    if (answer.end) { stopWatch(answer.error ?? ""); return; }
    if (answer.rows) {
      current.out.textContent += answer.rows;
      const area = log();
      if (area) area.scrollTop = area.scrollHeight;
    }
    current.after = Math.max(current.after, answer.position ?? current.after);
    if (answer.done) { stopWatch(""); return; } // the command has ended (drained, rolled out)
  } catch {
    // the next frame asks again
  } finally {
    current.asking = false;
  }
  if (watch === current && player.position > current.after) followWatch(); // waits out the interval
}

/** Where a command reads: the player's run and position; the run panel's run at its end before the
 * player drew it. A run made by a change starts at its moment (`data-start-at`): until the player
 * has replayed up to there, commands read at that moment, never before the change. */
function position() {
  const panel = document.getElementById("run-panel");
  const panelRun = Number(panel?.dataset.runId) || null;
  const startAt = panel?.dataset.startAt;
  if (startAt !== undefined && panelRun && !(player.run === panelRun && player.time >= Number(startAt))) {
    return { run: panelRun, seq: null, at: startAt };
  }
  if (player.run && player.run === panelRun) return { run: player.run, seq: player.position };
  return { run: panelRun, seq: null };
}

function boardVersion() {
  return document.getElementById("board")?.dataset.version ?? "";
}

function fill(target) {
  const where = position();
  const set = (name, value) => {
    const field = target.querySelector(`[data-console="${name}"]`);
    if (field) field.value = value ?? "";
  };
  set("run", where.run);
  set("seq", where.seq);
  set("at", where.at);
  set("version", boardVersion());
}

document.addEventListener("htmx:config:request", (event) => {
  const source = event.detail?.ctx?.sourceElement;
  if (source !== form()) return;
  fill(source);
  const body = event.detail.ctx.request.body;
  for (const name of ["run", "seq", "at", "version"]) body.set(name, source.querySelector(`[data-console="${name}"]`).value);
  remember(input().value.trim());
  stopWatch(); // the next command ends a watch, as a terminal's would have to be stopped first
  input().value = "";
  hideCandidates();
  closeFileBox(); // its text is in the request's body already
  input().focus();
});

// Before htmx sees the submit (capturing): a command that reads a file (`apply -f pod.yaml`) first
// asks for its text; the form is filled (a plain post, before htmx is there, too).
document.addEventListener("submit", (event) => {
  if (event.target !== form()) return;
  if (!input().value.trim()) { // an empty Enter: a new prompt line, nothing sent (a terminal's)
    event.preventDefault();
    event.stopPropagation();
    return;
  }
  const box = fileBox();
  const name = fileNamed(input().value);
  if (name && box.hidden) {
    event.preventDefault();
    event.stopPropagation();
    askForFile(name);
    return;
  }
  if (!name && !box.hidden) closeFileBox();
  fill(event.target);
}, true);

const fileBox = () => document.querySelector("[data-console-file]");

/** The file `-f` names in an apply or create command, or null. */
export function fileNamed(line) {
  const words = line.trim().split(/\s+/);
  if (words[0] === "kubectl") words.shift();
  if (!["apply", "create"].includes(words[0])) return null;
  for (let index = 1; index < words.length; index++) {
    const word = words[index];
    if ((word === "-f" || word === "--filename") && words[index + 1]) return words[index + 1];
    if (word.startsWith("--filename=")) return word.slice("--filename=".length);
    if (word.startsWith("-f") && word.length > 2) return word.slice(2).replace(/^=/, "");
  }
  return null;
}

function askForFile(name) {
  hideCandidates();
  const box = fileBox();
  box.hidden = false;
  box.disabled = false;
  box.querySelector("[data-console-file-name]").textContent = name;
  box.querySelector("[data-console-filename]").value = name;
  box.querySelector("[data-console-file-text]").focus();
}

function closeFileBox() {
  const box = fileBox();
  if (!box) return;
  box.hidden = true;
  box.disabled = true;
  box.querySelector("[data-console-file-text]").value = "";
  box.querySelector("[data-console-file-pick]").value = "";
}

document.addEventListener("change", (event) => {
  if (!event.target.matches?.("[data-console-file-pick]")) return;
  const [file] = event.target.files;
  if (!file) return;
  const reader = new FileReader();
  reader.onload = () => { fileBox().querySelector("[data-console-file-text]").value = String(reader.result); };
  reader.readAsText(file);
});

document.addEventListener("click", (event) => {
  if (!event.target.closest?.("[data-console-file-cancel]")) return;
  closeFileBox();
  input()?.focus();
});

document.addEventListener("htmx:after:swap", (event) => {
  const target = event.detail?.ctx?.target;
  if (target !== log() && !target?.closest?.("[data-console-log]")) return;
  const area = log();
  if (area) area.scrollTop = area.scrollHeight;
  const watched = area?.lastElementChild?.querySelector("[data-console-watch]");
  if (watched && watched !== watch?.out) startWatch(watched);
  const opened = area?.lastElementChild?.querySelector("[data-console-edit-line]");
  if (opened && !opened.dataset.revealed) {
    opened.dataset.revealed = "true";
    reveal(Number(opened.dataset.consoleEditLine));
  }
});

/** `kubectl edit`: the Workload tab, at the object's document (the editor moves there; a viewer's
 * read-only text is scrolled to it). */
function reveal(line) {
  showSidePanel("workload");
  const asked = new CustomEvent("workload:reveal", { detail: { line }, cancelable: true });
  if (!document.dispatchEvent(asked)) return;
  const textarea = document.getElementById("workload");
  if (!textarea) return;
  const offset = textarea.value.split("\n").slice(0, line - 1).reduce((sum, text) => sum + text.length + 1, 0);
  textarea.focus();
  textarea.setSelectionRange(offset, offset);
}

function clearLog() {
  stopWatch();
  log()?.replaceChildren();
  hideCandidates();
}

document.addEventListener("keydown", (event) => {
  const field = event.target;
  if (!field?.matches?.("[data-console-input]")) return;
  if (event.key === "Escape") {
    leaving = true;
    hideCandidates();
    return;
  }
  if (event.key === "Tab") {
    if (leaving || event.shiftKey || !field.value.trim()) { leaving = false; return; }
    event.preventDefault();
    complete(field);
    return;
  }
  leaving = false;
  if (event.key === "Enter" && field.value.trim() === "clear") {
    event.preventDefault();
    remember("clear");
    field.value = "";
    clearLog();
  } else if (event.key === "c" && event.ctrlKey && watch && field.selectionStart === field.selectionEnd) {
    event.preventDefault();
    stopWatch();
  } else if (event.key === "l" && event.ctrlKey) {
    event.preventDefault();
    clearLog();
  } else if (event.key === "ArrowUp" || event.key === "ArrowDown") {
    event.preventDefault();
    recall(field, event.key === "ArrowUp" ? -1 : 1);
  }
});

document.addEventListener("click", (event) => {
  if (!event.target.closest?.("[data-skip-console]")) return;
  event.preventDefault();
  showSidePanel("console");
  input()?.focus();
});

// The key buttons (a phone has no Tab or arrows): what the keys do, the field keeping the focus.
document.addEventListener("click", (event) => {
  const key = event.target.closest?.("[data-console-key]")?.dataset.consoleKey;
  const field = input();
  if (!key || !field) return;
  field.focus();
  if (key === "Tab" && field.value.trim()) complete(field);
  else if (key === "ArrowUp" || key === "ArrowDown") recall(field, key === "ArrowUp" ? -1 : 1);
});

// The console's tab widens the side (kubectl's tables are wide); the others give the board its room.
document.addEventListener("side:shown", (event) => {
  document.querySelector(".workspace")?.classList.toggle("console-open", event.detail?.name === "console");
});

function recall(field, step) {
  if (recalled === history.length) draft = field.value;
  recalled = Math.max(0, Math.min(history.length, recalled + step));
  field.value = recalled === history.length ? draft : history[recalled];
  field.setSelectionRange(field.value.length, field.value.length);
}

let asking = 0;

async function complete(field) {
  const typed = field.value.slice(0, field.selectionStart ?? field.value.length);
  const rest = field.value.slice(typed.length);
  const where = position();
  const address = new URL(form().dataset.completeUrl, location.href);
  address.searchParams.set("line", typed);
  if (where.run) address.searchParams.set("run", String(where.run));
  if (where.seq !== null && where.seq !== undefined) address.searchParams.set("seq", String(where.seq));
  if (where.at !== undefined) address.searchParams.set("at", String(where.at));
  const ticket = ++asking;
  let answer;
  try {
    const response = await fetch(address, { headers: { Accept: "application/json" } });
    if (!response.ok) return;
    answer = await response.json();
  } catch {
    return;
  }
  if (ticket !== asking || field.value.slice(0, typed.length) !== typed) return; // typed on meanwhile
  const candidates = answer.candidates ?? [];
  const word = typed.match(/\S*$/)[0];
  if (!candidates.length) { showCandidates([], 0, "no completions"); return; }
  const common = commonPrefix(candidates);
  const ending = candidates.length === 1 && !candidates[0].endsWith("/") ? " " : "";
  if (common.length > word.length || ending) {
    const completed = typed.slice(0, typed.length - word.length) + common + ending;
    field.value = completed + rest;
    field.setSelectionRange(completed.length, completed.length);
  }
  if (candidates.length > 1) showCandidates(candidates, answer.more ?? 0);
  else hideCandidates();
}

function commonPrefix(words) {
  let prefix = words[0];
  for (const word of words.slice(1)) {
    while (!word.startsWith(prefix)) prefix = prefix.slice(0, -1);
  }
  return prefix;
}

function showCandidates(candidates, more, empty = "") {
  const line = candidatesLine();
  if (!line) return;
  line.textContent = empty || candidates.join("  ") + (more ? `  … and ${more} more` : "");
  line.hidden = false;
}

function hideCandidates() {
  const line = candidatesLine();
  if (line) { line.hidden = true; line.textContent = ""; }
}

// side-tabs.js showed the remembered tab before this module listened.
document.querySelector(".workspace")?.classList.toggle("console-open", document.getElementById("side-console")?.hidden === false);
document.documentElement.dataset.kubectlConsole = "ready";
