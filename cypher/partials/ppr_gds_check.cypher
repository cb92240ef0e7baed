// ---- § the GDS projection: there and fresh
// Fails with a clear message when the projection is missing or older than the last write to
// the graph (GraphRecallMeta {key: 'graph'}.updatedAt).
CALL () {
  CALL gds.graph.list($graphName) YIELD creationTime
  RETURN collect(creationTime) AS created
}
CALL () {
  OPTIONAL MATCH (m:GraphRecallMeta {key: 'graph'})
  RETURN m.updatedAt AS updatedAt
}
CALL apoc.util.validate(size(created) = 0,
  'GDS projection %s does not exist. Create it: run cypher/ppr_projection.cypher with :param action => "create", or POST /v1/projection',
  [$graphName])
CALL apoc.util.validate(size(created) > 0 AND updatedAt IS NOT NULL AND updatedAt > created[0],
  'GDS projection %s is stale: the graph changed at %s, after the projection was made at %s. ' +
  'Refresh it: run cypher/ppr_projection.cypher with :param action => "refresh", or POST /v1/projection',
  [$graphName, toString(updatedAt), toString(created[0])])
