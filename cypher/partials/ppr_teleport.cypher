// ---- § Personalized PageRank: the teleport set
// HippoRAG 2's elements, each a parameter: entity seeds weighted by activation, divided by the
// number of passages that mention them when $seedSpecificity (node specificity: a hub seeds
// less); plus the $passageSeedK densest passages, each at $passageSeedWeight x its cosine over
// the best one.
CALL () {
  // $filter: only passages it selects are seeds (searched $filterSearchK wide, then filtered).
  {{INCLUDE dense_passage_search WIDTH=$passageSeedK}}
  WITH collect({node: node, cosine: cosine}) AS hits
  WITH [h IN hits WHERE $passageSeedWeight > 0 AND h.cosine > 0] AS hits
  WITH hits, CASE WHEN size(hits) > 0 THEN hits[0].cosine ELSE 1.0 END AS best
  RETURN [i IN range(0, size(hits) - 1) | {node: hits[i].node, activation: $passageSeedWeight * hits[i].cosine / best,
          bucket: i * $teleportBuckets / size(hits)}] AS passageSeeds
}
CALL (seeds) {
  UNWIND seeds AS s
  WITH s.node AS e, s.activation AS a
  // Only passages mention: the count reads the store's degree.
  WITH e, a, CASE WHEN $seedSpecificity THEN COUNT { (e)<-[:MENTIONS]-() } ELSE 1 END AS n
  RETURN collect({node: e, activation: a / toFloat(CASE WHEN n > 1 THEN n ELSE 1 END)}) AS entitySeeds
}
