// GDS 2.13 takes only unweighted sourceNodes; PPR is linear in the teleport vector, so the
// weighted PPR is sum(w_i * PPR(source_i)). A GDS run over a set S returns sum(PPR(s) for s in S)
// (it teleports 1 - d to each source, not divided by |S|): the entity seeds of equal weight w (the
// name seeds, a fact's two entities) share one exact run counted w times, and the passage seeds
// are grouped by rank into $teleportBuckets runs, each counted at its mean weight.
CALL (entitySeeds) {
  UNWIND entitySeeds AS s
  WITH s.activation AS w, collect(s.node) AS nodes
  RETURN collect({nodes: nodes, w: w}) AS entityGroups
}
