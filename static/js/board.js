// Node board: drag a label or taint from the palette onto a node (or off a node to remove it);
// keyboard equivalent: select a palette chip with Enter/Space, then press Enter on a node card.
// Every change is a plain form post that htmx sends; this module only fills in the form.

const csrfToken = () => document.cookie.split("; ").find((c) => c.startsWith("csrftoken="))?.split("=")[1] ?? "";

function boardElement() {
  return document.getElementById("board");
}

function post(nodeId, action, values) {
  const board = boardElement();
  if (!board || board.dataset.canEdit !== "true") return;
  const slug = document.querySelector(".scenario").dataset.slug;
  const form = document.createElement("form");
  form.method = "post";
  form.action = `/s/${slug}/nodes/${nodeId}/${action}`;
  form.setAttribute("hx-post", form.action);
  form.setAttribute("hx-target", "#board");
  form.setAttribute("hx-swap", "outerHTML");
  form.hidden = true;
  const fields = { ...values, version: board.dataset.version, csrfmiddlewaretoken: csrfToken() };
  for (const [name, value] of Object.entries(fields)) {
    const input = document.createElement("input");
    input.type = "hidden";
    input.name = name;
    input.value = value ?? "";
    form.append(input);
  }
  board.append(form);
  if (window.htmx) {
    window.htmx.process(form);
    form.requestSubmit();
  } else {
    form.submit();
  }
}

function chipPayload(chip) {
  return { kind: chip.dataset.kind, key: chip.dataset.key, value: chip.dataset.value ?? "", effect: chip.dataset.effect ?? "" };
}

function editNode(nodeId, payload) {
  if (payload.kind === "label") post(nodeId, "label", { key: payload.key, value: payload.value });
  if (payload.kind === "taint") post(nodeId, "taint", { key: payload.key, value: payload.value, effect: payload.effect });
}

// While a run is shown, a chip dropped on a node can mean two things: change the node itself (a new
// version of the cluster, from the start) or act on it at the player's current time (a timeline
// Action, and the run goes on from there). The card asks.
function applyToNode(nodeId, payload) {
  const card = document.querySelector(`#node-detail [data-node-id="${CSS.escape(String(nodeId))}"], #board [data-node-id="${CSS.escape(String(nodeId))}"]`);
  const act = document.querySelector("#run-panel form.act");
  if (!card || !act) return editNode(nodeId, payload);
  askHow(card, act, payload);
}

function chipText(payload) {
  if (payload.kind === "taint") return `${payload.key}${payload.value ? "=" + payload.value : ""}:${payload.effect}`;
  return `${payload.key}${payload.value ? "=" + payload.value : ""}`;
}

function askHow(card, act, payload) {
  document.querySelectorAll(".drop-choice").forEach((element) => element.remove());
  const time = act.querySelector('[data-act="time"]')?.textContent ?? "now";
  const choice = document.createElement("div");
  choice.className = "drop-choice";
  choice.setAttribute("role", "group");
  choice.setAttribute("aria-label", `${payload.kind} ${chipText(payload)} on ${card.dataset.nodeName}`);
  const button = (text, onClick) => {
    const element = document.createElement("button");
    element.type = "button";
    element.className = "button small";
    element.textContent = text;
    element.addEventListener("click", () => { choice.remove(); onClick(); });
    return element;
  };
  const title = document.createElement("p");
  title.textContent = `${payload.kind === "taint" ? "Taint" : "Label"} ${chipText(payload)}:`;
  const cancel = button("×", () => {});
  cancel.classList.add("ghost");
  cancel.setAttribute("aria-label", "Cancel");
  choice.append(
    title,
    button(`Act at ${time}`, () => actOn(act, card.dataset.nodeName, payload)),
    button("Change the node", () => editNode(card.dataset.nodeId, payload)),
    cancel,
  );
  // A compact tile has no room for the question: it is asked in the board's bar.
  if (card.classList.contains("tile") || card.classList.contains("dot-hit")) document.querySelector("#board .board-bar")?.append(choice);
  else card.querySelector(".node-head")?.after(choice);
  choice.querySelector("button")?.focus();
  choice.addEventListener("keydown", (event) => { if (event.key === "Escape") choice.remove(); });
}

function actOn(act, nodeName, payload) {
  act.querySelector('select[name="op"]').value = payload.kind;
  act.querySelector('[name="target"]').value = `Node/${nodeName}`;
  const value = act.querySelector('input[name="value"]');
  value.type = "text";
  value.disabled = false;
  value.value = chipText(payload);
  act.requestSubmit();
}

