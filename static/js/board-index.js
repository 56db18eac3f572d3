// The board's node elements by node name, found once per drawing of the board instead of on every
// frame of a run (a 500-node board searched 60 times a second is most of a frame). The index is
// rebuilt when the board or the opened node's card was swapped in again, and its `epoch` then
// changes: a module that draws only what a frame changed draws everything again after that.

let index = null; // {canvas, detail, epoch, byName: Map<name, Element[]>}
let epoch = 0;

function current() {
  return {
    canvas: document.querySelector("#board [data-board-canvas]"),
    detail: document.getElementById("node-detail")?.firstElementChild ?? null,
  };
}

/** {epoch, byName}: every node element (tiles, cards, the opened node's card) by node name. */
export function boardIndex() {
  const now = current();
  if (!index || index.canvas !== now.canvas || index.detail !== now.detail) {
    epoch += 1;
    const byName = new Map();
    for (const element of document.querySelectorAll("#board [data-node]:not(.dot-hit), #node-detail [data-node]")) {
      const name = element.dataset.node;
      if (!byName.has(name)) byName.set(name, []);
      byName.get(name).push(element);
    }
    index = { ...now, epoch, byName };
  }
  return index;
}

/** A node element was added by script (a node only the run has): find them all again. */
export function invalidateBoardIndex() {
  index = null;
}
