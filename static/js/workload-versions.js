// Keeps the workload editor honest about versions, so no edit is ever silently lost:
// - the editor knows the saved version its text started from (its base) and a save names that
//   version; the server refuses (409) a save whose base is no longer current, with the current text;
// - whenever a newer version reaches the page (a save in another tab or browser, an Act during a
//   run, a node edit), a clean editor follows it; an editor with unsaved changes merges it in
//   (three-way, line by line); when both changed the same lines it shows both and lets the person
//   resolve them in the editor, use theirs (keeping their own text as a draft), or fork with theirs;
// - unsaved text is kept in the browser (per scenario and base version) and comes back after a
//   reload, merged with whatever was saved meanwhile; leaving with unsaved work asks first.

import { editor, fetchWorkload, loadedSource, patchable, rememberSavedWorkload } from "./editor.js";
import { setPatchFields } from "./text-patch.js";
import { mergeTexts } from "./three-way-merge.js";

const form = document.getElementById("workload-form");
const textarea = document.getElementById("workload");
const scenario = document.querySelector(".scenario");
const note = document.getElementById("workload-note");
const panel = document.getElementById("workload-conflict");
const DRAFT_DELAY_MS = 300;
const MAX_KEPT_DRAFTS = 8; // drafts of other scenarios kept in this browser before the oldest go

const slug = scenario?.dataset.slug ?? "";
const draftKey = `playground:draft:${slug}`;
const keptKey = `playground:kept:${slug}`;
let base = null; // { version, text }: the saved version the editor's text started from
let conflict = null; // { version, text }: a newer version whose changes overlap the editor's
let automatic = false; // the next save is one this module makes (after a merge), not the person's
let retries = 0; // automatic saves since the person's last Save
const MAX_RETRIES = 3;

const canEdit = () => Boolean(textarea && !textarea.readOnly);
const mine = () => editor.getText();
const dirty = () => base !== null && mine() !== base.text;

// The saved version a page or a board carries: { version, text }, or null. An imported
// workload's text is not in it (data-url): it is fetched, only when it is newer than the editor's.
async function savedSource(root = document) {
  const source = root.getElementById("workload-source");
  if (!source) return null;
  const version = Number(source.dataset.version);
  if (!source.dataset.url) return { version, text: normalize(source.content.textContent) };
  if (loadedSource && loadedSource.version >= version && !base) return loadedSource;
  if (base && version <= base.version) return { version, text: base.text }; // not newer: adopt ignores it
  // A newer version with the same workload (a cordon, a rename): nothing to fetch.
  if (base?.digest && base.digest === source.dataset.digest) return { version, text: base.text, digest: base.digest };
  try {
    return await fetchWorkload(source.dataset.url);
  } catch {
    say(`v${version} was saved, but its workload could not be fetched: reload the page before saving.`, { tone: "warn" });
    return null;
  }
}

// Forms send line breaks as CRLF; the server stores LF (views/editing.py).
const normalize = (text) => text.replace(/\r\n?/g, "\n");

// ---------------------------------------------------------------------------- what the person sees

function say(message, { actions = [], tone = "" } = {}) {
  if (!note) return;
  note.replaceChildren();
  note.hidden = !message;
  note.className = `workload-note ${tone}`.trim();
  if (!message) return;
  const text = document.createElement("span");
  text.textContent = message;
  note.append(text);
  for (const [label, onClick, testid] of actions) note.append(" ", button(label, onClick, testid));
}

function button(label, onClick, testid = "") {
  const element = document.createElement("button");
  element.type = "button";
  element.className = "button small";
  element.textContent = label;
  if (testid) element.dataset.testid = testid;
  element.addEventListener("click", onClick);
  return element;
}

const clock = (at) => new Date(at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });

// ---------------------------------------------------------------------------- drafts in the browser

function readJSON(key) {
  try {
    return JSON.parse(localStorage.getItem(key) ?? "null");
  } catch {
    return null;
  }
}

function store(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Full: make room by dropping other scenarios' drafts, oldest first, then try once more.
    const others = Object.keys(localStorage)
      .filter((name) => name.startsWith("playground:draft:") && name !== draftKey)
      .map((name) => [name, readJSON(name)?.at ?? 0])
      .sort((x, y) => x[1] - y[1]);
    others.forEach(([name]) => localStorage.removeItem(name));
    try {
      localStorage.setItem(key, JSON.stringify(value));
    } catch {
      say("This browser has no room to keep a draft: save soon.", { tone: "warn" });
    }
  }
}

function pruneOtherDrafts() {
  const drafts = Object.keys(localStorage)
    .filter((name) => name.startsWith("playground:draft:") && name !== draftKey)
    .map((name) => [name, readJSON(name)?.at ?? 0])
    .sort((x, y) => y[1] - x[1]);
  drafts.slice(MAX_KEPT_DRAFTS).forEach(([name]) => localStorage.removeItem(name));
}

