// A pod's colour is its owner's: a bucket of the owner's name, the same string hash as the server's
// `owner_hue` filter (playground/templatetags/playground_extras.py), so a ReplicaSet's pods keep
// one colour whether the server drew them (the preview) or the player (a run).

export const OWNER_HUES = 16;

export function ownerBucket(owner) {
  let hash = 0;
  for (let index = 0; index < (owner ?? "").length; index++) hash = (hash * 31 + owner.charCodeAt(index)) >>> 0;
  return hash % OWNER_HUES;
}

export function hueClass(owner) {
  return `hue-${ownerBucket(owner)}`;
}
