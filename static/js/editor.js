// The workload editor. Progressive enhancement over the form's <textarea id="workload">:
// - with the vendored CodeMirror bundle, a YAML editor (line numbers, folding, history) replaces the
//   textarea on screen; the textarea stays in the form, hidden, and always holds the editor's text, so
//   the hx-post save and the plain form post keep working;
// - the text is validated through the engine's parser (POST data-validate-url, debounced 400 ms): the
//   problems become lint diagnostics at their line (underline + gutter marker + tooltip), and #validation
//   says "line N: Document field.path: message" for the first one;
// - Tab indents by 2 spaces (Shift-Tab dedents); Esc then Tab leaves the editor; F8 goes to the next
//   problem, Ctrl-Shift-M lists them;
// - the Insert menu adds a snippet (static/js/snippets.json) as its own "---" document after the one
//   holding the cursor (or at the end).
// Without the bundle (or without JS modules) the textarea is the editor, with a plain line-number gutter.

import { setPatchFields } from "./text-patch.js";

const VALIDATE_DELAY_MS = 400;
// An imported cluster's workload is megabytes: it is sent for validation after a longer pause.
const BIG_TEXT = 256 * 1024;
const BIG_TEXT_DELAY_MS = 2000;
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const INDENT = "  ";

const form = document.getElementById("workload-form");
const textarea = document.getElementById("workload");
const status = document.getElementById("validation");

// ---------------------------------------------------------------------------- validation

function describe(problem) {
  const where = problem.line ? `line ${problem.line}: ` : "";
  const subject = [problem.document, problem.path].filter(Boolean).join(" ");
  return `${where}${subject ? subject + ": " : ""}${problem.message}`;
}

// Why a text could not be validated, in words for the status line.
class ValidationUnavailable extends Error {}

// The saved text a big edit is sent against, as what changed ({ text, digest }: text-patch.js):
// set when an imported workload is fetched and whenever workload-versions.js moves to a saved one
// (cleared when that one cannot take a patch).
let savedWorkload = null;
export function rememberSavedWorkload(source) {
  savedWorkload = patchable(source) ? { text: source.text, digest: source.digest } : null;
}

// Whether an edit of this saved text goes as a patch: a big text the server names by its digest,
// in ASCII (the server counts characters where JavaScript counts UTF-16 units: it refuses others).
export function patchable(source) {
  return Boolean(source?.digest) && source.text.length > BIG_TEXT && isAscii(source);
}

const asciiByDigest = new Map(); // a 25 MiB text is scanned once, not at every board
function isAscii(source) {
  if (!asciiByDigest.has(source.digest)) asciiByDigest.set(source.digest, !/[^\x00-\x7f]/.test(source.text));
  return asciiByDigest.get(source.digest);
}

async function requestValidation(text) {
  const body = new FormData();
  const token = form.querySelector("[name=csrfmiddlewaretoken]").value;
  const asPatch = Boolean(savedWorkload) && text.length > BIG_TEXT;
  if (asPatch) setPatchFields(body, savedWorkload, text);
  else body.set("yaml", text);
  body.set("csrfmiddlewaretoken", token);
  let response;
  try {
    response = await fetch(form.dataset.validateUrl, { method: "POST", body, headers: { "X-CSRFToken": token } });
  } catch {
    throw new ValidationUnavailable("could not reach the server (offline?)");
  }
  // The patch's saved text is no longer the server's (saved elsewhere meanwhile): the whole text.
  if (asPatch && response.status === 409) {
    savedWorkload = null;
    return requestValidation(text);
  }
  if (response.status === 429) {
    // The server's own words: how many validations it allows, and when to try again.
    const refusal = await response.json().catch(() => ({}));
    throw new ValidationUnavailable(refusal.error || "too many validations for now: try again in a moment");
  }
  if (!response.ok) throw new ValidationUnavailable(`the server answered ${response.status}; try again in a moment`);
  return response.json();
}

// The status line under the heading (tests read it), and aria-invalid on whatever holds the text.
function showResult(result, field) {
  if (result.ok) {
    status.textContent = "✓ valid";
    status.className = "validation ok";
    field.removeAttribute("aria-invalid");
    // A save refused for this text's errors said so on the board: the text is valid now.
    document.querySelectorAll('#board .flash.error[data-from="workload"]').forEach((flash) => flash.remove());
  } else {
    const more = result.problems.length > 1 ? ` (+${result.problems.length - 1} more)` : "";
    status.textContent = describe(result.problems[0]) + more;
    status.className = "validation error";
    field.setAttribute("aria-invalid", "true");
  }
}