function removeFromNode(nodeId, payload) {
  if (payload.kind === "label") post(nodeId, "unlabel", { key: payload.key });
  if (payload.kind === "taint") post(nodeId, "untaint", { key: payload.key, effect: payload.effect });
}

let selected = null; // keyboard selection: a palette chip's payload

document.addEventListener("dragstart", (event) => {
  const chip = event.target.closest?.(".chip[draggable='true'], [data-node] .chip");
  if (!chip) return;
  const payload = chipPayload(chip);
  if (!payload.kind) payload.kind = chip.classList.contains("taint") ? "taint" : "label";
  const fromNode = chip.closest("[data-node]")?.dataset.nodeId ?? "";
  event.dataTransfer.setData("application/x-playground-chip", JSON.stringify({ ...payload, fromNode }));
  event.dataTransfer.effectAllowed = "copyMove";
});

document.addEventListener("dragover", (event) => {
  if (event.target.closest?.("[data-node]") || event.target.closest?.(".palette")) {
    event.preventDefault();
    event.target.closest("[data-node]")?.classList.add("drop-target");
  }
});

document.addEventListener("dragleave", (event) => {
  event.target.closest?.("[data-node]")?.classList.remove("drop-target");
});

document.addEventListener("drop", (event) => {
  const raw = event.dataTransfer.getData("application/x-playground-chip");
  if (!raw) return;
  event.preventDefault();
  const payload = JSON.parse(raw);
  const card = event.target.closest("[data-node]");
  card?.classList.remove("drop-target");
  if (card && card.dataset.nodeId && card.dataset.nodeId !== payload.fromNode) {
    applyToNode(card.dataset.nodeId, payload);
  } else if (!card && payload.fromNode) {
    removeFromNode(payload.fromNode, payload); // dragged off its node
  }
});

// Node chips become draggable (to drag them off); double-click edits a chip in place.
function decorate() {
  // Forms outside the board (the title's) name the version the board shows, as the board's own do.
  const version = boardElement()?.dataset.version;
  if (version) document.querySelectorAll('[data-follows="board-version"]').forEach((input) => { input.value = version; });
  for (const chip of document.querySelectorAll("#board [data-node] .chip, #node-detail [data-node] .chip")) {
    chip.setAttribute("draggable", "true");
    chip.dataset.kind ||= chip.classList.contains("taint") ? "taint" : "label";
  }
}

document.addEventListener("dblclick", (event) => {
  const chip = event.target.closest("[data-node] .chip");
  if (!chip || document.getElementById("board")?.classList.contains("run-shown")) return;
  const card = chip.closest("[data-node]");
  const payload = chipPayload(chip);
  if (payload.kind === "label") {
    const answer = window.prompt("Label (key=value)", `${payload.key}=${payload.value}`);
    if (answer === null) return;
    const [key, ...rest] = answer.split("=");
    post(card.dataset.nodeId, "label", { key: key.trim(), value: rest.join("=").trim(), old_key: payload.key });
  } else {
    const answer = window.prompt("Taint (key=value:Effect)", `${payload.key}${payload.value ? "=" + payload.value : ""}:${payload.effect}`);
    if (answer === null) return;
    const match = answer.match(/^([^=:]+)(?:=([^:]*))?:(NoSchedule|PreferNoSchedule|NoExecute)$/);
    if (!match) return window.alert("Write key=value:Effect, Effect one of NoSchedule, PreferNoSchedule, NoExecute");
    post(card.dataset.nodeId, "taint", { key: match[1], value: match[2] ?? "", effect: match[3], old_key: payload.key, old_effect: payload.effect });
  }
});

document.addEventListener("keydown", (event) => {
  if (event.key !== "Enter" && event.key !== " ") return;
  const paletteChip = event.target.closest?.(".palette .chip");
  if (paletteChip) {
    event.preventDefault();
    document.querySelectorAll(".palette .chip.selected").forEach((c) => c.classList.remove("selected"));
    selected = chipPayload(paletteChip);
    paletteChip.classList.add("selected");
    return;
  }
  const card = event.target.dataset?.node !== undefined && event.target.dataset?.nodeId ? event.target : null;
  if (card && selected && event.key === "Enter") {
    event.preventDefault();
    applyToNode(card.dataset.nodeId, selected);
  }
});

document.addEventListener("htmx:after:swap", decorate);
document.addEventListener("DOMContentLoaded", decorate);
decorate();
document.documentElement.dataset.board = "ready"; // browser tests wait for this
