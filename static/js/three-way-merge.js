// Line-based three-way merge (diff3), for the workload editor: the text both edits started from
// (base), the text in this editor (mine) and the text saved elsewhere (theirs).
// mergeTexts(base, mine, theirs) -> { clean, text, conflicts }:
// - a region changed on one side only takes that side; changed alike on both, it is taken once;
// - changed differently on both sides, it is a conflict: { mine: [...lines], theirs: [...lines],
//   base: [...lines], line } (line: where it starts in the merged text, 1-based), and `text` holds
//   it between git-style markers (<<<<<<< yours / ======= / >>>>>>> theirs) so a person can edit it.
// Matching lines come from a longest common subsequence after the common head and tail are set
// aside; a middle too large to compare (MAX_CELLS) counts as one changed block, so a big edit on
// both sides is a conflict, never a wrong merge.

const MAX_CELLS = 4_000_000;

// Pairs [i, j] of lines a[i] === b[j] in a longest common subsequence, in order.
export function matchingLines(a, b) {
  const pairs = [];
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) {
    pairs.push([head, head]);
    head++;
  }
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const n = a.length - head - tail;
  const m = b.length - head - tail;
  if (n > 0 && m > 0 && n * m <= MAX_CELLS) {
    // lengths[i][j]: LCS of a[head+i..] and b[head+j..], in one flat array of (n+1)(m+1).
    const width = m + 1;
    const lengths = new Uint32Array((n + 1) * width);
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lengths[i * width + j] =
          a[head + i] === b[head + j]
            ? lengths[(i + 1) * width + j + 1] + 1
            : Math.max(lengths[(i + 1) * width + j], lengths[i * width + j + 1]);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n && j < m) {
      if (a[head + i] === b[head + j]) {
        pairs.push([head + i, head + j]);
        i++;
        j++;
      } else if (lengths[(i + 1) * width + j] >= lengths[i * width + j + 1]) {
        i++;
      } else {
        j++;
      }
    }
  }
  for (let t = tail; t > 0; t--) pairs.push([a.length - t, b.length - t]);
  return pairs;
}

function sameLines(x, y) {
  return x.length === y.length && x.every((line, index) => line === y[index]);
}

export function mergeTexts(base, mine, theirs, labels = { mine: "yours", theirs: "theirs" }) {
  if (mine === theirs) return { clean: true, text: mine, conflicts: [] };
  if (mine === base) return { clean: true, text: theirs, conflicts: [] };
  if (theirs === base) return { clean: true, text: mine, conflicts: [] };
  const o = base.split("\n");
  const a = mine.split("\n");
  const b = theirs.split("\n");
  const inMine = new Map(matchingLines(o, a));
  const inTheirs = new Map(matchingLines(o, b));
  const out = [];
  const conflicts = [];
  let i = 0; // base
  let j = 0; // mine
  let k = 0; // theirs
  const take = (lines) => out.push(...lines);
  while (true) {
    // The next base line that both sides kept, at or after the current positions.
    let sync = i;
    while (sync < o.length && !(inMine.has(sync) && inTheirs.has(sync) && inMine.get(sync) >= j && inTheirs.get(sync) >= k)) sync++;
    const endMine = sync < o.length ? inMine.get(sync) : a.length;
    const endTheirs = sync < o.length ? inTheirs.get(sync) : b.length;
    const baseChunk = o.slice(i, sync);
    const mineChunk = a.slice(j, endMine);
    const theirsChunk = b.slice(k, endTheirs);
    if (sameLines(mineChunk, baseChunk)) take(theirsChunk);
    else if (sameLines(theirsChunk, baseChunk) || sameLines(mineChunk, theirsChunk)) take(mineChunk);
    else {
      conflicts.push({ line: out.length + 1, base: baseChunk, mine: mineChunk, theirs: theirsChunk });
      take([`<<<<<<< ${labels.mine}`, ...mineChunk, "=======", ...theirsChunk, `>>>>>>> ${labels.theirs}`]);
    }
    if (sync >= o.length) break;
    out.push(o[sync]);
    i = sync + 1;
    j = endMine + 1;
    k = endTheirs + 1;
  }
  return { clean: conflicts.length === 0, text: out.join("\n"), conflicts };
}