// A big saved text (an imported cluster's) is not sent to be checked on load: it was checked when
// it was saved, and checking it costs the server seconds. Edits are checked (the documents they change).
function showSavedAsValid() {
  status.textContent = "✓ valid (checked when saved)";
  status.className = "validation ok";
}

function showUnavailable(error) {
  const reason = error instanceof ValidationUnavailable ? error.message : "the server's answer was not understood";
  status.textContent = `not validated: ${reason}`;
  status.className = "validation";
}

// ---------------------------------------------------------------------------- snippets

// Where a snippet goes: as its own document right after the YAML document that holds the cursor
// (before the next "---" line), or at the end; an empty editor just gets the snippet.
function snippetInsertion(text, cursor, snippet) {
  const body = snippet.endsWith("\n") ? snippet : snippet + "\n";
  if (!text.trim()) return { from: 0, to: text.length, insert: body, start: 0 };
  const lineEnd = text.indexOf("\n", cursor);
  if (lineEnd !== -1) {
    const separator = /^(?:---|\.\.\.)(?:[ \t].*)?$/m.exec(text.slice(lineEnd + 1));
    if (separator) {
      const at = lineEnd + 1 + separator.index;
      return { from: at, to: at, insert: "---\n" + body, start: at + 4 };
    }
  }
  const newline = text.endsWith("\n") ? "" : "\n";
  return { from: text.length, to: text.length, insert: `${newline}---\n${body}`, start: text.length + newline.length + 4 };
}

async function setUpSnippetMenu(insert) {
  const menu = form.querySelector(".snippet-menu");
  if (!menu) return;
  let snippets;
  try {
    const response = await fetch(menu.dataset.snippetsUrl);
    snippets = (await response.json()).snippets;
  } catch {
    return; // no menu rather than a broken one
  }
  const list = menu.querySelector(".snippet-list");
  const summary = menu.querySelector("summary");
  for (const snippet of snippets) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "snippet";
    button.dataset.snippet = snippet.id;
    button.textContent = snippet.label;
    button.addEventListener("click", () => {
      menu.open = false;
      insert(snippet.yaml);
    });
    list.append(button);
  }
  const buttons = () => [...list.querySelectorAll("button")];
  menu.addEventListener("toggle", () => {
    if (menu.open) buttons()[0]?.focus();
  });
  menu.addEventListener("keydown", (event) => {
    if (!menu.open) return;
    const items = buttons();
    const index = items.indexOf(document.activeElement);
    if (event.key === "Escape") {
      menu.open = false;
      summary.focus();
    } else if (event.key === "ArrowDown") {
      items[(index + 1) % items.length].focus();
    } else if (event.key === "ArrowUp") {
      items[(index - 1 + items.length) % items.length].focus();
    } else if (event.key === "Home") {
      items[0].focus();
    } else if (event.key === "End") {
      items[items.length - 1].focus();
    } else {
      return;
    }
    event.preventDefault();
  });
  document.addEventListener("click", (event) => {
    if (menu.open && !menu.contains(event.target)) menu.open = false;
  });
  menu.hidden = false;
}

// ---------------------------------------------------------------------------- CodeMirror

