// What an edit of a big text changed, as one replacement: { from, to, insert } such that
// before.slice(0, from) + insert + before.slice(to) === after, with `from`/`to` offsets into
// `before` (UTF-16 code units). The editor of an imported workload (25 MiB) sends this and the
// saved text's digest instead of the whole text (playground/workload_patch.py).
// Equal stretches are skipped a block at a time (native string compares), not a character at a time.

const BLOCK = 1 << 16;

function commonPrefix(a, b, limit) {
  let at = 0;
  while (at + BLOCK <= limit && a.slice(at, at + BLOCK) === b.slice(at, at + BLOCK)) at += BLOCK;
  while (at < limit && a.charCodeAt(at) === b.charCodeAt(at)) at += 1;
  return at;
}

function commonSuffix(a, b, limit) {
  let length = 0;
  while (length + BLOCK <= limit && a.slice(a.length - length - BLOCK, a.length - length) === b.slice(b.length - length - BLOCK, b.length - length)) {
    length += BLOCK;
  }
  while (length < limit && a.charCodeAt(a.length - 1 - length) === b.charCodeAt(b.length - 1 - length)) length += 1;
  return length;
}

export function textPatch(before, after) {
  const prefix = commonPrefix(before, after, Math.min(before.length, after.length));
  const suffix = commonSuffix(before, after, Math.min(before.length, after.length) - prefix);
  return { from: prefix, to: before.length - suffix, insert: after.slice(prefix, after.length - suffix) };
}

// The form fields of that patch against the saved text named by its digest.
export function setPatchFields(body, saved, text) {
  const patch = textPatch(saved.text, text);
  body.set("workload_base", saved.digest);
  body.set("workload_from", String(patch.from));
  body.set("workload_to", String(patch.to));
  body.set("workload_insert", patch.insert);
}
