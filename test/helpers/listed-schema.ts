// What a listed input schema leaves undescribed, for the tests that keep every field of tools/list explained.

/**
 * Fields whose name and schema say what they take (the list is read on every turn, so these go undescribed): the
 * index and namespace, the records or ids written or read, a vector's parts, a query's text, the size of an answer,
 * the model settings of create_index and of reranking, a dry run, and read capacity's and pods' mode, node type,
 * replicas and shards.
 */
const SELF_EXPLANATORY = new Set([
  "index", "indexes", "namespace", "vectors", "records", "ids", "id", "indices", "values", "vector", "sparseValues",
  "query", "text", "topK", "fields", "rerank", "rankFields", "topN", "embed", "model", "fieldMap", "metric",
  "dimension", "deletionProtection", "tags", "waitSeconds", "dryRun", "mode", "nodeType", "replicas", "shards",
]);

/** Properties without a description (but for the self-explanatory ones), as dotted paths. */
export function undescribed(schema: any, path = ""): string[] {
  const missing: string[] = [];
  for (const [name, prop] of Object.entries<any>(schema.properties ?? {})) {
    const p = path ? `${path}.${name}` : name;
    if (!prop.description && !SELF_EXPLANATORY.has(name)) missing.push(p);
    if (prop.type === "object") missing.push(...undescribed(prop, p));
    if (prop.type === "array" && prop.items?.type === "object") missing.push(...undescribed(prop.items, `${p}[]`));
  }
  return missing;
}