async function mountCodeMirror() {
  // A literal path: the static storage rewrites it to the bundle's hashed name (cached for a year).
  const cm = await import("../vendor/codemirror-6.43.15/codemirror.bundle.js");
  const { EditorState, EditorSelection, EditorView, Compartment, keymap } = cm;
  const wrapper = textarea.closest(".code-editor");
  const readOnly = textarea.readOnly || textarea.disabled; // disabled: its workload could not be loaded
  let touched = false; // has the user put the cursor somewhere? (else snippets go at the end)
  let firstRun = true;

  function diagnosticFor(doc, problem) {
    const line = doc.line(Math.min(Math.max(problem.line || 1, 1), doc.lines));
    const indent = /^\s*/.exec(line.text)[0].length;
    return { from: line.from + indent, to: line.to, severity: "error", message: describe(problem) };
  }

  // The lint source: runs VALIDATE_DELAY_MS after the last change (and once on load).
  async function validate(view) {
    const doc = view.state.doc;
    const text = doc.toString();
    const initial = firstRun;
    firstRun = false;
    if (initial && !text.trim()) return [];
    if (initial && text.length > BIG_TEXT && text === loadedSource?.text) {
      showSavedAsValid(); // a restored draft, not the saved text, is checked as any edit
      return [];
    }
    if (text.length > BIG_TEXT && !initial) {
      await pause(BIG_TEXT_DELAY_MS);
      if (view.state.doc !== doc) return []; // typed on meanwhile: the newer text is validated instead
    }
    let result;
    try {
      result = await requestValidation(text);
    } catch (error) {
      if (view.state.doc === doc) showUnavailable(error);
      return [];
    }
    if (view.state.doc !== doc) return []; // the text moved on: a newer run is already scheduled
    showResult(result, view.contentDOM);
    return result.ok ? [] : result.problems.map((problem) => diagnosticFor(doc, problem));
  }

  // Tab: with a selection, indent its lines; else insert spaces to the next 2-column stop.
  function indentOrInsert(view) {
    if (view.state.readOnly) return false;
    if (view.state.selection.ranges.some((range) => !range.empty)) return cm.indentMore(view);
    view.dispatch(
      view.state.changeByRange((range) => {
        const column = range.head - view.state.doc.lineAt(range.head).from;
        const spaces = " ".repeat(INDENT.length - (column % INDENT.length));
        return { changes: { from: range.head, insert: spaces }, range: EditorSelection.cursor(range.head + spaces.length) };
      }),
      { scrollIntoView: true, userEvent: "input.indent" },
    );
    return true;
  }

  const dark = window.matchMedia("(prefers-color-scheme: dark)");
  const colorScheme = new Compartment();
  const theme = EditorView.theme({
    "&": { height: "100%", color: "var(--text)", backgroundColor: "var(--surface)", fontSize: "0.8rem" },
    "&.cm-focused": { outline: "none" },
    ".cm-scroller": { fontFamily: "var(--mono)", lineHeight: "1.45" },
    ".cm-content": { caretColor: "var(--text)", padding: "0.5rem 0" },
    ".cm-line": { padding: "0 0.5rem" },
    ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--text)" },
    "&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, .cm-content ::selection":
      { backgroundColor: "color-mix(in srgb, var(--accent) 28%, transparent)" },
    ".cm-activeLine": { backgroundColor: "color-mix(in srgb, var(--accent) 6%, transparent)" },
    ".cm-gutters": { backgroundColor: "var(--bg)", color: "var(--muted)", borderRight: "1px solid var(--border)" },
    ".cm-activeLineGutter": { backgroundColor: "color-mix(in srgb, var(--accent) 14%, var(--bg))", color: "var(--text)" },
    ".cm-lineNumbers .cm-gutterElement": { padding: "0 0.3rem 0 0.2rem", minWidth: "1.8rem" },
    ".cm-matchingBracket, &.cm-focused .cm-matchingBracket": { backgroundColor: "color-mix(in srgb, var(--accent) 22%, transparent)", color: "inherit" },
    ".cm-nonmatchingBracket, &.cm-focused .cm-nonmatchingBracket": { color: "var(--bad)" },
    ".cm-specialChar": { color: "var(--bad)" },
    ".cm-foldPlaceholder": { backgroundColor: "var(--bg)", border: "1px solid var(--border)", color: "var(--muted)" },
    ".cm-foldGutter .cm-gutterElement": { padding: "0 0.2rem", cursor: "pointer" },
    // Lint: the problem's line is underlined and tinted, its gutter row gets a ▶ marker.
    ".cm-lintRange-error": {
      backgroundImage: "none",
      backgroundColor: "color-mix(in srgb, var(--bad) 10%, transparent)",
      textDecoration: "underline wavy var(--bad)",
      textDecorationSkipInk: "none",
      textUnderlineOffset: "3px",
    },
    ".cm-lintPoint-error:after": { borderBottomColor: "var(--bad)" },
    ".cm-gutter-lint": { width: "1.1rem" },
    ".cm-gutter-lint .cm-gutterElement": { padding: "0 0 0 0.25rem" },
    ".cm-lint-marker": { width: "auto", height: "auto" },
    ".cm-lint-marker-error": { content: "normal", color: "var(--bad)", fontSize: "0.7rem" },
    ".cm-lint-marker-error::before": { content: '"▶"' },
    ".cm-tooltip": {
      backgroundColor: "var(--surface)", color: "var(--text)", border: "1px solid var(--border)",
      borderRadius: "6px", boxShadow: "0 6px 18px rgb(0 0 0 / 0.18)",
    },
    ".cm-tooltip-lint": { maxWidth: "28rem", fontFamily: "var(--font)", fontSize: "0.8rem" },
    ".cm-diagnostic": { padding: "0.3rem 0.6rem 0.3rem 0.5rem", overflowWrap: "anywhere" },
    ".cm-diagnostic-error": { borderLeft: "4px solid var(--bad)" },
    ".cm-panels": { backgroundColor: "var(--bg)", color: "var(--text)" },
    ".cm-panels.cm-panels-bottom": { borderTop: "1px solid var(--border)" },
    ".cm-panel.cm-panel-lint ul [aria-selected]": { backgroundColor: "color-mix(in srgb, var(--accent) 18%, transparent)" },
    ".cm-panel.cm-panel-lint ul:focus [aria-selected]": { backgroundColor: "color-mix(in srgb, var(--accent) 35%, transparent)", color: "var(--text)" },
    ".cm-panel.cm-panel-lint button": { color: "var(--text)" },
  });

  const view = new EditorView({
    parent: wrapper,
    state: EditorState.create({
      doc: textarea.value,
      extensions: [
        cm.lintGutter(),
        cm.lineNumbers(),
        cm.foldGutter(),
        cm.highlightActiveLineGutter(),
        cm.highlightSpecialChars(),
        cm.history(),
        cm.drawSelection(),
        cm.dropCursor(),
        cm.indentOnInput(),
        cm.bracketMatching(),
        cm.highlightActiveLine(),
        cm.syntaxHighlighting(cm.classHighlighter),
        cm.yaml(),
        cm.indentUnit.of(INDENT),
        EditorState.tabSize.of(INDENT.length),
        EditorState.readOnly.of(readOnly),
        EditorView.cspNonce.of(document.querySelector('meta[name="csp-nonce"]')?.content ?? ""), // its <style> under the CSP
        cm.linter(validate, { delay: VALIDATE_DELAY_MS }),
        keymap.of([
          { key: "Tab", run: indentOrInsert, shift: cm.indentLess },
          ...cm.lintKeymap,
          ...cm.defaultKeymap,
          ...cm.historyKeymap,
          ...cm.foldKeymap,
        ]),
        EditorView.contentAttributes.of({
          "aria-label": textarea.getAttribute("aria-label") || "Workload YAML",
          "aria-describedby": "editor-help",
          "aria-multiline": "true",
          tabindex: "0", // axe counts a contenteditable as focusable only with it (scrollable-region-focusable)
          ...(readOnly ? { "aria-readonly": "true" } : {}),
        }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) {
            textarea.value = update.state.doc.toString();
            textarea.dispatchEvent(new Event("input")); // one event for both editors (workload-versions.js)
          }
          if (update.selectionSet && update.transactions.some((tr) => tr.isUserEvent("select"))) touched = true;
        }),
        EditorView.domEventHandlers({
          focus() {
            touched = true;
          },
        }),
        colorScheme.of(EditorView.darkTheme.of(dark.matches)),
        theme,
      ],
    }),
  });
  dark.addEventListener("change", () => {
    view.dispatch({ effects: colorScheme.reconfigure(EditorView.darkTheme.of(dark.matches)) });
  });

  textarea.hidden = true;
  wrapper.classList.add("has-codemirror");
  wrapper.querySelector(".gutter")?.remove();
  document.getElementById("editor-help")?.removeAttribute("hidden");
  // A label pointing at the textarea should now focus the editor.
  textarea.addEventListener("focus", () => view.focus());

  return {
    insert(snippet) {
      const text = view.state.doc.toString();
      const cursor = touched ? view.state.selection.main.head : text.length;
      const change = snippetInsertion(text, cursor, snippet);
      view.dispatch({
        changes: { from: change.from, to: change.to, insert: change.insert },
        selection: { anchor: change.start },
        effects: EditorView.scrollIntoView(change.start, { y: "start", yMargin: 24 }),
        userEvent: "input.paste",
      });
      touched = true;
      view.focus();
    },
    getText: () => view.state.doc.toString(),
    // Replaces the text by the smallest single change, so the cursor and scroll stay where they
    // were when the change is elsewhere (a merge, another tab's save).
    setText(text) {
      const current = view.state.doc.toString();
      if (current === text) return;
      const change = minimalChange(current, text);
      view.dispatch({ changes: change, userEvent: "input.replace" });
    },
    goToLine(number) {
      const line = view.state.doc.line(Math.min(Math.max(number, 1), view.state.doc.lines));
      view.dispatch({ selection: { anchor: line.from }, effects: EditorView.scrollIntoView(line.from, { y: "center" }) });
      view.focus();
    },
  };
}