function saveDraftNow() {
  clearTimeout(draftTimer);
  if (!canEdit() || !base) return;
  if (dirty()) store(draftKey, { version: base.version, baseText: base.text, text: mine(), at: Date.now() });
  else localStorage.removeItem(draftKey);
}

let draftTimer = null;
function rememberDraft() {
  clearTimeout(draftTimer);
  draftTimer = setTimeout(saveDraftNow, DRAFT_DELAY_MS);
}

function keepAsDraft(text) {
  store(keptKey, { text, at: Date.now() });
  offerKeptDraft();
}

function offerKeptDraft() {
  const kept = readJSON(keptKey);
  if (!kept?.text || kept.text === mine()) return;
  say(`You kept a draft of your own at ${clock(kept.at)}.`, {
    actions: [
      ["Open it in the editor", () => { editor.setText(kept.text); localStorage.removeItem(keptKey); say(""); }, "open-kept"],
      ["Discard it", () => { localStorage.removeItem(keptKey); say(""); }, "discard-kept"],
    ],
  });
}

// ---------------------------------------------------------------------------- newer versions

// A newer saved version reached the page (any board render). Returns how it was taken in. The
// editor checks big edits as what changed against the saved text this leaves as the base.
function adopt(next) {
  const outcome = adoptVersion(next);
  rememberSavedWorkload(base);
  return outcome;
}

function adoptVersion(next) {
  if (!base || !next || next.version <= base.version) return "old";
  const text = mine();
  if (next.text === base.text || next.text === text) {
    base = next; // only the board changed, or this is the text we saved
    if (!dirty()) settle();
    return "same";
  }
  if (text === base.text) {
    editor.setText(next.text);
    base = next;
    settle();
    return "followed";
  }
  if (conflict?.version === next.version) return "conflict"; // already shown (a board refresh)
  const merged = mergeTexts(base.text, text, next.text, { mine: "yours", theirs: `v${next.version}` });
  if (merged.clean) {
    editor.setText(merged.text);
    base = next;
    rememberDraft();
    say(`v${next.version} was saved elsewhere while you edited: its changes are merged into yours (not saved yet).`, {
      tone: "ok",
    });
    return "merged";
  }
  conflict = next;
  showConflict(merged, next);
  return "conflict";
}

function settle() {
  if (conflict) say("");
  conflict = null;
  if (panel) panel.hidden = true;
  localStorage.removeItem(draftKey);
}

function showConflict(merged, theirs) {
  if (!panel) return;
  panel.replaceChildren();
  const title = document.createElement("h3");
  title.textContent = `Your unsaved edit and v${theirs.version}, saved elsewhere, change the same lines`;
  const intro = document.createElement("p");
  intro.className = "small";
  intro.textContent =
    merged.conflicts.length === 1
      ? "One place differs. Nothing is lost: choose what to do with it."
      : `${merged.conflicts.length} places differ. Nothing is lost: choose what to do with them.`;
  panel.append(title, intro);
  for (const hunk of merged.conflicts.slice(0, 5)) {
    const pair = document.createElement("div");
    pair.className = "conflict-pair";
    pair.append(side("Yours", hunk.mine), side(`v${theirs.version}`, hunk.theirs));
    panel.append(pair);
  }
  if (merged.conflicts.length > 5) {
    const more = document.createElement("p");
    more.className = "small muted";
    more.textContent = `…and ${merged.conflicts.length - 5} more.`;
    panel.append(more);
  }
  const actions = document.createElement("div");
  actions.className = "conflict-actions";
  actions.append(
    button("Resolve in the editor", () => resolveInEditor(merged, theirs), "resolve-in-editor"),
    button(`Take v${theirs.version}, keep mine as a draft`, () => takeTheirs(theirs), "take-theirs"),
    button("Save mine as a fork", () => forkWithMine(), "fork-mine"),
    button(`Save mine over v${theirs.version}`, () => saveMineOver(theirs), "save-mine"),
  );
  panel.append(actions);
  panel.hidden = false;
  // Told, not moved: focus stays where the person is typing.
  say(`v${theirs.version} was saved elsewhere and changes the lines you are editing: choose below what to do.`, {
    tone: "warn",
  });
}

function side(label, lines) {
  const figure = document.createElement("figure");
  const caption = document.createElement("figcaption");
  caption.textContent = label;
  const code = document.createElement("pre");
  code.textContent = lines.length ? lines.join("\n") : "(removed)";
  figure.append(caption, code);
  return figure;
}

function resolveInEditor(merged, theirs) {
  base = theirs;
  conflict = null;
  panel.hidden = true;
  editor.setText(merged.text);
  rememberDraft();
  say("Edit the marked places (between <<<<<<< and >>>>>>>), remove the markers, then Save.", { tone: "warn" });
  editor.goToLine(merged.conflicts[0]?.line ?? 1);
}

function takeTheirs(theirs) {
  keepAsDraft(mine());
  base = theirs;
  editor.setText(theirs.text);
  settle();
  offerKeptDraft();
}

function saveMineOver(theirs) {
  base = theirs;
  conflict = null;
  panel.hidden = true;
  saveAgain();
}

