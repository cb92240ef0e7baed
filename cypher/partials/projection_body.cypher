CALL apoc.util.validate(NOT $action IN ['create', 'refresh', 'drop', 'status'],
  'action must be one of create, refresh, drop, status; got %s', [$action])
CALL () {
  WITH 1 AS one WHERE $action IN ['refresh', 'drop'] AND gds.graph.exists($graphName)
  CALL gds.graph.drop($graphName, false) YIELD graphName
  RETURN count(*) AS dropped
  UNION
  WITH 1 AS one WHERE NOT ($action IN ['refresh', 'drop'] AND gds.graph.exists($graphName))
  RETURN 0 AS dropped
}
// Entities and passages; every relationship of $projectionTypes between them,
// undirected, weighted by its weight property (1.0 when absent).
CALL (dropped) {
  WITH 1 AS one WHERE $action IN ['create', 'refresh'] AND NOT gds.graph.exists($graphName)
  MATCH (s) WHERE s:Entity OR s:Passage
  OPTIONAL MATCH (s)-[r]->(t)
  WHERE type(r) IN $projectionTypes AND (t:Entity OR t:Passage)
  WITH gds.graph.project($graphName, s, t,
         {relationshipProperties: {weight: toFloat(coalesce(r.weight, 1.0))}},
         {undirectedRelationshipTypes: ['*'], logProgress: false}) AS g
  RETURN g.graphName AS created
  UNION
  WITH 1 AS one WHERE NOT ($action IN ['create', 'refresh'] AND NOT gds.graph.exists($graphName))
  RETURN null AS created
}
CALL () {
  CALL gds.graph.list() YIELD graphName, nodeCount, relationshipCount, creationTime
  WITH graphName, nodeCount, relationshipCount, creationTime WHERE graphName = $graphName
  RETURN collect({nodeCount: nodeCount, relationshipCount: relationshipCount, creationTime: toString(creationTime)}) AS found
}
OPTIONAL MATCH (m:GraphRecallMeta {key: 'graph'})
RETURN $graphName AS graphName, $action AS action, size(found) > 0 AS exists,
       found[0].nodeCount AS nodeCount, found[0].relationshipCount AS relationshipCount,
       found[0].creationTime AS creationTime, toString(m.updatedAt) AS graphUpdatedAt,
       size(found) > 0 AND (m.updatedAt IS NULL OR datetime(found[0].creationTime) >= m.updatedAt) AS fresh
