// ---- § dense passage search (the baseline)
CALL () {
  // The cosine is read off the index's score. With $filter: searched $filterSearchK wide, the
  // passages outside the filter dropped (the index cannot filter).
  {{INCLUDE dense_passage_search WIDTH=$topK}}
  RETURN collect({node: node, score: cosine, graphScore: 0.0, vectorScore: cosine}) AS ranked
}
