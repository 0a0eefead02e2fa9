// Finds an object key named "__proto__" in a tool call's arguments. JSON.parse keeps such a key, but zod drops it
// from every object it parses (to guard against prototype pollution), so the tool would never see it: a metadata
// field of that name would silently not be written. The call is refused instead, naming where the key is.

/** The path of the first "__proto__" key in `value` (e.g. `vectors[3].metadata`), or undefined. */
export function protoKeyPath(value: unknown, path = ""): string | undefined {
  if (value === null || typeof value !== "object") return undefined;
  if (Array.isArray(value)) {
    // A list that starts with something other than an object (the 7.68 million values of a large upsert) is skipped
    // whole: no tool takes objects in such a list — its schema refuses them, or, inside a filter (which zod passes on
    // untouched below its first level, "__proto__" keys included), they reach the service as sent and it refuses them.
    const first: unknown = value[0];
    if (first === null || typeof first !== "object") return undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (item === null || typeof item !== "object") continue;
      const found = protoKeyPath(item, `${path}[${i}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (Object.prototype.hasOwnProperty.call(value, "__proto__")) return path || "(the arguments)";
  for (const key of Object.keys(value)) {
    const found = protoKeyPath((value as Record<string, unknown>)[key], path ? `${path}.${key}` : key);
    if (found !== undefined) return found;
  }
  return undefined;
}