// The one replacement that turns `current` into `text`: what lies between their common head and tail.
function minimalChange(current, text) {
  let head = 0;
  const shorter = Math.min(current.length, text.length);
  while (head < shorter && current[head] === text[head]) head++;
  let tail = 0;
  while (tail < shorter - head && current[current.length - 1 - tail] === text[text.length - 1 - tail]) tail++;
  return { from: head, to: current.length - tail, insert: text.slice(head, text.length - tail) };
}

// ---------------------------------------------------------------------------- plain textarea

function mountTextarea() {
  const gutter = form.querySelector(".gutter");
  let timer = null;
  let errorLine = null;

  function renderGutter() {
    if (!gutter) return;
    const count = textarea.value.split("\n").length;
    let text = "";
    for (let i = 1; i <= count; i++) text += (i === errorLine ? "▶ " : "") + i + "\n";
    gutter.textContent = text;
    gutter.scrollTop = textarea.scrollTop;
  }

  async function validate() {
    try {
      const result = await requestValidation(textarea.value);
      errorLine = result.ok ? null : result.problems[0].line;
      showResult(result, textarea);
    } catch (error) {
      showUnavailable(error);
    }
    renderGutter();
  }

  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(validate, VALIDATE_DELAY_MS);
  };
  textarea.addEventListener("input", () => {
    renderGutter();
    schedule();
  });
  textarea.addEventListener("scroll", () => {
    if (gutter) gutter.scrollTop = textarea.scrollTop;
  });
  textarea.addEventListener("keydown", (event) => {
    if (event.key === "Tab" && !event.shiftKey && !textarea.readOnly) {
      event.preventDefault();
      textarea.setRangeText(INDENT, textarea.selectionStart, textarea.selectionEnd, "end");
      textarea.dispatchEvent(new Event("input"));
    }
  });
  renderGutter();
  if (textarea.value.length > BIG_TEXT && textarea.value === loadedSource?.text) showSavedAsValid();
  else if (textarea.value.trim()) validate();

  return {
    insert(snippet) {
      const touched = document.activeElement === textarea || textarea.selectionStart > 0;
      const cursor = touched ? textarea.selectionStart : textarea.value.length;
      const change = snippetInsertion(textarea.value, cursor, snippet);
      textarea.setRangeText(change.insert, change.from, change.to, "end");
      textarea.focus();
      textarea.setSelectionRange(change.start, change.start);
      textarea.dispatchEvent(new Event("input"));
    },
    getText: () => textarea.value,
    setText(text) {
      if (textarea.value === text) return;
      const change = minimalChange(textarea.value, text);
      textarea.setRangeText(change.insert, change.from, change.to, "preserve");
      textarea.dispatchEvent(new Event("input"));
    },
    goToLine(number) {
      const lines = textarea.value.split("\n");
      const offset = lines.slice(0, Math.max(0, number - 1)).reduce((sum, line) => sum + line.length + 1, 0);
      textarea.focus();
      textarea.setSelectionRange(offset, offset);
    },
  };
}