async function forkWithMine() {
  const token = form.querySelector("[name=csrfmiddlewaretoken]").value;
  const check = new FormData();
  check.set("yaml", mine());
  try {
    const response = await fetch(form.dataset.validateUrl, { method: "POST", body: check, headers: { "X-CSRFToken": token } });
    const result = await response.json();
    if (!result.ok) {
      const first = result.problems[0];
      say(`Your text does not validate yet (${first.line ? "line " + first.line + ": " : ""}${first.message}): fix it, then fork.`, { tone: "warn" });
      return;
    }
  } catch {
    say("Could not check your text with the server: try again in a moment.", { tone: "warn" });
    return;
  }
  const fork = document.createElement("form");
  fork.method = "post";
  fork.action = `/s/${slug}/fork`;
  fork.hidden = true;
  const field = (name, value) => {
    const input = document.createElement("input");
    input.type = "hidden";
    input.name = name;
    input.value = value;
    fork.append(input);
  };
  field("csrfmiddlewaretoken", token);
  field("workload", mine());
  document.body.append(fork);
  saveDraftNow(); // still unsaved here: the draft stays until this scenario's editor is clean again
  base = { ...base, text: mine() }; // the fork holds the text: leave without asking
  fork.submit();
}

// ---------------------------------------------------------------------------- saving

function isWorkloadSave(event) {
  return event.detail?.ctx?.sourceElement === form || event.target === form;
}

function saveAgain() {
  automatic = true;
  retries += 1;
  form.requestSubmit();
}

document.addEventListener("htmx:config:request", (event) => {
  if (!isWorkloadSave(event)) return;
  if (textarea.disabled) {
    event.detail.ctx.request.body.delete("workload"); // not loaded: the server refuses, nothing is lost
    return;
  }
  if (!base) return;
  if (!automatic) retries = 0;
  automatic = false;
  const body = event.detail.ctx.request.body;
  body.set("version", String(base.version)); // the version this text is based on, not the board's
  // A big text goes as what changed against its base's saved text (text-patch.js), the person's
  // save only: after a refusal (409) the automatic save again sends the whole text.
  if (!retries && patchable(base)) {
    setPatchFields(body, base, mine());
    body.delete("workload");
    return;
  }
  body.set("workload", mine());
});

// A refused save (409) carries the current board, and in it the current text. Its swap is not
// to be relied on (a later board request, such as the live update of the very save that came
// first, supersedes it), so the refusal is read here, from the response itself.
document.addEventListener("htmx:after:request", async (event) => {
  const ctx = event.detail?.ctx;
  if (!isWorkloadSave(event) || ctx?.response?.status !== 409) return;
  const answer = new DOMParser().parseFromString(ctx.text ?? "", "text/html");
  const outcome = adopt(await savedSource(answer));
  if (outcome !== "conflict" && !conflict && retries < MAX_RETRIES) saveAgain();
});

document.addEventListener("htmx:after:swap", async (event) => {
  const status = event.detail?.ctx?.response?.status;
  const ownSave = isWorkloadSave(event);
  // This board's refusal, found before the fetch below lets a later board take its place.
  const refusal = ownSave ? document.querySelector("#board .board-bar .flash.error") : null;
  adopt(await savedSource());
  if (!ownSave) return;
  if (status === 422) refusal?.setAttribute("data-from", "workload"); // cleared once the text is valid
  if (status === 409) refusal?.remove(); // handled above: merged and saved again, or the conflict panel
  if (status === 200) say("");
});

// ---------------------------------------------------------------------------- start

async function start() {
  const saved = await savedSource();
  if (!editor || !saved) return;
  base = saved;
  if (normalize(mine()) !== saved.text) editor.setText(saved.text);
  if (!canEdit()) return;
  pruneOtherDrafts();
  const draft = readJSON(draftKey);
  if (draft?.text && draft.text !== saved.text) {
    // A draft can only be based on a version this scenario has had; otherwise it is an edit of the current one.
    base = draft.version <= saved.version ? { version: draft.version, text: draft.baseText } : saved;
    editor.setText(draft.text);
    const outcome = draft.version < saved.version ? adopt(saved) : "same";
    const when = clock(draft.at);
    if (outcome !== "conflict") {
      const merged = outcome === "merged" ? `, merged with v${saved.version} saved since` : "";
      say(`Your unsaved edit from ${when} is back${merged}.`, {
        tone: "ok",
        actions: [["Discard it", () => { editor.setText(base.text); settle(); say(""); }, "discard-draft"]],
      });
    }
  } else {
    localStorage.removeItem(draftKey);
    offerKeptDraft();
  }
  textarea.addEventListener("input", rememberDraft);
  window.addEventListener("beforeunload", (event) => {
    if (!dirty()) return;
    saveDraftNow();
    event.preventDefault();
    event.returnValue = ""; // older browsers need it to ask
  });
}

if (form && textarea && editor) await start();
document.documentElement.dataset.workloadVersions = "ready"; // browser tests wait for this
