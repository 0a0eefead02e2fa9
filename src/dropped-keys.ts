// Finds an object key named "__proto__" in a tool call's arguments. JSON.parse keeps such a key, but zod drops it
// from every object it parses (to guard against prototype pollution), so the tool would never see it: a metadata
// field of that name would silently not be written. The call is refused instead, naming where the key is.

/** The path of the first "__proto__" key in `value` (e.g. `vectors[3].metadata`), or undefined. */
export function protoKeyPath(value: unknown, path = ""): string | undefined {
  if (value === null || typeof value !== "object") return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (item === null || typeof item !== "object") continue; // most items are numbers: skip them cheaply
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
