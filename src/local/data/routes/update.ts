// POST /vectors/update
//   by id:     {id, values?, sparseValues?, setMetadata?, namespace} → {}  (404 when the id does not exist)
//   by filter: {filter, setMetadata, dryRun?, namespace} → {matchedRecords}
import { invalid, notFound, quote } from "../errors.js";
import { compileFilter, keepsJson } from "../../search/filter.js";
import { checkSparseAllowed } from "../records.js";
import type { StoredRecord, WriteRecord } from "../../storage/store.js";
import type { RouteContext } from "../types.js";
import { checkId, checkMetadataObject, denseValues, field, LIMITS, namespaceOf, optionalBoolean, parseBody, sparseValues, type JsonObject } from "../validate.js";
import type { SparseVector } from "../../storage/codec.js";

export async function updateVector({ req, index, store }: RouteContext) {
  const body = parseBody(req.body);
  const namespace = namespaceOf(field(body, "namespace"));
  const rawId = field(body, "id");
  const rawFilter = field(body, "filter");
  const hasId = rawId !== undefined && rawId !== null;
  const hasFilter = rawFilter !== undefined && rawFilter !== null;
  if (hasId && hasFilter) throw invalid("Specify either id or filter in an update, not both");
  if (!hasId && !hasFilter) throw invalid("An update needs the id of a record (or a filter with setMetadata)");

  const rawSet = field(body, "setMetadata");
  let setMetadata: JsonObject | undefined;
  if (rawSet !== undefined && rawSet !== null) {
    checkMetadataObject(rawSet, "setMetadata");
    setMetadata = rawSet;
  }

  if (hasFilter) {
    const filter = compileFilter(rawFilter)!;
    if (field(body, "values") !== undefined || field(body, "sparseValues") !== undefined) {
      throw invalid("An update by filter can only set metadata; values and sparseValues need an id");
    }
    if (!setMetadata) throw invalid("An update by filter needs setMetadata");
    const dryRun = optionalBoolean(body, "dryRun") ?? false;
    let tooBig: { id: string; bytes: number } | undefined;
    const matchedRecords = await store.rewriteWhere(
      index.space,
      namespace,
      (r) => {
        if (!keepsJson(filter, r.metadataJson)) return undefined;
        const next = merged(r, setMetadata!);
        const bytes = Buffer.byteLength(next.metadataJson!);
        if (bytes > LIMITS.metadataBytes) tooBig ??= { id: r.id, bytes };
        return next;
      },
      () => !dryRun && tooBig === undefined,
    );
    if (tooBig) throw metadataTooBig(tooBig.id, tooBig.bytes);
    return { matchedRecords };
  }

  const id = checkId(rawId, "Update");
  const where = `Update of id ${quote(id)}`;
  const rawValues = field(body, "values");
  const rawSparse = field(body, "sparseValues");
  let values: Float32Array | undefined;
  let sparse: SparseVector | undefined;
  if (rawValues !== undefined && rawValues !== null) {
    if (index.vectorType === "sparse") throw invalid(`${where}: a sparse index takes no dense values`);
    values = denseValues(rawValues, where, index.dimension);
  }
  if (rawSparse !== undefined && rawSparse !== null) {
    checkSparseAllowed(index, where);
    sparse = sparseValues(rawSparse, where);
  }
  if (!values && !sparse && !setMetadata) throw invalid(`${where}: nothing to update; give values, sparseValues or setMetadata`);

  let tooBig: number | undefined;
  const found = await store.update(index.space, namespace, id, (r) => {
    const next: WriteRecord = setMetadata ? merged(r, setMetadata) : { ...r };
    if (values) next.values = values;
    if (sparse) next.sparse = sparse;
    const bytes = next.metadataJson === undefined ? 0 : Buffer.byteLength(next.metadataJson);
    if (bytes > LIMITS.metadataBytes) {
      tooBig = bytes;
      return undefined;
    }
    return next;
  });
  if (!found) {
    throw notFound(`Vector with id ${quote(id)} not found in ${namespace === "" ? "the default namespace" : `namespace ${quote(namespace)}`}`);
  }
  if (tooBig !== undefined) throw metadataTooBig(id, tooBig);
  return {};
}

function merged(r: StoredRecord, set: JsonObject): WriteRecord {
  const meta = r.metadataJson === undefined ? {} : (JSON.parse(r.metadataJson) as JsonObject);
  return { id: r.id, values: r.values, sparse: r.sparse, metadataJson: JSON.stringify({ ...meta, ...set }) };
}

function metadataTooBig(id: string, bytes: number) {
  return invalid(`Update of id ${quote(id)}: metadata after the update would be ${bytes} bytes; the maximum is ${LIMITS.metadataBytes} bytes per record`);
}