// ---------------------------------------------------------------------------- start

// The mounted editor ({ insert, getText, setText, goToLine }), or null on a page without one.
// workload-versions.js keeps it in step with the scenario's saved versions and the browser's draft.
export let editor = null;

// An imported workload (megabytes) comes on its own, not in the page: { version, text } once
// fetched, for workload-versions.js to start from; until then the textarea is disabled, so that a
// save cannot send an empty text (the server refuses a save without one, too).
export let loadedSource = null;

export async function fetchWorkload(url) {
  const response = await fetch(url, { headers: { Accept: "text/plain" }, cache: "no-store" });
  if (!response.ok) throw new Error(`the server answered ${response.status}`);
  const sent = await response.text();
  const text = sent.replace(/\r\n?/g, "\n");
  return {
    version: Number(response.headers.get("X-Workload-Version")),
    // The digest names the text as sent: once its line breaks are changed, it names nothing here.
    digest: text === sent ? (response.headers.get("X-Workload-Digest") ?? "") : "",
    text,
  };
}

async function loadWorkload() {
  const note = document.querySelector("[data-workload-loading]");
  try {
    loadedSource = await fetchWorkload(textarea.dataset.loadUrl);
    rememberSavedWorkload(loadedSource);
  } catch (error) {
    if (note) note.textContent = `The workload could not be loaded (${error.message}): reload the page to edit it.`;
    return;
  }
  textarea.value = loadedSource.text;
  textarea.disabled = false;
  note?.remove();
}

if (form && textarea) {
  if (textarea.dataset.loadUrl) await loadWorkload();
  try {
    editor = await mountCodeMirror();
  } catch (error) {
    console.warn("workload editor: CodeMirror did not load, keeping the plain textarea", error);
    editor = mountTextarea();
  }
  if (!textarea.readOnly) setUpSnippetMenu(editor.insert);
  // The kubectl console's `edit` asks for a document's line (kubectl-console.js).
  document.addEventListener("workload:reveal", (event) => {
    event.preventDefault(); // revealed here: the console's plain-textarea fallback stands down
    editor.goToLine(event.detail.line);
  });
}
