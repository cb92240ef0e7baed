// Document metadata, filterable: it was one JSON string (Document.metadata); it becomes one
// property per key, `metadata.<key>` (read in a statement as d['metadata.' + key]), with the
// keys in Document.metadataKeys (server/graph/writes.ts writes the same form). Strings, numbers
// and booleans are kept as they are; a nested value (an object or an array, which the API now
// refuses) is kept as its JSON text; null values are dropped. Documents without metadata and
// graphs already converted are left as they are.
MATCH (d:Document)
WHERE d.metadata IS :: STRING
WITH d, coalesce(apoc.convert.fromJsonMap(d.metadata), {}) AS meta
WITH d, meta, [k IN keys(meta) WHERE meta[k] IS NOT NULL] AS present
SET d += apoc.map.fromPairs([k IN present | ['metadata.' + k,
      CASE WHEN meta[k] IS :: STRING | INTEGER | FLOAT | BOOLEAN THEN meta[k] ELSE apoc.convert.toJson(meta[k]) END]]),
    d.metadataKeys = CASE WHEN size(present) > 0 THEN present END
REMOVE d.metadata;
