// Keeping a list element's children equal to a list of elements at the least cost: the common
// cases of a playing run (nothing changed; the oldest rows gone and new ones at the end) move only
// those elements, as replacing a few hundred on every frame makes the browser lay them all out again.

export function showChildren(list, items) {
  const children = [...list.children];
  if (children.length === items.length && items.every((item, index) => children[index] === item)) return;
  const start = children.indexOf(items[0]);
  if (start >= 0 && children.slice(start).every((child, index) => items[index] === child)) {
    for (const child of children.slice(0, start)) child.remove();
    list.append(...items.slice(children.length - start));
    return;
  }
  list.replaceChildren(...items);
}
